// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Calibration over a directory of images or of .npy arrays: every one
 * through the float executor, the minimum, maximum and largest magnitude of every
 * activation tensor, then for percentile and entropy a second run that
 * fills a histogram of magnitudes per tensor over [0, max |x|]. The
 * calibrated range is the threshold t clipped to what was seen:
 * [max(min, -t), min(max, t)], so a tensor that is never negative keeps
 * a range that says so. An image input's range is that of every pixel
 * value; a .npy input's is measured like any tensor's. The ranges a QDQ
 * model sets (onnx_ops_qdq.c) stay.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib.h"
#include "graph.h"

struct stats {
	float min, max, amax;
	uint64_t *hist;		/* NVC_CALIB_BINS, second run only */
};

enum input_kind { INPUT_NONE, INPUT_IMAGE, INPUT_NPY };

struct calib {
	struct nvc_graph *g;
	const struct nvc_calib_options *o;
	struct stats *s;
	float **values;
	float *input;
	char **files;
	int num_files;
	enum input_kind kind;	/* of every file */
	char *err;
	size_t errlen;
};

/* The kind of input file @name holds by its extension: image, .npy or none. */
static enum input_kind input_kind(const char *name)
{
	static const char *const ext[] = { ".pgm", ".ppm", ".pnm", ".png",
		".jpg", ".jpeg" };
	const char *dot = strrchr(name, '.');
	size_t i;

