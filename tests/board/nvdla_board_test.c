// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * On the emulated board (tools/qemu/run-board.sh), whose two NVDLA nodes
 * have no engine behind them (tools/qemu/board/nvdla-virt.dtsi):
 * - 7f000000.npu has a 4 MiB memory-region: two 2 MiB buffers fill it, a
 *   third, however small, is refused although the system has plenty of
 *   memory, and freeing one makes room again;
 * - 7f200000.npu has none, so a buffer larger than that region works; a
 *   job on it never raises its interrupt, so it ends with -ETIMEDOUT at
 *   its deadline (the driver then pulses the node's reset line).
 * Built with the kselftest harness for arm64.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <nvdla/dla_interface.h>
#include <nvdla_accel.h>

#include "kselftest_harness.h"

#define POOL_SIZE (4u << 20)
#define HALF (POOL_SIZE / 2)
#define NUM_ENTRIES 6	/* net, graph, ops, surfaces, source, destination */

/* The render node (6.1 has no accel nodes) of platform device @name. */
static int open_device(const char *name)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t len;
	int minor;

	for (minor = 128; minor < 136; minor++) {
		snprintf(link, sizeof(link), "/sys/class/drm/renderD%d/device",
			 minor);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = 0;
		base = strrchr(target, '/');
		if (base && !strcmp(base + 1, name)) {
			snprintf(link, sizeof(link), "/dev/dri/renderD%d", minor);
			return open(link, O_RDWR | O_CLOEXEC);
		}
	}
	return -1;
}

static int gem_create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_nvdla_gem_create c = { .size = size };

	if (ioctl(fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c))
		return -errno;
	*handle = c.handle;
	return 0;
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) ? -errno : 0;
}

static void *gem_map(int fd, uint32_t handle, size_t size)
{
	struct drm_nvdla_gem_mmap m = { .handle = handle };

	if (ioctl(fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m))
		return MAP_FAILED;
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    m.offset);
}

/* Fill @size bytes at @p with a pattern and read it back. */
static int pattern_holds(uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		p[i] = i * 7 + 3;
	for (i = 0; i < size; i++)
		if (p[i] != (uint8_t)(i * 7 + 3))
			return 0;
	return 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

FIXTURE(pool) {
	int fd;
};

FIXTURE_SETUP(pool)
{
	self->fd = open_device("7f000000.npu");
	ASSERT_GE(self->fd, 0) TH_LOG("no node for 7f000000.npu");
}

FIXTURE_TEARDOWN(pool)
{
	close(self->fd);
}

TEST_F(pool, region_bounds_the_buffers)
{
	uint32_t a = 0, b = 0, c = 0;

	ASSERT_EQ(0, gem_create(self->fd, HALF, &a));
	ASSERT_EQ(0, gem_create(self->fd, HALF, &b));
	EXPECT_EQ(-ENOMEM, gem_create(self->fd, 4096, &c));
	ASSERT_EQ(0, gem_close(self->fd, a));
	ASSERT_EQ(0, gem_create(self->fd, HALF, &a));
	EXPECT_EQ(0, gem_close(self->fd, a));
	EXPECT_EQ(0, gem_close(self->fd, b));
}

TEST_F(pool, region_memory_maps)
{
	uint32_t handle = 0;
	uint8_t *p;

	ASSERT_EQ(0, gem_create(self->fd, HALF, &handle));
	p = gem_map(self->fd, handle, HALF);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(pattern_holds(p, HALF));
	EXPECT_EQ(0, munmap(p, HALF));
	EXPECT_EQ(0, gem_close(self->fd, handle));
}

FIXTURE(bare) {
	int fd;
};

FIXTURE_SETUP(bare)
{
	self->fd = open_device("7f200000.npu");
	ASSERT_GE(self->fd, 0) TH_LOG("no node for 7f200000.npu");
}

FIXTURE_TEARDOWN(bare)
{
	close(self->fd);
}

TEST_F(bare, buffers_beyond_the_other_region)
{
	uint32_t handle = 0;
	uint8_t *p;

	ASSERT_EQ(0, gem_create(self->fd, 2 * POOL_SIZE, &handle));
	p = gem_map(self->fd, handle, 2 * POOL_SIZE);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(pattern_holds(p, 2 * POOL_SIZE));
	EXPECT_EQ(0, munmap(p, 2 * POOL_SIZE));
	EXPECT_EQ(0, gem_close(self->fd, handle));
}

/* A one-transfer BDMA task copying entry 4 to entry 5, 4 KiB. */
static void write_bdma_task(void *const map[NUM_ENTRIES])
{
	struct dla_network_desc *net = map[0];
	struct dla_common_op_desc *graph = map[1];
	union dla_operation_container *op = map[2];
	union dla_surface_container *surf = map[3];
	struct dla_bdma_transfer_desc *x = &surf->bdma_surface.transfers[0];
	int k;

	net->dependency_graph_index = 1;
	net->operation_desc_index = 2;
	net->surface_desc_index = 3;
	net->lut_data_index = -1;
	net->roi_array_index = -1;
	net->surface_index = -1;
	net->stat_list_index = -1;
	for (k = 0; k < DLA_OP_NUM; k++) {
		net->op_head[k] = k == DLA_OP_BDMA ? 0 : -1;
		graph->consumers[k].index = -1;
	}
	net->num_rois = 1;
	net->num_operations = 1;
	graph->op_type = DLA_OP_BDMA;
	graph->fused_parent.index = -1;
	op->bdma_op.num_transfers = 1;
	surf->bdma_surface.num_transfers = 1;
	x->source_address = 4;
	x->destination_address = 5;
	x->line_size = 256;
	x->line_repeat = 16;
	x->source_line = 256;
	x->destination_line = 256;
	x->surface_repeat = 1;
	x->source_surface = 4096;
	x->destination_surface = 4096;
}

/* Write a module parameter of nvdla.ko. */
static int set_param(const char *name, int value)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/nvdla/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", value);
	return fclose(f) ? -errno : 0;
}

TEST_F(bare, job_without_interrupt_times_out)
{
	struct drm_nvdla_address addr[NUM_ENTRIES] = { 0 };
	struct drm_nvdla_submit submit = {
		.addresses = (uintptr_t)addr,
		.num_addresses = NUM_ENTRIES,
		.address_size = sizeof(addr[0]),
	};
	struct drm_nvdla_wait wait = { 0 };
	void *map[NUM_ENTRIES];
	int i;

	for (i = 0; i < NUM_ENTRIES; i++) {
		ASSERT_EQ(0, gem_create(self->fd, 4096, &addr[i].handle));
		map[i] = gem_map(self->fd, addr[i].handle, 4096);
		ASSERT_NE(MAP_FAILED, map[i]);
	}
	write_bdma_task(map);
	ASSERT_EQ(0, set_param("job_timeout_ms", 1000));
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_NVDLA_SUBMIT, &submit));
	wait.job_id = submit.job_id;
	wait.timeout_ns = now_ns() + 10000000000LL;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_NVDLA_WAIT, &wait));
	EXPECT_EQ(-ETIMEDOUT, wait.status);
	EXPECT_EQ(0, set_param("job_timeout_ms", 5000));
}

TEST_HARNESS_MAIN
