// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * DRM backend: buffers are GEM objects of the nvdla driver, mapped through
 * the DRM file, shared as dma-bufs (PRIME); a task is one
 * DRM_IOCTL_NVDLA_SUBMIT naming them by handle. Tasks queued one after
 * another form a chain: each waits in the kernel for the fence of the one
 * before (a sync object), so that a failure ends the rest unrun, and the
 * runtime waits (DRM_IOCTL_NVDLA_WAIT) only when the chain finishes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include <nvdla/firmware.h>
#include <nvdla_accel.h>

#include "backend.h"

#define DRIVER_NAME "nvdla"
/* Jobs a chain holds before queueing one more waits for them. */
#define DRM_CHAIN_MAX 16

struct drm_bo {
	struct nvdla_bo base;
	uint32_t handle;
	uint64_t map_size;
	struct drm_bo *next;
};

/* The latency counters the driver keeps for this file (fdinfo). */
struct drm_counters {
	unsigned long long first_write_ns, started, irq_ns, irqs;
};

struct drm_backend {
	struct nvdla_backend base;
	int fd;
	/*
	 * The buffers: importing a dma-buf of this file's own gives the
	 * handle it already has, which only the last of them closes.
	 */
	struct drm_bo *bos;
	int minor;	/* the driver's minor version */
	char path[64];
};

/*
 * A chain: @fence, a sync object with the fence of its last job; @jobs
 * and @tags, its jobs not waited for yet and their callers' tags;
 * @status and @failed, its first failure and that job's tag, with the
 * message in base.error; @before, the driver's counters when it began
 * (@timed: want_timing).
 */
struct drm_chain {
	struct nvdla_chain base;
	uint32_t fence;
	uint64_t jobs[DRM_CHAIN_MAX];
	uint32_t tags[DRM_CHAIN_MAX];
	unsigned int num_jobs;
	bool chained;
	int status;
	uint32_t failed;
	struct drm_counters before;
	bool timed;
};

static struct drm_backend *to_drm(struct nvdla_backend *be)
{
	return (struct drm_backend *)be;
}

static int drm_error(struct drm_backend *db, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->base.error, sizeof(db->base.error), fmt, ap);
	va_end(ap);
	return err;
}

static int drm_ioctl(int fd, unsigned long req, void *arg)
{
	return drmIoctl(fd, req, arg) ? -errno : 0;
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	drm_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

/* Another buffer of @db has @handle. */
static bool drm_handle_shared(struct drm_backend *db, uint32_t handle)
{
	struct drm_bo *bo;

	for (bo = db->bos; bo; bo = bo->next)
		if (bo->handle == handle)
			return true;
	return false;
}

static void drm_handle_put(struct drm_backend *db, uint32_t handle)
{
	if (!drm_handle_shared(db, handle))
		gem_close(db->fd, handle);
}

/* A buffer on GEM object @handle of @size bytes, mapped and listed. */
static int drm_bo_map(struct drm_backend *db, uint32_t handle, uint64_t size,
		      struct nvdla_bo **out)
{
	struct drm_nvdla_gem_mmap map = { .handle = handle };
	long page = sysconf(_SC_PAGESIZE);
	struct drm_bo *bo;
	void *ptr;
	int ret;

	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		drm_handle_put(db, handle);
		return drm_error(db, -ENOMEM, "out of memory");
	}
	ret = drm_ioctl(db->fd, DRM_IOCTL_NVDLA_GEM_MMAP, &map);
	bo->map_size = (size + page - 1) / page * page;
	ptr = ret ? MAP_FAILED : mmap(NULL, bo->map_size, PROT_READ | PROT_WRITE,
				      MAP_SHARED, db->fd, map.offset);
	if (ptr == MAP_FAILED) {
		ret = ret ? ret : -errno;
		drm_handle_put(db, handle);
		free(bo);
		return drm_error(db, ret, "%s: cannot map a buffer: %s",
				 db->path, strerror(-ret));
	}
	bo->base.be = &db->base;
	bo->base.size = size;
	bo->base.map = ptr;
	bo->handle = handle;
	bo->next = db->bos;
	db->bos = bo;
	*out = &bo->base;
	return 0;
}

static int drm_bo_new(struct nvdla_backend *be, uint64_t size,
		      struct nvdla_bo **out)
{
	struct drm_backend *db = to_drm(be);
	struct drm_nvdla_gem_create create = { .size = size };
	int ret;

