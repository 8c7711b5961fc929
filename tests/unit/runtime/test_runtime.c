// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The runtime on the in-process model: BDMA copies of many shapes checked
 * against a plain loop, repeated submission, output binding, and the
 * errors a user gets for bad devices, files and buffers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/runtime.h>

#include "builder.h"
#include "../lib/tap.h"

struct shape {
	uint32_t line, lines, surfs, src_line, dst_line;
};

static uint64_t extent(const struct shape *s, uint32_t line_stride)
{
	return (uint64_t)(s->surfs * s->lines - 1) * line_stride + s->line;
}

static int build(const struct shape *s, const uint8_t *src, void **buf,
		 size_t *len)
{
	struct nvdla_bdma_copy copy = {
		.transfer = {
			.line_size = s->line, .line_repeat = s->lines,
			.source_line = s->src_line,
			.destination_line = s->dst_line,
			.surface_repeat = s->surfs,
			.source_surface = s->src_line * s->lines,
			.destination_surface = s->dst_line * s->lines,
		},
		.src = src,
		.src_size = extent(s, s->src_line),
		.dst_size = extent(s, s->dst_line),
		.out = { .name = "out", .n = 1, .c = 1, .h = 1, .w = 1,
			 .data_type = NVDLA_DATA_TYPE_INT8,
			 .pixel_format = NVDLA_TENSOR_FEATURE },
	};

	copy.out.size = copy.dst_size;
	return nvdla_build_bdma_copy(&copy, buf, len);
}

/* What the copy must leave in the destination: a plain loop. */
static void reference(const struct shape *s, const uint8_t *src, uint8_t *dst)
{
	uint32_t i;

	for (i = 0; i < s->surfs * s->lines; i++)
		memcpy(dst + (uint64_t)i * s->dst_line,
		       src + (uint64_t)i * s->src_line, s->line);
}

static void test_shape(struct nvdla_runtime *rt, const struct shape *s)
{
	uint64_t src_size = extent(s, s->src_line);
	uint64_t dst_size = extent(s, s->dst_line);
	uint8_t *src = malloc(src_size), *want = calloc(1, dst_size);
	struct nvdla_network *net = NULL;
	void *buf = NULL;
	size_t len, i;
	int ret, same = 0;

	for (i = 0; i < src_size; i++)
		src[i] = rand();
	reference(s, src, want);
	ret = build(s, src, &buf, &len);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		same = !memcmp(nvdla_buffer_map(nvdla_network_output(net, 0)),
			       want, dst_size);
	tap_ok(!ret && same,
	       "copy %u B x %u lines x %u surfaces, strides %u/%u (%s)",
	       s->line, s->lines, s->surfs, s->src_line, s->dst_line,
	       ret ? nvdla_runtime_error(rt) : same ? "equal" : "differs");
	nvdla_network_unload(net);
	free(buf);
	free(src);
	free(want);
}

static void test_shapes(struct nvdla_runtime *rt)
{
	static const struct shape fixed[] = {
		{ 32, 1, 1, 32, 32 },
		{ 256, 8, 1, 256, 256 },
		{ 8192 * 32, 1, 1, 8192 * 32, 8192 * 32 },
		{ 64, 3, 4, 96, 128 },
	};
	struct shape s;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		test_shape(rt, &fixed[i]);
	for (i = 0; i < 8; i++) {
		s.line = 32 * (1 + rand() % 16);
		s.lines = 1 + rand() % 6;
		s.surfs = 1 + rand() % 4;
		s.src_line = s.line + 32 * (rand() % 3);
		s.dst_line = s.line + 32 * (rand() % 3);
		test_shape(rt, &s);
	}
}

