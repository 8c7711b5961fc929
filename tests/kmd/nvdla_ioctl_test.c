// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Driver ioctls inside the QEMU guest, one path per test: buffer objects,
 * mapping, submission of hand-built BDMA tasks, and every rejection with
 * its errno. Built with the kselftest harness from the kernel sources.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#define COPY_SIZE 4096
#define NUM_ENTRIES 6	/* net, graph, ops, surfaces, source, destination */

static int is_nvdla(int fd)
{
	char name[16] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	return !ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "nvdla");
}

static int open_nvdla(void)
{
	static const char *const nodes[] = {
		"/dev/accel/accel0", "/dev/accel/accel1",
		"/dev/dri/renderD128", "/dev/dri/renderD129",
	};
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		fd = open(nodes[i], O_RDWR | O_CLOEXEC);
		if (fd >= 0 && is_nvdla(fd))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int bo_new(int fd, uint64_t size, uint32_t *handle, void **map)
{
	struct drm_nvdla_gem_create c = { .size = size };
	struct drm_nvdla_gem_mmap m = { 0 };
	int ret = xioctl(fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c);

	if (ret)
		return ret;
	*handle = c.handle;
	m.handle = c.handle;
	ret = xioctl(fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m);
	if (ret)
		return ret;
	*map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    m.offset);
	return *map == MAP_FAILED ? -errno : 0;
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static int64_t deadline(int seconds)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)(ts.tv_sec + seconds) * 1000000000 + ts.tv_nsec;
}

FIXTURE(nvdla) {
	int fd;
	uint32_t handle[NUM_ENTRIES];
	void *map[NUM_ENTRIES];
	struct drm_nvdla_address addr[NUM_ENTRIES];
	struct drm_nvdla_submit submit;
};

/* A one-transfer BDMA task copying entry 4 to entry 5. */
static void write_task(FIXTURE_DATA(nvdla) *self, int16_t src_index)
{
	struct dla_network_desc *net = self->map[0];
	struct dla_common_op_desc *graph = self->map[1];
	union dla_operation_container *op = self->map[2];
	union dla_surface_container *surf = self->map[3];
	struct dla_bdma_transfer_desc *x = &surf->bdma_surface.transfers[0];
	int k;

	memset(net, 0, sizeof(*net));
	net->dependency_graph_index = 1;
	net->operation_desc_index = 2;
	net->surface_desc_index = 3;
	net->lut_data_index = -1;
	net->roi_array_index = -1;
	net->surface_index = -1;
	net->stat_list_index = -1;
	for (k = 0; k < DLA_OP_NUM; k++)
		net->op_head[k] = k == DLA_OP_BDMA ? 0 : -1;
	net->num_rois = 1;
	net->num_operations = 1;

	memset(graph, 0, sizeof(*graph));
	graph->op_type = DLA_OP_BDMA;
	for (k = 0; k < DLA_OP_NUM; k++)
		graph->consumers[k].index = -1;
	graph->fused_parent.index = -1;

	memset(op, 0, sizeof(*op));
	op->bdma_op.num_transfers = 1;
	memset(surf, 0, sizeof(*surf));
	surf->bdma_surface.num_transfers = 1;
	x->source_address = src_index;
	x->destination_address = 5;
	x->line_size = 256;
	x->line_repeat = COPY_SIZE / 256;
	x->source_line = 256;
	x->destination_line = 256;
	x->surface_repeat = 1;
	x->source_surface = COPY_SIZE;
	x->destination_surface = COPY_SIZE;
}

FIXTURE_SETUP(nvdla)
{
	int i;

	self->fd = open_nvdla();
	ASSERT_GE(self->fd, 0) TH_LOG("no nvdla device node");
	for (i = 0; i < NUM_ENTRIES; i++) {
		ASSERT_EQ(0, bo_new(self->fd, COPY_SIZE, &self->handle[i],
				    &self->map[i]));
		self->addr[i].handle = self->handle[i];
	}
	for (i = 0; i < COPY_SIZE; i++)
		((uint8_t *)self->map[4])[i] = i * 13 + 7;
	write_task(self, 4);
	self->submit.addresses = (uintptr_t)self->addr;
	self->submit.num_addresses = NUM_ENTRIES;
	self->submit.address_size = sizeof(struct drm_nvdla_address);
	self->submit.timeout_ns = deadline(10);
}

FIXTURE_TEARDOWN(nvdla)
{
	close(self->fd);
}

static int submit(FIXTURE_DATA(nvdla) *self)
{
	return xioctl(self->fd, DRM_IOCTL_NVDLA_SUBMIT, &self->submit);
}

TEST_F(nvdla, bdma_copy)
{
	ASSERT_EQ(0, submit(self));
	EXPECT_EQ(0, memcmp(self->map[4], self->map[5], COPY_SIZE));
}