	ret = drm_ioctl(db->fd, DRM_IOCTL_NVDLA_GEM_CREATE, &create);
	if (ret)
		return drm_error(db, ret, "%s: cannot create a %llu-byte buffer: %s",
				 db->path, (unsigned long long)size,
				 strerror(-ret));
	return drm_bo_map(db, create.handle, size, out);
}

static int drm_bo_import(struct nvdla_backend *be, int fd,
			 struct nvdla_bo **out)
{
	struct drm_backend *db = to_drm(be);
	struct drm_prime_handle prime = { .fd = fd };
	uint64_t size;
	int ret;

	ret = nvdla_fd_size(fd, &size);
	if (ret)
		return drm_error(db, ret, "fd %d: no memory of a known size to import: %s",
				 fd, strerror(-ret));
	ret = drm_ioctl(db->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime);
	if (ret)
		return drm_error(db, ret,
				 "%s: cannot import fd %d: %s (the device takes a dma-buf it sees as one range of addresses: behind an IOMMU any, without one a physically contiguous one only)",
				 db->path, fd, strerror(-ret));
	return drm_bo_map(db, prime.handle, size, out);
}

static int drm_bo_export(struct nvdla_bo *nbo, int *fd)
{
	struct drm_backend *db = to_drm(nbo->be);
	struct drm_prime_handle prime = {
		.handle = ((struct drm_bo *)nbo)->handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
	};
	int ret;

	ret = drm_ioctl(db->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime);
	if (ret)
		return drm_error(db, ret, "%s: cannot export a buffer: %s",
				 db->path, strerror(-ret));
	*fd = prime.fd;
	return 0;
}

static void drm_bo_del(struct nvdla_bo *nbo)
{
	struct drm_backend *db = to_drm(nbo->be);
	struct drm_bo *bo = (struct drm_bo *)nbo, **p;

	for (p = &db->bos; *p != bo; p = &(*p)->next)
		;
	*p = bo->next;
	munmap(bo->base.map, bo->map_size);
	drm_handle_put(db, bo->handle);
	free(bo);
}

static int drm_read_counters(struct drm_backend *db, struct drm_counters *c)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
		{ "nvdla-submit-to-first-write:", offsetof(struct drm_counters, first_write_ns) },
		{ "nvdla-jobs-started:", offsetof(struct drm_counters, started) },
		{ "nvdla-irq-to-next:", offsetof(struct drm_counters, irq_ns) },
		{ "nvdla-irqs-to-next:", offsetof(struct drm_counters, irqs) },
	};
	char path[64], line[128];
	unsigned int found = 0;
	size_t i, len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", db->fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			len = strlen(keys[i].key);
			if (!strncmp(line, keys[i].key, len) &&
			    sscanf(line + len, "%llu",
				   (unsigned long long *)((char *)c +
							  keys[i].offset)) == 1)
				found++;
		}
	fclose(f);
	return found == sizeof(keys) / sizeof(keys[0]) ? 0 : -ENODATA;
}

/* The task's latencies: the counters' growth from @before. */
static void drm_timing(struct drm_backend *db, const struct drm_counters *before)
{
	struct nvdla_backend_timing *t = &db->base.timing;
	struct drm_counters after;

	if (drm_read_counters(db, &after) || after.started != before->started + 1)
		return;
	t->measured = true;
	t->submit_to_first_write_ns = after.first_write_ns - before->first_write_ns;
	t->irq_to_next_ns = after.irq_ns - before->irq_ns;
	t->irqs_to_next = after.irqs - before->irqs;
}

/* A time limit of @ms that the driver can take, or an error naming why not. */
static int drm_limit_supported(struct drm_backend *db, uint32_t ms)
{
	struct drm_nvdla_get_param p = { .param = DRM_NVDLA_PARAM_MAX_TIMEOUT };

	if (db->minor < 3)
		return drm_error(db, -EOPNOTSUPP,
				 "%s: the driver (minor version %d) has no per-job time limit (minor 3 on)",
				 db->path, db->minor);
	/* Drivers before minor 4 take any limit. */
	if (db->minor < 4 || drm_ioctl(db->fd, DRM_IOCTL_NVDLA_GET_PARAM, &p) ||
	    ms <= p.value)
		return 0;
	return drm_error(db, -EINVAL,
			 "%s: time limit of %u ms is above the driver's max_job_timeout_ms (%llu ms)",
			 db->path, ms, (unsigned long long)p.value);
}