static void test_resubmit_and_bind(struct nvdla_runtime *rt)
{
	const struct shape s = { 128, 4, 2, 128, 160 };
	uint64_t dst_size = extent(&s, s.dst_line);
	uint8_t src[1024], want[2048] = { 0 };
	struct nvdla_network *net;
	struct nvdla_buffer *out, *small;
	void *buf;
	size_t len;
	int ret;

	memset(src, 0x5a, sizeof(src));
	reference(&s, src, want);
	build(&s, src, &buf, &len);
	ret = nvdla_network_load(rt, buf, len, &net);
	free(buf);
	tap_ok(!ret && nvdla_network_num_outputs(net) == 1 &&
	       nvdla_network_num_inputs(net) == 0,
	       "loaded: one output, no input");
	ret = nvdla_network_submit(net, 0) || nvdla_network_submit(net, 0);
	tap_ok(!ret && nvdla_network_wait(net) == 0,
	       "the same network runs twice (dependency graph restored)");

	nvdla_buffer_new(rt, dst_size, &out);
	ret = nvdla_network_bind_output(net, 0, out);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	tap_ok(!ret && !memcmp(nvdla_buffer_map(out), want, dst_size),
	       "a bound output buffer receives the result");

	nvdla_buffer_new(rt, dst_size - 1, &small);
	tap_ok(nvdla_network_bind_output(net, 0, small) == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "bytes for a tensor"),
	       "a buffer smaller than the tensor is refused");
	tap_ok(nvdla_network_bind_output(net, 1, out) == -EINVAL,
	       "binding a missing output is refused");
	nvdla_network_unload(net);
	nvdla_buffer_del(out);
	nvdla_buffer_del(small);
}

/*
 * Statistics: none before they are enabled and run; then one BDMA
 * operation with both stall counters, the performance estimate's
 * (docs/performance.md: 1024 bytes at nv_full's default 10 GB/s and
 * 1 GHz take 103 cycles, 87 more than its 16 words of 64 bytes), the
 * result unchanged, and the loadable's bytes untouched.
 */
static void test_stats(struct nvdla_runtime *rt)
{
	const struct shape s = { 128, 4, 2, 128, 160 };
	uint8_t src[1024], want[2048] = { 0 };
	struct nvdla_op_stat st;
	struct nvdla_network *net;
	void *buf, *copy;
	size_t len;
	int ret;

	memset(src, 0x3c, sizeof(src));
	reference(&s, src, want);
	build(&s, src, &buf, &len);
	copy = malloc(len);
	memcpy(copy, buf, len);
	ret = nvdla_network_load(rt, buf, len, &net);
	tap_ok(!ret && nvdla_network_num_op_stats(net) == 0,
	       "no statistics before they are enabled");
	ret = nvdla_network_submit(net, 0);
	tap_ok(!ret && nvdla_network_num_op_stats(net) == 0 &&
	       nvdla_network_op_stat(net, 0, &st) == -ERANGE,
	       "a run without them has none either");
	ret = nvdla_network_enable_stats(net);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	tap_ok(!ret && nvdla_network_num_op_stats(net) == 1 &&
	       !memcmp(nvdla_buffer_map(nvdla_network_output(net, 0)), want,
		       extent(&s, s.dst_line)),
	       "with statistics: one operation, the same result (%d)", ret);
	ret = nvdla_network_op_stat(net, 0, &st);
	tap_ok(!ret && st.task == 0 && st.op == 0 && !strcmp(st.type, "bdma") &&
	       st.num_counters == 2 &&
	       !strcmp(st.counters[0].name, "read_stall") &&
	       !strcmp(st.counters[1].name, "write_stall") &&
	       st.counters[0].value == 87 && st.counters[1].value == 87,
	       "op 0: bdma, read and write stalls 87, %u us", st.runtime_us);
	tap_ok(nvdla_network_op_stat(net, 1, &st) == -ERANGE &&
	       strstr(nvdla_runtime_error(rt), "no statistics of operation 1"),
	       "an operation past the last: -ERANGE, named");
	tap_ok(!memcmp(buf, copy, len), "the loadable itself is unchanged");
	nvdla_network_unload(net);
	free(buf);
	free(copy);
}

