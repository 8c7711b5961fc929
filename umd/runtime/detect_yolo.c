// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_yolo_read(): a .yolo file, line by line, into a struct nvdla_yolo;
 * every malformed line refused with its file, line and what it lacks.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "message.h"
#include "runtime_internal.h"

#define YOLO_LINE_MAX 1024
#define YOLO_WORDS_MAX (YOLO_LINE_MAX / 2)

struct yolo_parse {
	struct nvdla_yolo *y;
	bool magic;
	char *err;
	size_t errlen;
	char where[4200];	/* "path:line" */
};

/* A message for the line being read; -EINVAL. */
static int __attribute__((format(printf, 2, 3)))
refuse(struct yolo_parse *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return nvdla_message(p->err, p->errlen, -EINVAL, "%s: %s", p->where,
			     msg);
}

/* One line's words (after '#' nothing counts) into @word; their count. */
static int split_words(char *line, char *word[YOLO_WORDS_MAX])
{
	char *save, *w;
	int n = 0;

	line[strcspn(line, "#\n")] = '\0';
	for (w = strtok_r(line, " \t\r", &save); w && n < YOLO_WORDS_MAX;
	     w = strtok_r(NULL, " \t\r", &save))
		word[n++] = w;
	return n;
}

/* A whole number from @min to @max, or a positive finite number (@max 0). */
static int parse_number(const char *s, double min, double max, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end || !isfinite(*v))
		return -1;
	if (!max)
		return *v > 0 ? 0 : -1;
	return *v < min || *v > max || *v != floor(*v) ? -1 : 0;
}

static int parse_classes(struct yolo_parse *p, char **w, int n)
{
	double v;

	if (p->y->classes)
		return refuse(p, "a second 'classes' line");
	if (n != 2 || parse_number(w[1], 1, NVDLA_DETECT_MAX_CLASSES, &v))
		return refuse(p, "'classes' takes one whole number from 1 to %d",
			      NVDLA_DETECT_MAX_CLASSES);
	p->y->classes = (unsigned int)v;
	return 0;
}

static int parse_names(struct yolo_parse *p, char **w, int n)
{
	struct nvdla_yolo *y = p->y;
	int i;

	if (!y->classes)
		return refuse(p, "'names' before the 'classes' line");
	if (n < 2)
		return refuse(p, "'names' takes one or more names");
	if (y->names + (n - 1) > y->classes)
		return refuse(p, "more names than the %u classes", y->classes);
	for (i = 1; i < n; i++) {
		y->name[y->names] = strdup(w[i]);
		if (!y->name[y->names])
			return -ENOMEM;
		y->names++;
	}
	return 0;
}

/* Whether the last head has an anchor: a message otherwise. */
static int check_last_head(struct yolo_parse *p)
{
	const struct nvdla_yolo *y = p->y;

	if (y->heads && !y->head[y->heads - 1].anchors)
		return refuse(p, "the head on output %u has no 'anchor' line",
			      y->head[y->heads - 1].output);
	return 0;
}

static int parse_head(struct yolo_parse *p, char **w, int n)
{
	struct nvdla_yolo *y = p->y;
	double out, stride;
	unsigned int i;
	int ret = check_last_head(p);

	if (ret)
		return ret;
	if (y->heads == NVDLA_DETECT_MAX_HEADS)
		return refuse(p, "more than %d heads", NVDLA_DETECT_MAX_HEADS);
	if (n != 3 || parse_number(w[1], 0, 255, &out) ||
	    parse_number(w[2], 1, 4096, &stride))
		return refuse(p, "'head' takes an output (0 to 255) and a stride (1 to 4096 pixels), whole numbers");
	for (i = 0; i < y->heads; i++)
		if (y->head[i].output == (unsigned int)out)
			return refuse(p, "a second head on output %u",
				      y->head[i].output);
	y->head[y->heads].output = (unsigned int)out;
	y->head[y->heads++].stride = (unsigned int)stride;
	return 0;
}

