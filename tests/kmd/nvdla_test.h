/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What the driver tests in the guest share: finding the device, buffer
 * objects, and a one-transfer BDMA task built by hand in six buffers.
 */
#ifndef __NVDLA_TEST_H__
#define __NVDLA_TEST_H__

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <nvdla/dla_interface.h>
#include <nvdla_accel.h>
#include <nvdla_legacy_uapi.h>

#define COPY_SIZE 4096
#define NUM_ENTRIES 6	/* net, graph, ops, surfaces, source, destination */
#define SRC 4
#define DST 5

static inline int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/*
 * Whether the driver has the official driver's ioctls, which only the
 * out-of-tree build's compatibility layer adds: there one task from an
 * unreadable array fails with -EFAULT; the in-tree driver has no function
 * for the number, and DRM answers -EINVAL.
 */
static inline int has_legacy_ioctls(int fd)
{
	struct drm_nvdla_legacy_submit s = { .num_tasks = 1 };

	return xioctl(fd, DRM_IOCTL_NVDLA_LEGACY_SUBMIT, &s) == -EFAULT;
}

static inline int is_nvdla(int fd)
{
	char name[16] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	return !ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "nvdla");
}

/* The @nth (0, 1) nvdla device node, opened; -1 if there is none. */
static inline int open_nvdla_nth(int nth)
{
	static const char *const nodes[] = {
		"/dev/accel/accel0", "/dev/accel/accel1",
		"/dev/dri/renderD128", "/dev/dri/renderD129",
	};
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		fd = open(nodes[i], O_RDWR | O_CLOEXEC);
		if (fd >= 0 && is_nvdla(fd) && !nth--)
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

static inline int open_nvdla(void)
{
	return open_nvdla_nth(0);
}

/* The vgem device's node, opened; -1 if vgem is not loaded. */
static inline int open_vgem(void)
{
	char path[64], name[16];
	struct drm_version v;
	int i, fd;

	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		memset(&v, 0, sizeof(v));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	return -1;
}

static inline int bo_new(int fd, uint64_t size, uint32_t *handle, void **map)
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

static inline int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* Buffer @handle of @fd as a dma-buf descriptor; -1 on failure. */
static inline int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle p = { .handle = handle,
				      .flags = DRM_CLOEXEC | DRM_RDWR };

	return xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) ? -1 : p.fd;
}

/* The dma-buf @buf imported into @fd: its handle in *@handle. */
static inline int prime_import(int fd, int buf, uint32_t *handle)
{
	struct drm_prime_handle p = { .fd = buf };
	int ret = xioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);

	*handle = p.handle;
	return ret;
}

static inline int64_t deadline_ms(int64_t ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + ms * 1000000;
}

/* Write @text into the file @path. */
static inline int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* Write parameter @name of module @module. */
static inline int set_module_param(const char *module, const char *name,
				   int value)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module,
		 name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", value);
	return fclose(f) ? -errno : 0;
}

/*
 * Call @fn on every file @name of the nvdla devices' debugfs directories
 * (accel/<device> on 6.12, dri/<minor> on 6.1, both tried), once each
 * although a device may be listed under more than one name (links).
 */
static inline void debugfs_each(const char *name,
				void (*fn)(const char *path, void *arg),
				void *arg)
{
	static const char *const roots[] = {
		"/sys/kernel/debug/accel", "/sys/kernel/debug/dri",
	};
	ino_t seen[64];
	unsigned int i, k, n = 0;
	char path[300];
	struct dirent *e;
	struct stat st;
	DIR *d;

	for (i = 0; i < 2; i++) {
		d = opendir(roots[i]);
		while (d && (e = readdir(d))) {
			snprintf(path, sizeof(path), "%s/%s/%s", roots[i],
				 e->d_name, name);
			if (stat(path, &st))
				continue;
			for (k = 0; k < n && seen[k] != st.st_ino; k++)
				;
			if (k < n)
				continue;
			if (n < sizeof(seen) / sizeof(seen[0]))
				seen[n++] = st.st_ino;
			fn(path, arg);
		}
		if (d)
			closedir(d);
	}
}

struct debugfs_key {
	const char *key;
	long long sum;
};

static inline void debugfs_add_key(const char *path, void *arg)
{
	struct debugfs_key *k = arg;
	size_t len = strlen(k->key);
	char line[64];
	long long v;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, k->key, len) &&
		    sscanf(line + len, ": %lld", &v) == 1)
			k->sum += v;
	if (f)
		fclose(f);
}

