// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loadable reader, checker and writer: the official regression files decode
 * to what they hold; every truncation and every corrupted word of a valid
 * file is rejected or decoded without reading out of bounds (run under
 * ASan to see it); writer output decodes to its input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "loadable.h"
#include "../lib/tap.h"

#define SHARED "../shared/conformance/loadables/"

static const char *const official[] = {
	"BDMA_L0_0", "CDP_L0_0", "CONV_D_L0_0", "NN_L0_0", "PDP_L0_0",
	"RBK_L0_0", "SDP_X1_L0_0",
};

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

static int parse(const void *buf, size_t len, struct nvdla_loadable **l,
		 char *err)
{
	int ret = nvdla_loadable_parse(buf, len, l, err, 256);

	if (!ret)
		ret = nvdla_loadable_check(*l, err, 256);
	if (ret && *l) {
		nvdla_loadable_free(*l);
		*l = NULL;
	}
	return ret;
}

static void test_bdma_l0_0(const struct nvdla_loadable *l)
{
	const struct nvdla_lbl_memory *out = nvdla_loadable_memory(l, 5);
	const struct nvdla_lbl_tensor_desc *t = &l->tensor_descs[0];

	tap_ok(l->version.major == 0 && l->version.minor == 7 &&
	       l->version.sub_minor == 0, "BDMA_L0_0: loadable version 0.7.0");
	tap_ok(l->num_tasks == 1 && l->num_memories == 6 &&
	       l->num_addresses == 6 && l->num_events == 1 &&
	       l->num_blobs == 5 && l->num_tensor_descs == 1 &&
	       l->num_relocs == 0 && l->num_submits == 1,
	       "BDMA_L0_0: list lengths");
	tap_ok(l->tasks[0].interface == NVDLA_LBL_IF_DLA1 &&
	       l->tasks[0].instance == -1 && l->tasks[0].num_addresses == 6 &&
	       l->tasks[0].address_list[5] == 5 &&
	       l->tasks[0].num_post_actions == 1,
	       "BDMA_L0_0: one DLA task over addresses 0..5");
	tap_ok(out && out->flags == (NVDLA_LBL_MEM_ALLOC | NVDLA_LBL_MEM_OUTPUT) &&
	       out->size == 2048 && out->num_contents == 1 &&
	       !out->contents[0][0],
	       "BDMA_L0_0: memory 5 is the 2048-byte output, content \"\"");
	tap_ok(nvdla_loadable_blob(l, "m4_BDMASrc_i4") &&
	       nvdla_loadable_blob(l, "m4_BDMASrc_i4")->data_len == 2048 &&
	       nvdla_loadable_blob(l, "m3_DEPGraph_i3")->data_len == 36,
	       "BDMA_L0_0: blobs by name with their data");
	tap_ok(!strcmp(t->name, "m5_BDMADst_i5") && t->mem_id == 5 &&
	       t->data_type == 4 && t->pixel_format == 36 && t->n == 1 &&
	       t->c == 1 && t->h == 1 && t->w == 1 && t->stride[1] == 256 &&
	       t->stride[2] == 2048, "BDMA_L0_0: output tensor 1x1x1 int8, strides 256/2048");
}

static void test_official(void)
{
	struct nvdla_loadable *l;
	char path[256], err[256];
	uint8_t *buf;
	size_t len, i;

	for (i = 0; i < sizeof(official) / sizeof(official[0]); i++) {
		snprintf(path, sizeof(path), SHARED "%s/%s.nvdla", official[i],
			 official[i]);
		buf = read_file(path, &len);
		if (!buf) {
			tap_skip("../shared absent", "%s decodes", official[i]);
			continue;
		}
		tap_ok(!parse(buf, len, &l, err), "%s decodes and checks (%s)",
		       official[i], err);
		if (!i && l)
			test_bdma_l0_0(l);
		nvdla_loadable_free(l);
		free(buf);
	}
}