/* Load a sample loadable after @edit changed it; returns the result. */
static int load_edited(struct nvdla_runtime *rt,
		       void (*edit)(struct nvdla_loadable *l))
{
	const struct shape s = { 64, 1, 1, 64, 64 };
	struct nvdla_network *net = NULL;
	struct nvdla_loadable *l;
	uint8_t src[64] = { 0 };
	void *buf, *out;
	size_t len, olen;
	char err[256];
	int ret;

	build(&s, src, &buf, &len);
	nvdla_loadable_parse(buf, len, &l, err, sizeof(err));
	edit(l);
	nvdla_loadable_write(l, &out, &olen);
	ret = nvdla_network_load(rt, out, olen, &net);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	nvdla_network_unload(net);
	nvdla_loadable_free(l);
	free(buf);
	free(out);
	return ret;
}

static void e_empty_blob(struct nvdla_loadable *l)
{
	l->blobs[4].data_len = 0;	/* the BDMA source content */
}

static void e_huge_memory(struct nvdla_loadable *l)
{
	l->memories[5].size = 3ull << 30;
	l->addresses[5].size = 64;
}

/*
 * The BDMA source entry part-way into a memory of twice the copy, with the
 * whole memory's size recorded on it, as the official compiler does.
 */
static void e_inside(struct nvdla_loadable *l)
{
	l->memories[4].size = 128;
	l->addresses[4].offset = 64;
	l->addresses[4].size = 128;
}

/* The same one byte further: the copy's last byte is past the memory. */
static void e_inside_overrun(struct nvdla_loadable *l)
{
	e_inside(l);
	l->addresses[4].offset = 65;
}

/*
 * Output 0 as 16 x 2^30 x 2^30 elements with zero strides: C x H x W is
 * 2^64, which wraps to 0 in 64 bits.
 */
static void e_huge_tensor(struct nvdla_loadable *l)
{
	struct nvdla_lbl_tensor_desc *t =
		&l->tensor_descs[l->memories[5].tensor_desc_id];

	t->w = 16;
	t->h = 1 << 30;
	t->c = 1 << 30;
	memset(t->stride, 0, sizeof(t->stride));
}

static void test_errors(struct nvdla_runtime *rt)
{
	const struct shape s = { 32, 1, 1, 32, 32 };
	struct nvdla_runtime *bad;
	struct nvdla_network *net;
	char err[256] = "";
	uint8_t src[32] = { 0 };
	void *buf;
	size_t len;
	int ret;

	ret = nvdla_runtime_new("sim:nv_tiny", &bad, err, sizeof(err));
	tap_ok(ret == -EINVAL && !bad && strstr(err, "nv_tiny"),
	       "unknown model configuration: %s", err);
	ret = nvdla_runtime_new("/nonexistent/accel0", &bad, err, sizeof(err));
	tap_ok(ret < 0 && !bad && strstr(err, "/nonexistent/accel0"),
	       "missing device node: %s", err);

	ret = nvdla_network_load_file(rt, "/nonexistent.nvdla", &net);
	tap_ok(ret == -ENOENT && !net &&
	       strstr(nvdla_runtime_error(rt), "/nonexistent.nvdla"),
	       "missing loadable file: %s", nvdla_runtime_error(rt));

	build(&s, src, &buf, &len);
	ret = nvdla_network_load(rt, buf, len / 2, &net);
	tap_ok(ret == -EINVAL && !net &&
	       strstr(nvdla_runtime_error(rt), "malformed loadable"),
	       "truncated loadable: %s", nvdla_runtime_error(rt));
	free(buf);

	build(&s, src, &buf, &len);
	nvdla_network_load(rt, buf, len, &net);
	free(buf);
	ret = nvdla_network_submit(net, 1);
	tap_ok(ret == -ETIMEDOUT &&
	       strstr(nvdla_runtime_error(rt), "task timed out"),
	       "a 1 ns time limit stops the network: %s",
	       nvdla_runtime_error(rt));
	ret = nvdla_network_submit(net, -1);
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt), "time limit"),
	       "a negative time limit is refused: %s", nvdla_runtime_error(rt));
	tap_ok(!nvdla_network_submit(net, 0) && !nvdla_network_submit(net, 1000000000),
	       "no time limit, then one of 1 s: the network runs");
	nvdla_network_unload(net);

	tap_ok(load_edited(rt, e_empty_blob) == 0,
	       "a memory filled from an empty blob loads and runs");
	tap_ok(load_edited(rt, e_inside) == 0,
	       "an address entry inside a memory reaches to the memory's end (%s)",
	       nvdla_runtime_error(rt));
	tap_ok(load_edited(rt, e_inside_overrun) == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "task 0: op 0"),
	       "a copy from it one byte past the memory's end is refused: %s",
	       nvdla_runtime_error(rt));
	tap_ok(load_edited(rt, e_huge_tensor) == -EINVAL &&
	       strstr(nvdla_runtime_error(rt),
		      "output tensor 16x1073741824x1073741824 has more elements than the memory's 64 bytes"),
	       "an output of 2^64 elements is refused: %s",
	       nvdla_runtime_error(rt));
	tap_ok(load_edited(rt, e_huge_memory) == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "a buffer holds 1 to"),
	       "a 3 GiB memory entry is refused: %s", nvdla_runtime_error(rt));
}

