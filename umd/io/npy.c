// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * .npy arrays as input values (nvdla_runtime --input, the compiler's
 * --exec and calibration): a strict reader of format versions 1 to 3 for
 * little-endian float32 and float16, and uint8 and int8, in C order, of
 * the input's shape. The values are taken as they are.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "npy.h"
#include "runtime_internal.h"

#define NPY_HEADER_MAX 4096
#define NPY_RANK_MAX 4

struct npy {
	const char *path, *name;	/* the file, the input it fills */
	long dims[3];			/* the input's C, H, W */
	char descr[16];
	long shape[NPY_RANK_MAX];
	int rank, size;		/* size: bytes an element */
	char *err;
	size_t errlen;
};

static int npy_bad(struct npy *p, const char *what)
{
	return nvdla_message(p->err, p->errlen, -EINVAL, "%s: %s", p->path,
			     what);
}

/* The value of key @key in header @h, past its colon and spaces. */
static const char *npy_key(const char *h, const char *key)
{
	const char *s = strstr(h, key);

	if (!s)
		return NULL;
	for (s += strlen(key); *s == ' '; s++)
		;
	return s;
}

static int npy_descr(struct npy *p, const char *h)
{
	static const struct { const char *descr; int size; } types[] = {
		{ "<f4", 4 }, { "<f2", 2 }, { "|u1", 1 }, { "|i1", 1 },
		{ "<u1", 1 }, { "<i1", 1 },
	};
	const char *s = npy_key(h, "'descr':"), *end;
	size_t i;

	if (!s || *s != '\'' || !(end = strchr(s + 1, '\'')) ||
	    end - s - 1 >= (long)sizeof(p->descr))
		return npy_bad(p, ".npy header has no 'descr'");
	memcpy(p->descr, s + 1, end - s - 1);
	p->descr[end - s - 1] = 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(p->descr, types[i].descr)) {
			p->size = types[i].size;
			return 0;
		}
	return nvdla_message(p->err, p->errlen, -EINVAL,
			     "%s: .npy dtype '%s' is not supported: float32, float16 (little-endian), uint8 or int8",
			     p->path, p->descr);
}

static int npy_shape(struct npy *p, const char *h)
{
	const char *s = npy_key(h, "'shape':");
	char *end;

	if (!s || *s++ != '(')
		return npy_bad(p, ".npy header has no 'shape'");
	for (p->rank = 0;; s = end) {
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == ')')
			return 0;
		if (p->rank == NPY_RANK_MAX)
			return npy_bad(p, ".npy array of more than 4 dimensions");
		p->shape[p->rank] = strtol(s, &end, 10);
		/* Bounded for the products; compared with the input's next. */
		if (end == s || p->shape[p->rank] < 0 ||
		    p->shape[p->rank] > INT32_MAX)
			return npy_bad(p, ".npy header's 'shape' is malformed");
		p->rank++;
	}
}

/* The header of @f: its dictionary's dtype, order and shape. */
static int npy_header(struct npy *p, FILE *f)
{
	unsigned char pre[12];
	char h[NPY_HEADER_MAX];
	const char *order;
	size_t len;
	int ret;

	if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6))
		return npy_bad(p, "not a .npy file (bad magic)");
	if (pre[6] < 1 || pre[6] > 3)
		return nvdla_message(p->err, p->errlen, -EINVAL,
				     "%s: .npy format version %u is not supported (1 to 3)",
				     p->path, pre[6]);
	len = pre[8] | pre[9] << 8;
	if (pre[6] > 1) {	/* versions 2 and 3: a 4-byte length */
		if (fread(pre + 10, 1, 2, f) != 2)
			return npy_bad(p, ".npy header truncated");
		len |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
	}
	if (len >= sizeof(h))
		return npy_bad(p, ".npy header longer than 4096 bytes");
	if (fread(h, 1, len, f) != len)
		return npy_bad(p, ".npy header truncated");
	h[len] = 0;
	ret = npy_descr(p, h);
	if (ret)
		return ret;
	order = npy_key(h, "'fortran_order':");
	if (order && !strncmp(order, "True", 4))
		return npy_bad(p, ".npy array in Fortran order: save it in C order (numpy.ascontiguousarray)");
	if (!order || strncmp(order, "False", 5))
		return npy_bad(p, ".npy header has no 'fortran_order'");
	return npy_shape(p, h);
}

