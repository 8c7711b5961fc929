// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Fences inside the QEMU guest: a job's out-fence in a DRM sync object, a
 * job held back by an in-fence until it signals (a vgem fence, which the
 * test signals itself), in-fences across the two devices, and a failed
 * in-fence failing the job without running it.
 */
#include <dirent.h>
#include <linux/dma-buf.h>
#include <stdlib.h>

#include "nvdla_test.h"
#include "vgem_drm.h"

#include "kselftest_harness.h"

static uint32_t syncobj_new(int fd)
{
	struct drm_syncobj_create c = { 0 };

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) ? 0 : c.handle;
}

static int syncobj_wait(int fd, uint32_t handle, int64_t timeout_ns)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&handle,
		.count_handles = 1,
		.timeout_nsec = timeout_ns,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/* Move the fence of sync object @handle of @from into a new one of @to. */
static uint32_t syncobj_move(int from, uint32_t handle, int to)
{
	struct drm_syncobj_handle h = { .handle = handle };
	int ret;

	if (xioctl(from, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h))
		return 0;
	h.handle = 0;
	ret = xioctl(to, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h);
	close(h.fd);
	return ret ? 0 : h.handle;
}

/*
 * An unsignalled vgem fence, as a sync object of @fd: *@fence is the id to
 * signal it with on @vgem.
 */
static uint32_t vgem_fence_syncobj(int vgem, int fd, uint32_t *fence)
{
	struct drm_mode_create_dumb dumb = { .width = 64, .height = 1, .bpp = 32 };
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct dma_buf_export_sync_file sync = { .flags = DMA_BUF_SYNC_RW };
	struct drm_syncobj_handle imp = {
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
	};
	int ret;

	if (xioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return 0;
	attach.handle = dumb.handle;
	prime.handle = dumb.handle;
	if (xioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) ||
	    xioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
		return 0;
	*fence = attach.out_fence;
	ret = xioctl(prime.fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &sync);
	close(prime.fd);
	if (ret)
		return 0;
	imp.handle = syncobj_new(fd);
	imp.fd = sync.fd;
	ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp);
	close(sync.fd);
	return ret ? 0 : imp.handle;
}

FIXTURE(fence) {
	struct bdma_task t;
};

FIXTURE_SETUP(fence)
{
	ASSERT_EQ(0, bdma_task_open(&self->t))
		TH_LOG("no nvdla device node, or no buffers on it");
}

FIXTURE_TEARDOWN(fence)
{
	set_fault(0);
	bdma_task_close(&self->t);
}

TEST_F(fence, out_fence_signals)
{
	uint32_t out = syncobj_new(self->t.fd);
	uint64_t id;

	ASSERT_NE(0, out);
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, out, &id));
	ASSERT_EQ(0, syncobj_wait(self->t.fd, out, deadline_ms(10000)));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	EXPECT_EQ(0, job_wait(self->t.fd, id, 0));
}

/* The job does not start before its in-fence signals, then runs. */
TEST_F(fence, in_fence_holds_the_job)
{
	int vgem = open_vgem();
	struct drm_vgem_fence_signal sig = { 0 };
	uint32_t in;
	uint64_t id;

	ASSERT_GE(vgem, 0) TH_LOG("vgem is not loaded");
	in = vgem_fence_syncobj(vgem, self->t.fd, &sig.fence);
	ASSERT_NE(0, in);
	ASSERT_EQ(0, job_submit(&self->t, &in, 1, 0, &id));
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->t.fd, id, deadline_ms(300)));
	EXPECT_EQ(0, ((uint8_t *)self->t.map[DST])[1]);

	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	close(vgem);
}

