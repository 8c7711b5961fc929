// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Image and raw input: JPEG and PNG files (written here with libjpeg and
 * libpng in many variants) must fill an input exactly as the PGM/PPM file
 * of the same pixels does, the PNM path being checked against hand-worked
 * values in test_runtime; raw input files are copied as they are. Every
 * bad file (truncated, wrong size, missing, another format) is refused
 * with a message naming it, and leaves the input as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

#include <nvdla/runtime.h>

#include "builder.h"
#include "../lib/tap.h"

#define W 8
#define H 4
#define C 3
#define LINE 256		/* 8 pixels of one 32-byte int8 atom */
#define SIZE (H * LINE)
#define DIR "/tmp/nvdla-test-image"

static struct nvdla_runtime *rt;

/* A BDMA copy of input 0 (8x4, 3 channels, int8 feature) to output 0. */
static struct nvdla_network *copy_network(void)
{
	struct nvdla_tensor_desc t = {
		.name = "image", .size = SIZE, .n = 1, .c = C, .h = H, .w = W,
		.data_type = NVDLA_DATA_TYPE_INT8,
		.pixel_format = NVDLA_TENSOR_FEATURE, .stride = { 1, LINE, SIZE },
	};
	struct nvdla_network *net = NULL;
	void *buf;
	size_t len;

	if (!nvdla_build_echo(&t, &buf, &len)) {
		nvdla_network_load(rt, buf, len, &net);
		free(buf);
	}
	return net;
}

/* Pixel (x, y) channel c (R, G, B) of the test pictures, 16 bits. */
static uint16_t pixel16(int x, int y, int c)
{
	return (uint16_t)(x * 7919 + y * 104729 + c * 15485863);
}

static uint8_t pixel8(int x, int y, int c)
{
	return pixel16(x, y, c) >> 8;
}

/* A PNM file: P5 (@c 1) or P6 (@c 3) of @maxval, from @pix (16-bit BE if > 255). */
static void write_pnm(const char *path, const uint8_t *pix, int c, int maxval)
{
	FILE *f = fopen(path, "wb");

	fprintf(f, "P%d\n%d %d\n%d\n", c == 1 ? 5 : 6, W, H, maxval);
	fwrite(pix, 1, (size_t)W * H * c * (maxval > 255 ? 2 : 1), f);
	fclose(f);
}

/* A PNG of @type and @depth from rows of samples in @pix (16-bit BE). */
static void write_png(const char *path, const uint8_t *pix, int type,
		      int depth, int interlace, const png_color *palette,
		      int colours)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
						  NULL, NULL);
	png_infop info = png_create_info_struct(png);
	FILE *f = fopen(path, "wb");
	int y, passes;
	size_t row;

	png_init_io(png, f);
	png_set_IHDR(png, info, W, H, depth, type, interlace,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (palette)
		png_set_PLTE(png, info, palette, colours);
	png_write_info(png, info);
	passes = png_set_interlace_handling(png);
	row = png_get_rowbytes(png, info);
	for (y = 0; y < H * passes; y++)
		png_write_row(png, (png_const_bytep)pix + (y % H) * row);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	fclose(f);
}

/* The bytes input 0 holds after filling it from @path (NULL on failure). */
static uint8_t *input_after(struct nvdla_network *net, const char *path,
			    int *ret)
{
	const struct nvdla_image_options opt = { .normalize = 1 };
	uint8_t *copy = malloc(SIZE);

	*ret = nvdla_network_set_image(net, 0, path, &opt);
	memcpy(copy, nvdla_buffer_map(nvdla_network_input(net, 0)), SIZE);
	return copy;
}

/* @image must fill the input exactly as @pnm does. */
static void expect_same(struct nvdla_network *net, const char *image,
			const char *pnm, const char *name)
{
	int r1, r2;
	uint8_t *a = input_after(net, image, &r1);
	uint8_t *b = input_after(net, pnm, &r2);

	tap_ok(!r1 && !r2 && !memcmp(a, b, SIZE),
	       "%s fills the input as the same pixels in PNM do (%s)", name,
	       r1 || r2 ? nvdla_runtime_error(rt) : "equal");
	free(a);
	free(b);
}

