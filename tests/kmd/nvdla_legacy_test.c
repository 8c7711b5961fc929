// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The official driver's interface inside the QEMU guest, as its user space
 * uses it: buffers exported as dma-buf descriptors, named by descriptor in
 * the address list of DRM_IOCTL_NVDLA_LEGACY_SUBMIT, which returns when the
 * task has ended; GEM_DESTROY instead of GEM_CLOSE.
 */
#include <signal.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

FIXTURE(legacy) {
	struct bdma_task t;
	struct drm_nvdla_legacy_address list[NUM_ENTRIES];
	struct drm_nvdla_legacy_task task;
	struct drm_nvdla_legacy_submit submit;
};

FIXTURE_SETUP(legacy)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	int i;

	ASSERT_EQ(0, bdma_task_open(&self->t))
		TH_LOG("no nvdla device node, or no buffers on it");
	for (i = 0; i < NUM_ENTRIES; i++) {
		prime.handle = self->t.handle[i];
		ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
				    &prime));
		self->list[i].handle = prime.fd;
	}
	self->task.num_addresses = NUM_ENTRIES;
	self->task.timeout = 0xffffffff;
	self->task.address_list = (uintptr_t)self->list;
	self->submit.tasks = (uintptr_t)&self->task;
	self->submit.num_tasks = 1;
}

FIXTURE_TEARDOWN(legacy)
{
	bdma_task_close(&self->t);
}

static int submit(FIXTURE_DATA(legacy) *self)
{
	return xioctl(self->t.fd, DRM_IOCTL_NVDLA_LEGACY_SUBMIT, &self->submit);
}

TEST_F(legacy, ioctl_numbers)
{
	/* The numbers of the official nvdla_ioctl.h. */
	EXPECT_EQ(0xC0106440, DRM_IOCTL_NVDLA_LEGACY_SUBMIT);
	EXPECT_EQ(0xC0106441, DRM_IOCTL_NVDLA_GEM_CREATE);
	EXPECT_EQ(0xC0106442, DRM_IOCTL_NVDLA_GEM_MMAP);
	EXPECT_EQ(0xC0046443, DRM_IOCTL_NVDLA_LEGACY_GEM_DESTROY);
}

TEST_F(legacy, bdma_copy)
{
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

TEST_F(legacy, two_tasks)
{
	struct drm_nvdla_legacy_task tasks[2] = { self->task, self->task };

	self->submit.tasks = (uintptr_t)tasks;
	self->submit.num_tasks = 2;
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

TEST_F(legacy, no_tasks)
{
	self->submit.num_tasks = 0;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(legacy, too_many_tasks)
{
	self->submit.num_tasks = DRM_NVDLA_LEGACY_MAX_TASKS + 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(legacy, bad_descriptor)
{
	self->list[3].handle = 999;
	EXPECT_EQ(-ENOENT, submit(self));
}

/* A descriptor that is open but not a dma-buf. */
TEST_F(legacy, descriptor_not_a_buffer)
{
	self->list[3].handle = self->t.fd;
	EXPECT_EQ(-ENOENT, submit(self));
}

/*
 * A buffer of the other device is one range for this one too (contiguous,
 * or mapped by its IOMMU): imported, the task copies from it.
 */
TEST_F(legacy, descriptor_of_other_device)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	int i, fd2 = open_nvdla_nth(1);
	uint32_t handle;
	uint8_t *map;

	ASSERT_GE(fd2, 0) TH_LOG("no second nvdla device");
	ASSERT_EQ(0, bo_new(fd2, COPY_SIZE, &handle, (void **)&map));
	for (i = 0; i < COPY_SIZE; i++)
		map[i] = (uint8_t)(i * 5 + 3);
	prime.handle = handle;
	ASSERT_EQ(0, xioctl(fd2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime));
	self->list[SRC].handle = prime.fd;
	EXPECT_EQ(0, submit(self));
	EXPECT_EQ(0, memcmp(map, self->t.map[DST], COPY_SIZE));
	close(prime.fd);
	munmap(map, COPY_SIZE);
	close(fd2);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A signal interrupts the wait for a task with -EINTR (not restarted, so
 * the task is not run twice); the task ends in its own time.
 */
TEST_F(legacy, wait_interrupted_by_signal)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int ret, job_timeout_ms = param_value("job_timeout_ms");
	struct timespec t0, t1;

	if (!on_vdev())
		SKIP(return, "no fault injection on a board's device");
	ASSERT_LE(0, job_timeout_ms);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, set_param("job_timeout_ms", 3000));
	ASSERT_EQ(0, set_fault(1));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	alarm(1);
	ret = submit(self);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	set_fault(0);
	EXPECT_EQ(-EINTR, ret);
	EXPECT_LT(t1.tv_sec - t0.tv_sec, 3) TH_LOG("the wait outlasted the signal");
	/* The interrupted task still ends (timeout), then the device works. */
	usleep(3500 * 1000);
	set_param("job_timeout_ms", job_timeout_ms);
	EXPECT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

TEST_F(legacy, offset_past_object)
{
	self->list[SRC].offset = COPY_SIZE;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(legacy, malformed_task)
{
	bdma_task_write(&self->t, 99, COPY_SIZE);
	EXPECT_EQ(-EINVAL, submit(self));
	bdma_task_write(&self->t, SRC, COPY_SIZE);
	EXPECT_EQ(0, submit(self));
}

TEST_F(legacy, bad_pointers)
{
	self->task.address_list = 16;
	EXPECT_EQ(-EFAULT, submit(self));
	self->submit.tasks = 16;
	EXPECT_EQ(-EFAULT, submit(self));
}

TEST_F(legacy, gem_destroy)
{
	struct drm_nvdla_legacy_gem_destroy d = { .handle = self->t.handle[0] };
	struct drm_nvdla_gem_mmap m = { .handle = self->t.handle[0] };

	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_LEGACY_GEM_DESTROY, &d));
	EXPECT_EQ(-ENOENT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_LEGACY_GEM_DESTROY,
				  &d));
}

TEST_HARNESS_MAIN
