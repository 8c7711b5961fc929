// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime --timeline: the performance estimate of the last run as an
 * SVG drawing, a row per engine and a bar per operation in each engine it
 * occupies (a fused conv+sdp in both rows), on a time axis, so one sees
 * where an engine waits (docs/performance.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

/* The rows, top to bottom: the names the estimate gives engines. */
static const char *const tl_rows[] = {
	"conv", "sdp", "pdp", "cdp", "bdma", "rubik",
};

#define TL_LEFT 70.0	/* the row names' column */
#define TL_TOP 30.0
#define TL_WIDTH 1000.0	/* the time axis */
#define TL_ROW 40.0
#define TL_BAR 28.0

/* Whether "a+b+c" @engines holds @name. */
static int tl_has(const char *engines, const char *name)
{
	size_t n = strlen(name);
	const char *p = engines;

	while ((p = strstr(p, name))) {
		if ((p == engines || p[-1] == '+') && (!p[n] || p[n] == '+'))
			return 1;
		p += n;
	}
	return 0;
}

/* A tick step of 1, 2 or 5 times a power of ten: about 10 over @us. */
static double tl_step(double us)
{
	double step = 1e-3;

	while (us / step > 10) {
		if (us / (step * 2) <= 10)
			return step * 2;
		if (us / (step * 5) <= 10)
			return step * 5;
		step *= 10;
	}
	return step;
}

static const char *tl_colour(const char *bound)
{
	if (!strcmp(bound, "mac"))
		return "#4c9f50";
	if (!strcmp(bound, "memory"))
		return "#d9822b";
	return "#4a7fc1";
}

static void tl_axis(FILE *f, const struct nvdla_run_estimate *est,
		    double scale, double bottom)
{
	double step = tl_step(est->time_us), t;

	fprintf(f, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"black\"/>\n",
		TL_LEFT, bottom, TL_LEFT + TL_WIDTH, bottom);
	for (t = 0; t <= est->time_us * (1 + 1e-9); t += step) {
		double x = TL_LEFT + t * est->params.clock_mhz * scale;

		fprintf(f, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#bbb\"/>\n",
			x, TL_TOP, x, bottom + 4);
		fprintf(f, "<text x=\"%.3f\" y=\"%.3f\" text-anchor=\"middle\">%g</text>\n",
			x, bottom + 18, t);
	}
	fprintf(f, "<text x=\"%.3f\" y=\"%.3f\" text-anchor=\"middle\">time (us) at %g MHz, %g GB/s: %llu cycles, %.1f frames/s</text>\n",
		TL_LEFT + TL_WIDTH / 2, bottom + 36, est->params.clock_mhz,
		est->params.dram_gbps, (unsigned long long)est->cycles,
		est->fps);
}

/* Operation @i's bar in row @row. */
static void tl_bar(FILE *f, unsigned int i, const struct nvdla_op_estimate *op,
		   unsigned int row, double scale)
{
	double x = TL_LEFT + op->start_cycle * scale, w = op->cycles * scale;
	double y = TL_TOP + row * TL_ROW;

	fprintf(f, "<g><title>op %u %s group %u: cycles %llu to %llu (%.3f us), %s-bound, %llu MACs, %llu bytes read, %llu written</title>\n",
		i, op->engines, op->group,
		(unsigned long long)op->start_cycle,
		(unsigned long long)(op->start_cycle + op->cycles),
		op->time_us, op->bound, (unsigned long long)op->macs,
		(unsigned long long)op->read_bytes,
		(unsigned long long)op->write_bytes);
	fprintf(f, "<rect data-op=\"%u\" data-engine=\"%s\" data-start=\"%llu\" data-cycles=\"%llu\" x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\" stroke=\"black\" stroke-width=\"0.5\"/>\n",
		i, tl_rows[row], (unsigned long long)op->start_cycle,
		(unsigned long long)op->cycles, x, y, w, TL_BAR,
		tl_colour(op->bound), op->group ? "0.6" : "1");
	/* a label where it fits: about 7 pixels a character */
	if (w > 7.0 * (snprintf(NULL, 0, "%u", i) + 1))
		fprintf(f, "<text x=\"%.3f\" y=\"%.1f\">%u</text>\n", x + 2,
			y + TL_BAR / 2 + 4, i);
	fprintf(f, "</g>\n");
}

int cli_write_timeline(struct nvdla_network *net, FILE *f)
{
	unsigned int nrows = sizeof(tl_rows) / sizeof(tl_rows[0]);
	double bottom = TL_TOP + nrows * TL_ROW, scale;
	struct nvdla_run_estimate est;
	struct nvdla_op_estimate op;
	unsigned int i, r;
	int ret = nvdla_network_estimate(net, &est);

	if (ret)
		return ret;
	scale = TL_WIDTH / (est.cycles ? est.cycles : 1);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		TL_LEFT + TL_WIDTH + 20, bottom + 50);
	fprintf(f, "<text x=\"%.1f\" y=\"18\">each bar an operation (op index as in --estimate); green: MAC-bound, orange: memory, blue: post-processing; paler: register group 1</text>\n",
		TL_LEFT);
	for (r = 0; r < nrows; r++)
		fprintf(f, "<text x=\"4\" y=\"%.1f\">%s</text>\n",
			TL_TOP + r * TL_ROW + TL_BAR / 2 + 4, tl_rows[r]);
	for (i = 0; i < est.num_ops; i++) {
		ret = nvdla_network_op_estimate(net, i, &op);
		if (ret)
			return ret;
		for (r = 0; r < nrows; r++)
			if (tl_has(op.engines, tl_rows[r]))
				tl_bar(f, i, &op, r, scale);
	}
	tl_axis(f, &est, scale, bottom);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
