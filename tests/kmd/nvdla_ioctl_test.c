// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Driver ioctls inside the QEMU guest, one path per test: buffer objects,
 * mapping, submission and waiting for hand-built BDMA tasks, and every
 * rejection with its errno. Built with the kselftest harness from the
 * kernel sources.
 */
#define _GNU_SOURCE	/* memfd_create, F_ADD_SEALS */
#include <stdlib.h>
#include <linux/udmabuf.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

FIXTURE(nvdla) {
	struct bdma_task t;
	struct drm_nvdla_submit submit;
};

FIXTURE_SETUP(nvdla)
{
	ASSERT_EQ(0, bdma_task_open(&self->t))
		TH_LOG("no nvdla device node, or no buffers on it");
	self->submit.addresses = (uintptr_t)self->t.addr;
	self->submit.num_addresses = NUM_ENTRIES;
	self->submit.address_size = sizeof(struct drm_nvdla_address);
}

FIXTURE_TEARDOWN(nvdla)
{
	bdma_task_close(&self->t);
}

/* The fixture's request; on success, wait for the job and return its end. */
static int submit(FIXTURE_DATA(nvdla) *self)
{
	int ret = xioctl(self->t.fd, DRM_IOCTL_NVDLA_SUBMIT, &self->submit);

	return ret ? ret : job_wait(self->t.fd, self->submit.job_id,
				    deadline_ms(10000));
}

TEST_F(nvdla, bdma_copy)
{
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	EXPECT_EQ(1, self->submit.job_id);
}

