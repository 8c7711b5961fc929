// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_compile --report: the estimate of what it compiled (estimate.h). */
#include <inttypes.h>

#include "estimate.h"

static const struct nvc_choice *report_choice(const struct nvc_report *r,
					      int node)
{
	int i;

	for (i = 0; i < r->num_choices; i++)
		if (r->choices[i].node == node)
			return &r->choices[i];
	return NULL;
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
		"op", "hwop", "cycles", "time_us", "bound", "mode");
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node_estimate *e = &r->est.node[i];
		const struct nvc_choice *c = report_choice(r, i);

		if (!e->ops)
			continue;
		fprintf(f, "%5d %-24.24s %-12.12s %4d %12" PRIu64 " %11.3f %-7s ",
			i, g->nodes[i].name, g->nodes[i].onnx_op, e->ops,
			e->cycles, e->cycles / mhz, e->bound);
		if (!c)
			fprintf(f, "-\n");
		else
			fprintf(f, "%s (winograd %" PRIu64 " cycles, direct %" PRIu64 ": %s estimated faster)\n",
				c->chose_winograd ? "winograd" : "direct",
				c->winograd, c->direct,
				c->chose_winograd ? "winograd" : "direct");
	}
	fprintf(f, "total: %" PRIu64 " cycles, %.3f us, %.1f frames/s, MAC efficiency %.1f%%, %" PRIu64 " bytes of memory traffic\n",
		run->cycles, run->time_us, run->fps,
		100 * run->mac_efficiency, run->bytes);
}