/* A job waiting for its in-fence holds back the jobs queued after it. */
TEST_F(fence, queue_order_behind_in_fence)
{
	int vgem = open_vgem();
	struct drm_vgem_fence_signal sig = { 0 };
	uint64_t first, second;
	uint32_t in;

	ASSERT_GE(vgem, 0) TH_LOG("vgem is not loaded");
	in = vgem_fence_syncobj(vgem, self->t.fd, &sig.fence);
	ASSERT_NE(0, in);
	ASSERT_EQ(0, job_submit(&self->t, &in, 1, 0, &first));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &second));
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->t.fd, second, deadline_ms(300)));
	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	EXPECT_EQ(0, job_wait(self->t.fd, second, deadline_ms(10000)));
	EXPECT_EQ(0, job_wait(self->t.fd, first, 0));
	close(vgem);
}

/* A fence of one device holds back a job of the other. */
TEST_F(fence, in_fence_from_other_device)
{
	struct bdma_task other;
	uint32_t out, in;
	uint64_t a, b;
	int fd2 = open_nvdla_nth(1);

	ASSERT_GE(fd2, 0) TH_LOG("no second nvdla device");
	ASSERT_EQ(0, bdma_task_init(&other, fd2));
	out = syncobj_new(fd2);
	ASSERT_EQ(0, job_submit(&other, NULL, 0, out, &a));
	in = syncobj_move(fd2, out, self->t.fd);
	ASSERT_NE(0, in);
	ASSERT_EQ(0, job_submit(&self->t, &in, 1, 0, &b));
	EXPECT_EQ(0, job_wait(self->t.fd, b, deadline_ms(10000)));
	EXPECT_EQ(0, job_wait(fd2, a, 0));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	EXPECT_TRUE(bdma_task_copied(&other));
	bdma_task_fini(&other);
	close(fd2);
}

/* A job whose in-fence failed ends with that error and does not run. */
TEST_F(fence, failed_in_fence_fails_the_job)
{
	uint32_t sync = syncobj_new(self->t.fd);
	uint64_t a, b;

	if (!on_vdev())
		SKIP(return, "no fault injection on a board's device");
	ASSERT_EQ(0, set_fault(2));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, sync, &a));
	EXPECT_EQ(-EIO, job_wait(self->t.fd, a, deadline_ms(10000)));
	ASSERT_EQ(0, set_fault(0));
	memset(self->t.map[DST], 0, COPY_SIZE);
	ASSERT_EQ(0, job_submit(&self->t, &sync, 1, 0, &b));
	/* A failed job's status stays until a wait has reported it. */
	usleep(200 * 1000);
	EXPECT_EQ(-EIO, job_wait(self->t.fd, b, 0));
	EXPECT_EQ(0, ((uint8_t *)self->t.map[DST])[1]);
	EXPECT_EQ(0, job_wait(self->t.fd, b, 0));
	EXPECT_EQ(0, job_wait(self->t.fd, a, 0));
}

/* A file whose job waits for an in-fence holds back no other file. */
TEST_F(fence, blocked_file_holds_back_no_other)
{
	int vgem = open_vgem();
	struct drm_vgem_fence_signal sig = { 0 };
	struct bdma_task other;
	uint64_t held, id;
	uint32_t in;
	int i;

	ASSERT_GE(vgem, 0) TH_LOG("vgem is not loaded");
	in = vgem_fence_syncobj(vgem, self->t.fd, &sig.fence);
	ASSERT_NE(0, in);
	ASSERT_EQ(0, job_submit(&self->t, &in, 1, 0, &held));
	ASSERT_EQ(0, bdma_task_open(&other));
	for (i = 0; i < 10; i++) {
		memset(other.map[DST], 0, COPY_SIZE);
		ASSERT_EQ(0, job_submit(&other, NULL, 0, 0, &id));
		EXPECT_EQ(0, job_wait(other.fd, id, deadline_ms(10000)));
		EXPECT_TRUE(bdma_task_copied(&other));
	}
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->t.fd, held, 0));
	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	EXPECT_EQ(0, job_wait(self->t.fd, held, deadline_ms(10000)));
	bdma_task_close(&other);
	close(vgem);
}