TEST_F(nvdla, gem_create_size_zero)
{
	struct drm_nvdla_gem_create c = { .size = 0 };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

TEST_F(nvdla, gem_create_flags)
{
	struct drm_nvdla_gem_create c = { .size = 4096, .flags = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

TEST_F(nvdla, gem_create_huge)
{
	struct drm_nvdla_gem_create c = { .size = UINT64_MAX };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

static int get_param(int fd, uint32_t param, uint64_t *value);

/*
 * Without CMA and IOMMU (the amd64 guests), 4 MiB, the page allocator's
 * largest block, is the largest buffer; one byte more is -E2BIG, not a
 * -ENOMEM that retrying could cure. With a CMA area (Debian's arm64
 * kernel on the board), the interface's limit is the device's: one byte
 * more is -EINVAL.
 */
TEST_F(nvdla, gem_create_largest_contiguous)
{
	struct drm_nvdla_gem_create c = { .size = 4 << 20 };
	uint64_t max;

	ASSERT_EQ(0, get_param(self->t.fd, DRM_NVDLA_PARAM_MAX_BO_SIZE, &max));
	if (max > 4 << 20) {
		EXPECT_EQ(DRM_NVDLA_MAX_BO_SIZE, max);
		c.size = max + 1;
		EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
		return;
	}
	EXPECT_EQ(4 << 20, max);
	EXPECT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	EXPECT_EQ(0, gem_close(self->t.fd, c.handle));
	c.size = max + 1;
	EXPECT_EQ(-E2BIG, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	c.size = DRM_NVDLA_MAX_BO_SIZE;
	EXPECT_EQ(-E2BIG, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
}

/* The device's buffers, all files together, stay within max_buffer_mb. */
TEST_F(nvdla, gem_create_device_limit)
{
	struct drm_nvdla_gem_create c = { .size = 2 << 20 };
	int other = open_nvdla();

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, set_param("max_buffer_mb", 2));
	/* The fixture's buffers already count: 2 MiB more do not fit. */
	EXPECT_EQ(-ENOSPC, xioctl(other, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	c.size = 1 << 20;
	EXPECT_EQ(0, xioctl(other, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	EXPECT_EQ(-ENOSPC, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	EXPECT_EQ(0, gem_close(other, c.handle));
	EXPECT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c));
	EXPECT_EQ(0, set_param("max_buffer_mb", 1024));
	close(other);
}

/*
 * An exported buffer comes back as the same object: the same handle in
 * its file; in another file of the device, a handle whose mapping, like
 * the dma-buf's own, shows the buffer's bytes.
 */
TEST_F(nvdla, prime_own_buffer)
{
	struct drm_nvdla_gem_mmap m = { 0 };
	int buf, other = open_nvdla();
	uint32_t handle;
	uint8_t *map;

	ASSERT_GE(other, 0);
	buf = prime_export(self->t.fd, self->t.handle[SRC]);
	ASSERT_GE(buf, 0);
	ASSERT_EQ(0, prime_import(self->t.fd, buf, &handle));
	EXPECT_EQ(self->t.handle[SRC], handle);

	ASSERT_EQ(0, prime_import(other, buf, &m.handle));
	ASSERT_EQ(0, xioctl(other, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	map = mmap(NULL, COPY_SIZE, PROT_READ, MAP_SHARED, other, m.offset);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(0, memcmp(map, self->t.map[SRC], COPY_SIZE));
	munmap(map, COPY_SIZE);

	map = mmap(NULL, COPY_SIZE, PROT_READ, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(0, memcmp(map, self->t.map[SRC], COPY_SIZE));
	munmap(map, COPY_SIZE);
	close(buf);
	close(other);
}

/* Whether an IOMMU translates the DMA of @fd's device (group type DMA*). */
static bool iommu_translated(int fd)
{
	char path[96], type[32] = "";
	struct stat st;
	FILE *f;

	if (fstat(fd, &st))
		return false;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/iommu_group/type",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(type, sizeof(type), f))
		type[0] = 0;
	fclose(f);
	return !strncmp(type, "DMA", 3);
}

/*
 * Whether the @size bytes mapped at @map (faulted in, not a PFN mapping)
 * are one run of physical pages (/proc/self/pagemap, whose frame numbers
 * need CAP_SYS_ADMIN: the guests run as root); -1 if they cannot be read.
 */
static int phys_contiguous(const void *map, size_t size)
{
	const uint64_t pfn_mask = (1ull << 55) - 1, present = 1ull << 63;
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC), ret = 1;
	uint64_t e, first = 0;
	size_t i;

	if (fd < 0)
		return -1;
	for (i = 0; i < size / page && ret == 1; i++) {
		off_t at = ((uintptr_t)map / page + i) * sizeof(e);

		if (pread(fd, &e, sizeof(e), at) != sizeof(e) ||
		    !(e & present) || !(e & pfn_mask))
			ret = -1;
		else if (!i)
			first = e & pfn_mask;
		else if ((e & pfn_mask) != first + i)
			ret = 0;
	}
	close(fd);
	return ret;
}

/*
 * The fixture's copy with @handle, an imported buffer of @size bytes
 * mapped at @map by its exporter, as its source (its first page, then
 * its last), then as its destination: each run sees what the exporter's
 * mapping holds at that moment and writes into it, so the device uses
 * the exporter's pages, not a copy, over the whole buffer.
 */
static void copy_through_import(struct __test_metadata *_metadata,
				struct bdma_task *t, uint32_t handle,
				uint8_t *map, size_t size)
{
	uint32_t own = t->handle[SRC];
	size_t at;
	int i, k;

	t->addr[SRC].handle = handle;
	for (k = 0; k < 2; k++) {
		at = k ? size - COPY_SIZE : 0;
		t->addr[SRC].offset = at;
		for (i = 0; i < COPY_SIZE; i++)
			map[at + i] = (uint8_t)(i * 7 + 31 * k + 1);
		memset(t->map[DST], 0, COPY_SIZE);
		ASSERT_EQ(0, job_run(t));
		EXPECT_EQ(0, memcmp(t->map[DST], map + at, COPY_SIZE))
			TH_LOG("not the exporter's bytes at %zu", at);
	}
	t->addr[SRC].handle = own;
	t->addr[SRC].offset = 0;
	t->addr[DST].handle = handle;
	memset(map, 0, COPY_SIZE);
	ASSERT_EQ(0, job_run(t));
	EXPECT_EQ(0, memcmp(map, t->map[SRC], COPY_SIZE))
		TH_LOG("the exporter's mapping does not show the job's output");
	t->addr[DST].handle = t->handle[DST];
}

/*
 * A dma-buf of vgem (1 MiB of shmem pages) is imported when the device
 * sees it as one range: behind a translating IOMMU always; without one
 * only if its pages happen to be contiguous (vgem's mapping hides their
 * frame numbers: either way, but the right one). Imported, jobs read and
 * write the very pages vgem maps; else -EINVAL.
 */
TEST_F(nvdla, prime_import_vgem)
{
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 256, .bpp = 32,
	};
	struct drm_mode_map_dumb md = { 0 };
	bool iommu = iommu_translated(self->t.fd);
	int buf, vgem = open_vgem(), ret;
	uint32_t handle;
	uint8_t *map;

	if (vgem < 0)
		SKIP(return, "vgem is not loaded");
	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	md.handle = dumb.handle;
	ASSERT_EQ(0, xioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &md));
	map = mmap(NULL, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem,
		   md.offset);
	ASSERT_NE(MAP_FAILED, map);
	buf = prime_export(vgem, dumb.handle);
	ASSERT_GE(buf, 0);
	ret = prime_import(self->t.fd, buf, &handle);
	TH_LOG("IOMMU %s: vgem's dma-buf %s", iommu ? "on" : "off",
	       ret ? "refused" : "imported");
	if (iommu)
		ASSERT_EQ(0, ret);
	if (!ret) {
		copy_through_import(_metadata, &self->t, handle, map,
				    dumb.size);
		EXPECT_EQ(0, gem_close(self->t.fd, handle));
	} else {
		EXPECT_EQ(-EINVAL, ret);
	}
	close(buf);
	munmap(map, dumb.size);
	close(vgem);
}

/*
 * A udmabuf over a memfd whose 1 MiB of pages were faulted in last to
 * first (so rarely contiguous; pagemap tells): imported exactly when the
 * device sees it as one range (an IOMMU, or contiguous pages), then used
 * in place; else -EINVAL.
 */
TEST_F(nvdla, prime_import_udmabuf)
{
	struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC,
				    .size = 1 << 20 };
	bool iommu = iommu_translated(self->t.fd);
	int mfd, dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC), buf;
	int contiguous, ret;
	uint32_t handle;
	uint8_t *map;
	long i;

	if (dev < 0)
		SKIP(return, "no /dev/udmabuf (CONFIG_UDMABUF)");
	mfd = memfd_create("nvdla", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ASSERT_GE(mfd, 0);
	ASSERT_EQ(0, ftruncate(mfd, c.size));
	ASSERT_EQ(0, fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK));
	map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, map);
	for (i = c.size / 4096 - 1; i >= 0; i--)
		map[i * 4096] = 1;
	contiguous = phys_contiguous(map, c.size);
	c.memfd = mfd;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	ASSERT_GE(buf, 0);
	ret = prime_import(self->t.fd, buf, &handle);
	TH_LOG("IOMMU %s, the memfd's pages %s: udmabuf %s",
	       iommu ? "on" : "off",
	       contiguous < 0 ? "unknown" : contiguous ? "contiguous" :
	       "scattered", ret ? "refused" : "imported");
	if (!iommu && contiguous < 0)
		SKIP(goto out, "no IOMMU, and no frame numbers in pagemap");
	if (iommu || contiguous) {
		ASSERT_EQ(0, ret);
		copy_through_import(_metadata, &self->t, handle, map, c.size);
		EXPECT_EQ(0, gem_close(self->t.fd, handle));
	} else {
		EXPECT_EQ(-EINVAL, ret);
	}
out:
	close(buf);
	munmap(map, c.size);
	close(mfd);
	close(dev);
}

/*
 * The other nvdla device's buffer is one range for this one too (a
 * contiguous DMA buffer, or pages its IOMMU maps): imported, and used
 * in place.
 */
TEST_F(nvdla, prime_import_other_nvdla)
{
	int buf, fd2 = open_nvdla_nth(1);
	uint32_t handle, handle2;
	void *map;

	if (fd2 < 0)
		SKIP(return, "no second nvdla device");
	ASSERT_EQ(0, bo_new(fd2, COPY_SIZE, &handle2, &map));
	buf = prime_export(fd2, handle2);
	ASSERT_GE(buf, 0);
	ASSERT_EQ(0, prime_import(self->t.fd, buf, &handle));
	copy_through_import(_metadata, &self->t, handle, map, COPY_SIZE);
	EXPECT_EQ(0, gem_close(self->t.fd, handle));
	close(buf);
	munmap(map, COPY_SIZE);
	close(fd2);
}

TEST_F(nvdla, gem_mmap_bad_handle)
{
	struct drm_nvdla_gem_mmap m = { .handle = 0xdead };

	EXPECT_EQ(-ENOENT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
}

TEST_F(nvdla, gem_mmap_reserved)
{
	struct drm_nvdla_gem_mmap m = { .handle = self->t.handle[0],
					.reserved = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
}

TEST_F(nvdla, gem_mmap_pattern)
{
	struct drm_nvdla_gem_mmap m = { .handle = self->t.handle[SRC] };
	uint8_t *again;

	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	again = mmap(NULL, COPY_SIZE, PROT_READ, MAP_SHARED, self->t.fd,
		     m.offset);
	ASSERT_NE(MAP_FAILED, again);
	EXPECT_EQ(0, memcmp(again, self->t.map[SRC], COPY_SIZE));
	munmap(again, COPY_SIZE);
}

/* A mapping may not reach past its object. */
TEST_F(nvdla, gem_mmap_past_object)
{
	struct drm_nvdla_gem_mmap m = { .handle = self->t.handle[SRC] };
	void *p;

	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_MMAP, &m));
	p = mmap(NULL, 2 * COPY_SIZE, PROT_READ, MAP_SHARED, self->t.fd,
		 m.offset);
	EXPECT_EQ(MAP_FAILED, p);
}

TEST_F(nvdla, submit_bad_handle)
{
	self->t.addr[3].handle = 0xdead;
	EXPECT_EQ(-ENOENT, submit(self));
}

TEST_F(nvdla, submit_flags)
{
	self->submit.flags = 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_entry_reserved)
{
	self->t.addr[2].reserved = 1;
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

TEST_F(nvdla, submit_too_many_in_syncs)
{
	self->submit.num_in_syncs = DRM_NVDLA_MAX_IN_SYNCS + 1;
	EXPECT_EQ(-EINVAL, submit(self));
}

/*
 * A time limit up to max_job_timeout_ms is taken, one more is refused
 * unqueued: the next job still gets the first number.
 */
TEST_F(nvdla, submit_time_limit_above_max)
{
	uint64_t max;

	ASSERT_EQ(0, get_param(self->t.fd, DRM_NVDLA_PARAM_MAX_TIMEOUT, &max));
	EXPECT_EQ(60000, max);
	self->submit.timeout_ms = max + 1;
	EXPECT_EQ(-EINVAL, submit(self));
	ASSERT_EQ(0, set_param("max_job_timeout_ms", 2000));
	ASSERT_EQ(0, get_param(self->t.fd, DRM_NVDLA_PARAM_MAX_TIMEOUT, &max));
	EXPECT_EQ(2000, max);
	self->submit.timeout_ms = 2001;
	EXPECT_EQ(-EINVAL, submit(self));
	self->submit.timeout_ms = 2000;
	EXPECT_EQ(0, submit(self));
	EXPECT_EQ(1, self->submit.job_id);
	EXPECT_TRUE(bdma_task_copied(&self->t));
	EXPECT_EQ(0, set_param("max_job_timeout_ms", 60000));
}

TEST_F(nvdla, submit_bad_in_sync)
{
	uint32_t bad = 0xdead;

	self->submit.in_syncs = (uintptr_t)&bad;
	self->submit.num_in_syncs = 1;
	EXPECT_EQ(-ENOENT, submit(self));
}

TEST_F(nvdla, submit_bad_in_sync_pointer)
{
	self->submit.in_syncs = 16;
	self->submit.num_in_syncs = 1;
	EXPECT_EQ(-EFAULT, submit(self));
}

TEST_F(nvdla, submit_bad_out_sync)
{
	self->submit.out_sync = 0xdead;
	EXPECT_EQ(-ENOENT, submit(self));
}

TEST_F(nvdla, submit_offset_past_object)
{
	self->t.addr[SRC].offset = COPY_SIZE;
	EXPECT_EQ(-EINVAL, submit(self));
}

TEST_F(nvdla, submit_bad_pointer)
{
	self->submit.addresses = 16;
	EXPECT_EQ(-EFAULT, submit(self));
}

/* The firmware refuses it at submission; nothing ran; then all is well. */
TEST_F(nvdla, submit_index_past_list)
{
	bdma_task_write(&self->t, 99, COPY_SIZE);
	EXPECT_EQ(-EINVAL, submit(self));
	EXPECT_EQ(0, self->submit.job_id);
	bdma_task_write(&self->t, SRC, COPY_SIZE);
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	EXPECT_EQ(1, self->submit.job_id);
}

/* A copy waiting for an event nothing raises would never run. */
TEST_F(nvdla, submit_wait_forever)
{
	struct dla_common_op_desc *graph = self->t.map[1];

	graph->dependency_count = 1;
	EXPECT_EQ(-EINVAL, submit(self));
	EXPECT_EQ(0, self->submit.job_id);
	graph->dependency_count = 0;
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

/*
 * Two regions of interest: the first copies half the buffer, the second
 * all of it, so the whole copy shows that the second region ran too.
 */
TEST_F(nvdla, submit_two_regions)
{
	struct dla_network_desc *net = self->t.map[0];
	struct dla_common_op_desc *graph = self->t.map[1];
	union dla_operation_container *op = self->t.map[2];
	union dla_surface_container *surf = self->t.map[3];
	struct dla_bdma_transfer_desc *x = &surf[0].bdma_surface.transfers[0];

	net->num_rois = 2;
	graph[1] = graph[0];
	op[1] = op[0];
	surf[1] = surf[0];
	x->line_repeat /= 2;
	x->source_surface /= 2;
	x->destination_surface /= 2;
	ASSERT_EQ(0, submit(self));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

TEST_F(nvdla, submit_transfer_past_buffer)
{
	self->t.addr[DST].offset = 256;
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
	self->t.addr[DST].handle = handle + 100;
	EXPECT_EQ(-ENOENT, submit(self));
	close(other);
}

TEST_F(nvdla, buffer_freed_while_mapped)
{
	uint8_t *dst = self->t.map[DST];

	ASSERT_EQ(0, gem_close(self->t.fd, self->t.handle[DST]));
	dst[0] = 0x5a;
	EXPECT_EQ(0x5a, dst[0]);
	EXPECT_EQ(-ENOENT, submit(self));
	EXPECT_EQ(-EINVAL, gem_close(self->t.fd, self->t.handle[DST]));
}

/* A job holds its buffers: closing every handle at once is harmless. */
TEST_F(nvdla, buffers_closed_while_queued)
{
	uint64_t id;
	int i;

	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	for (i = 0; i < NUM_ENTRIES; i++)
		ASSERT_EQ(0, gem_close(self->t.fd, self->t.handle[i]));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	EXPECT_TRUE(bdma_task_copied(&self->t));
}

TEST_F(nvdla, job_ids_increase)
{
	uint64_t a, b;

	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &a));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &b));
	EXPECT_EQ(a + 1, b);
	EXPECT_EQ(0, job_wait(self->t.fd, b, deadline_ms(10000)));
	EXPECT_EQ(0, job_wait(self->t.fd, a, deadline_ms(10000)));
}

TEST_F(nvdla, wait_unknown_job)
{
	uint64_t id;

	EXPECT_EQ(-EINVAL, job_wait(self->t.fd, 0, deadline_ms(10)));
	EXPECT_EQ(-EINVAL, job_wait(self->t.fd, 1, deadline_ms(10)));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	EXPECT_EQ(-EINVAL, job_wait(self->t.fd, id + 1, deadline_ms(10)));
	EXPECT_EQ(-EINVAL, job_wait(self->t.fd, UINT64_MAX, deadline_ms(10)));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
}

TEST_F(nvdla, wait_reserved)
{
	struct drm_nvdla_wait w = { .job_id = 1, .reserved = 1 };
	uint64_t id;

	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
}

/* Job numbers belong to their file. */
TEST_F(nvdla, wait_other_file_job)
{
	int other = open_nvdla();
	uint64_t id;

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	EXPECT_EQ(-EINVAL, job_wait(other, id, deadline_ms(10)));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	close(other);
}

TEST_F(nvdla, wait_twice)
{
	uint64_t id;

	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	EXPECT_EQ(0, job_wait(self->t.fd, id, deadline_ms(10000)));
	EXPECT_EQ(0, job_wait(self->t.fd, id, 0));
}

TEST_F(nvdla, gem_wait)
{
	struct drm_nvdla_gem_wait w = { .handle = self->t.handle[DST],
					.timeout_ns = deadline_ms(10000) };
	uint64_t id;

	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &w));
	EXPECT_TRUE(bdma_task_copied(&self->t));
	w.timeout_ns = 0;
	EXPECT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &w));
}