TEST_F(nvdla, gem_create_size_zero)
{
	struct drm_nvdla_gem_create c = { .size = 0 };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

TEST_F(nvdla, gem_create_flags)
{
	struct drm_nvdla_gem_create c = { .size = 4096, .flags = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

TEST_F(nvdla, gem_create_huge)
{
	struct drm_nvdla_gem_create c = { .size = UINT64_MAX };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

TEST_F(nvdla, gem_mmap_bad_handle)
{
	struct drm_nvdla_gem_mmap m = { .handle = 0xdead };

	EXPECT_EQ(-ENOENT, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
}

TEST_F(nvdla, gem_mmap_reserved)
{
	struct drm_nvdla_gem_mmap m = { .handle = self->handle[0],
					.reserved = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
}

TEST_F(nvdla, gem_mmap_pattern)
{
	struct drm_nvdla_gem_mmap m = { .handle = self->handle[4] };
	uint8_t *again;

	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	again = mmap(NULL, COPY_SIZE, PROT_READ, MAP_SHARED, self->fd, m.offset);
	ASSERT_NE(MAP_FAILED, again);
	EXPECT_EQ(0, memcmp(again, self->map[4], COPY_SIZE));
	munmap(again, COPY_SIZE);
}

TEST_F(nvdla, submit_bad_handle)
{
	self->addr[3].handle = 0xdead;
	EXPECT_EQ(-ENOENT, submit(self));
}

TEST_F(nvdla, submit_flags)
{
	self->submit.flags = 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_reserved)
{
	self->submit.reserved = 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_entry_reserved)
{
	self->addr[2].reserved = 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_address_size)
{
	self->submit.address_size = 8;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_no_addresses)
{
	self->submit.num_addresses = 0;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_too_many_addresses)
{
	self->submit.num_addresses = UINT32_MAX;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_offset_past_object)
{
	self->addr[4].offset = COPY_SIZE;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_bad_pointer)
{
	self->submit.addresses = 16;
	EXPECT_EQ(-EFAULT, submit(self));
}

/* The firmware refuses it before touching the hardware; then all is well. */
TEST_F(nvdla, submit_index_past_list)
{
	write_task(self, 99);
	EXPECT_EQ(-EINVAL, submit(self));
	write_task(self, 4);
	ASSERT_EQ(0, submit(self));
	EXPECT_EQ(0, memcmp(self->map[4], self->map[5], COPY_SIZE));
}

TEST_F(nvdla, submit_transfer_past_buffer)
{
	self->addr[5].offset = 256;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_other_file_handle)
{
	int other = open_nvdla();
	uint32_t handle;
	void *map;

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, bo_new(other, COPY_SIZE, &handle, &map));
	/* A handle number valid only in the other file. */
	self->addr[5].handle = handle + 100;
	EXPECT_EQ(-ENOENT, submit(self));
	close(other);
}

TEST_F(nvdla, buffer_freed_while_mapped)
{
	uint8_t *dst = self->map[5];

	ASSERT_EQ(0, gem_close(self->fd, self->handle[5]));
	dst[0] = 0x5a;
	EXPECT_EQ(0x5a, dst[0]);
	EXPECT_EQ(-ENOENT, submit(self));
	EXPECT_EQ(-EINVAL, gem_close(self->fd, self->handle[5]));
}

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_nvdla_get_param p = { .param = param };
	int ret = xioctl(fd, DRM_IOCTL_NVDLA_GET_PARAM, &p);

	*value = p.value;
	return ret;
}

TEST_F(nvdla, get_param)
{
	struct drm_nvdla_get_param bad = { .param = 99 };
	uint64_t v;

	ASSERT_EQ(0, get_param(self->fd, DRM_NVDLA_PARAM_CONFIG, &v));
	EXPECT_EQ(DRM_NVDLA_CONFIG_NV_FULL, v);
	ASSERT_EQ(0, get_param(self->fd, DRM_NVDLA_PARAM_ATOM_SIZE, &v));
	EXPECT_EQ(32, v);
	ASSERT_EQ(0, get_param(self->fd, DRM_NVDLA_PARAM_CAPS, &v));
	EXPECT_EQ(DRM_NVDLA_CAP_BDMA | DRM_NVDLA_CAP_RUBIK |
		  DRM_NVDLA_CAP_WEIGHT_COMPRESS | DRM_NVDLA_CAP_MODEL, v);
	ASSERT_EQ(0, get_param(self->fd, DRM_NVDLA_PARAM_HW_VERSION, &v));
	EXPECT_EQ(0x00303031, v);
	ASSERT_EQ(0, get_param(self->fd, DRM_NVDLA_PARAM_DRIVER_VERSION, &v));
	EXPECT_EQ(1, v);
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GET_PARAM, &bad));
	bad.param = DRM_NVDLA_PARAM_CONFIG;
	bad.reserved = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_NVDLA_GET_PARAM, &bad));
}

/* The virtual device's fault-injection knob (module parameter). */
static int set_fault(int fault)
{
	FILE *f = fopen("/sys/module/nvdla/parameters/nvdla_sim_fault", "w");

	if (!f)
		return -errno;
	fprintf(f, "%d\n", fault);
	return fclose(f) ? -errno : 0;
}

/* A job whose completion never interrupts times out; the next one works. */
TEST_F(nvdla, timeout_then_recovery)
{
	ASSERT_EQ(0, set_fault(1));
	self->submit.timeout_ns = deadline(0) + 300000000;	/* 300 ms */
	EXPECT_EQ(-ETIMEDOUT, submit(self));
	ASSERT_EQ(0, set_fault(0));
	memset(self->map[5], 0, COPY_SIZE);
	self->submit.timeout_ns = deadline(10);
	ASSERT_EQ(0, submit(self));
	EXPECT_EQ(0, memcmp(self->map[4], self->map[5], COPY_SIZE));
}

/* Memory errors on the bus end the job with -EIO; the next one works. */
TEST_F(nvdla, bus_error_then_recovery)
{
	ASSERT_EQ(0, set_fault(2));
	EXPECT_EQ(-EIO, submit(self));
	ASSERT_EQ(0, set_fault(0));
	memset(self->map[5], 0, COPY_SIZE);
	ASSERT_EQ(0, submit(self));
	EXPECT_EQ(0, memcmp(self->map[4], self->map[5], COPY_SIZE));
}

/* A deadline already past: refused without running; then all is well. */
TEST_F(nvdla, deadline_in_the_past)
{
	self->submit.timeout_ns = 1;
	EXPECT_EQ(-ETIMEDOUT, submit(self));
	self->submit.timeout_ns = deadline(10);
	EXPECT_EQ(0, submit(self));
}

TEST_HARNESS_MAIN
