// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Other drivers' dma-bufs inside the QEMU guest, vgem's: imports counted
 * against max_import_mb, and implicit synchronisation with the exporter
 * through the dma-buf's reservation both ways. vgem's buffers here are
 * one page, which every device sees as one range, IOMMU or not.
 */
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <sys/wait.h>

#include "nvdla_test.h"
#include "vgem_drm.h"

#include "kselftest_harness.h"

/* A one-page vgem buffer: its handle on vgem, its dma-buf, its mapping. */
struct vgem_bo {
	uint32_t handle;
	int buf;
	uint8_t *map;
};

static int vgem_bo_new(int vgem, struct vgem_bo *bo)
{
	struct drm_mode_create_dumb dumb = { .width = 32, .height = 32,
					     .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };

	bo->buf = -1;
	bo->map = MAP_FAILED;
	if (xioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return -1;
	bo->handle = dumb.handle;
	md.handle = dumb.handle;
	if (dumb.size != COPY_SIZE || xioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &md))
		return -1;
	bo->map = mmap(NULL, COPY_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       vgem, md.offset);
	bo->buf = prime_export(vgem, dumb.handle);
	return bo->map == MAP_FAILED || bo->buf < 0 ? -1 : 0;
}

static void vgem_bo_free(int vgem, struct vgem_bo *bo)
{
	if (bo->map != MAP_FAILED)
		munmap(bo->map, COPY_SIZE);
	if (bo->buf >= 0)
		close(bo->buf);
	gem_close(vgem, bo->handle);
}

/* An unsignalled write fence in @bo's reservation; its id, or 0. */
static uint32_t vgem_write_fence(int vgem, const struct vgem_bo *bo)
{
	struct drm_vgem_fence_attach a = { .handle = bo->handle,
					   .flags = VGEM_FENCE_WRITE };

	return xioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &a) ? 0 : a.out_fence;
}

static int vgem_signal(int vgem, uint32_t fence)
{
	struct drm_vgem_fence_signal s = { .fence = fence };

	return xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &s);
}

/* Whether @fd is readable at once: a dma-buf's pending writes are done. */
static bool readable_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static long long imported_bytes(void)
{
	return debugfs_sum("jobs", "imported");
}

FIXTURE(import) {
	struct bdma_task t;
	int vgem;
	struct vgem_bo src, dst;
};

FIXTURE_SETUP(import)
{
	self->vgem = open_vgem();
	if (self->vgem < 0)
		SKIP(return, "vgem is not loaded");
	ASSERT_EQ(0, bdma_task_open(&self->t))
		TH_LOG("no nvdla device node, or no buffers on it");
	ASSERT_EQ(0, vgem_bo_new(self->vgem, &self->src));
	ASSERT_EQ(0, vgem_bo_new(self->vgem, &self->dst));
	memcpy(self->src.map, self->t.map[SRC], COPY_SIZE);
	memset(self->dst.map, 0, COPY_SIZE);
}

FIXTURE_TEARDOWN(import)
{
	if (self->vgem < 0)
		return;
	set_param("max_import_mb", 1024);
	bdma_task_close(&self->t);
	vgem_bo_free(self->vgem, &self->src);
	vgem_bo_free(self->vgem, &self->dst);
	close(self->vgem);
}

/*
 * With max_import_mb at 1, imports of one page each are taken until the
 * device holds 1 MiB of them; the next is refused with -ENOSPC, counted
 * nowhere, while the device's own buffers still compute; closing the
 * imports gives their bytes back and the refused one imports.
 */