/*
 * A file may have max_queued_jobs jobs queued or running: one more is
 * refused with -EBUSY, other files are not limited by it, and once its
 * jobs end it may queue again.
 */
TEST_F(fence, queued_jobs_capped_per_file)
{
	int vgem = open_vgem();
	struct drm_vgem_fence_signal sig = { 0 };
	struct bdma_task other;
	uint64_t ids[4], id;
	uint32_t in;
	int i;

	ASSERT_GE(vgem, 0) TH_LOG("vgem is not loaded");
	ASSERT_EQ(0, set_param("max_queued_jobs", 4));
	in = vgem_fence_syncobj(vgem, self->t.fd, &sig.fence);
	ASSERT_NE(0, in);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, job_submit(&self->t, &in, 1, 0, &ids[i]));
	EXPECT_EQ(-EBUSY, job_submit(&self->t, NULL, 0, 0, &id));
	ASSERT_EQ(0, bdma_task_open(&other));
	EXPECT_EQ(0, job_run(&other));
	bdma_task_close(&other);
	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, job_wait(self->t.fd, ids[i], deadline_ms(10000)));
	EXPECT_EQ(0, job_run(&self->t));
	set_param("max_queued_jobs", 128);
	close(vgem);
}

/*
 * A file's jobs end in the order they were submitted, also when one is
 * submitted as another ends (between the end of a file's job on the engine
 * and the start of its next): once the newest of a window ended, so did
 * every older one. Bursts for four seconds.
 */
TEST_F(fence, jobs_end_in_submission_order)
{
	int64_t end = deadline_ms(4000);
	unsigned int rounds = 0, early = 0;
	uint64_t ids[8];
	int i;

	while (deadline_ms(0) < end) {
		for (i = 0; i < 8; i++)
			ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &ids[i]));
		ASSERT_EQ(0, job_wait(self->t.fd, ids[7], deadline_ms(10000)));
		for (i = 0; i < 7; i++)
			early += job_wait(self->t.fd, ids[i], 0) != 0;
		for (i = 0; i < 7; i++)
			ASSERT_EQ(0, job_wait(self->t.fd, ids[i],
					      deadline_ms(10000)));
		rounds++;
	}
	TH_LOG("%u rounds of 8 jobs, %u older jobs not ended when the newest had",
	       rounds, early);
	EXPECT_EQ(0, early);
}

/* Unreclaimable slab memory of the guest, in kB. */
static long slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * Failed jobs, each waited for, leave nothing behind: 6000 jobs ending
 * with their in-fence's error grow the kernel's memory by less than 192 kB
 * (keeping each failed job's fence until the file is closed takes about
 * 430 kB: a 64-byte fence and an entry in the file's table per job).
 * Under a slab quarantine the memory is read with the caches shrunk.
 */
TEST_F_TIMEOUT(fence, failed_jobs_leave_no_memory, 300)
{
	uint32_t sync = syncobj_new(self->t.fd);
	bool quarantined = slab_quarantined();
	long before, after;
	uint64_t a, id;
	int i, bad = 0;

	if (!on_vdev())
		SKIP(return, "no fault injection on a board's device");
	ASSERT_EQ(0, set_fault(2));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, sync, &a));
	EXPECT_EQ(-EIO, job_wait(self->t.fd, a, deadline_ms(10000)));
	ASSERT_EQ(0, set_fault(0));
	for (i = 0; i < 7000; i++) {
		if (i == 1000 && quarantined)
			shrink_slabs();
		if (i == 1000)
			before = slab_kb();
		if (job_submit(&self->t, &sync, 1, 0, &id) ||
		    job_wait(self->t.fd, id, deadline_ms(10000)) != -EIO)
			bad++;
	}
	if (quarantined)
		shrink_slabs();
	after = slab_kb();
	EXPECT_EQ(0, bad);
	ASSERT_GT(before, 0);
	EXPECT_LT(after - before, 192) TH_LOG("slab %ld kB -> %ld kB", before, after);
}

TEST_HARNESS_MAIN
