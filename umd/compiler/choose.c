// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's choices by estimate (estimate.h): the program lowered
 * with every convolution that can take it in Winograd mode and with none,
 * each estimated on the model; each such convolution takes the mode its
 * own operations were faster in, and the program is lowered once more
 * if the choices are mixed (docs/compiler.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "estimate.h"

/* One way of lowering: its program, which node made what, its estimate. */
struct way {
	void *buf;
	size_t len;
	struct nvc_origins origins;
	struct nvc_estimate est;
	bool estimated;
};

static void way_free(struct way *w)
{
	free(w->buf);
	nvc_origins_free(&w->origins);
	if (w->estimated)
		nvc_estimate_free(&w->est);
	memset(w, 0, sizeof(*w));
}

static int way_lower(const struct nvc_graph *g, const struct nvc_options *o,
		     const enum nvc_conv_way *conv_way, bool estimate,
		     struct way *w, char *err, size_t errlen)
{
	struct nvc_options lo = *o;
	int ret;

	lo.conv_way = conv_way;
	lo.origins = &w->origins;
	ret = nvc_lower(g, &lo, &w->buf, &w->len, err, errlen);
	if (!ret && estimate) {
		ret = nvc_estimate(w->buf, w->len, o->config, &w->origins,
				   g->num_nodes, &w->est, err, errlen);
		w->estimated = !ret;
	}
	return ret;
}

/* The choice for each node @wino lowered in Winograd mode. */
static int choose(const struct nvc_graph *g, const struct way *direct,
		  const struct way *wino, enum nvc_conv_way *conv_way,
		  struct nvc_report *r)
{
	int i, n = 0;

	r->choices = calloc(g->num_nodes ? g->num_nodes : 1,
			    sizeof(*r->choices));
	if (!r->choices)
		return -ENOMEM;
	for (i = 0; i < g->num_nodes; i++) {
		struct nvc_choice *c = &r->choices[n];

		conv_way[i] = NVC_CONV_DIRECT;
		if (!wino->origins.winograd[i])
			continue;
		c->node = i;
		c->direct = direct->est.node[i].cycles;
		c->winograd = wino->est.node[i].cycles;
		c->chose_winograd = c->winograd < c->direct;
		if (c->chose_winograd)
			conv_way[i] = NVC_CONV_WINOGRAD;
		n++;
	}
	r->num_choices = n;
	return 0;
}

/* How many of the @r's choices took Winograd mode. */
static int chosen(const struct nvc_report *r)
{
	int i, n = 0;

	for (i = 0; i < r->num_choices; i++)
		n += r->choices[i].chose_winograd;
	return n;
}

/* Hand @w's program (and estimate) to the caller. */
static void way_take(struct way *w, void **buf, size_t *len,
		     struct nvc_report *r)
{
	*buf = w->buf;
	*len = w->len;
	w->buf = NULL;
	if (w->estimated) {
		r->est = w->est;
		r->estimated = true;
		w->estimated = false;
	}
}

int nvc_compile_best(const struct nvc_graph *g, const struct nvc_options *o,
		     bool estimate, void **buf, size_t *len,
		     struct nvc_report *r, char *err, size_t errlen)
{
	enum nvc_conv_way *conv_way = malloc((g->num_nodes ? g->num_nodes : 1) *
					     sizeof(*conv_way));
	struct way d = { 0 }, w = { 0 }, mixed = { 0 };
	bool any = false;
	int i, ret;

	memset(r, 0, sizeof(*r));
	*buf = NULL;
	*len = 0;
	if (!conv_way)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	for (i = 0; i < g->num_nodes; i++)
		conv_way[i] = NVC_CONV_WINOGRAD;
	ret = way_lower(g, o, conv_way, false, &w, err, errlen);
	for (i = 0; !ret && i < g->num_nodes; i++)
		any |= w.origins.winograd[i];
	if (!ret)
		ret = way_lower(g, o, NULL, estimate || any, &d, err, errlen);
	if (!ret && any) {
		ret = nvc_estimate(w.buf, w.len, o->config, &w.origins,
				   g->num_nodes, &w.est, err, errlen);
		w.estimated = !ret;
	}
	if (!ret && any)
		ret = choose(g, &d, &w, conv_way, r);
	if (ret)
		goto out;
	if (!any || !chosen(r)) {
		way_take(&d, buf, len, r);
	} else if (chosen(r) == r->num_choices) {
		way_take(&w, buf, len, r);
	} else {
		ret = way_lower(g, o, conv_way, estimate, &mixed, err, errlen);
		if (!ret)
			way_take(&mixed, buf, len, r);
	}
out:
	way_free(&d);
	way_free(&w);
	way_free(&mixed);
	free(conv_way);
	if (ret)
		nvc_report_free(r);
	return ret;
}

void nvc_report_free(struct nvc_report *r)
{
	if (r->estimated)
		nvc_estimate_free(&r->est);
	free(r->choices);
	memset(r, 0, sizeof(*r));
}