/* Sum of "@key: N" over the debugfs file @name of every nvdla device. */
static inline long long debugfs_sum(const char *name, const char *key)
{
	struct debugfs_key k = { .key = key };

	debugfs_each(name, debugfs_add_key, &k);
	return k.sum;
}

static inline void debugfs_add_value(const char *path, void *arg)
{
	long long *sum = arg, v;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%lld", &v) == 1)
		*sum += v;
	if (f)
		fclose(f);
}

/* Sum of the numbers in the debugfs file @name of every nvdla device. */
static inline long long debugfs_value(const char *name)
{
	long long sum = 0;

	debugfs_each(name, debugfs_add_value, &sum);
	return sum;
}

static inline void debugfs_put(const char *path, void *arg)
{
	FILE *f = fopen(path, "w");
	int *failed = arg;

	if (!f || fputs("0\n", f) < 0 || fclose(f))
		(*failed)++;
}

/* Write 0 to the debugfs file @name of every nvdla device; failures. */
static inline int debugfs_zero(const char *name)
{
	int failed = 0;

	debugfs_each(name, debugfs_put, &failed);
	return failed;
}

/* Write a module parameter of nvdla.ko. */
static inline int set_param(const char *name, int value)
{
	return set_module_param("nvdla", name, value);
}

/* The number a file holds; -1 if it cannot be read. */
static inline long long read_number(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%lld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/*
 * Whether freed slab objects wait in a quarantine before the allocator
 * takes them back, as under KASAN: its red zones widen kmalloc-8's
 * objects. There the kernel's slab level drops only once the caches are
 * shrunk, which takes seconds.
 */
static inline bool slab_quarantined(void)
{
	return read_number("/sys/kernel/slab/kmalloc-8/slab_size") > 8;
}

/* Shrink every slab cache: their empty slabs and quarantined objects go. */
static inline void shrink_slabs(void)
{
	char path[300];
	struct dirent *e;
	DIR *d = opendir("/sys/kernel/slab");

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 e->d_name);
		write_file(path, "1");
	}
	if (d)
		closedir(d);
}

/*
 * How many times longer a test's set-up may take than on Debian's kernels:
 * nvdla_time_scale=N on the guest's kernel command line (make check-debug,
 * whose checkers slow the kernel down), else 1. Only times that a test
 * needs to outlast its own set-up are scaled, never a bound it checks.
 */
static inline int time_scale(void)
{
	const char *env = getenv("nvdla_time_scale");
	int scale = env ? atoi(env) : 1;

	return scale > 0 ? scale : 1;
}

/* A module parameter of nvdla.ko; -1 if it cannot be read. */
static inline int param_value(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/nvdla/parameters/%s", name);
	return read_number(path);
}

/*
 * The devices are nvdla_sim.ko's virtual ones, not a board's (the NVDLA
 * device of QEMU's virt board, tools/qemu/run-vp.sh): they report
 * DRM_NVDLA_CAP_MODEL and inject faults.
 */
static inline int on_vdev(void)
{
	return !access("/sys/module/nvdla_sim", F_OK);
}

/*
 * The virtual devices' fault injection, a sum of: 1 drop IRQs, 2 bus
 * errors, 4 no engine reset; 0 none.
 */
static inline int set_fault(int fault)
{
	return set_module_param("nvdla_sim", "fault", fault);
}

/*
 * A task of six buffers: a BDMA transfer of @size bytes (a multiple of 32)
 * from entry @src_index to entry DST.
 */
struct bdma_task {
	int fd;
	uint32_t handle[NUM_ENTRIES];
	void *map[NUM_ENTRIES];
	struct drm_nvdla_address addr[NUM_ENTRIES];
};

/*
 * A network descriptor of @num_ops BDMA operations, one region, with its
 * graph, operation and surface descriptors at the address-list entries
 * @graph, @ops and @surfs, and nothing else.
 */
static inline void bdma_net_write(struct dla_network_desc *net, int16_t graph,
				  int16_t ops, int16_t surfs, uint16_t num_ops)
{
	int k;

	memset(net, 0, sizeof(*net));
	net->dependency_graph_index = graph;
	net->operation_desc_index = ops;
	net->surface_desc_index = surfs;
	net->lut_data_index = -1;
	net->roi_array_index = -1;
	net->surface_index = -1;
	net->stat_list_index = -1;
	for (k = 0; k < DLA_OP_NUM; k++)
		net->op_head[k] = k == DLA_OP_BDMA ? 0 : -1;
	net->num_rois = 1;
	net->num_operations = num_ops;
}