/* The echo network of @t loaded, or NULL. */
static struct nvdla_network *echo_network(struct nvdla_runtime *rt,
					  const struct nvdla_tensor_desc *t)
{
	struct nvdla_network *net = NULL;
	void *buf;
	size_t len;

	if (!nvdla_build_echo(t, &buf, &len)) {
		nvdla_network_load(rt, buf, len, &net);
		free(buf);
	}
	return net;
}

/* A BDMA copy of input 0 (8x4, 3 channels, feature) to output 0. */
static struct nvdla_network *image_network(struct nvdla_runtime *rt,
					   uint8_t data_type)
{
	struct nvdla_tensor_desc t = {
		.name = "image", .size = 1024, .n = 1, .c = 3, .h = 4, .w = 8,
		.data_type = data_type, .pixel_format = NVDLA_TENSOR_FEATURE,
		.stride = { 1, 256, 1024 },
	};

	return echo_network(rt, &t);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void test_image(struct nvdla_runtime *rt)
{
	const struct nvdla_image_options opt = { .normalize = 1 };
	struct nvdla_network *net = image_network(rt, NVDLA_DATA_TYPE_INT8);
	float v[3 * 4 * 8];
	char ppm[1024];
	int x, y, n, ok = 1, ret;

	tap_ok(net && nvdla_network_num_inputs(net) == 1,
	       "a network with one image input");
	/* P3, maxval 200: pixel (x, y) = (10x, 20y, 100). */
	n = sprintf(ppm, "P3\n# test\n8 4\n200\n");
	for (y = 0; y < 4; y++)
		for (x = 0; x < 8; x++)
			n += sprintf(ppm + n, "%d %d 100\n", 10 * x, 20 * y);
	write_text("/tmp/nvdla-test.ppm", ppm);
	ret = nvdla_network_set_image(net, 0, "/tmp/nvdla-test.ppm", &opt);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		ret = nvdla_network_output_values(net, 0, v, 3 * 4 * 8);
	/* BGR; 8-bit value = round(p * 255 / 200); int8 = round(b * 127 / 255). */
	for (y = 0; y < 4 && !ret; y++) {
		for (x = 0; x < 8; x++) {
			int r = (10 * x * 255 + 100) / 200, g = (20 * y * 255 + 100) / 200;
			int b = (100 * 255 + 100) / 200;

			ok &= v[0 * 32 + y * 8 + x] == (int)(b * 127.0 / 255 + 0.5) &&
			      v[1 * 32 + y * 8 + x] == (int)(g * 127.0 / 255 + 0.5) &&
			      v[2 * 32 + y * 8 + x] == (int)(r * 127.0 / 255 + 0.5);
		}
	}
	tap_ok(!ret && ok, "P3 image through the network: BGR, scaled to int8 (%s)",
	       ret ? nvdla_runtime_error(rt) : "values checked");

	write_text("/tmp/nvdla-test.pgm", "P2 3 3 255 1 2 3 4 5 6 7 8 9\n");
	ret = nvdla_network_set_image(net, 0, "/tmp/nvdla-test.pgm", &opt);
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt), "3x3, 1 channels"),
	       "image of the wrong size: %s", nvdla_runtime_error(rt));
	write_text("/tmp/nvdla-test.pgm", "P5 8 4 255\nshort");
	ret = nvdla_network_set_image(net, 0, "/tmp/nvdla-test.pgm", &opt);
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt), "short"),
	       "truncated pixel data: %s", nvdla_runtime_error(rt));
	write_text("/tmp/nvdla-test.pgm", "GIF89a");
	ret = nvdla_network_set_image(net, 0, "/tmp/nvdla-test.pgm", &opt);
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt), "not a PGM, PPM, JPEG or PNG"),
	       "not an image: %s", nvdla_runtime_error(rt));
	nvdla_network_unload(net);

	/* fp16: (pixel - mean) / normalize, exact for these values. */
	net = image_network(rt, NVDLA_DATA_TYPE_HALF);
	ret = nvdla_network_set_image(net, 0, "/tmp/nvdla-test.ppm",
				      &(struct nvdla_image_options){
					      .mean = { 1, 2, 3 },
					      .normalize = 4 });
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		ret = nvdla_network_output_values(net, 0, v, 3 * 4 * 8);
	tap_ok(!ret && v[0] == (128 - 1) / 4.0f && v[32 + 8 * 3 + 7] == (77 - 2) / 4.0f &&
	       v[64 + 8 * 3 + 7] == (89 - 3) / 4.0f,
	       "fp16 input: (pixel - mean) / normalize (%g %g %g)", v[0],
	       v[32 + 31], v[64 + 31]);
	nvdla_network_unload(net);
	remove("/tmp/nvdla-test.ppm");
	remove("/tmp/nvdla-test.pgm");
}

