/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The executor's kernels, for graphs that passed nvc_graph_check(). */
#ifndef __NVDLA_COMPILER_EXEC_H__
#define __NVDLA_COMPILER_EXEC_H__

#include "graph.h"

/*
 * exec_window.c: from input values @x into output values @y; @acc holds
 * one output plane of the convolution.
 */
void nvc_exec_conv(const struct nvc_graph *g, const struct nvc_node *nd,
		   const float *x, float *y, double *acc);
void nvc_exec_conv_transpose(const struct nvc_graph *g,
			     const struct nvc_node *nd, const float *x,
			     float *y);
void nvc_exec_pool(const struct nvc_graph *g, const struct nvc_node *nd,
		   const float *x, float *y);
void nvc_exec_lrn(const struct nvc_graph *g, const struct nvc_node *nd,
		  const float *x, float *y);

#endif /* __NVDLA_COMPILER_EXEC_H__ */