static void test_png(struct nvdla_network *net)
{
	uint8_t rgb[W * H * 3], rgba16[W * H * 8], rgb16[W * H * 6];
	uint8_t idx[W * H], gray2[H * 2], grayp[W * H], pal_rgb[W * H * 3];
	png_color palette[16];
	int x, y, c, i;

	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++) {
			i = y * W + x;
			for (c = 0; c < 3; c++) {
				rgb[i * 3 + c] = pixel8(x, y, c);
				rgba16[i * 8 + c * 2] = pixel16(x, y, c) >> 8;
				rgba16[i * 8 + c * 2 + 1] = pixel16(x, y, c);
				rgb16[i * 6 + c * 2] = pixel16(x, y, c) >> 8;
				rgb16[i * 6 + c * 2 + 1] = pixel16(x, y, c);
			}
			rgba16[i * 8 + 6] = 0x12;	/* alpha: dropped */
			rgba16[i * 8 + 7] = 0x34;
			idx[i] = (x + y) % 16;
			grayp[i] = (x + 2 * y) % 4;	/* 2-bit gray */
		}
	}
	for (i = 0; i < 16; i++)
		palette[i] = (png_color){ i * 16, 255 - i * 9, i * i };
	for (i = 0; i < W * H; i++) {
		pal_rgb[i * 3] = palette[idx[i]].red;
		pal_rgb[i * 3 + 1] = palette[idx[i]].green;
		pal_rgb[i * 3 + 2] = palette[idx[i]].blue;
	}
	for (y = 0; y < H; y++)	/* 4 pixels of 2 bits per byte */
		for (x = 0; x < 2; x++)
			gray2[y * 2 + x] = grayp[y * W + 4 * x] << 6 |
					   grayp[y * W + 4 * x + 1] << 4 |
					   grayp[y * W + 4 * x + 2] << 2 |
					   grayp[y * W + 4 * x + 3];

	write_png(DIR "/rgb.png", rgb, PNG_COLOR_TYPE_RGB, 8, 0, NULL, 0);
	write_pnm(DIR "/rgb.ppm", rgb, 3, 255);
	expect_same(net, DIR "/rgb.png", DIR "/rgb.ppm", "8-bit RGB PNG");
	write_png(DIR "/adam7.png", rgb, PNG_COLOR_TYPE_RGB, 8,
		  PNG_INTERLACE_ADAM7, NULL, 0);
	expect_same(net, DIR "/adam7.png", DIR "/rgb.ppm", "interlaced PNG");
	write_png(DIR "/rgba16.png", rgba16, PNG_COLOR_TYPE_RGB_ALPHA, 16, 0,
		  NULL, 0);
	write_pnm(DIR "/rgb16.ppm", rgb16, 3, 65535);
	expect_same(net, DIR "/rgba16.png", DIR "/rgb16.ppm",
		    "16-bit RGBA PNG (alpha dropped, 16 bits scaled)");
	write_png(DIR "/palette.png", idx, PNG_COLOR_TYPE_PALETTE, 8, 0,
		  palette, 16);
	write_pnm(DIR "/palette.ppm", pal_rgb, 3, 255);
	expect_same(net, DIR "/palette.png", DIR "/palette.ppm", "palette PNG");
	write_png(DIR "/gray2.png", gray2, PNG_COLOR_TYPE_GRAY, 2, 0, NULL, 0);
	write_pnm(DIR "/gray2.pgm", grayp, 1, 3);
	expect_same(net, DIR "/gray2.png", DIR "/gray2.pgm", "2-bit gray PNG");
}