/* A loadable of our own that uses every list. */
static int sample(void **buf, size_t *len)
{
	uint8_t src[64];
	struct nvdla_bdma_copy copy = {
		.transfer = { .line_size = 64, .line_repeat = 1,
			      .source_line = 64, .destination_line = 64,
			      .surface_repeat = 1, .source_surface = 64,
			      .destination_surface = 64 },
		.src = src, .src_size = 64, .dst_size = 64,
		.out = { .name = "o", .size = 64, .n = 1, .c = 2, .h = 3,
			 .w = 4, .data_type = NVDLA_DATA_TYPE_INT8,
			 .pixel_format = NVDLA_TENSOR_FEATURE,
			 .stride = { 1, 2, 3, 4, 5, 6, 7, 8 } },
	};

	memset(src, 7, sizeof(src));
	return nvdla_build_bdma_copy(&copy, buf, len);
}

static void test_truncated(const uint8_t *buf, size_t len)
{
	struct nvdla_loadable *l;
	char err[256];
	size_t cut, rejected = 0;

	for (cut = 0; cut < len; cut++) {
		if (parse(buf, cut, &l, err) == -EINVAL)
			rejected++;
		else
			nvdla_loadable_free(l);
	}
	tap_ok(rejected == len, "all %zu truncations rejected (%zu were)", len,
	       rejected);
}

static void test_corrupted(const uint8_t *orig, size_t len)
{
	const uint32_t values[] = { 0x7fffffff, 0xffffffff, 0x80000000,
				    (uint32_t)len, (uint32_t)len - 1, 0 };
	uint8_t *buf = malloc(len);
	struct nvdla_loadable *l;
	size_t pos, v, rejected = 0, tried = 0;
	char err[256];
	int ret;

	for (pos = 0; pos + 4 <= len; pos += 4) {
		for (v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
			memcpy(buf, orig, len);
			memcpy(buf + pos, &values[v], 4);
			ret = parse(buf, len, &l, err);
			tried++;
			if (ret)
				rejected++;
			else
				nvdla_loadable_free(l);
		}
	}
	free(buf);
	tap_ok(rejected > 0, "%zu corrupted words: %zu rejected, the rest decoded in bounds",
	       tried, rejected);
}

static void expect_error(const uint8_t *buf, size_t len, const char *what,
			 const char *name)
{
	struct nvdla_loadable *l = NULL;
	char err[256] = "";
	int ret = parse(buf, len, &l, err);

	tap_ok(ret == -EINVAL && !l && strstr(err, what), "%s: \"%s\"", name,
	       err);
}

static void test_messages(void)
{
	/* root -> table at 8 whose vtable (at 4) names field 0 at offset 4 */
	uint8_t b[32] = { 8, 0, 0, 0, 8, 0, 8, 0, 4, 0, 0, 0, 4, 0 };

	expect_error(b, 10, "table at 8 out of bounds", "root table past the end");
	b[0] = 0xf0;
	expect_error(b, sizeof(b), "points past the end", "root offset past the end");
	b[0] = 8;
	b[4] = 0xff;
	b[5] = 0x7f;
	expect_error(b, sizeof(b), "vtable of", "vtable longer than the file");
	b[4] = 8;
	b[5] = 0;
	b[8] = 0xf0;
	b[9] = 0xff;
	expect_error(b, sizeof(b), "vtable out of bounds", "vtable offset outside the file");
}

/* Edit a decoded sample, re-encode it, and expect the checker's message. */
static void check_case(const uint8_t *buf, size_t len,
		       void (*edit)(struct nvdla_loadable *l), const char *what,
		       const char *name)
{
	struct nvdla_loadable *l;
	char err[256] = "";
	void *out;
	size_t olen;

	nvdla_loadable_parse(buf, len, &l, err, sizeof(err));
	edit(l);
	nvdla_loadable_write(l, &out, &olen);
	nvdla_loadable_free(l);
	expect_error(out, olen, what, name);
	free(out);
}

