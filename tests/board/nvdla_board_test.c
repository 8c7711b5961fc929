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

#include "nvdla_test.h"

#include "kselftest_harness.h"

#define POOL_SIZE (4u << 20)
#define HALF (POOL_SIZE / 2)

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

TEST_F(bare, job_without_interrupt_times_out)
{
	struct bdma_task t;

	ASSERT_EQ(0, bdma_task_init(&t, self->fd));
	ASSERT_EQ(0, set_param("job_timeout_ms", 1000));
	EXPECT_EQ(-ETIMEDOUT, job_run(&t));
	EXPECT_EQ(0, set_param("job_timeout_ms", 5000));
	bdma_task_fini(&t);
}

TEST_HARNESS_MAIN
