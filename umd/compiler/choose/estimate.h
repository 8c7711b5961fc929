/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's performance estimate: a loadable it made, run on the
 * runtime's in-process model of its configuration with the model's
 * estimate on (sim/perf*.c), each hardware operation's estimate given to
 * the node that made it (docs/compiler.md).
 */
#ifndef __NVDLA_COMPILER_ESTIMATE_H__
#define __NVDLA_COMPILER_ESTIMATE_H__

#include <stdio.h>

#include <nvdla/runtime.h>

#include "lower.h"

/* A node's hardware operations: their cycles and the longest one's bound. */
struct nvc_node_estimate {
	uint64_t cycles;
	uint64_t longest;
	const char *bound;	/* NULL: no hardware operation */
	int ops;
};

struct nvc_estimate {
	struct nvdla_run_estimate run;	/* the whole network */
	struct nvc_node_estimate *node;	/* per node of the graph */
	int num_nodes;
};

/*
 * Estimate loadable @buf (@len bytes) made for configuration @config from
 * a graph of @num_nodes nodes, whose operations @o names, at the
 * configuration's default clock and memory: into @e (nvc_estimate_free()
 * it). Returns 0 or a negative errno with the reason in @err.
 */
int nvc_estimate(const void *buf, size_t len, const char *config,
		 const struct nvc_origins *o, int num_nodes,
		 struct nvc_estimate *e, char *err, size_t errlen);
void nvc_estimate_free(struct nvc_estimate *e);

/*
 * A choice of a node's convolution: Winograd or direct mode, or its
 * weight banks holding all its weights or the least; both options'
 * estimates, in cycles, over the node's operations.
 */
enum nvc_choice_kind { NVC_CHOICE_MODE, NVC_CHOICE_SPLIT };

struct nvc_choice {
	int node;
	enum nvc_choice_kind kind;
	uint64_t cycles[2];	/* [0]: direct, all; [1]: Winograd, least */
	bool took_second;
};

/* What nvc_compile_best() chose and, if asked, the loadable's estimate. */
struct nvc_report {
	bool estimated;
	struct nvc_estimate est;
	struct nvc_choice *choices;
	int num_choices;
};

/*
 * nvc_lower() taking, for each convolution that can run in Winograd or
 * direct mode, the mode estimated faster, then for each whose weight
 * banks can hold all its weights or fewer, the split estimated faster
 * (each option estimated over the whole program); with @estimate, the
 * result estimated into @r too (nvc_report_free() it). @o's conv_way,
 * wbank_split and origins are the chooser's.
 */
int nvc_compile_best(const struct nvc_graph *g, const struct nvc_options *o,
		     bool estimate, void **buf, size_t *len,
		     struct nvc_report *r, char *err, size_t errlen);
void nvc_report_free(struct nvc_report *r);

/*
 * @r for graph @g compiled for @config: each node's estimated hardware
 * time and bound, the choices and both their estimates, the totals.
 */
void nvc_report_print(FILE *f, const struct nvc_graph *g,
		      const char *config, const struct nvc_report *r);

/*
 * The int8 error of each convolution of @g (@snr, dB: nvc_layer_errors)
 * and its precision (@fp16 per node: kept in fp16 by mixed precision).
 */
void nvc_report_errors(FILE *f, const struct nvc_graph *g, const double *snr,
		       const bool *fp16);

#endif /* __NVDLA_COMPILER_ESTIMATE_H__ */