static void e_addr(struct nvdla_loadable *l)
{
	l->addresses[4].offset = l->memories[4].size;
}
static void e_blob(struct nvdla_loadable *l) { l->blobs[2].name[0] = 'X'; }
static void e_task(struct nvdla_loadable *l) { l->tasks[0].address_list[3] = 6; }
static void e_mem(struct nvdla_loadable *l) { l->addresses[1].mem_id = 9; }
static void e_submit(struct nvdla_loadable *l) { l->submits[0].task_ids[0] = 3; }
static void e_dup(struct nvdla_loadable *l) { l->memories[3].id = 1; }
static void e_bind(struct nvdla_loadable *l)
{
	l->memories[4].flags |= NVDLA_LBL_MEM_OUTPUT;
}
static void e_fit(struct nvdla_loadable *l) { l->memories[4].offsets[0] = 8; }

static void test_check(const uint8_t *buf, size_t len)
{
	check_case(buf, len, e_addr, "address_list[4]: offset 64 is past the end of memory 4",
		   "address entry past its memory");
	check_case(buf, len, e_blob, "no blob", "memory names a missing blob");
	check_case(buf, len, e_task, "past the 6 addresses", "task address index out of range");
	check_case(buf, len, e_mem, "no memory 9", "address names a missing memory");
	check_case(buf, len, e_submit, "no task 3", "submit names a missing task");
	check_case(buf, len, e_dup, "used twice", "duplicate memory id");
	check_case(buf, len, e_bind, "same output bind id", "duplicate output bind id");
	check_case(buf, len, e_fit, "overruns", "blob beyond its memory");
}

/*
 * The official compiler's entry inside a memory: part-way into it, with
 * the whole memory's size recorded.
 */
static void test_entry_inside(const uint8_t *buf, size_t len)
{
	struct nvdla_loadable *l, *back = NULL;
	char err[256] = "";
	void *out;
	size_t olen;
	int ret;

	nvdla_loadable_parse(buf, len, &l, err, sizeof(err));
	l->addresses[4].offset = l->memories[4].size - 1;
	l->addresses[4].size = l->memories[4].size;
	nvdla_loadable_write(l, &out, &olen);
	ret = parse(out, olen, &back, err);
	tap_ok(!ret, "an entry 1 byte before its memory's end, recording the memory's size, loads (%s)",
	       ret ? err : "ok");
	if (!ret)
		nvdla_loadable_free(back);
	nvdla_loadable_free(l);
	free(out);
}

static void test_round_trip(const uint8_t *buf, size_t len)
{
	struct nvdla_loadable *a, *b;
	char err[256];
	void *out;
	size_t olen;
	int same;

	nvdla_loadable_parse(buf, len, &a, err, sizeof(err));
	a->events = calloc(1, sizeof(*a->events));
	a->num_events = 1;
	a->events[0] = (struct nvdla_lbl_event){ 3, 1, 2, 0x12345678, 1 };
	a->relocs = calloc(1, sizeof(*a->relocs));
	a->num_relocs = 1;
	a->relocs[0] = (struct nvdla_lbl_reloc){ 4, 3, 1ull << 40, 1, 4, 2 };
	nvdla_loadable_write(a, &out, &olen);
	same = !nvdla_loadable_parse(out, olen, &b, err, sizeof(err)) &&
	       b->num_events == 1 && b->events[0].val == 0x12345678 &&
	       b->events[0].target == 2 && b->events[0].op == 1 &&
	       b->num_relocs == 1 && b->relocs[0].offset == 1ull << 40 &&
	       b->relocs[0].reloc_type == 2 && b->tasks[0].instance == -1 &&
	       b->tensor_descs[0].stride[7] == 8 && b->tensor_descs[0].w == 4 &&
	       b->num_blobs == a->num_blobs &&
	       !memcmp(b->blobs[4].data, a->blobs[4].data, a->blobs[4].data_len) &&
	       !strcmp(b->memories[4].contents[0], a->memories[4].contents[0]);
	tap_ok(same, "write then parse gives back every field");
	nvdla_loadable_free(a);
	if (same)
		nvdla_loadable_free(b);
	free(out);
}

int main(void)
{
	void *buf;
	size_t len;

	test_official();
	tap_ok(!sample(&buf, &len), "builder writes a BDMA loadable");
	test_truncated(buf, len);
	test_corrupted(buf, len);
	test_messages();
	test_check(buf, len);
	test_entry_inside(buf, len);
	test_round_trip(buf, len);
	free(buf);
	return tap_done();
}