/* Whether dims [@from, rank) of @p, then ones, are the input's C, H, W. */
static int npy_dims_are(const struct npy *p, int from)
{
	int i;

	if (p->rank - from > 3)
		return 0;
	for (i = 0; i < 3; i++)
		if ((from + i < p->rank ? p->shape[from + i] : 1) != p->dims[i])
			return 0;
	return 1;
}

/* The input's shape (C, H, W, trailing ones optional), batch 1 optional. */
static int npy_shape_check(struct npy *p)
{
	char got[96] = "";
	int i, n = 0;

	if (npy_dims_are(p, 0) ||
	    (p->rank > 0 && p->shape[0] == 1 && npy_dims_are(p, 1)))
		return 0;
	for (i = 0; i < p->rank; i++)
		n += snprintf(got + n, sizeof(got) - n, "%s%ld", i ? ", " : "",
			      p->shape[i]);
	return nvdla_message(p->err, p->errlen, -EINVAL,
			     "%s: .npy shape (%s) is not that of input '%s' (1, %ld, %ld, %ld: batch 1 optional)",
			     p->path, got, p->name, p->dims[0], p->dims[1],
			     p->dims[2]);
}

static float npy_value(const struct npy *p, const unsigned char *b)
{
	float f;

	switch (p->descr[1]) {
	case 'f':
		if (p->size == 2)
			return nvdla_half_to_float(b[0] | b[1] << 8);
		memcpy(&f, b, sizeof(f));
		return f;
	case 'u':
		return b[0];
	default:
		return (signed char)b[0];
	}
}

/* The data of @f (past its header) as @count floats into @out. */
static int npy_data(struct npy *p, FILE *f, long count, float *out)
{
	unsigned char *raw = malloc(count * p->size);
	size_t got;
	long i;

	if (!raw)
		return nvdla_message(p->err, p->errlen, -ENOMEM, "out of memory");
	got = fread(raw, 1, count * p->size, f);
	if (got != (size_t)count * p->size) {
		free(raw);
		return nvdla_message(p->err, p->errlen, -EINVAL,
				     "%s: .npy data truncated: %zu of %ld bytes",
				     p->path, got, count * p->size);
	}
	for (i = 0; i < count; i++)
		out[i] = npy_value(p, raw + i * p->size);
	free(raw);
	if (fgetc(f) != EOF)
		return npy_bad(p, ".npy file has bytes past its array");
	return 0;
}

int nvdla_npy_read(const char *path, const char *name, long c, long h,
		   long w, float *out, char *err, size_t errlen)
{
	struct npy p = { .path = path, .name = name, .dims = { c, h, w },
			 .err = err, .errlen = errlen };
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f)
		return nvdla_message(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	ret = npy_header(&p, f);
	if (!ret)
		ret = npy_shape_check(&p);
	if (!ret)
		ret = npy_data(&p, f, c * h * w, out);
	fclose(f);
	return ret;
}

NVDLA_EXPORT int nvdla_network_set_input_npy(struct nvdla_network *net,
					     unsigned int index,
					     const char *path)
{
	struct nvdla_tensor_desc d;
	char err[NVDLA_RT_ERROR_MAX];
	float *v;
	long n;
	int ret;

	ret = nvdla_network_input_desc(net, index, &d);
	if (ret)
		return ret;
	n = (long)d.c * d.h * d.w;
	v = malloc(n * sizeof(*v));
	if (!v)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	ret = nvdla_npy_read(path, d.name, d.c, d.h, d.w, v, err, sizeof(err));
	if (ret)
		ret = nvdla_rt_error(net->rt, ret, "%s", err);
	else
		ret = nvdla_network_set_input_values(net, index, v, n);
	free(v);
	return ret;
}
