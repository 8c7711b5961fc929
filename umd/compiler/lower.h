/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end: lowers a graph (ir.h) that has been through the passes
 * into a loadable for one hardware configuration, written with the
 * runtime's own loadable writer.
 */
#ifndef __NVDLA_COMPILER_LOWER_H__
#define __NVDLA_COMPILER_LOWER_H__

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

enum nvc_precision { NVC_FP16, NVC_INT8 };
enum nvc_input_format { NVC_INPUT_FEATURE, NVC_INPUT_IMAGE };

struct nvc_options {
	const char *config;		/* "nv_full", "nv_large", "nv_small" */
	enum nvc_precision precision;
	enum nvc_input_format input_format;
	/*
	 * The pixel mapping the inputs were compiled for, (p - mean[c]) /
	 * normalize (B, G, R), recorded for the runtime; normalize 0: none.
	 */
	float mean[3];
	float normalize;
	/*
	 * Functions the DLA has not (NVC_CPU: Erf) run as CPU tasks of the
	 * runtime; refused without.
	 */
	bool cpu_fallback;
};

/*
 * Compile @g for @o into a new loadable (*@buf, *@len; free() it).
 * int8 needs every activation tensor calibrated. Returns 0, or a negative
 * errno with a message naming the node, its operator and why in @err.
 */
int nvc_lower(const struct nvc_graph *g, const struct nvc_options *o,
	      void **buf, size_t *len, char *err, size_t errlen);

#endif /* __NVDLA_COMPILER_LOWER_H__ */