static int parse_anchor(struct yolo_parse *p, char **w, int n)
{
	struct detect_head *h;
	double v[2];

	if (!p->y->heads)
		return refuse(p, "'anchor' before any 'head' line");
	h = &p->y->head[p->y->heads - 1];
	if (h->anchors == NVDLA_DETECT_MAX_ANCHORS)
		return refuse(p, "more than %d anchors in a head",
			      NVDLA_DETECT_MAX_ANCHORS);
	if (n != 3 || parse_number(w[1], 0, 0, &v[0]) ||
	    parse_number(w[2], 0, 0, &v[1]))
		return refuse(p, "'anchor' takes a width and a height in pixels, positive numbers");
	memcpy(h->anchor[h->anchors++], v, sizeof(v));
	return 0;
}

static int parse_line(struct yolo_parse *p, char *line)
{
	char *w[YOLO_WORDS_MAX];
	int n = split_words(line, w);

	if (!n)
		return 0;
	if (!p->magic) {
		p->magic = n == 2 && !strcmp(w[0], "yolo") && !strcmp(w[1], "2");
		return p->magic ? 0 :
		       refuse(p, "not a YOLO head description: the first line is not 'yolo 2'");
	}
	if (!strcmp(w[0], "classes"))
		return parse_classes(p, w, n);
	if (!strcmp(w[0], "names"))
		return parse_names(p, w, n);
	if (!strcmp(w[0], "head"))
		return parse_head(p, w, n);
	if (!strcmp(w[0], "anchor"))
		return parse_anchor(p, w, n);
	return refuse(p, "unknown line '%s' (yolo, classes, names, head or anchor)",
		      w[0]);
}

/* What the whole file must hold, at its end. */
static int check_complete(struct yolo_parse *p)
{
	const struct nvdla_yolo *y = p->y;

	if (!p->magic)
		return refuse(p, "not a YOLO head description: no 'yolo 2' line");
	if (!y->classes)
		return refuse(p, "no 'classes' line");
	if (!y->heads)
		return refuse(p, "no 'head' line");
	if (y->names && y->names != y->classes)
		return refuse(p, "%u names for %u classes", y->names,
			      y->classes);
	return check_last_head(p);
}

static int read_lines(struct yolo_parse *p, const char *path, FILE *f)
{
	char line[YOLO_LINE_MAX];
	unsigned int n = 0;
	int ret = 0;

	while (!ret && fgets(line, sizeof(line), f)) {
		snprintf(p->where, sizeof(p->where), "%s:%u", path, ++n);
		if (!strchr(line, '\n') && !feof(f))
			ret = refuse(p, "line longer than %d bytes",
				     YOLO_LINE_MAX - 2);
		else
			ret = parse_line(p, line);
	}
	snprintf(p->where, sizeof(p->where), "%s", path);
	return ret ? ret : check_complete(p);
}

NVDLA_EXPORT int nvdla_yolo_read(const char *path, struct nvdla_yolo **yolo,
				 char *err, size_t errlen)
{
	struct yolo_parse p = { .err = err, .errlen = errlen };
	FILE *f;
	int ret;

	*yolo = NULL;
	snprintf(p.where, sizeof(p.where), "%s", path);
	p.y = calloc(1, sizeof(*p.y));
	if (!p.y)
		return -ENOMEM;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		refuse(&p, "%s", strerror(-ret));
	} else {
		ret = read_lines(&p, path, f);
		fclose(f);
	}
	if (ret)
		nvdla_yolo_free(p.y);
	else
		*yolo = p.y;
	return ret;
}

NVDLA_EXPORT void nvdla_yolo_free(struct nvdla_yolo *yolo)
{
	unsigned int i;

	if (!yolo)
		return;
	for (i = 0; i < yolo->names; i++)
		free(yolo->name[i]);
	free(yolo);
}

NVDLA_EXPORT unsigned int nvdla_yolo_num_classes(const struct nvdla_yolo *yolo)
{
	return yolo->classes;
}

NVDLA_EXPORT const char *nvdla_yolo_class_name(const struct nvdla_yolo *yolo,
					       unsigned int cls)
{
	return cls < yolo->names ? yolo->name[cls] : NULL;
}
