// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_compile --report: the estimate of what it compiled (estimate.h). */
#include <inttypes.h>
#include <math.h>

#include "estimate.h"

/* Node @node's choices: "-" if none. */
static void report_choices(FILE *f, const struct nvc_report *r, int node)
{
	static const char *const names[][2] = {
		[NVC_CHOICE_MODE] = { "direct", "winograd" },
		[NVC_CHOICE_SPLIT] = { "all", "least" },
	};
	const char *sep = "";
	int i;

	for (i = 0; i < r->num_choices; i++) {
		const struct nvc_choice *c = &r->choices[i];
		const char *const *n = names[c->kind];

		if (c->node != node)
			continue;
		fprintf(f, "%s%s%s (%s %" PRIu64 " cycles, %s %" PRIu64 ": %s %s)",
			sep, c->kind == NVC_CHOICE_SPLIT ? "weight banks " : "",
			n[c->took_second], n[1], c->cycles[1], n[0],
			c->cycles[0], n[c->took_second],
			c->cycles[0] == c->cycles[1] ? "kept, the same estimate" :
			"estimated faster");
		sep = "; ";
	}
	fprintf(f, "%s\n", *sep ? "" : "-");
}

void nvc_report_errors(FILE *f, const struct nvc_graph *g, const double *snr,
		       const bool *fp16)
{
	int i;

	fprintf(f, "int8 error of each convolution alone against float on the calibration inputs:\n");
	fprintf(f, "%5s %-24s %-12s %-9s %s\n", "node", "name", "op",
		"precision", "int8_snr_db");
	for (i = 0; i < g->num_nodes; i++)
		if (!isnan(snr[i]))
			fprintf(f, "%5d %-24.24s %-12.12s %-9s %.1f\n", i,
				g->nodes[i].name, g->nodes[i].onnx_op,
				fp16[i] ? "fp16" : "int8", snr[i]);
}

void nvc_report_print(FILE *f, const struct nvc_graph *g,
		      const char *config, const struct nvc_report *r)
{
	const struct nvdla_run_estimate *run = &r->est.run;
	double mhz = run->params.clock_mhz;
	int i;

	fprintf(f, "report: %s at %g MHz, %g GB/s, %g ns memory latency (the configuration's defaults)\n",
		config, mhz, run->params.dram_gbps, run->params.latency_ns);
	fprintf(f, "%5s %-24s %-12s %4s %12s %11s %-7s %s\n", "node", "name",
		"op", "hwop", "cycles", "time_us", "bound", "choices");
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node_estimate *e = &r->est.node[i];

		if (!e->ops)
			continue;
		fprintf(f, "%5d %-24.24s %-12.12s %4d %12" PRIu64 " %11.3f %-7s ",
			i, g->nodes[i].name, g->nodes[i].onnx_op, e->ops,
			e->cycles, e->cycles / mhz, e->bound);
		report_choices(f, r, i);
	}
	fprintf(f, "total: %" PRIu64 " cycles, %.3f us, %.1f frames/s, MAC efficiency %.1f%%, %" PRIu64 " bytes of memory traffic\n",
		run->cycles, run->time_us, run->fps,
		100 * run->mac_efficiency, run->bytes);
}
