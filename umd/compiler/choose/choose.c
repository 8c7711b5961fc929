// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's choices by estimate (estimate.h), one kind after the
 * other: the program lowered with every convolution that can take it in
 * Winograd mode and with none, each estimated on the model, and each
 * such convolution takes the mode its own operations were faster in;
 * then, with those modes, the program with every convolution's weight
 * banks holding all its weights and with the least, and each takes the
 * faster split. The program is lowered once more where a kind's choices
 * are mixed (docs/compiler.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "estimate.h"

/* One program: what it was lowered with, its bytes, origins, estimate. */
struct way {
	enum nvc_conv_way *mode;
	enum nvc_wbank_split *split;
	void *buf;
	size_t len;
	struct nvc_origins origins;
	struct nvc_estimate est;
	bool estimated;
};

static void way_free(struct way *w)
{
	free(w->mode);
	free(w->split);
	free(w->buf);
	nvc_origins_free(&w->origins);
	if (w->estimated)
		nvc_estimate_free(&w->est);
	memset(w, 0, sizeof(*w));
}

/* @w with per-node arrays of @n nodes: those of @from, or all @m and @s. */
static int way_init(struct way *w, int n, const struct way *from,
		    enum nvc_conv_way m, enum nvc_wbank_split s)
{
	int i;

	w->mode = malloc((n ? n : 1) * sizeof(*w->mode));
	w->split = malloc((n ? n : 1) * sizeof(*w->split));
	if (!w->mode || !w->split)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w->mode[i] = from ? from->mode[i] : m;
		w->split[i] = from ? from->split[i] : s;
	}
	return 0;
}

/* Exchange the programs (not the options) of @a and @b. */
static void way_swap_program(struct way *a, struct way *b)
{
	struct way t = *a;

	*a = *b;
	*b = t;
	b->mode = a->mode;
	b->split = a->split;
	a->mode = t.mode;
	a->split = t.split;
}

static int way_lower(const struct nvc_graph *g, const struct nvc_options *o,
		     struct way *w, char *err, size_t errlen)
{
	struct nvc_options lo = *o;

	lo.conv_way = w->mode;
	lo.wbank_split = w->split;
	lo.origins = &w->origins;
	return nvc_lower(g, &lo, &w->buf, &w->len, err, errlen);
}

static int way_estimate(const struct nvc_graph *g, const struct nvc_options *o,
			struct way *w, char *err, size_t errlen)
{
	int ret;

	if (w->estimated)
		return 0;
	ret = nvc_estimate(w->buf, w->len, o->config, &w->origins,
			   g->num_nodes, &w->est, err, errlen);
	w->estimated = !ret;
	return ret;
}

/* Whether node @i had a choice of @kind in @w. */
static bool has_choice(const struct way *w, enum nvc_choice_kind kind, int i)
{
	return kind == NVC_CHOICE_MODE ? w->origins.winograd[i] :
					 w->origins.split[i];
}

/*
 * Choose between @a and @b (lowered with the second option for every
 * node that has it) for each node that has a choice of @kind in @b:
 * recorded in @r, the choices made in @a's arrays. Returns how many took
 * the second option, or a negative errno.
 */
static int choose(const struct nvc_graph *g, struct way *a,
		  const struct way *b, enum nvc_choice_kind kind,
		  struct nvc_report *r)
{
	int i, took = 0;

	for (i = 0; i < g->num_nodes; i++) {
		struct nvc_choice *c = &r->choices[r->num_choices];

		if (!has_choice(b, kind, i))
			continue;
		c->node = i;
		c->kind = kind;
		c->cycles[0] = a->est.node[i].cycles;
		c->cycles[1] = b->est.node[i].cycles;
		c->took_second = c->cycles[1] < c->cycles[0];
		if (kind == NVC_CHOICE_MODE && c->took_second)
			a->mode[i] = NVC_CONV_WINOGRAD;
		if (kind == NVC_CHOICE_SPLIT && c->took_second)
			a->split[i] = NVC_WBANK_LEAST;
		took += c->took_second;
		r->num_choices++;
	}
	return took;
}

/*
 * From @base (lowered), the choices of @kind: @base becomes the program
 * they make, lowered (estimated only if it was already: each model run
 * costs about a run of the network, so only those a choice or --report
 * needs are made).
 */
static int choose_kind(const struct nvc_graph *g, const struct nvc_options *o,
		       struct way *base, enum nvc_choice_kind kind,
		       struct nvc_report *r, char *err, size_t errlen)
{
	struct way other = { 0 };
	int i, n = 0, took, ret;

	ret = way_init(&other, g->num_nodes, base, 0, 0);
	for (i = 0; !ret && i < g->num_nodes; i++) {
		if (kind == NVC_CHOICE_MODE)
			other.mode[i] = NVC_CONV_WINOGRAD;
		else
			other.split[i] = NVC_WBANK_LEAST;
	}
	if (!ret)
		ret = way_lower(g, o, &other, err, errlen);
	for (i = 0; !ret && i < g->num_nodes; i++)
		n += has_choice(&other, kind, i);
	if (!ret && n)
		ret = way_estimate(g, o, base, err, errlen);
	if (!ret && n)
		ret = way_estimate(g, o, &other, err, errlen);
	if (ret || !n)
		goto out;
	took = choose(g, base, &other, kind, r);
	if (took == n) {
		/*
		 * @other's program is the one @base's arrays (the choices,
		 * the first option elsewhere) make: @base takes it.
		 */
		way_swap_program(base, &other);
	} else if (took) {
		free(base->buf);
		base->buf = NULL;
		nvc_origins_free(&base->origins);
		nvc_estimate_free(&base->est);
		base->estimated = false;
		ret = way_lower(g, o, base, err, errlen);
	}
out:
	way_free(&other);
	return ret;
}

int nvc_compile_best(const struct nvc_graph *g, const struct nvc_options *o,
		     bool estimate, void **buf, size_t *len,
		     struct nvc_report *r, char *err, size_t errlen)
{
	struct way w = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	*buf = NULL;
	*len = 0;
	/* at most one choice of each kind a node */
	r->choices = calloc(2 * (g->num_nodes ? g->num_nodes : 1),
			    sizeof(*r->choices));
	ret = r->choices ? way_init(&w, g->num_nodes, NULL, NVC_CONV_DIRECT,
				    NVC_WBANK_ALL) : -ENOMEM;
	if (ret)
		nvc_error(err, errlen, ret, "out of memory");
	if (!ret)
		ret = way_lower(g, o, &w, err, errlen);
	if (!ret)
		ret = choose_kind(g, o, &w, NVC_CHOICE_MODE, r, err, errlen);
	if (!ret)
		ret = choose_kind(g, o, &w, NVC_CHOICE_SPLIT, r, err, errlen);
	if (!ret && estimate)
		ret = way_estimate(g, o, &w, err, errlen);
	if (!ret) {
		*buf = w.buf;
		*len = w.len;
		w.buf = NULL;
		r->est = w.est;
		r->estimated = w.estimated;
		w.estimated = false;
	}
	way_free(&w);
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