/*
 * The job's time limit in whole milliseconds up to @deadline_ns, or 0 (the
 * driver's job timeout) without one.
 */
static int drm_time_limit(struct drm_backend *db, int64_t deadline_ns,
			  uint32_t *timeout_ms)
{
	struct timespec ts;
	int64_t left;

	*timeout_ms = 0;
	if (!deadline_ns)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	left = deadline_ns - ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
	if (left <= 0)
		return drm_error(db, -ETIMEDOUT, "%s: time limit reached before the task started",
				 db->path);
	left = (left + 999999) / 1000000;
	*timeout_ms = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
	return drm_limit_supported(db, *timeout_ms);
}

/* Wait for the chain's jobs queued so far; the first failure stays. */
static void drm_drain(struct drm_backend *db, struct drm_chain *c)
{
	struct drm_nvdla_wait wait = { .timeout_ns = INT64_MAX };
	unsigned int i;
	int ret;

	for (i = 0; i < c->num_jobs; i++) {
		/* The job's time limit bounds the wait: the driver ends it. */
		wait.job_id = c->jobs[i];
		ret = drm_ioctl(db->fd, DRM_IOCTL_NVDLA_WAIT, &wait);
		if (c->status)
			continue;
		if (ret)
			c->status = ret;
		else if (wait.status)
			c->status = wait.status;
		else
			continue;
		snprintf(c->base.error, sizeof(c->base.error),
			 ret ? "%s: waiting for job %llu: %s" : "%s: job %llu failed: %s",
			 db->path, (unsigned long long)wait.job_id,
			 strerror(-c->status));
		c->failed = c->tags[i];
	}
	c->num_jobs = 0;
}

static int drm_chain_new(struct nvdla_backend *be, struct nvdla_chain **out)
{
	struct drm_backend *db = to_drm(be);
	struct drm_syncobj_create create = { 0 };
	struct drm_chain *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return drm_error(db, -ENOMEM, "out of memory");
	ret = drm_ioctl(db->fd, DRM_IOCTL_SYNCOBJ_CREATE, &create);
	if (ret) {
		free(c);
		return drm_error(db, ret, "%s: cannot create a sync object: %s",
				 db->path, strerror(-ret));
	}
	c->fence = create.handle;
	*out = &c->base;
	return 0;
}

static void drm_chain_del(struct nvdla_backend *be, struct nvdla_chain *chain)
{
	struct drm_chain *c = (struct drm_chain *)chain;
	struct drm_syncobj_destroy destroy = { .handle = c->fence };

	drm_ioctl(to_drm(be)->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &destroy);
	free(c);
}

static int drm_queue(struct nvdla_backend *be, struct nvdla_chain *chain,
		     const struct nvdla_backend_address *list, uint32_t num,
		     int64_t deadline_ns, uint32_t tag)
{
	struct drm_backend *db = to_drm(be);
	struct drm_chain *c = (struct drm_chain *)chain;
	struct drm_nvdla_submit args = {
		.num_addresses = num,
		.address_size = sizeof(struct drm_nvdla_address),
		.in_syncs = (uintptr_t)&c->fence,
		.num_in_syncs = c->chained,
		.out_sync = c->fence,
	};
	struct drm_nvdla_address *addrs;
	uint32_t i;
	int ret;

	if (c->num_jobs == DRM_CHAIN_MAX)
		drm_drain(db, c);
	if (!c->chained) {
		be->timing = (struct nvdla_backend_timing){ 0 };
		c->timed = be->want_timing && !drm_read_counters(db, &c->before);
	}
	ret = drm_time_limit(db, deadline_ns, &args.timeout_ms);
	if (ret)
		return ret;
	addrs = calloc(num ? num : 1, sizeof(*addrs));
	if (!addrs)
		return drm_error(db, -ENOMEM, "out of memory");
	for (i = 0; i < num; i++) {
		addrs[i].handle = ((struct drm_bo *)list[i].bo)->handle;
		addrs[i].offset = list[i].offset;
	}
	args.addresses = (uintptr_t)addrs;
	ret = drm_ioctl(db->fd, DRM_IOCTL_NVDLA_SUBMIT, &args);
	free(addrs);
	if (ret)
		return drm_error(db, ret, "%s: submit failed: %s (see dmesg)",
				 db->path, strerror(-ret));
	c->tags[c->num_jobs] = tag;
	c->jobs[c->num_jobs++] = args.job_id;
	c->chained = true;
	return 0;
}

