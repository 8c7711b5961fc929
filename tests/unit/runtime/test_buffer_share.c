// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Zero-copy buffers: a runtime buffer exported as an fd and an fd imported
 * as a network's input and output share their memory both ways, before
 * and after runs; bad fds are refused and create nothing; a dma-buf of
 * vgem (another DRM driver's, where it is loaded: the QEMU guests) is an
 * input of the in-process model without a copy, and of the device where
 * it sees it as one range, else refused. On the in-process model (memfds), or on the device named by the
 * first argument (dma-bufs through the driver, in the QEMU guests).
 */
#define _GNU_SOURCE	/* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nvdla/runtime.h>

#include "builder.h"
#include "../lib/tap.h"
#include "../lib/vgem.h"

#define SIZE (64 * 1024)

/* An echo (BDMA copy of input 0 to output 0) of SIZE bytes. */
static struct nvdla_network *echo(struct nvdla_runtime *rt)
{
	struct nvdla_tensor_desc t = {
		.name = "data", .size = SIZE, .n = 1, .c = 32, .h = 2,
		.w = 1024, .data_type = NVDLA_DATA_TYPE_INT8,
		.pixel_format = NVDLA_TENSOR_FEATURE,
		.stride = { 1, SIZE / 2, SIZE },
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

static uint8_t *map_fd(int fd)
{
	void *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static bool filled(const uint8_t *p, uint8_t v)
{
	size_t i;

	for (i = 0; i < SIZE; i++)
		if (p[i] != v)
			return false;
	return true;
}

/*
 * Export: what the buffer held stays, writes through the fd's mapping are
 * the network's input, and its output is seen through the output's fd.
 */
static void test_export(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt);
	struct nvdla_buffer *in = NULL, *out = NULL;
	int in_fd = -1, out_fd = -1, ret;
	uint8_t *in_map = NULL, *out_map = NULL;

	ret = !net || nvdla_buffer_new(rt, SIZE, &in) ||
	      nvdla_buffer_new(rt, SIZE, &out);
	if (!ret)
		memset(nvdla_buffer_map(in), 0x33, SIZE);
	ret = ret || nvdla_buffer_export(in, &in_fd) ||
	      nvdla_buffer_export(out, &out_fd);
	if (!ret) {
		in_map = map_fd(in_fd);
		out_map = map_fd(out_fd);
	}
	tap_ok(!ret && in_map && out_map && filled(in_map, 0x33) &&
	       filled(nvdla_buffer_map(in), 0x33),
	       "exported buffers: fds that map the buffer's memory, its contents kept (%s)",
	       ret ? nvdla_runtime_error(rt) : "mapped");
	if (!in_map || !out_map)
		goto out;
	memset(in_map, 0x5c, SIZE);
	ret = nvdla_network_bind_input(net, 0, in) ||
	      nvdla_network_bind_output(net, 0, out) ||
	      nvdla_network_submit(net, 0);
	tap_ok(!ret && filled(nvdla_buffer_map(in), 0x5c) && filled(out_map, 0x5c),
	       "written through one fd, run, read through the other: no copy (%s)",
	       ret ? nvdla_runtime_error(rt) : "equal");
	close(in_fd);
	in_fd = -1;
	memset(nvdla_buffer_map(in), 0x21, SIZE);
	tap_ok(!nvdla_network_submit(net, 0) && filled(out_map, 0x21),
	       "the buffer outlives its closed fd");
out:
	if (in_map)
		munmap(in_map, SIZE);
	if (out_map)
		munmap(out_map, SIZE);
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	nvdla_network_unload(net);
	nvdla_buffer_del(in);
	nvdla_buffer_del(out);
}

/* Import an exported buffer back: the same memory under two buffers. */
static void test_round_trip(struct nvdla_runtime *rt)
{
	struct nvdla_buffer *a = NULL, *b = NULL;
	int fd = -1, ret;

	ret = nvdla_buffer_new(rt, SIZE, &a) || nvdla_buffer_export(a, &fd) ||
	      nvdla_buffer_import(rt, fd, &b);
	if (!ret)
		memset(nvdla_buffer_map(a), 0x7e, SIZE);
	tap_ok(!ret && nvdla_buffer_size(b) == SIZE &&
	       filled(nvdla_buffer_map(b), 0x7e),
	       "an exported buffer imported back shares its memory (%s)",
	       ret ? nvdla_runtime_error(rt) : "same bytes");
	nvdla_buffer_del(b);
	tap_ok(!ret && filled(nvdla_buffer_map(a), 0x7e),
	       "deleting the imported one leaves the original");
	nvdla_buffer_del(a);
	if (fd >= 0)
		close(fd);
}

/*
 * Another runtime imports a buffer's fd: on the same device (another DRM
 * file, or another model in process), and, for a device's dma-buf, on the
 * in-process model, which maps it.
 */
static void test_other_runtime(struct nvdla_runtime *rt, const char *device,
			       const char *other)
{
	struct nvdla_runtime *rt2 = NULL;
	struct nvdla_buffer *a = NULL, *b = NULL;
	char err[256] = "";
	int fd = -1, ret;

	ret = nvdla_buffer_new(rt, SIZE, &a) || nvdla_buffer_export(a, &fd) ||
	      nvdla_runtime_new(other, &rt2, err, sizeof(err));
	if (!ret) {
		memset(nvdla_buffer_map(a), 0x6b, SIZE);
		ret = nvdla_buffer_import(rt2, fd, &b);
	}
	/* Written through each, read through the other. */
	if (!ret)
		memset(nvdla_buffer_map(b), 0x6c, 16);
	tap_ok(!ret && ((uint8_t *)nvdla_buffer_map(a))[15] == 0x6c &&
	       ((uint8_t *)nvdla_buffer_map(b))[16] == 0x6b,
	       "a buffer of %s imported by a runtime on %s: the same memory both ways (%s)",
	       device, other,
	       ret ? (*err ? err : nvdla_runtime_error(rt2 ? rt2 : rt)) : "shared");
	nvdla_buffer_del(b);
	nvdla_runtime_del(rt2);
	nvdla_buffer_del(a);
	if (fd >= 0)
		close(fd);
}

/*
 * A memfd as the input and the output: in process without a copy; the
 * driver refuses memory that is not an nvdla device's dma-buf.
 */
static void test_import_memfd(struct nvdla_runtime *rt, bool model)
{
	struct nvdla_network *net = echo(rt);
	int in_fd = memfd_create("in", MFD_CLOEXEC);
	int out_fd = memfd_create("out", MFD_CLOEXEC);
	struct nvdla_buffer *in = NULL, *out = NULL;
	uint8_t *in_map = NULL, *out_map = NULL;
	int ret;

	ret = !net || in_fd < 0 || out_fd < 0 || ftruncate(in_fd, SIZE) ||
	      ftruncate(out_fd, SIZE);
	if (!ret) {
		in_map = map_fd(in_fd);
		out_map = map_fd(out_fd);
		memset(in_map, 0x44, SIZE);
		ret = nvdla_buffer_import(rt, in_fd, &in);
	}
	if (!model) {
		tap_ok(ret == -EINVAL && !in &&
		       strstr(nvdla_runtime_error(rt), "one range of addresses"),
		       "through the driver a memfd is refused: %s",
		       nvdla_runtime_error(rt));
		goto out;
	}
	ret = ret || nvdla_buffer_import(rt, out_fd, &out) ||
	      nvdla_network_bind_input(net, 0, in) ||
	      nvdla_network_bind_output(net, 0, out) ||
	      nvdla_network_submit(net, 0);
	tap_ok(!ret && filled(out_map, 0x44) &&
	       nvdla_buffer_map(in) != (void *)in_map,
	       "imported memfds as input and output: the output appears in the caller's own mapping (%s)",
	       ret ? nvdla_runtime_error(rt) : "equal");
out:
	nvdla_network_unload(net);
	nvdla_buffer_del(in);
	nvdla_buffer_del(out);
	if (in_map)
		munmap(in_map, SIZE);
	if (out_map)
		munmap(out_map, SIZE);
	close(in_fd);
	close(out_fd);
}

/* A dma-buf of a SIZE-byte vgem buffer, writable through mmap, or -1. */
static int vgem_dmabuf(int vgem)
{
	struct drm_mode_create_dumb dumb = {
		.width = SIZE / 4, .height = 1, .bpp = 32,
	};
	struct drm_gem_close gem = { 0 };
	int fd = -1;

	if (drmIoctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return -1;
	if (drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC | DRM_RDWR, &fd))
		fd = -1;
	/* The dma-buf holds the object. */
	gem.handle = dumb.handle;
	drmIoctl(vgem, DRM_IOCTL_GEM_CLOSE, &gem);
	return fd;
}

/*
 * Through the driver, the vgem dma-buf at @map (fd @fd) as @rt's input:
 * where the device sees it as one range (behind an IOMMU, or its pages
 * contiguous), each run copies what vgem's mapping holds then; else
 * refused with -EINVAL and why.
 */
static void test_vgem_device(struct nvdla_runtime *rt, int fd, uint8_t *map)
{
	struct nvdla_network *net = echo(rt);
	struct nvdla_buffer *in = NULL;
	const uint8_t *out;
	int ret;

	ret = map && net ? nvdla_buffer_import(rt, fd, &in) : -ENODEV;
	if (ret) {
		tap_ok(ret == -EINVAL && !in &&
		       strstr(nvdla_runtime_error(rt), "one range of addresses"),
		       "through the driver a vgem dma-buf the device does not see as one range is refused: %s",
		       nvdla_runtime_error(rt));
		nvdla_network_unload(net);
		return;
	}
	out = nvdla_buffer_map(nvdla_network_output(net, 0));
	ret = nvdla_network_bind_input(net, 0, in) ||
	      nvdla_network_submit(net, 0);
	if (!ret && filled(out, 0x2d)) {
		memset(map, 0x2e, SIZE);
		ret = nvdla_network_submit(net, 0) || !filled(out, 0x2e);
	} else {
		ret = 1;
	}
	tap_ok(!ret,
	       "through the driver a vgem dma-buf is the input without a copy: each run reads what vgem's mapping holds (%s)",
	       ret ? nvdla_runtime_error(rt) : "0x2d, then 0x2e");
	memset(map, 0x2d, SIZE);
	nvdla_network_unload(net);
	nvdla_buffer_del(in);
}

/*
 * A vgem dma-buf as the input of the in-process model: what vgem's
 * mapping holds is copied by the network; through the driver as well
 * where the device sees it as one range.
 */
static void test_vgem(struct nvdla_runtime *rt, bool model)
{
	struct nvdla_runtime *sim = model ? rt : NULL;
	struct nvdla_network *net = NULL;
	struct nvdla_buffer *in = NULL;
	int vgem = open_vgem(), fd = -1, ret;
	uint8_t *map = NULL;
	char err[256] = "";

	if (vgem < 0) {
		tap_skip("no vgem device", "a vgem dma-buf as an input");
		return;
	}
	fd = vgem_dmabuf(vgem);
	map = fd < 0 ? NULL : map_fd(fd);
	if (map)
		memset(map, 0x2d, SIZE);
	if (!model) {
		test_vgem_device(rt, fd, map);
		ret = nvdla_runtime_new("sim:nv_full", &sim, err, sizeof(err));
	} else {
		ret = 0;
	}
	net = ret ? NULL : echo(sim);
	ret = !map || !net || nvdla_buffer_import(sim, fd, &in) ||
	      nvdla_network_bind_input(net, 0, in) ||
	      nvdla_network_submit(net, 0);
	tap_ok(!ret && filled(nvdla_buffer_map(nvdla_network_output(net, 0)), 0x2d),
	       "a vgem dma-buf as the in-process model's input, without a copy (%s)",
	       ret ? (*err ? err : sim ? nvdla_runtime_error(sim) : "no vgem buffer") :
	       "copied by the network");
	nvdla_network_unload(net);
	nvdla_buffer_del(in);
	if (sim != rt)
		nvdla_runtime_del(sim);
	if (map)
		munmap(map, SIZE);
	if (fd >= 0)
		close(fd);
	close(vgem);
}

static void test_refused(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt);
	struct nvdla_buffer *buf = (struct nvdla_buffer *)&buf, *small = NULL;
	int pipes[2], empty = memfd_create("empty", MFD_CLOEXEC);
	int half = memfd_create("half", MFD_CLOEXEC), ret;

	tap_ok(nvdla_buffer_import(rt, -1, &buf) == -EBADF && !buf,
	       "importing fd -1: -EBADF, no buffer: %s", nvdla_runtime_error(rt));
	buf = (struct nvdla_buffer *)&buf;
	tap_ok(!pipe(pipes) && nvdla_buffer_import(rt, pipes[0], &buf) == -EINVAL &&
	       !buf && strstr(nvdla_runtime_error(rt), "known size"),
	       "importing a pipe: -EINVAL: %s", nvdla_runtime_error(rt));
	close(pipes[0]);
	close(pipes[1]);
	tap_ok(nvdla_buffer_import(rt, empty, &buf) == -EINVAL && !buf,
	       "importing an empty memfd: -EINVAL: %s", nvdla_runtime_error(rt));
	close(empty);
	ret = ftruncate(half, SIZE / 2) ? -errno : nvdla_buffer_import(rt, half, &small);
	if (!small || !net)
		tap_skip("the device imports no memfd", "a short import refused as an input");
	else
		tap_ok(nvdla_network_bind_input(net, 0, small) == -EINVAL &&
		       nvdla_network_input(net, 0) != small,
		       "an imported memfd smaller than the tensor is refused as its input (%d)",
		       ret);
	nvdla_network_unload(net);
	nvdla_buffer_del(small);
	close(half);
}

/*
 * A regular file opened for reading and writing imports; opened read-only
 * it cannot be mapped for the device to write.
 */
static void test_read_only(struct nvdla_runtime *rt, bool model)
{
	char path[] = "/tmp/nvdla-share-XXXXXX";
	struct nvdla_buffer *buf = NULL;
	int fd = mkstemp(path), ro, ret;
	uint8_t byte = 0;

	if (!model || fd < 0 || ftruncate(fd, SIZE)) {
		tap_skip(model ? "no temporary file" : "a device imports dma-bufs only",
			 "a regular file imports, read-only refused");
		if (fd >= 0)
			close(fd);
		unlink(path);
		return;
	}
	ret = nvdla_buffer_import(rt, fd, &buf);
	if (!ret)
		memset(nvdla_buffer_map(buf), 0x19, SIZE);
	nvdla_buffer_del(buf);
	tap_ok(!ret && pread(fd, &byte, 1, SIZE - 1) == 1 && byte == 0x19,
	       "a regular file opened for reading and writing imports: its bytes written through the buffer (%s)",
	       ret ? nvdla_runtime_error(rt) : "written");
	buf = NULL;
	ro = open(path, O_RDONLY | O_CLOEXEC);
	ret = nvdla_buffer_import(rt, ro, &buf);
	tap_ok(ret == -EACCES && !buf, "a file opened read-only: -EACCES: %s",
	       nvdla_runtime_error(rt));
	close(ro);
	close(fd);
	unlink(path);
}

/*
 * On the in-process model, or on the device NVDLA_TEST_DEVICE names (the
 * guests' 35-runtime-api.sh). The first argument is run-tests.sh's build
 * directory.
 */
int main(void)
{
	const char *device = getenv("NVDLA_TEST_DEVICE") ?: "sim:nv_full";
	bool model = !strncmp(device, "sim:", 4);
	struct nvdla_network *net;
	struct nvdla_runtime *rt;
	char err[256];

	if (nvdla_runtime_new(device, &rt, err, sizeof(err))) {
		tap_ok(0, "runtime on %s: %s", device, err);
		return tap_done();
	}
	net = echo(rt);
	tap_ok(net != NULL, "echo network of %u bytes loaded on %s", SIZE, device);
	nvdla_network_unload(net);
	test_export(rt);
	test_round_trip(rt);
	test_other_runtime(rt, device, device);
	if (!model)
		test_other_runtime(rt, device, "sim:nv_full");
	else
		tap_skip("no device", "a device's dma-buf imported on the in-process model");
	test_import_memfd(rt, model);
	test_vgem(rt, model);
	test_refused(rt);
	test_read_only(rt, model);
	nvdla_runtime_del(rt);
	return tap_done();
}