/*
 * Real values into an echo network's input and back: int8 without scales
 * takes the values rounded and saturated, fp16 these exactly; a count
 * that is not C x H x W is refused.
 */
static void test_input_values(struct nvdla_runtime *rt)
{
	static const float in[4] = { 1.4f, -2.5f, 300, -1000 };
	static const float i8[4] = { 1, -3, 127, -128 };
	static const float f16[4] = { 1.375f, -2.5f, 300, -1000 };
	struct nvdla_network *net = image_network(rt, NVDLA_DATA_TYPE_INT8);
	float v[3 * 4 * 8] = { 0 }, out[3 * 4 * 8];
	int ret;

	memcpy(v + 40, in, sizeof(in));
	ret = nvdla_network_set_input_values(net, 0, v, 3 * 4 * 8);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		ret = nvdla_network_output_values(net, 0, out, 3 * 4 * 8);
	tap_ok(!ret && !memcmp(out + 40, i8, sizeof(i8)) && out[39] == 0 &&
	       out[44] == 0,
	       "int8 input values rounded and saturated (%g %g %g %g)",
	       out[40], out[41], out[42], out[43]);
	ret = nvdla_network_set_input_values(net, 0, v, 3 * 4 * 8 - 1);
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt),
					"95 values for 3 x 4 x 8 elements"),
	       "a wrong count of values: %s", nvdla_runtime_error(rt));
	nvdla_network_unload(net);

	net = image_network(rt, NVDLA_DATA_TYPE_HALF);
	v[40] = 1.375f;
	ret = nvdla_network_set_input_values(net, 0, v, 3 * 4 * 8);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		ret = nvdla_network_output_values(net, 0, out, 3 * 4 * 8);
	tap_ok(!ret && !memcmp(out + 40, f16, sizeof(f16)),
	       "fp16 input values exact (%g %g %g %g)", out[40], out[41],
	       out[42], out[43]);
	nvdla_network_unload(net);
}

