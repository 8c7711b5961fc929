// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A bounded random ioctl fuzzer inside the QEMU guest: many thousands of
 * driver and core DRM ioctls with random arguments (random handles, sizes,
 * flags, offsets, pointers into random memory or to nowhere, short
 * deadlines) from two files. Any kernel warning ends the guest
 * (panic_on_warn); afterwards the device must still compute correctly.
 */
#include <stdlib.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

/* 20000 ioctls take about 30 s under TCG: more than the harness's default. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 90

#define ITERATIONS 20000	/* NVDLA_FUZZ_ITERATIONS: another count */
#define SCRATCH_SIZE 4096

static uint8_t scratch[SCRATCH_SIZE];

static uint64_t rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 2 ^ random();
}

/* A value that is often small, sometimes an edge, sometimes anything. */
static uint64_t rnd_value(void)
{
	static const uint64_t edges[] = { 0, 1, 31, 32, 4095, 4096, 4097,
					  UINT32_MAX, (uint64_t)INT64_MAX,
					  UINT64_MAX };

	switch (rnd() % 4) {
	case 0:
		return rnd() % 16;
	case 1:
		return edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
	default:
		return rnd();
	}
}

/* A user pointer: random memory, nothing, or an unmapped address. */
static uint64_t rnd_pointer(void)
{
	switch (rnd() % 4) {
	case 0:
		return 0;
	case 1:
		return 16;
	default:
		return (uintptr_t)scratch + rnd() % 64 * 8;
	}
}

static int64_t rnd_deadline(void)
{
	return rnd() % 8 ? deadline_ms(rnd() % 20) : (int64_t)rnd();
}

static void fill(void *arg, size_t size)
{
	uint8_t *p = arg;
	size_t i;

	for (i = 0; i < size; i++)
		p[i] = rnd();
}

static void fuzz_submit(int fd)
{
	struct drm_nvdla_submit s;

	fill(&s, sizeof(s));
	s.addresses = rnd_pointer();
	s.num_addresses = rnd() % 2 ? rnd() % 8 : rnd_value();
	s.address_size = rnd() % 2 ? sizeof(struct drm_nvdla_address) : rnd_value();
	s.in_syncs = rnd_pointer();
	s.num_in_syncs = rnd() % 2 ? rnd() % 4 : rnd_value();
	s.out_sync = rnd_value();
	s.flags = rnd() % 4 ? 0 : rnd_value();
	s.timeout_ms = rnd() % 4 ? 0 : rnd_value();
	ioctl(fd, DRM_IOCTL_NVDLA_SUBMIT, &s);
}

static void fuzz_legacy_submit(int fd)
{
	struct drm_nvdla_legacy_task *task = (void *)scratch;
	struct drm_nvdla_legacy_submit s;

	task->num_addresses = rnd() % 8;
	task->address_list = rnd_pointer();
	s.tasks = rnd_pointer();
	s.num_tasks = rnd_value();
	s.flags = rnd();
	s.version = rnd();
	ioctl(fd, DRM_IOCTL_NVDLA_LEGACY_SUBMIT, &s);
}

static void fuzz_wait(int fd)
{
	struct drm_nvdla_wait w = {
		.job_id = rnd_value(),
		.timeout_ns = rnd_deadline(),
		.reserved = rnd() % 4 ? 0 : rnd_value(),
	};
	struct drm_nvdla_gem_wait gw = {
		.handle = rnd_value(),
		.reserved = rnd() % 4 ? 0 : rnd_value(),
		.timeout_ns = rnd_deadline(),
	};

	ioctl(fd, DRM_IOCTL_NVDLA_WAIT, &w);
	ioctl(fd, DRM_IOCTL_NVDLA_GEM_WAIT, &gw);
}

static void fuzz_gem(int fd)
{
	struct drm_nvdla_gem_create c = { .size = rnd() % 2 ? rnd() % 65536 :
						   rnd_value(),
					  .flags = rnd() % 4 ? 0 : rnd_value() };
	struct drm_nvdla_gem_mmap m = { .handle = rnd_value(),
					.reserved = rnd() % 4 ? 0 : rnd_value() };
	struct drm_gem_close cl = { .handle = rnd_value() };
	struct drm_nvdla_legacy_gem_destroy d = { .handle = rnd_value() };
	struct drm_prime_handle p = { .handle = rnd_value(),
				      .flags = rnd() % 2 ? DRM_CLOEXEC : rnd() };
	void *map;

	if (!ioctl(fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c) && rnd() % 2) {
		cl.handle = c.handle;
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
		cl.handle = rnd_value();
	}
	if (!ioctl(fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m)) {
		map = mmap(NULL, 4096 * (1 + rnd() % 3), PROT_READ, MAP_SHARED,
			   fd, m.offset + 4096 * (rnd() % 2));
		if (map != MAP_FAILED)
			munmap(map, 4096);
	}
	ioctl(fd, rnd() % 2 ? DRM_IOCTL_GEM_CLOSE :
	      DRM_IOCTL_NVDLA_LEGACY_GEM_DESTROY, rnd() % 2 ? (void *)&cl : &d);
	if (!ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		close(p.fd);
}

static void fuzz_raw(int fd)
{
	uint8_t arg[64];
	unsigned int nr = DRM_COMMAND_BASE + rnd() % 12;

	fill(arg, sizeof(arg));
	ioctl(fd, DRM_IOWR(nr, struct drm_nvdla_submit), arg);
}

static void fuzz_syncobj(int fd)
{
	struct drm_syncobj_create c = { .flags = rnd() % 4 ? 0 : rnd() };
	struct drm_syncobj_destroy d = { .handle = rnd_value() };

	ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (rnd() % 2)
		ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

/*
 * A fixture only for a time limit of its own: the harness's 30 s is not
 * enough for the debug kernel's checkers (make check-debug).
 */
FIXTURE(fuzz) {
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F_TIMEOUT(fuzz, random_ioctls, 600)
{
	void (*const ops[])(int) = { fuzz_submit, fuzz_legacy_submit, fuzz_wait,
				     fuzz_gem, fuzz_raw, fuzz_syncobj };
	const char *env = getenv("NVDLA_FUZZ_ITERATIONS");
	int iterations = env ? atoi(env) : ITERATIONS;
	struct bdma_task t;
	int fds[2], i;

	srandom(0x5eed);
	fds[0] = open_nvdla();
	fds[1] = open_nvdla();
	ASSERT_GE(fds[0], 0);
	ASSERT_GE(fds[1], 0);
	/* Some real buffers and a real task for the random ones to hit. */
	ASSERT_EQ(0, bdma_task_init(&t, fds[0]));
	for (i = 0; i < iterations; i++) {
		fill(scratch, sizeof(scratch));
		if (i % 97 == 0)
			memcpy(scratch, t.addr, sizeof(t.addr));
		ops[rnd() % (sizeof(ops) / sizeof(ops[0]))](fds[rnd() % 2]);
	}
	close(fds[1]);

	/* The device still computes correctly. */
	bdma_task_fini(&t);
	ASSERT_EQ(0, bdma_task_init(&t, fds[0]));
	EXPECT_EQ(0, job_run(&t));
	EXPECT_TRUE(bdma_task_copied(&t));
	bdma_task_fini(&t);
	close(fds[0]);
}

TEST_HARNESS_MAIN