static int drm_finish(struct nvdla_backend *be, struct nvdla_chain *chain,
		      uint32_t *tag)
{
	struct drm_backend *db = to_drm(be);
	struct drm_chain *c = (struct drm_chain *)chain;
	int ret;

	drm_drain(db, c);
	ret = c->status;
	*tag = c->failed;
	/* Latencies of a chain of one job: the counters grew by it alone. */
	if (!ret && c->timed)
		drm_timing(db, &c->before);
	c->status = 0;
	c->chained = false;
	c->timed = false;
	return ret;
}

static int drm_sync_file(struct nvdla_backend *be, struct nvdla_chain *chain,
			 int *fd)
{
	struct drm_backend *db = to_drm(be);
	struct drm_chain *c = (struct drm_chain *)chain;
	int ret;

	ret = drmSyncobjExportSyncFile(db->fd, c->fence, fd) ? -errno : 0;
	if (ret)
		return drm_error(db, ret, "%s: cannot export the last job's fence as a sync_file: %s",
				 db->path, strerror(-ret));
	return 0;
}

static void drm_del(struct nvdla_backend *be)
{
	struct drm_backend *db = to_drm(be);

	close(db->fd);
	free(db);
}

static const struct nvdla_backend_ops drm_backend_ops = {
	.bo_new = drm_bo_new,
	.bo_del = drm_bo_del,
	.bo_export = drm_bo_export,
	.bo_import = drm_bo_import,
	.chain_new = drm_chain_new,
	.chain_del = drm_chain_del,
	.queue = drm_queue,
	.finish = drm_finish,
	.sync_file = drm_sync_file,
	.del = drm_del,
};

/* Open @path if it is a device of the nvdla driver. */
static int drm_open_nvdla(const char *path, int *fdp, int *minor, char *err,
			  size_t errlen)
{
	drmVersionPtr v;
	int fd, match;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int ret = -errno;

		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	v = drmGetVersion(fd);
	match = v && !strcmp(v->name, DRIVER_NAME);
	if (match)
		*minor = v->version_minor;
	else
		snprintf(err, errlen, "%s: driver '%s', not %s", path,
			 v ? v->name : "unknown", DRIVER_NAME);
	drmFreeVersion(v);
	if (!match) {
		close(fd);
		return -ENODEV;
	}
	*fdp = fd;
	return 0;
}

/* The firmware's view of the device's configuration, from the driver. */
static const struct dla_hw_config *drm_hw_config(int fd)
{
	static const char *const names[] = DRM_NVDLA_CONFIG_NAMES;
	struct drm_nvdla_get_param p = { .param = DRM_NVDLA_PARAM_CONFIG };

	if (drm_ioctl(fd, DRM_IOCTL_NVDLA_GET_PARAM, &p) ||
	    p.value >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return dla_hw_config_get(names[p.value]);
}

int nvdla_backend_drm_open(const char *path, struct nvdla_backend **be,
			   char *err, size_t errlen)
{
	struct drm_backend *db;
	int fd, minor, ret;

	ret = drm_open_nvdla(path, &fd, &minor, err, errlen);
	if (ret)
		return ret;
	db = calloc(1, sizeof(*db));
	if (!db) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	db->fd = fd;
	db->minor = minor;
	snprintf(db->path, sizeof(db->path), "%s", path);
	db->base.ops = &drm_backend_ops;
	db->base.name = db->path;
	/* Loadables are then checked against the device when they load. */
	db->base.hw = drm_hw_config(fd);
	*be = &db->base;
	return 0;
}

/* Scan @dir for nodes named @prefix* that the nvdla driver owns. */
static int drm_scan(const char *dir, const char *prefix, char *path,
		    size_t len)
{
	char err[128], cand[300];
	struct dirent **names;
	int n, i, fd, minor, found = -ENODEV;

	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (found && !strncmp(names[i]->d_name, prefix, strlen(prefix))) {
			snprintf(cand, sizeof(cand), "%s/%s", dir,
				 names[i]->d_name);
			if (!drm_open_nvdla(cand, &fd, &minor, err, sizeof(err))) {
				close(fd);
				snprintf(path, len, "%s", cand);
				found = 0;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return found;
}

int nvdla_backend_drm_find(char *path, size_t len)
{
	if (!drm_scan("/dev/accel", "accel", path, len))
		return 0;
	return drm_scan("/dev/dri", "renderD", path, len);
}
