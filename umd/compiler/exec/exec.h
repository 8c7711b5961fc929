/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The executor's kernels, for graphs that passed nvc_graph_check(). */
#ifndef __NVDLA_COMPILER_EXEC_H__
#define __NVDLA_COMPILER_EXEC_H__

#include "graph.h"

/*
 * exec_conv.c: convolution from input values @x into output values @y,
 * blocked and threaded; -1 when out of memory.
 */
int nvc_exec_conv(const struct nvc_graph *g, const struct nvc_node *nd,
		  const float *x, float *y);

/* Activation @a on the values @v of tensor @t, in place. */
void nvc_exec_act(const struct nvc_graph *g, const struct nvc_activation *a,
		  const struct nvc_tensor *t, float *v);

#define NVC_JOBS_MAX 64

/* Threads of nvc_exec_conv(): @n (at most NVC_JOBS_MAX), or 0 for one per online CPU. */
void nvc_exec_set_jobs(int n);

/*
 * exec_window.c: from input values @x into output values @y. The
 * convolution plane by plane, the values nvc_exec_conv() must give (its
 * test's reference); -1 when out of memory.
 */
int nvc_exec_conv_ref(const struct nvc_graph *g, const struct nvc_node *nd,
		      const float *x, float *y);
void nvc_exec_conv_transpose(const struct nvc_graph *g,
			     const struct nvc_node *nd, const float *x,
			     float *y);
void nvc_exec_pool(const struct nvc_graph *g, const struct nvc_node *nd,
		   const float *x, float *y);
void nvc_exec_lrn(const struct nvc_graph *g, const struct nvc_node *nd,
		  const float *x, float *y);
/*
 * Bilinear resize of @ti's planes to @t's, @coord an enum emu_coord,
 * @step input pixels per output pixel of height and width.
 */
void nvc_exec_resize(const struct nvc_tensor *ti, const struct nvc_tensor *t,
		     int coord, const float *step, const float *x, float *y);

#endif /* __NVDLA_COMPILER_EXEC_H__ */
