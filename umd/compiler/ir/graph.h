/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Building and editing graphs (graph.c): what the loader and passes share. */
#ifndef __NVDLA_COMPILER_GRAPH_H__
#define __NVDLA_COMPILER_GRAPH_H__


#include "compiler.h"

/*
 * Append a tensor of n x c x h x w named @name (copied); @data (n*c*h*w
 * values, copied) makes it a constant. Returns its index or -ENOMEM.
 */
int nvc_tensor_add(struct nvc_graph *g, const char *name, int n, int c,
		   int h, int w, const float *data);

/*
 * Append a copy of constant @t named "NAME/@what" (the caller rewrites
 * its data). Returns its index or -ENOMEM.
 */
int nvc_tensor_copy(struct nvc_graph *g, int t, const char *what);

/*
 * Append a constant of @n x @c x @h x @w zeros named @name (copied).
 * Returns its index or -ENOMEM.
 */
int nvc_tensor_zeros(struct nvc_graph *g, const char *name, int n, int c,
		     int h, int w);

/* Append a node of @op named @name; returns its index or -ENOMEM. */
int nvc_node_add(struct nvc_graph *g, const char *name, const char *onnx_op,
		 enum nvc_op op);

/*
 * The same, as node @at: the nodes from @at on move one place on (the
 * tensors they produce follow). Returns @at or -ENOMEM.
 */
int nvc_node_insert(struct nvc_graph *g, int at, const char *name,
		    const char *onnx_op, enum nvc_op op);

/*
 * Remove nodes marked in @dead (one flag per node) and every tensor that
 * nothing references afterwards, renumbering the rest.
 */
int nvc_graph_compact(struct nvc_graph *g, const char *dead);

#endif /* __NVDLA_COMPILER_GRAPH_H__ */
