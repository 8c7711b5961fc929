// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * On the emulated board (tools/qemu/run-board.sh): the buffers of a device
 * whose node has a memory-region come from that region. The region is
 * 4 MiB, so two 2 MiB buffers fill it and a third buffer, however small, is
 * refused although the system has plenty of memory; freeing one makes room
 * again. Built with the kselftest harness for arm64.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <nvdla_accel.h>

#include "kselftest_harness.h"

#define POOL_SIZE (4u << 20)
#define HALF (POOL_SIZE / 2)
/* The render node of the board's only DRM device (6.1: no accel nodes). */
#define NODE "/dev/dri/renderD128"

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

FIXTURE(pool) {
	int fd;
};

FIXTURE_SETUP(pool)
{
	self->fd = open(NODE, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("cannot open " NODE);
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
	struct drm_nvdla_gem_mmap m = { 0 };
	uint8_t *p;
	uint32_t i;

	ASSERT_EQ(0, gem_create(self->fd, HALF, &m.handle));
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	p = mmap(NULL, HALF, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 m.offset);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < HALF; i++)
		p[i] = i * 7 + 3;
	for (i = 0; i < HALF; i++)
		if (p[i] != (uint8_t)(i * 7 + 3))
			break;
	EXPECT_EQ(HALF, i);
	EXPECT_EQ(0, munmap(p, HALF));
	EXPECT_EQ(0, gem_close(self->fd, m.handle));
}

TEST_HARNESS_MAIN