/* Write a JPEG of @pix (@c 1 or 3 components) at @quality. */
static void write_jpeg(const char *path, const uint8_t *pix, int c,
		       int quality)
{
	struct jpeg_compress_struct cinfo;
	struct jpeg_error_mgr err;
	FILE *f = fopen(path, "wb");
	JSAMPROW row;

	cinfo.err = jpeg_std_error(&err);
	jpeg_create_compress(&cinfo);
	jpeg_stdio_dest(&cinfo, f);
	cinfo.image_width = W;
	cinfo.image_height = H;
	cinfo.input_components = c;
	cinfo.in_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_set_defaults(&cinfo);
	jpeg_set_quality(&cinfo, quality, TRUE);
	jpeg_start_compress(&cinfo, TRUE);
	while (cinfo.next_scanline < H) {
		row = (JSAMPROW)pix + cinfo.next_scanline * W * c;
		jpeg_write_scanlines(&cinfo, &row, 1);
	}
	jpeg_finish_compress(&cinfo);
	jpeg_destroy_compress(&cinfo);
	fclose(f);
}

/* Decode @path as RGB (or gray) the plain libjpeg way, into @pix. */
static void decode_jpeg(const char *path, uint8_t *pix, int c)
{
	struct jpeg_decompress_struct cinfo;
	struct jpeg_error_mgr err;
	FILE *f = fopen(path, "rb");
	JSAMPROW row;

	cinfo.err = jpeg_std_error(&err);
	jpeg_create_decompress(&cinfo);
	jpeg_stdio_src(&cinfo, f);
	jpeg_read_header(&cinfo, TRUE);
	cinfo.out_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_start_decompress(&cinfo);
	while (cinfo.output_scanline < H) {
		row = pix + cinfo.output_scanline * W * c;
		jpeg_read_scanlines(&cinfo, &row, 1);
	}
	jpeg_finish_decompress(&cinfo);
	jpeg_destroy_decompress(&cinfo);
	fclose(f);
}

static void test_jpeg(struct nvdla_network *net)
{
	uint8_t rgb[W * H * 3], gray[W * H], out[W * H * 3];
	int x, y, c;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			for (c = 0; c < 3; c++)
				rgb[(y * W + x) * 3 + c] = pixel8(x, y, c);
	for (x = 0; x < W * H; x++)
		gray[x] = rgb[3 * x + 1];

	write_jpeg(DIR "/rgb.jpg", rgb, 3, 75);
	decode_jpeg(DIR "/rgb.jpg", out, 3);
	write_pnm(DIR "/jpeg.ppm", out, 3, 255);
	expect_same(net, DIR "/rgb.jpg", DIR "/jpeg.ppm",
		    "colour JPEG (decoded to BGR)");
	write_jpeg(DIR "/gray.jpg", gray, 1, 90);
	decode_jpeg(DIR "/gray.jpg", out, 1);
	write_pnm(DIR "/jpeg.pgm", out, 1, 255);
	expect_same(net, DIR "/gray.jpg", DIR "/jpeg.pgm", "gray JPEG");
}

/* Copy the first @n bytes of @from into @to. */
static void truncate_copy(const char *from, const char *to, long n)
{
	char buf[4096];
	FILE *f = fopen(from, "rb"), *t = fopen(to, "wb");
	size_t got = fread(buf, 1, sizeof(buf), f);

	fwrite(buf, 1, got < (size_t)n ? got : (size_t)n, t);
	fclose(f);
	fclose(t);
}

/* Filling from @path fails with @err and a message containing @what. */
static void expect_error(struct nvdla_network *net, const char *path,
			 int err, const char *what, const char *name)
{
	uint8_t before[SIZE];
	int ret;
	uint8_t *after;

	memcpy(before, nvdla_buffer_map(nvdla_network_input(net, 0)), SIZE);
	after = input_after(net, path, &ret);
	tap_ok(ret == err && strstr(nvdla_runtime_error(rt), what) &&
	       strstr(nvdla_runtime_error(rt), path) &&
	       !memcmp(before, after, SIZE),
	       "%s: refused, input unchanged (%s)", name,
	       nvdla_runtime_error(rt));
	free(after);
}