TEST_F(import, limit)
{
	long long before = imported_bytes();
	int n = 0, max = ((1 << 20) - before) / COPY_SIZE, i, ret = 0;
	struct vgem_bo *bos = calloc(max + 1, sizeof(*bos));
	uint32_t *handles = calloc(max + 1, sizeof(*handles));

	ASSERT_TRUE(bos && handles);
	ASSERT_EQ(0, set_param("max_import_mb", 1));
	for (n = 0; n <= max; n++) {
		ASSERT_EQ(0, vgem_bo_new(self->vgem, &bos[n]));
		ret = prime_import(self->t.fd, bos[n].buf, &handles[n]);
		if (ret)
			break;
	}
	TH_LOG("%d imports of a page taken, the next: %d; %lld bytes counted",
	       n, ret, imported_bytes());
	ASSERT_EQ(max, n);

	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(before + (long long)max * COPY_SIZE, imported_bytes());
	EXPECT_EQ(0, job_run(&self->t));
	EXPECT_TRUE(bdma_task_copied(&self->t));

	for (i = 0; i < n; i++)
		EXPECT_EQ(0, gem_close(self->t.fd, handles[i]));
	EXPECT_EQ(before, imported_bytes());
	EXPECT_EQ(0, prime_import(self->t.fd, bos[n].buf, &handles[n]));
	EXPECT_EQ(before + COPY_SIZE, imported_bytes());
	EXPECT_EQ(0, gem_close(self->t.fd, handles[n]));
	for (i = 0; i <= n; i++)
		vgem_bo_free(self->vgem, &bos[i]);
	free(bos);
	free(handles);
}

/*
 * A job whose source is a vgem buffer with a write pending (an unsignalled
 * vgem fence in its reservation) is queued at once but waits for it, and
 * then copies what the exporter wrote; meanwhile its own fence is in its
 * destination's reservation: the destination's dma-buf polls busy, the
 * sync file of its pending writes too, until the job ends.
 */
TEST_F(import, job_waits_for_exporter_and_shows_its_fence)
{
	struct dma_buf_export_sync_file sync = { .flags = DMA_BUF_SYNC_READ };
	struct sync_file_info info = { 0 };
	uint32_t fence;
	uint64_t id;

	ASSERT_EQ(0, prime_import(self->t.fd, self->src.buf,
				  &self->t.addr[SRC].handle));
	ASSERT_EQ(0, prime_import(self->t.fd, self->dst.buf,
				  &self->t.addr[DST].handle));
	fence = vgem_write_fence(self->vgem, &self->src);
	ASSERT_NE(0, fence);
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->t.fd, id, deadline_ms(300)))
		TH_LOG("the job did not wait for the exporter's write");
	EXPECT_EQ(0, self->dst.map[1]);
	EXPECT_FALSE(readable_now(self->dst.buf))
		TH_LOG("the job's fence is not in its destination's reservation");
	ASSERT_EQ(0, xioctl(self->dst.buf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE,
			    &sync));
	EXPECT_FALSE(readable_now(sync.fd));

	ASSERT_EQ(0, vgem_signal(self->vgem, fence));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	EXPECT_EQ(0, memcmp(self->src.map, self->dst.map, COPY_SIZE));
	EXPECT_TRUE(readable_now(self->dst.buf));
	EXPECT_TRUE(readable_now(sync.fd));
	info.num_fences = 0;
	ASSERT_EQ(0, xioctl(sync.fd, SYNC_IOC_FILE_INFO, &info));
	EXPECT_EQ(1, info.status);
	close(sync.fd);
	EXPECT_EQ(0, gem_close(self->t.fd, self->t.addr[SRC].handle));
	EXPECT_EQ(0, gem_close(self->t.fd, self->t.addr[DST].handle));
}

/*
 * The network descriptor in a vgem buffer with a write pending, zeros
 * until a child process writes it and signals 300 ms later: the firmware
 * reads it through the CPU while it checks the task, so the submission
 * waits for the exporter and checks what was written, and the job runs.
 */
TEST_F(import, descriptors_read_after_exporter)
{
	struct timespec t0, t1;
	uint32_t fence;
	uint64_t id;
	double ms;
	pid_t child;
	int status;

	memset(self->src.map, 0, COPY_SIZE);
	ASSERT_EQ(0, prime_import(self->t.fd, self->src.buf,
				  &self->t.addr[0].handle));
	fence = vgem_write_fence(self->vgem, &self->src);
	ASSERT_NE(0, fence);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		usleep(300000);
		memcpy(self->src.map, self->t.map[0], COPY_SIZE);
		_exit(vgem_signal(self->vgem, fence) ? 1 : 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	TH_LOG("the submission took %.0f ms", ms);
	EXPECT_GE(ms, 250);
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, gem_close(self->t.fd, self->t.addr[0].handle));
}

TEST_HARNESS_MAIN