/* An echo of input 0, 8x4 pixels of 4 components in @pixel_format. */
static struct nvdla_network *pixel_network(struct nvdla_runtime *rt,
					   uint8_t pixel_format,
					   uint8_t data_type, uint32_t bpe)
{
	struct nvdla_tensor_desc t = {
		.name = "pixels", .size = 4 * 8 * 4 * bpe, .n = 1, .c = 4,
		.h = 4, .w = 8, .data_type = data_type,
		.pixel_format = pixel_format,
		.stride = { bpe, 8 * 4 * bpe, 4 * 8 * 4 * bpe },
	};

	return echo_network(rt, &t);
}

static float half_to_float(uint16_t h)
{
	int exp = h >> 10 & 0x1f;
	float m = (float)(h & 0x3ff);
	float v = exp ? ldexpf(1024 + m, exp - 25) : ldexpf(m, -24);

	return h & 0x8000 ? -v : v;
}

/*
 * The official compiler's image inputs, filled as the official runtime
 * fills them: image channel c (gray, or B, G, R) in component c of each
 * pixel, the other components 0; fp16 (A16B16G16R16_F) takes
 * (pixel - mean) / normalize, int8 (A8B8G8R8) round(pixel * 127 / 255).
 * Other pixel formats are still refused.
 */