static void test_image_errors(struct nvdla_network *net)
{
	FILE *f;

	truncate_copy(DIR "/rgb.png", DIR "/cut.png", 60);
	expect_error(net, DIR "/cut.png", -EINVAL, "PNG", "truncated PNG");
	truncate_copy(DIR "/rgb.jpg", DIR "/cut.jpg", 300);
	expect_error(net, DIR "/cut.jpg", -EINVAL, "JPEG", "truncated JPEG");
	truncate_copy(DIR "/rgb.jpg", DIR "/head.jpg", 3);
	expect_error(net, DIR "/head.jpg", -EINVAL, "JPEG",
		     "JPEG of three bytes");
	expect_error(net, DIR "/missing.png", -ENOENT, "No such file",
		     "missing image file");
	f = fopen(DIR "/text.txt", "w");
	fputs("GIF89a, not really", f);
	fclose(f);
	expect_error(net, DIR "/text.txt", -EINVAL,
		     "not a PGM, PPM, JPEG or PNG image", "a file of another format");
}

/* An image of 8x5 pixels for the 8x4 input. */
static void test_wrong_size(struct nvdla_network *net)
{
	uint8_t pix[W * (H + 1) * 3] = { 0 };
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
						  NULL, NULL);
	png_infop info = png_create_info_struct(png);
	FILE *f = fopen(DIR "/tall.png", "wb");
	int y;

	png_init_io(png, f);
	png_set_IHDR(png, info, W, H + 1, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < H + 1; y++)
		png_write_row(png, pix + y * W * 3);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	fclose(f);
	expect_error(net, DIR "/tall.png", -EINVAL,
		     "8x5, 3 channels; input 0 is 8x4, 3 channels",
		     "PNG of the wrong height");
}

static void write_bytes(const char *path, const uint8_t *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	fwrite(data, 1, n, f);
	fclose(f);
}

static void test_raw(struct nvdla_network *net)
{
	uint8_t raw[SIZE];
	const uint8_t *in = nvdla_buffer_map(nvdla_network_input(net, 0));
	int i, ret;

	for (i = 0; i < SIZE; i++)
		raw[i] = (uint8_t)(i * 37 + 11);
	write_bytes(DIR "/in.raw", raw, SIZE);
	ret = nvdla_network_set_input_file(net, 0, DIR "/in.raw");
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	tap_ok(!ret && !memcmp(in, raw, SIZE) &&
	       !memcmp(nvdla_buffer_map(nvdla_network_output(net, 0)), raw,
		       SIZE),
	       "raw input file copied to the input and through the network (%s)",
	       ret ? nvdla_runtime_error(rt) : "equal");

	write_bytes(DIR "/short.raw", raw, SIZE - 1);
	ret = nvdla_network_set_input_file(net, 0, DIR "/short.raw");
	tap_ok(ret == -EINVAL && in[0] == raw[0] &&
	       strstr(nvdla_runtime_error(rt),
		      "short.raw: 1023 bytes; input 0 (8x4x3) takes 1024"),
	       "raw input one byte short: %s", nvdla_runtime_error(rt));
	write_bytes(DIR "/long.raw", raw, 0);
	ret = nvdla_network_set_input_file(net, 0, DIR "/long.raw");
	tap_ok(ret == -EINVAL && strstr(nvdla_runtime_error(rt), "0 bytes"),
	       "empty raw input: %s", nvdla_runtime_error(rt));
	ret = nvdla_network_set_input_file(net, 0, DIR "/none.raw");
	tap_ok(ret == -ENOENT && strstr(nvdla_runtime_error(rt), "none.raw"),
	       "missing raw input: %s", nvdla_runtime_error(rt));
	ret = nvdla_network_set_input_file(net, 1, DIR "/in.raw");
	tap_ok(ret == -EINVAL, "raw input for a missing input index refused");
}

int main(void)
{
	struct nvdla_network *net;
	char err[256];

	if (nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err))) {
		tap_ok(0, "in-process runtime: %s", err);
		return tap_done();
	}
	if (system("rm -rf " DIR " && mkdir -p " DIR)) {
		tap_ok(0, "cannot create " DIR);
		return tap_done();
	}
	net = copy_network();
	tap_ok(net && nvdla_network_num_inputs(net) == 1,
	       "a network with one 8x4x3 int8 input");
	test_png(net);
	test_jpeg(net);
	test_image_errors(net);
	test_wrong_size(net);
	test_raw(net);
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
	if (system("rm -rf " DIR))
		tap_ok(0, "cannot remove " DIR);
	return tap_done();
}