TEST_F(nvdla, gem_wait_bad_handle)
{
	struct drm_nvdla_gem_wait w = { .handle = 0xdead };

	EXPECT_EQ(-ENOENT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &w));
}

TEST_F(nvdla, gem_wait_reserved)
{
	struct drm_nvdla_gem_wait w = { .handle = self->t.handle[0],
					.reserved = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &w));
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
	int fd = self->t.fd;
	uint64_t v;

	ASSERT_EQ(0, get_param(fd, DRM_NVDLA_PARAM_CONFIG, &v));
	EXPECT_EQ(DRM_NVDLA_CONFIG_NV_FULL, v);
	ASSERT_EQ(0, get_param(fd, DRM_NVDLA_PARAM_ATOM_SIZE, &v));
	EXPECT_EQ(32, v);
	ASSERT_EQ(0, get_param(fd, DRM_NVDLA_PARAM_CAPS, &v));
	EXPECT_EQ(DRM_NVDLA_CAP_BDMA | DRM_NVDLA_CAP_RUBIK |
		  DRM_NVDLA_CAP_WEIGHT_COMPRESS |
		  (on_vdev() ? DRM_NVDLA_CAP_MODEL : 0), v);
	ASSERT_EQ(0, get_param(fd, DRM_NVDLA_PARAM_HW_VERSION, &v));
	EXPECT_EQ(0x00303031, v);
	ASSERT_EQ(0, get_param(fd, DRM_NVDLA_PARAM_DRIVER_VERSION, &v));
	EXPECT_EQ(4, v);
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_NVDLA_GET_PARAM, &bad));
	bad.param = DRM_NVDLA_PARAM_CONFIG;
	bad.reserved = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_NVDLA_GET_PARAM, &bad));
}