	if (dot && !strcasecmp(dot, ".npy"))
		return INPUT_NPY;
	for (i = 0; dot && i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcasecmp(dot, ext[i]))
			return INPUT_IMAGE;
	return INPUT_NONE;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Keep the images of k->files alone, and say in the options' note that
 * the @arrays .npy arrays of @dir are left out.
 */
static void keep_images(struct calib *k, const char *dir, int arrays)
{
	int i, n = 0;

	for (i = 0; i < k->num_files; i++) {
		if (input_kind(k->files[i]) == INPUT_IMAGE)
			k->files[n++] = k->files[i];
		else
			free(k->files[i]);
	}
	k->num_files = n;
	k->kind = INPUT_IMAGE;
	if (k->o->note)
		snprintf(k->o->note, k->o->note_len,
			 "%s: calibrating on its %d images; its %d .npy arrays are left out",
			 dir, n, arrays);
}

/*
 * The images or the .npy arrays of @dir, sorted by name: a run does not
 * depend on readdir. Of a directory holding both kinds (such as a
 * network's, with its input as an image and as an array), the images,
 * as before arrays were read, and a note saying so.
 */
static int list_inputs(struct calib *k, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **p;
	int count[3] = { 0 };
	enum input_kind kind;

	if (!d)
		return nvc_error(k->err, k->errlen, -errno, "%s: %s", dir,
				 strerror(errno));
	while ((e = readdir(d))) {
		kind = input_kind(e->d_name);
		if (e->d_name[0] == '.' || kind == INPUT_NONE)
			continue;
		count[kind]++;
		k->kind = kind;
		p = realloc(k->files, (k->num_files + 1) * sizeof(*p));
		if (!p)
			break;
		k->files = p;
		if (asprintf(&k->files[k->num_files], "%s/%s", dir, e->d_name) < 0)
			break;
		k->num_files++;
	}
	closedir(d);
	if (e)
		return nvc_error(k->err, k->errlen, -ENOMEM, "out of memory");
	if (!k->num_files)
		return nvc_error(k->err, k->errlen, -ENOENT,
				 "%s: no .pgm, .ppm, .png or .jpg images and no .npy arrays",
				 dir);
	if (count[INPUT_IMAGE] && count[INPUT_NPY])
		keep_images(k, dir, count[INPUT_NPY]);
	qsort(k->files, k->num_files, sizeof(*k->files), by_name);
	return 0;
}

/* Input file @i through the graph: k->values holds every tensor's values. */
static int run_input(struct calib *k, int i)
{
	const struct nvc_tensor *t = &k->g->tensors[k->g->inputs[0]];
	const float *in[1] = { k->input };
	int ret;

	if (k->kind == INPUT_NPY)
		ret = nvc_npy_read(k->files[i], t, k->input, k->err, k->errlen);
	else
		ret = nvc_image_input(k->files[i], t, &k->o->pixels, k->input,
				      k->err, k->errlen);
	if (!ret)
		ret = nvc_exec(k->g, in, k->values, k->err, k->errlen);
	return ret;
}

static void gather_range(struct calib *k)
{
	int t;
	long i, n;

	for (t = 0; t < k->g->num_tensors; t++) {
		struct stats *s = &k->s[t];

		if (!k->values[t])
			continue;
		n = nvc_tensor_size(&k->g->tensors[t]);
		for (i = 0; i < n; i++) {
			float v = k->values[t][i];

			s->min = v < s->min ? v : s->min;
			s->max = v > s->max ? v : s->max;
			s->amax = fabsf(v) > s->amax ? fabsf(v) : s->amax;
		}
	}
}

static void gather_hist(struct calib *k)
{
	int t, b;
	long i, n;

	for (t = 0; t < k->g->num_tensors; t++) {
		struct stats *s = &k->s[t];

		if (!k->values[t] || !s->hist)
			continue;
		n = nvc_tensor_size(&k->g->tensors[t]);
		for (i = 0; i < n; i++) {
			b = s->amax > 0 ? fabsf(k->values[t][i]) / s->amax *
					  NVC_CALIB_BINS : 0;
			s->hist[b < NVC_CALIB_BINS ? b : NVC_CALIB_BINS - 1]++;
		}
	}
}

/* One run over every input file, gathering ranges or histograms. */
static int run_all(struct calib *k, void (*gather)(struct calib *k))
{
	int i, ret;

	for (i = 0; i < k->num_files; i++) {
		ret = run_input(k, i);
		if (ret)
			return ret;
		gather(k);
		nvc_exec_free(k->g, k->values);
	}
	return 0;
}

/*
 * The graph input's range: all that pixels 0 to 255 map to, not just
 * what the calibration images hold, for the images it will be given.
 */
static void input_range(struct calib *k, struct nvc_tensor *t)
{
	const struct nvc_pixel_map *m = &k->o->pixels;
	int c;

	t->min = INFINITY;
	t->max = -INFINITY;
	for (c = 0; c < t->c; c++) {
		float a = (0 - m->mean[c]) / m->normalize;
		float b = (255 - m->mean[c]) / m->normalize;

		t->min = fminf(t->min, fminf(a, b));
		t->max = fmaxf(t->max, fmaxf(a, b));
	}
	t->calibrated = NVC_RANGE_MEASURED;
}

static void set_ranges(struct calib *k)
{
	int t;

	for (t = 0; t < k->g->num_tensors; t++) {
		struct nvc_tensor *tensor = &k->g->tensors[t];
		struct stats *s = &k->s[t];
		double th = s->amax;

		if (tensor->data || tensor->calibrated == NVC_RANGE_QDQ)
			continue;
		if (t == k->g->inputs[0] && k->kind == INPUT_IMAGE) {
			input_range(k, tensor);
			continue;
		}
		if (k->o->method == NVC_CALIB_PERCENTILE)
			th = nvc_calib_percentile(s->hist, NVC_CALIB_BINS,
						  s->amax, k->o->percentile);
		else if (k->o->method == NVC_CALIB_ENTROPY)
			th = nvc_calib_entropy(s->hist, NVC_CALIB_BINS, s->amax);
		tensor->calibrated = NVC_RANGE_MEASURED;
		tensor->min = s->min > -th ? s->min : -th;
		tensor->max = s->max < th ? s->max : th;
	}
}

/* The inputs of @dir listed, and room for one run of the graph. */
static int calib_setup(struct calib *k, const char *dir)
{
	struct nvc_graph *g = k->g;
	int ret;

	if (g->num_inputs != 1)
		return nvc_error(k->err, k->errlen, -EINVAL,
				 "calibration needs a model with one input (it has %d)",
				 g->num_inputs);
	ret = list_inputs(k, dir);
	if (ret)
		return ret;
	k->values = calloc(g->num_tensors, sizeof(*k->values));
	k->input = malloc(nvc_tensor_size(&g->tensors[g->inputs[0]]) *
			  sizeof(float));
	if (!k->values || !k->input)
		return nvc_error(k->err, k->errlen, -ENOMEM, "out of memory");
	return 0;
}

static int calibrate(struct calib *k, const char *dir)
{
	struct nvc_graph *g = k->g;
	int t, ret;

	ret = calib_setup(k, dir);
	if (ret)
		return ret;
	k->s = calloc(g->num_tensors, sizeof(*k->s));
	if (!k->s)
		return nvc_error(k->err, k->errlen, -ENOMEM, "out of memory");
	for (t = 0; t < g->num_tensors; t++) {
		k->s[t].min = INFINITY;
		k->s[t].max = -INFINITY;
	}
	ret = run_all(k, gather_range);
	if (ret || k->o->method == NVC_CALIB_MINMAX)
		goto out;
	for (t = 0; t < g->num_tensors; t++) {
		if (g->tensors[t].data)
			continue;
		k->s[t].hist = calloc(NVC_CALIB_BINS, sizeof(uint64_t));
		if (!k->s[t].hist)
			return nvc_error(k->err, k->errlen, -ENOMEM, "out of memory");
	}
	ret = run_all(k, gather_hist);
out:
	if (!ret)
		set_ranges(k);
	return ret;
}

static void calib_free(struct calib *k)
{
	int i;

	for (i = 0; k->s && i < k->g->num_tensors; i++)
		free(k->s[i].hist);
	for (i = 0; i < k->num_files; i++)
		free(k->files[i]);
	if (k->values)
		nvc_exec_free(k->g, k->values);
	free(k->files);
	free(k->s);
	free(k->values);
	free(k->input);
}

int nvc_calibrate(struct nvc_graph *g, const char *dir,
		  const struct nvc_calib_options *o, char *err, size_t errlen)
{
	struct calib k = { .g = g, .o = o, .err = err, .errlen = errlen };
	int ret;

	ret = calibrate(&k, dir);
	calib_free(&k);
	return ret;
}

int nvc_calib_each(struct nvc_graph *g, const char *dir,
		   const struct nvc_calib_options *o,
		   int (*fn)(void *ctx, float *const *values), void *ctx,
		   char *err, size_t errlen)
{
	struct calib k = { .g = g, .o = o, .err = err, .errlen = errlen };
	int i, ret;

	ret = calib_setup(&k, dir);
	for (i = 0; !ret && i < k.num_files; i++) {
		ret = run_input(&k, i);
		if (!ret)
			ret = fn(ctx, k.values);
		nvc_exec_free(g, k.values);
	}
	calib_free(&k);
	return ret;
}