static inline void bdma_task_write(struct bdma_task *t, int16_t src_index,
				   uint32_t size)
{
	struct dla_network_desc *net = t->map[0];
	struct dla_common_op_desc *graph = t->map[1];
	union dla_operation_container *op = t->map[2];
	union dla_surface_container *surf = t->map[3];
	struct dla_bdma_transfer_desc *x = &surf->bdma_surface.transfers[0];
	uint32_t line = size < 256 ? size : 256;
	int k;

	bdma_net_write(net, 1, 2, 3, 1);

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
	x->destination_address = DST;
	x->line_size = line;
	x->line_repeat = size / line;
	x->source_line = line;
	x->destination_line = line;
	x->surface_repeat = 1;
	x->source_surface = size;
	x->destination_surface = size;
}

/* Six COPY_SIZE buffers on @fd, a pattern in SRC, the task copying it. */
static inline int bdma_task_init(struct bdma_task *t, int fd)
{
	int i, ret;

	memset(t, 0, sizeof(*t));
	t->fd = fd;
	for (i = 0; i < NUM_ENTRIES; i++) {
		ret = bo_new(fd, COPY_SIZE, &t->handle[i], &t->map[i]);
		if (ret)
			return ret;
		t->addr[i].handle = t->handle[i];
	}
	for (i = 0; i < COPY_SIZE; i++)
		((uint8_t *)t->map[SRC])[i] = i * 13 + 7;
	bdma_task_write(t, SRC, COPY_SIZE);
	return 0;
}

static inline void bdma_task_fini(struct bdma_task *t)
{
	int i;

	for (i = 0; i < NUM_ENTRIES; i++)
		if (t->map[i] && t->map[i] != MAP_FAILED)
			munmap(t->map[i], COPY_SIZE);
}

/* bdma_task_init() on a new file of the first nvdla device; -1 if none. */
static inline int bdma_task_open(struct bdma_task *t)
{
	int fd = open_nvdla();

	return fd < 0 ? -1 : bdma_task_init(t, fd);
}

/* bdma_task_fini(), then the task's file closed. */
static inline void bdma_task_close(struct bdma_task *t)
{
	bdma_task_fini(t);
	close(t->fd);
}

static inline int bdma_task_copied(const struct bdma_task *t)
{
	return !memcmp(t->map[SRC], t->map[DST], COPY_SIZE);
}

/* Queue the task; its job number in *@id. */
static inline int job_submit(struct bdma_task *t, const uint32_t *in_syncs,
			     uint32_t num_in, uint32_t out_sync, uint64_t *id)
{
	struct drm_nvdla_submit s = {
		.addresses = (uintptr_t)t->addr,
		.num_addresses = NUM_ENTRIES,
		.address_size = sizeof(struct drm_nvdla_address),
		.in_syncs = (uintptr_t)in_syncs,
		.num_in_syncs = num_in,
		.out_sync = out_sync,
	};
	int ret = xioctl(t->fd, DRM_IOCTL_NVDLA_SUBMIT, &s);

	*id = s.job_id;
	return ret;
}

/* Submit the list @addr[@num] with the time limit @timeout_ms. */
static inline int submit_list(int fd, const struct drm_nvdla_address *addr,
			      uint32_t num, uint32_t timeout_ms, __u64 *id)
{
	struct drm_nvdla_submit s = {
		.addresses = (uintptr_t)addr,
		.num_addresses = num,
		.address_size = sizeof(struct drm_nvdla_address),
		.timeout_ms = timeout_ms,
	};
	int ret = xioctl(fd, DRM_IOCTL_NVDLA_SUBMIT, &s);

	*id = s.job_id;
	return ret;
}

/* Submit @t's job with the time limit @timeout_ms; its id in *@id. */
static inline int submit_limited(struct bdma_task *t, uint32_t timeout_ms,
				 __u64 *id)
{
	return submit_list(t->fd, t->addr, NUM_ENTRIES, timeout_ms, id);
}

/* Wait for job @id until @timeout_ns; the ioctl's error, else the job's. */
static inline int job_wait(int fd, uint64_t id, int64_t timeout_ns)
{
	struct drm_nvdla_wait w = { .job_id = id, .timeout_ns = timeout_ns };
	int ret = xioctl(fd, DRM_IOCTL_NVDLA_WAIT, &w);

	return ret ? ret : w.status;
}

/* Submit, then wait up to ten seconds. */
static inline int job_run(struct bdma_task *t)
{
	uint64_t id;
	int ret = job_submit(t, NULL, 0, 0, &id);

	return ret ? ret : job_wait(t->fd, id, deadline_ms(10000));
}

#endif /* __NVDLA_TEST_H__ */