/* An ioctl number past the table. */
TEST_F(nvdla, unknown_ioctl)
{
	uint64_t arg[4] = { 0 };

	EXPECT_EQ(-EINVAL, xioctl(self->t.fd,
				  DRM_IOWR(DRM_COMMAND_BASE + 0x20, arg), arg));
}

/* drm-usage-stats in fdinfo: the driver and the engine time of the file. */
TEST_F(nvdla, fdinfo)
{
	char path[64], text[2048] = "";
	unsigned long long ns = 0;
	const char *engine;
	size_t n;
	FILE *f;

	ASSERT_EQ(0, job_run(&self->t));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->t.fd);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	EXPECT_NE(NULL, strstr(text, "drm-driver:\tnvdla\n")) TH_LOG("%s", text);
	engine = strstr(text, "drm-engine-nvdla:\t");
	ASSERT_NE(NULL, engine) TH_LOG("%s", text);
	EXPECT_EQ(1, sscanf(engine, "drm-engine-nvdla:\t%llu ns", &ns));
	EXPECT_GT(ns, 0);
	/* The driver's latency counters: one job started, its first write. */
	EXPECT_NE(NULL, strstr(text, "nvdla-jobs-started:\t1\n")) TH_LOG("%s", text);
	engine = strstr(text, "nvdla-submit-to-first-write:\t");
	ASSERT_NE(NULL, engine);
	ns = 0;
	EXPECT_EQ(1, sscanf(engine, "nvdla-submit-to-first-write:\t%llu ns", &ns));
	EXPECT_GT(ns, 0);
}

/* With drm.debug's driver category on, jobs are traced in the log. */
TEST_F(nvdla, debug_messages)
{
	static char log[1 << 17];
	FILE *f;
	int n;

	f = fopen("/sys/module/drm/parameters/debug", "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "2\n");
	fclose(f);
	EXPECT_EQ(0, job_run(&self->t));
	f = fopen("/sys/module/drm/parameters/debug", "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "0\n");
	fclose(f);

	n = klogctl(3, log, sizeof(log) - 1);	/* SYSLOG_ACTION_READ_ALL */
	ASSERT_GT(n, 0);
	log[n] = '\0';
	EXPECT_NE(NULL, strstr(log, "] job ")) TH_LOG("no job trace in the log");
	EXPECT_NE(NULL, strstr(log, " started\n"));
	EXPECT_NE(NULL, strstr(log, " done: 0\n"));
}

TEST_HARNESS_MAIN