static void test_image_pixels(struct nvdla_runtime *rt)
{
	const char *ppm = "/tmp/nvdla-test-pixels.ppm";
	const char *pgm = "/tmp/nvdla-test-pixels.pgm";
	struct nvdla_network *net;
	char text[2048];
	const uint8_t *b;
	int x, y, n, ok = 1, ret;

	/* PPM, maxval 255: pixel (x, y) = R 4x, G 8y, B 100. */
	n = sprintf(text, "P3 8 4 255\n");
	for (y = 0; y < 4; y++)
		for (x = 0; x < 8; x++)
			n += sprintf(text + n, "%d %d 100\n", 4 * x, 8 * y);
	write_text(ppm, text);
	/* PGM: pixel (x, y) = 30x + y. */
	n = sprintf(text, "P2 8 4 255\n");
	for (y = 0; y < 4; y++)
		for (x = 0; x < 8; x++)
			n += sprintf(text + n, "%d\n", 30 * x + y);
	write_text(pgm, text);

	net = pixel_network(rt, NVDLA_TENSOR_A16B16G16R16_F,
			    NVDLA_DATA_TYPE_HALF, 2);
	ret = net ? nvdla_network_set_image(net, 0, ppm,
					    &(struct nvdla_image_options){
						    .mean = { 1, 2, 3 },
						    .normalize = 4 }) : -1;
	b = net ? nvdla_buffer_map(nvdla_network_input(net, 0)) : NULL;
	for (y = 0; y < 4 && !ret; y++) {
		for (x = 0; x < 8; x++) {
			const uint8_t *p = b + y * 64 + x * 8;

			ok &= half_to_float(p[0] | p[1] << 8) == (100 - 1) / 4.0f &&
			      half_to_float(p[2] | p[3] << 8) == (8 * y - 2) / 4.0f &&
			      half_to_float(p[4] | p[5] << 8) == (4 * x - 3) / 4.0f &&
			      !p[6] && !p[7];
		}
	}
	tap_ok(!ret && ok, "A16B16G16R16_F input: B, G, R as (pixel - mean) / normalize in components 0-2, alpha 0 (%s)",
	       ret ? nvdla_runtime_error(rt) : "values checked");
	if (net)
		nvdla_network_unload(net);

	net = pixel_network(rt, NVDLA_TENSOR_A8B8G8R8, NVDLA_DATA_TYPE_INT8, 1);
	ret = net ? nvdla_network_set_image(net, 0, pgm,
					    &(struct nvdla_image_options){
						    .normalize = 1 }) : -1;
	b = net ? nvdla_buffer_map(nvdla_network_input(net, 0)) : NULL;
	for (y = 0; y < 4 && !ret; y++)
		for (x = 0; x < 8; x++)
			ok &= b[y * 32 + x * 4] ==
			      (int)((30 * x + y) * 127.0 / 255 + 0.5) &&
			      !b[y * 32 + x * 4 + 1] && !b[y * 32 + x * 4 + 2] &&
			      !b[y * 32 + x * 4 + 3];
	tap_ok(!ret && ok, "A8B8G8R8 input from a gray image: round(p * 127 / 255) in component 0, the rest 0 (%s)",
	       ret ? nvdla_runtime_error(rt) : "values checked");
	ret = ret ? ret : nvdla_network_set_image(net, 0, ppm,
					 &(struct nvdla_image_options){
						 .normalize = 1 });
	for (y = 0; y < 4 && !ret; y++)
		for (x = 0; x < 8; x++)
			ok &= b[y * 32 + x * 4] == (int)(100 * 127.0 / 255 + 0.5) &&
			      b[y * 32 + x * 4 + 1] ==
			      (int)(8 * y * 127.0 / 255 + 0.5) &&
			      b[y * 32 + x * 4 + 2] ==
			      (int)(4 * x * 127.0 / 255 + 0.5) &&
			      !b[y * 32 + x * 4 + 3];
	tap_ok(!ret && ok, "A8B8G8R8 input from a colour image: B, G, R in components 0-2 (%s)",
	       ret ? nvdla_runtime_error(rt) : "values checked");
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	tap_ok(!ret, "the pixel input runs through the network (%s)",
	       ret ? nvdla_runtime_error(rt) : "ok");
	if (net)
		nvdla_network_unload(net);

	net = pixel_network(rt, 13, NVDLA_DATA_TYPE_INT8, 1);
	ret = net ? nvdla_network_set_image(net, 0, pgm,
					    &(struct nvdla_image_options){
						    .normalize = 1 }) : 0;
	tap_ok(ret == -EOPNOTSUPP &&
	       strstr(nvdla_runtime_error(rt), "input 0: pixel format 13, data type 4 cannot take an image"),
	       "A8R8G8B8, which the official runtime does not fill, is refused: %s",
	       nvdla_runtime_error(rt));
	if (net)
		nvdla_network_unload(net);
	net = pixel_network(rt, NVDLA_TENSOR_A16B16G16R16_F,
			    NVDLA_DATA_TYPE_INT8, 1);
	ret = net ? nvdla_network_set_image(net, 0, pgm,
					    &(struct nvdla_image_options){
						    .normalize = 1 }) : 0;
	tap_ok(ret == -EOPNOTSUPP &&
	       strstr(nvdla_runtime_error(rt), "pixel format 8, data type 4"),
	       "fp16 pixels declared int8 are refused: %s",
	       nvdla_runtime_error(rt));
	if (net)
		nvdla_network_unload(net);
	remove(ppm);
	remove(pgm);
}

int main(void)
{
	struct nvdla_runtime *rt;
	char err[256];

	srand(1);
	if (nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err))) {
		tap_ok(0, "in-process runtime: %s", err);
		return tap_done();
	}
	tap_ok(!strcmp(nvdla_runtime_device(rt), "sim:nv_full"),
	       "runtime on sim:nv_full");
	test_shapes(rt);
	test_resubmit_and_bind(rt);
	test_stats(rt);
	test_errors(rt);
	test_image(rt);
	test_input_values(rt);
	test_image_pixels(rt);
	nvdla_runtime_del(rt);
	return tap_done();
}
