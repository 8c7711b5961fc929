// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Asynchronous runs: three in flight on their own buffers end in order
 * with their own results, the first held until the test lets it go; wait
 * with a time limit, poll and the run's fd; a run that fails among
 * others; cancellation by unloading; two networks of one runtime in
 * flight at once, waited for from other threads; refused requests; the
 * copy of a second run in flight that cannot be allocated; through the
 * driver, the sync_file of a run's end, polled, after success and after a
 * job the driver stopped. On the in-process model, or on the device named
 * by the first argument (a driver's node, in the QEMU guests).
 */
#define _GNU_SOURCE	/* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sync_file.h>
#include <linux/userfaultfd.h>

#include <nvdla/runtime.h>
#include <nvdla_accel.h>

#include "builder.h"
#include "emu.h"
#include "le_bytes.h"
#include "../lib/tap.h"
#include "../lib/vgem.h"

#define RUNS 3

/*
 * The tensor of an echo (a BDMA copy of input 0 to output 0) of @lines
 * lines of @width 32-byte atoms: 4 MiB with 128 lines of 1024 (the
 * guests' largest buffer), long enough to find the second and third runs
 * queued; one page with one line of 128.
 */
static struct nvdla_tensor_desc echo_desc(int32_t lines, int32_t width)
{
	struct nvdla_tensor_desc t = {
		.name = "data", .n = 1, .c = 32, .h = lines, .w = width,
		.data_type = NVDLA_DATA_TYPE_INT8,
		.pixel_format = NVDLA_TENSOR_FEATURE,
		.stride = { 1, 32 * (uint32_t)width,
			    32 * (uint32_t)width * (uint32_t)lines },
	};

	t.size = t.stride[2];
	return t;
}

/* Load the loadable in @buf unless building it failed (@built non-zero). */
static struct nvdla_network *load(struct nvdla_runtime *rt, int built,
				  void *buf, size_t len)
{
	struct nvdla_network *net = NULL;

	if (!built) {
		nvdla_network_load(rt, buf, len, &net);
		free(buf);
	}
	return net;
}

static struct nvdla_network *echo_sized(struct nvdla_runtime *rt,
					int32_t lines, int32_t width)
{
	struct nvdla_tensor_desc t = echo_desc(lines, width);
	void *buf = NULL;
	size_t len = 0;
	int ret = nvdla_build_echo(&t, &buf, &len);

	return load(rt, ret, buf, len);
}

static struct nvdla_network *echo(struct nvdla_runtime *rt, int32_t lines)
{
	return echo_sized(rt, lines, 1024);
}

/* The echo in @num_tasks DLA tasks, one after the other. */
static struct nvdla_network *echo_tasks(struct nvdla_runtime *rt,
					int32_t lines, unsigned int num_tasks)
{
	struct nvdla_tensor_desc t = echo_desc(lines, 1024);
	void *buf = NULL;
	size_t len = 0;
	int ret = nvdla_build_echo_tasks(&t, num_tasks, &buf, &len);

	return load(rt, ret, buf, len);
}

/* Per run: an input filled with its own byte, an output, the handle. */
struct frame {
	struct nvdla_buffer *in, *out;
	struct nvdla_run *run;
};

static int frames_new(struct nvdla_runtime *rt, struct nvdla_network *net,
		      struct frame *f)
{
	struct nvdla_tensor_desc d;
	int i, ret = nvdla_network_input_desc(net, 0, &d);

	for (i = 0; i < RUNS && !ret; i++) {
		ret = nvdla_buffer_new(rt, d.size, &f[i].in) ||
		      nvdla_buffer_new(rt, d.size, &f[i].out);
		if (!ret)
			memset(nvdla_buffer_map(f[i].in), 0x10 + i, d.size);
	}
	return ret;
}

static void frames_del(struct frame *f)
{
	int i;

	for (i = 0; i < RUNS; i++) {
		nvdla_run_free(f[i].run);
		nvdla_buffer_del(f[i].in);
		nvdla_buffer_del(f[i].out);
		f[i].run = NULL;
	}
}

/* Bind frame @i's buffers and submit it with @timeout_ns. */
static int submit(struct nvdla_network *net, struct frame *f, int i,
		  int64_t timeout_ns)
{
	return nvdla_network_bind_input(net, 0, f[i].in) ||
	       nvdla_network_bind_output(net, 0, f[i].out) ||
	       nvdla_run_submit(net, timeout_ns, &f[i].run);
}

/* Every byte of @buf is @v. */
static bool filled(struct nvdla_buffer *buf, uint8_t v)
{
	const uint8_t *p = nvdla_buffer_map(buf);
	uint64_t i;

	for (i = 0; i < nvdla_buffer_size(buf); i++)
		if (p[i] != v)
			return false;
	return true;
}

static bool readable(struct nvdla_run *run, int timeout_ms)
{
	struct pollfd p = { .fd = nvdla_run_fd(run), .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

/* A userfaultfd: of user-mode faults only where Linux has that (5.11 on), which needs no privilege. */
static int uffd_open(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	int fd;

	fd = (int)syscall(SYS_userfaultfd,
			  O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && ioctl(fd, UFFDIO_API, &api)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A buffer of one page whose first access blocks until the test resolves
 * it: a memfd imported in process, registered with userfaultfd @uffd
 * (missing pages of shared memory).
 */
static struct nvdla_buffer *held_buffer(struct nvdla_runtime *rt, int uffd)
{
	struct nvdla_buffer *buf = NULL;
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int fd = memfd_create("held", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, 4096) || nvdla_buffer_import(rt, fd, &buf)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	reg.range.start = (uintptr_t)nvdla_buffer_map(buf);
	reg.range.len = 4096;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		nvdla_buffer_del(buf);
		return NULL;
	}
	return buf;
}

/* The page of the next access blocked on @uffd within @ms, or 0. */
static uintptr_t held_access(int uffd, int ms)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&p, 1, ms) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return 0;
	return (uintptr_t)msg.arg.pagefault.address & ~(uintptr_t)4095;
}

/* Let the access blocked on @page go on, the page filled with @v. */
static void held_release(int uffd, uintptr_t page, uint8_t v)
{
	uint8_t fill[4096];
	struct uffdio_copy copy = {
		.dst = page, .src = (uintptr_t)fill, .len = sizeof(fill),
	};

	memset(fill, v, sizeof(fill));
	if (page)
		ioctl(uffd, UFFDIO_COPY, &copy);
}

/*
 * A buffer of one page that holds the run using it until the test lets
 * it go. In process a memfd under a userfaultfd of its own: the run's
 * first access blocks. Through the driver a vgem dma-buf with an
 * unsignalled write fence: the driver queues the run's job at once, and
 * the job waits for the fence (implicit synchronisation of imported
 * dma-bufs), as do the jobs queued after it on the runtime's DRM file
 * (vgem signals a fence itself after 10 s).
 */
struct hold {
	struct nvdla_buffer *buf;
	int uffd;
	int vgem;
	uint32_t handle, fence;
	uint8_t *map;
};

#ifdef HAVE_VGEM_FENCES
/* A vgem buffer of one page, mapped, imported and fenced, in @h. */
static int hold_fence(struct nvdla_runtime *rt, struct hold *h,
		      const char **why)
{
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	struct drm_mode_map_dumb md = { 0 };
	struct drm_vgem_fence_attach fence = { .flags = VGEM_FENCE_WRITE };
	void *map = MAP_FAILED;
	int fd = -1, ret;

	h->vgem = open_vgem();
	if (h->vgem < 0) {
		*why = "no vgem device";
		return -ENODEV;
	}
	ret = drmIoctl(h->vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb) ? -errno : 0;
	h->handle = md.handle = fence.handle = dumb.handle;
	if (!ret)
		ret = drmIoctl(h->vgem, DRM_IOCTL_MODE_MAP_DUMB, &md) ? -errno : 0;
	if (!ret)
		map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			   h->vgem, md.offset);
	h->map = map == MAP_FAILED ? NULL : map;
	if (!ret && !h->map)
		ret = -errno;
	if (!ret)
		ret = drmPrimeHandleToFD(h->vgem, h->handle,
					 DRM_CLOEXEC | DRM_RDWR, &fd);
	*why = "vgem: no mapped dma-buf of one page";
	if (!ret) {
		ret = nvdla_buffer_import(rt, fd, &h->buf);
		*why = nvdla_runtime_error(rt);
		close(fd);
	}
	if (!ret) {
		ret = drmIoctl(h->vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &fence) ?
		      -errno : 0;
		*why = "vgem: no write fence";
	}
	h->fence = fence.out_fence;
	return ret;
}
#else
static int hold_fence(struct nvdla_runtime *rt, struct hold *h,
		      const char **why)
{
	(void)rt;
	(void)h;
	*why = "built without vgem_drm.h (the kernel headers of tools/setup.sh)";
	return -EINVAL;
}
#endif

/*
 * A hold in @h for a runtime on the in-process model or through the
 * driver (@device); on failure why in *@why, and -ENODEV when this
 * machine has no means to hold (no userfaultfd, no vgem).
 */
static int hold_new(struct nvdla_runtime *rt, bool device, struct hold *h,
		    const char **why)
{
	memset(h, 0, sizeof(*h));
	h->uffd = h->vgem = -1;
	if (device)
		return hold_fence(rt, h, why);
	h->uffd = uffd_open();
	if (h->uffd < 0) {
		*why = "no userfaultfd here";
		return -ENODEV;
	}
	h->buf = held_buffer(rt, h->uffd);
	*why = "no memfd buffer under userfaultfd";
	return h->buf ? 0 : -ENOMEM;
}

/*
 * In process, whether a run reached the buffer within 20 s and waits on
 * it; through the driver its job waits from its submission on.
 */
static bool hold_reached(struct hold *h)
{
	return h->uffd < 0 ||
	       held_access(h->uffd, 20000) == (uintptr_t)nvdla_buffer_map(h->buf);
}

/* Let the run go on with the buffer filled with @v. */
static void hold_release(struct hold *h, uint8_t v)
{
#ifdef HAVE_VGEM_FENCES
	struct drm_vgem_fence_signal signal = { .fence = h->fence };

	if (h->fence) {
		memset(h->map, v, 4096);
		drmIoctl(h->vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &signal);
		h->fence = 0;
	}
#endif
	if (h->uffd >= 0 && h->buf)
		held_release(h->uffd, (uintptr_t)nvdla_buffer_map(h->buf), v);
}

static void hold_del(struct hold *h)
{
	struct drm_gem_close gem = { .handle = h->handle };

	nvdla_buffer_del(h->buf);
	if (h->map)
		munmap(h->map, 4096);
	if (h->handle)
		drmIoctl(h->vgem, DRM_IOCTL_GEM_CLOSE, &gem);
	if (h->vgem >= 0)
		close(h->vgem);
	if (h->uffd >= 0)
		close(h->uffd);
}

/*
 * Three runs of a one-page echo, the first on a held input: the last one
 * is in flight for certain until the test lets the first go on (its
 * input then 0x10).
 */
static void test_in_flight(struct nvdla_runtime *rt, bool device)
{
	struct nvdla_network *net = echo_sized(rt, 1, 128);
	struct frame f[RUNS] = { 0 };
	struct nvdla_run *last;
	bool ended_before = true, outputs = true;
	const char *why;
	struct hold h;
	int i, ret;

	ret = hold_new(rt, device, &h, &why);
	if (ret == -ENODEV) {
		tap_skip(why, "three runs in flight, the first held at its input");
		goto out;
	}
	if (!tap_ok(!ret, "a hold for the first run's input: %s",
		    ret ? why : "ready"))
		goto out;
	ret = !net || frames_new(rt, net, f);
	for (i = 0; i < RUNS && !ret; i++)
		ret = nvdla_network_bind_input(net, 0, i ? f[i].in : h.buf) ||
		      nvdla_network_bind_output(net, 0, f[i].out) ||
		      nvdla_run_submit(net, 0, &f[i].run);
	if (!tap_ok(!ret && hold_reached(&h),
		    "three runs submitted, each on its own buffers, the first held at its input (%s)",
		    ret ? nvdla_runtime_error(rt) : "held"))
		goto out;
	last = f[RUNS - 1].run;
	tap_ok(nvdla_run_poll(f[0].run) == -EINPROGRESS &&
	       nvdla_run_poll(last) == -EINPROGRESS && !readable(last, 0),
	       "while the first is held the last is in flight: poll gives -EINPROGRESS, its fd is not readable");
	tap_ok(nvdla_run_wait(last, 1000) == -EINPROGRESS,
	       "a wait of 1 us for it returns -EINPROGRESS");
	tap_ok(nvdla_network_enable_stats(net) == -EBUSY &&
	       strstr(nvdla_runtime_error(rt), "in flight") &&
	       nvdla_network_set_record_dir(net, NULL, NVDLA_RECORD_AUTO) == -EBUSY,
	       "statistics and recording are refused while runs are in flight: %s",
	       nvdla_runtime_error(rt));
	hold_release(&h, 0x10);
	tap_ok(readable(last, 60000) && nvdla_run_poll(last) == 0,
	       "the first let go, the last one's fd becomes readable when it ends, and poll then gives 0");
	for (i = 0; i < RUNS - 1; i++)
		ended_before &= nvdla_run_poll(f[i].run) == 0 &&
				readable(f[i].run, 0);
	tap_ok(ended_before, "the runs before it had ended: they end in order");
	for (i = 0; i < RUNS; i++)
		outputs &= nvdla_run_wait(f[i].run, -1) == 0 &&
			   filled(f[i].out, 0x10 + i) &&
			   !*nvdla_run_error(f[i].run);
	tap_ok(outputs, "each run copied its own input to its own output");
	tap_ok(nvdla_run_wait(f[0].run, 0) == 0 && nvdla_network_wait(net) == 0,
	       "an ended run's result stays; the network reports the last");
out:
	/* Unloading waits for the run that started. */
	hold_release(&h, 0x10);
	nvdla_network_unload(net);
	frames_del(f);
	hold_del(&h);
}

static void test_failure_among_others(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt, 64);
	struct frame f[RUNS] = { 0 };
	int i, ret, r[RUNS];

	ret = !net || frames_new(rt, net, f);
	/* The middle run's 1 ns has passed when it starts. */
	for (i = 0; i < RUNS && !ret; i++)
		ret = submit(net, f, i, i == 1 ? 1 : 0);
	for (i = 0; i < RUNS && !ret; i++)
		r[i] = nvdla_run_wait(f[i].run, -1);
	tap_ok(!ret && r[0] == 0 && r[1] == -ETIMEDOUT && r[2] == 0,
	       "a run with a 1 ns time limit between two others fails alone (%d %d %d)",
	       ret ? 1 : r[0], ret ? 1 : r[1], ret ? 1 : r[2]);
	tap_ok(!ret && strstr(nvdla_run_error(f[1].run), "time") &&
	       !*nvdla_run_error(f[0].run) && !*nvdla_run_error(f[2].run),
	       "the failure is reported on its own handle: %s",
	       ret ? nvdla_runtime_error(rt) : nvdla_run_error(f[1].run));
	tap_ok(!ret && filled(f[0].out, 0x10) && filled(f[2].out, 0x12),
	       "the others copied their own inputs to their own outputs");
	nvdla_network_unload(net);
	frames_del(f);
}

static void test_cancel(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt, 128);
	struct frame f[RUNS] = { 0 };
	struct nvdla_run *dropped = NULL;
	bool in_order = true, cancelled = false;
	int i, ret, r;

	ret = !net || frames_new(rt, net, f);
	for (i = 0; i < RUNS && !ret; i++)
		ret = submit(net, f, i, 0);
	/* A handle released while queued: the run frees itself. */
	if (!ret)
		ret = nvdla_run_submit(net, 0, &dropped);
	nvdla_run_free(dropped);
	nvdla_network_unload(net);
	for (i = 0; i < RUNS && !ret; i++) {
		r = nvdla_run_poll(f[i].run);
		in_order &= r == 0 ? !cancelled : r == -ECANCELED;
		cancelled |= r == -ECANCELED;
		in_order &= r == 0 || strstr(nvdla_run_error(f[i].run),
					     "unloaded");
	}
	tap_ok(!ret && in_order && cancelled &&
	       readable(f[RUNS - 1].run, 0),
	       "unloading with runs queued: they end with -ECANCELED, readable, after the ones that completed");
	frames_del(f);
}

/* Wait for a run from another thread: its result and message. */
static void *waiter(void *arg)
{
	struct nvdla_run *run = arg;

	return nvdla_run_wait(run, -1) == 0 && !*nvdla_run_error(run) ?
	       run : NULL;
}

/*
 * Two networks of one runtime with runs in flight at once, each run
 * waited for by a thread of its own: they take the device in turn.
 */
static void test_two_networks(struct nvdla_runtime *rt)
{
	struct nvdla_network *net[2] = { echo(rt, 32), echo(rt, 32) };
	struct frame f[2][RUNS] = { 0 };
	pthread_t thread[2][RUNS];
	bool right = true;
	int i, k, ret = 0;
	void *res;

	for (k = 0; k < 2 && !ret; k++)
		ret = !net[k] || frames_new(rt, net[k], f[k]);
	for (i = 0; i < RUNS && !ret; i++)
		for (k = 0; k < 2 && !ret; k++) {
			memset(nvdla_buffer_map(f[k][i].in), 0x40 + 4 * k + i,
			       nvdla_buffer_size(f[k][i].in));
			ret = submit(net[k], f[k], i, 0) ||
			      pthread_create(&thread[k][i], NULL, waiter,
					     f[k][i].run);
		}
	for (i = 0; i < RUNS && !ret; i++)
		for (k = 0; k < 2; k++) {
			right &= !pthread_join(thread[k][i], &res) &&
				 res == f[k][i].run;
			right &= filled(f[k][i].out, 0x40 + 4 * k + i);
		}
	tap_ok(!ret && right,
	       "two networks of one runtime, three runs each in flight, each waited for by another thread: every output right (%s)",
	       ret ? nvdla_runtime_error(rt) : "checked");
	for (k = 0; k < 2; k++) {
		nvdla_network_unload(net[k]);
		frames_del(f[k]);
	}
}

/* SYNC_IOC_FILE_INFO's status of sync_file @fd: 1 signalled, 0 not, or its error. */
static int sync_status(int fd)
{
	struct sync_file_info info = { 0 };

	return ioctl(fd, SYNC_IOC_FILE_INFO, &info) ? -errno : info.status;
}

static bool fd_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

/* In process: no fence, -EOPNOTSUPP and why; the run goes on. */
static void test_sync_file_in_process(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt, 8);
	struct nvdla_run *run = NULL;
	int fd = -ENOMEM;

	if (net && !nvdla_run_submit(net, 0, &run))
		fd = nvdla_run_sync_file(run);
	tap_ok(fd == -EOPNOTSUPP && nvdla_run_wait(run, -1) == 0 &&
	       strstr(nvdla_run_error(run), "no kernel fences"),
	       "in process a run has no sync_file: %d (%s): %s", fd,
	       fd < 0 ? strerror(-fd) : "an fd",
	       run ? nvdla_run_error(run) : "not submitted");
	nvdla_run_free(run);
	nvdla_network_unload(net);
}

/* The 16 fp16 channels of a 1x1 cube: what a softmax task takes. */
static const struct nvdla_tensor_desc softmax_desc = {
	.name = "data", .n = 1, .c = 16, .h = 1, .w = 1, .size = 32,
	.data_type = NVDLA_DATA_TYPE_HALF,
	.pixel_format = NVDLA_TENSOR_FEATURE, .stride = { 2, 32, 32 },
};

/* Add a CPU task to @b: the softmax of memory @from into memory @to. */
static void add_softmax(struct nvdla_builder *b, int from, int to)
{
	uint8_t net[256] = { 0 }, ops[EMU_OP_SIZE_V2] = { 0 };
	uint8_t bufs[EMU_BUF_PAIR_SIZE] = { 0 };
	const uint16_t data[2] = { (uint16_t)from, (uint16_t)to };
	const struct nvdla_build_emu e = {
		.net = net, .net_size = sizeof(net), .ops = ops,
		.ops_size = sizeof(ops), .bufs = bufs, .bufs_size = sizeof(bufs),
	};
	const uint32_t one = 0x3f800000; /* 1.0f: codes are values */
	int i;

	wr16(net + EMU_NET_OP_INDEX, 1);
	wr16(net + EMU_NET_BUF_INDEX, 2);
	wr16(net + EMU_NET_NUM_OPS, 1);
	ops[EMU_OP_TYPE] = EMU_OP_SOFTMAX;
	wr32(ops + EMU_V2_IN_SCALE, one);
	wr32(ops + EMU_V2_OUT_SCALE, one);
	for (i = 0; i < 2; i++) {
		uint8_t *d = bufs + i * EMU_BUF_SIZE;
		uint8_t *dims = d + EMU_V2_BUF_WIDTH;

		wr16(d + EMU_BUF_INDEX, NVDLA_BUILD_EMU_DATA + i);
		wr32(d + EMU_V2_BUF_OFFSET + 4, softmax_desc.size);
		wr16(d + EMU_V2_BUF_FORMAT, EMU_V2_FORMAT_FP16);
		wr16(dims, 1);
		wr16(dims + EMU_BUF_HEIGHT, 1);
		wr16(dims + EMU_BUF_CHANNEL, 16);
		wr32(dims + EMU_BUF_LINE_STRIDE, 32);
		wr32(dims + EMU_BUF_SURF_STRIDE, 32);
	}
	nvdla_builder_emu_task(b, &e, data, 2);
}

/*
 * A network of the tasks @kinds names in order, each taking what the one
 * before wrote: 'D' a DLA task that copies it, 'C' a CPU task that takes
 * its softmax. Its input is zeros, so its output is 16 times 1/16. The
 * memories between two tasks have @mid bytes, of which they use the
 * first 32.
 */
static struct nvdla_network *cpu_network_sized(struct nvdla_runtime *rt,
					       const char *kinds, uint64_t mid)
{
	struct nvdla_network *net = NULL;
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len = 0;
	int from, to, ret;

	nvdla_builder_init(&b);
	to = nvdla_builder_memory(&b, NULL, NULL, softmax_desc.size);
	nvdla_builder_bind(&b, to, &softmax_desc, NVDLA_LBL_MEM_INPUT);
	for (; *kinds; kinds++) {
		from = to;
		to = nvdla_builder_memory(&b, NULL, NULL,
					  kinds[1] ? mid : softmax_desc.size);
		if (*kinds == 'D')
			nvdla_builder_copy_task(&b, &softmax_desc, from, to);
		else
			add_softmax(&b, from, to);
	}
	nvdla_builder_bind(&b, to, &softmax_desc, NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_write(&b, &buf, &len);
	nvdla_builder_fini(&b);
	net = load(rt, ret, buf, len);
	if (net)
		memset(nvdla_buffer_map(nvdla_network_input(net, 0)), 0,
		       softmax_desc.size);
	return net;
}

static struct nvdla_network *cpu_network(struct nvdla_runtime *rt,
					 const char *kinds)
{
	return cpu_network_sized(rt, kinds, softmax_desc.size);
}

/* The output of a cpu_network() in @buf: 16 times 1/16 in fp16 (0x2c00). */
static bool softmax_at(struct nvdla_buffer *buf)
{
	const uint8_t *p = nvdla_buffer_map(buf);
	int i;

	for (i = 0; i < 16; i++)
		if (rd16(p + 2 * i) != 0x2c00)
			return false;
	return true;
}

static bool softmax_out(struct nvdla_network *net)
{
	return softmax_at(nvdla_network_output(net, 0));
}

/*
 * A network of a DLA task and a CPU task after it: through the driver,
 * the sync_file of its device part signals without error, and the run
 * then completes with the CPU task's output; in process, -EOPNOTSUPP.
 */
static void test_sync_file_cpu_tail(struct nvdla_runtime *rt, bool device)
{
	struct nvdla_network *net = cpu_network(rt, "DC");
	struct nvdla_run *run = NULL;
	int fd = -ENOMEM, status = 0, ret = -ENOMEM;

	if (net && !nvdla_run_submit(net, 0, &run))
		fd = nvdla_run_sync_file(run);
	if (fd >= 0 && fd_readable(fd, 60000))
		status = sync_status(fd);
	if (run)
		ret = nvdla_run_wait(run, -1);
	if (device)
		tap_ok(fd >= 0 && status == 1 && !ret && softmax_out(net),
		       "a DLA task then a CPU task: the sync_file of the device part (%d) signals without error (status %d), the run then ends (%d) with the CPU task's softmax",
		       fd, status, ret);
	else
		tap_ok(fd == -EOPNOTSUPP && !ret && softmax_out(net),
		       "in process, a DLA task then a CPU task: no sync_file (%d); the run ends with the CPU task's softmax",
		       fd);
	if (fd >= 0)
		close(fd);
	nvdla_run_free(run);
	nvdla_network_unload(net);
}

/*
 * In process, two runs of a DLA task then a CPU task in flight: run 1's
 * CPU task is held at its first write of its output, and run 2's device
 * part then reads run 2's input (held too), so both are held at once:
 * the second run's device part runs while the first run's CPU task does.
 * Released, both end in order with the softmax in their own outputs.
 */
static void test_device_during_cpu_tail(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = cpu_network(rt, "DC");
	struct nvdla_buffer *in2 = NULL, *out1 = NULL, *out2 = NULL;
	struct nvdla_run *run[2] = { NULL, NULL };
	uintptr_t page[2] = { 0, 0 };
	bool both = false;
	int uffd = uffd_open(), i, r[2] = { -1, -1 };

	if (uffd < 0) {
		tap_skip("no userfaultfd here",
			 "a run's device part while the run before runs its CPU task");
		nvdla_network_unload(net);
		return;
	}
	out1 = held_buffer(rt, uffd);
	in2 = held_buffer(rt, uffd);
	if (net && out1 && in2 && !nvdla_buffer_new(rt, 4096, &out2) &&
	    !nvdla_network_bind_output(net, 0, out1) &&
	    !nvdla_run_submit(net, 0, &run[0]) &&
	    !nvdla_network_bind_input(net, 0, in2) &&
	    !nvdla_network_bind_output(net, 0, out2) &&
	    !nvdla_run_submit(net, 0, &run[1])) {
		page[0] = held_access(uffd, 20000);
		page[1] = page[0] ? held_access(uffd, 20000) : 0;
	}
	for (i = 0; i < 2; i++)
		both |= page[i] == (uintptr_t)nvdla_buffer_map(out1) &&
			page[1 - i] == (uintptr_t)nvdla_buffer_map(in2);
	both &= run[0] && nvdla_run_poll(run[0]) == -EINPROGRESS;
	for (i = 0; i < 2; i++)
		held_release(uffd, page[i], 0);
	/* Without the overlap, run 2 reaches its input only now. */
	while (run[1] && nvdla_run_poll(run[1]) == -EINPROGRESS)
		held_release(uffd, held_access(uffd, 100), 0);
	for (i = 0; i < 2; i++)
		r[i] = run[i] ? nvdla_run_wait(run[i], -1) : -1;
	tap_ok(both, "in process, run 1's CPU task held at its output and run 2's device part at its input at once: the second run's device part runs during the first's CPU task");
	tap_ok(!r[0] && !r[1] && softmax_at(out1) && softmax_at(out2),
	       "both runs end (%d, %d), each with the softmax in its own output",
	       r[0], r[1]);
	for (i = 0; i < 2; i++)
		nvdla_run_free(run[i]);
	nvdla_network_unload(net);
	nvdla_buffer_del(in2);
	nvdla_buffer_del(out1);
	nvdla_buffer_del(out2);
	close(uffd);
}

/*
 * The memory between the DLA task and the CPU task of the second slot's
 * network: its size picks out the allocation of a second run's copy of
 * it, as nothing else in the run threads allocates this much.
 */
#define SLOT_MEM_SIZE (1024 * 1024 + 3 * 4096)

/* The low word of a system call's argument @i, for a seccomp filter. */
#define SECCOMP_ARG_LOW(i) (offsetof(struct seccomp_data, args[i]) + \
			    4 * (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))

/*
 * Stop the calling thread's system calls @nr, and those of the threads it
 * starts from now on, whose argument 1 has a low word from @lo to @hi:
 * each waits until the test answers it through the listener returned
 * (seccomp's user notification), or -1.
 */
static int listen_calls(int nr, uint32_t lo, uint32_t hi)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SECCOMP_ARG_LOW(1)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, lo, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, hi, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]), .filter = insns,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

/*
 * Bind @held's buffer (in process as the output, the CPU task's, through
 * the driver as the input) or, without @held, @in, and @out; submit.
 */
static int submit_held(struct nvdla_network *net, const struct hold *held,
		       bool device, struct nvdla_buffer *in,
		       struct nvdla_buffer *out, struct nvdla_run **run)
{
	return nvdla_network_bind_input(net, 0, held && device ? held->buf : in) ||
	       nvdla_network_bind_output(net, 0,
					 held && !device ? held->buf : out) ||
	       nvdla_run_submit(net, 0, run);
}

/*
 * The first run of a network on @hold, submitted from a thread of its
 * own under a filter that stops the backend's allocations of a second
 * run's copy: through the driver DRM_IOCTL_NVDLA_GEM_CREATE (the
 * network's threads create no other buffer), in process a mapping of
 * SLOT_MEM_SIZE bytes up to 64 KiB more (the model adds a guard page).
 * The network's threads, which its first run starts, inherit the filter;
 * the test's own thread is not under it.
 */
struct filtered_start {
	struct nvdla_network *net;
	const struct hold *hold;
	bool device;
	struct nvdla_buffer *in, *out;
	int listener;
	struct nvdla_run *run;
};

static void *start_filtered(void *arg)
{
	struct filtered_start *s = arg;

	s->listener = s->device ?
		      listen_calls(__NR_ioctl, DRM_IOCTL_NVDLA_GEM_CREATE,
				   DRM_IOCTL_NVDLA_GEM_CREATE) :
		      listen_calls(__NR_mmap, SLOT_MEM_SIZE,
				   SLOT_MEM_SIZE + 65536);
	if (s->listener >= 0 &&
	    submit_held(s->net, s->hold, s->device, s->in, s->out, &s->run))
		s->run = NULL;
	return NULL;
}

/* The next call stopped on @listener within 20 s, in *@req. */
static bool stopped_call(int listener, struct seccomp_notif *req)
{
	struct pollfd p = { .fd = listener, .events = POLLIN };

	memset(req, 0, sizeof(*req));
	return poll(&p, 1, 20000) == 1 &&
	       !ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req);
}

/* Let call @req go on (@err 0), or fail it with @err. */
static void answer(int listener, const struct seccomp_notif *req, int err)
{
	struct seccomp_notif_resp resp = {
		.id = req->id, .error = err,
		.flags = err ? 0 : SECCOMP_USER_NOTIF_FLAG_CONTINUE,
	};

	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/*
 * run[0], submitted on hold @h, is held; run[1] on @in and out[1] then
 * takes the second slot (the first is run[0]'s until the test lets it
 * go), and the worker allocates its copy of the memory between the
 * tasks: the allocation stops on *@listener, so the test sees the
 * overlap for certain, and is answered with @err (0: it goes on). Then
 * run[0] is let go. Whether run[0] ended with the softmax in its output
 * and run[1] with @err and the slot's message, or the softmax, for 0;
 * run[1]'s message in *@msg. If no allocation stops, *@listener is
 * closed (calls it would stop fail) so that the runs end.
 */
static bool overlap(struct hold *h, bool device, int *listener,
		    struct nvdla_buffer *in, struct nvdla_buffer **out,
		    struct nvdla_network *net, struct nvdla_run **run, int err,
		    const char **msg)
{
	struct seccomp_notif req;
	bool stopped = false;
	int r[2];

	if (run[0] && hold_reached(h) &&
	    !submit_held(net, NULL, device, in, out[1], &run[1]) &&
	    stopped_call(*listener, &req)) {
		stopped = req.data.nr == (device ? __NR_ioctl : __NR_mmap);
		answer(*listener, &req, err);
	} else {
		close(*listener);
		*listener = -1;
	}
	hold_release(h, 0);
	r[0] = run[0] ? nvdla_run_wait(run[0], -1) : -ENOENT;
	r[1] = run[1] ? nvdla_run_wait(run[1], -1) : -ENOENT;
	*msg = run[1] ? nvdla_run_error(run[1]) : "not submitted";
	return stopped && !r[0] && softmax_at(device ? out[0] : h->buf) &&
	       (err ? r[1] == err && strstr(*msg, "of a second run in flight") :
		!r[1] && softmax_at(out[1]));
}

/*
 * A second run in flight whose copy of the memory that its CPU task
 * reads cannot be allocated (run_slot.c): the backend's allocation fails
 * with -ENOMEM (seccomp's answer). That run fails with the error and the
 * slot's message, the run it overlapped completes; the next overlap
 * allocates the copy again, and both of its runs complete.
 */
static void test_slot_alloc_failure(struct nvdla_runtime *rt, bool device)
{
	struct nvdla_network *net = cpu_network_sized(rt, "DC", SLOT_MEM_SIZE);
	struct nvdla_buffer *in = NULL, *out[4] = { NULL };
	struct filtered_start s = { .net = net, .device = device,
				    .listener = -1 };
	struct nvdla_run *run[4] = { NULL };
	const char *why[2], *msg = "";
	struct hold h[2];
	pthread_t thread;
	int i, ret[2];
	bool ok;

	ret[0] = hold_new(rt, device, &h[0], &why[0]);
	ret[1] = hold_new(rt, device, &h[1], &why[1]);
	if (ret[0] == -ENODEV) {
		tap_skip(why[0], "a second run in flight whose copy cannot be allocated");
		goto out;
	}
	ok = tap_ok(!ret[0] && !ret[1], "two holds for first runs: %s",
		    ret[0] ? why[0] : ret[1] ? why[1] : "ready") && net;
	for (i = 0; i < 4 && ok; i++)
		ok = !nvdla_buffer_new(rt, softmax_desc.size, &out[i]);
	if (ok)
		ok = !nvdla_buffer_new(rt, softmax_desc.size, &in);
	if (ok) {
		memset(nvdla_buffer_map(in), 0, softmax_desc.size);
		s.hold = &h[0];
		s.in = in;
		s.out = out[0];
		ok = !pthread_create(&thread, NULL, start_filtered, &s) &&
		     !pthread_join(thread, NULL);
	}
	if (ok && s.listener < 0) {
		tap_skip("no seccomp user notification here",
			 "a second run in flight whose copy cannot be allocated");
		goto out;
	}
	run[0] = s.run;
	ok = ok && overlap(&h[0], device, &s.listener, in, out, net, run,
			   -ENOMEM, &msg);
	tap_ok(ok, "a second run in flight, the first held, whose copy of the memory its CPU task reads cannot be allocated (-ENOMEM) fails alone: %s",
	       msg);
	if (ok)
		ok = !submit_held(net, &h[1], device, in, out[2], &run[2]) &&
		     overlap(&h[1], device, &s.listener, in, out + 2, net,
			     run + 2, 0, &msg);
	tap_ok(ok, "the runtime goes on: the next overlap allocates the copy, and both runs end with the softmax in their own outputs (%s)",
	       *msg ? msg : "no error");
out:
	/* Unloading waits for the run that started. */
	hold_release(&h[0], 0);
	hold_release(&h[1], 0);
	for (i = 0; i < 4; i++)
		nvdla_run_free(run[i]);
	nvdla_network_unload(net);
	if (s.listener >= 0)
		close(s.listener);
	for (i = 0; i < 4; i++)
		nvdla_buffer_del(out[i]);
	nvdla_buffer_del(in);
	hold_del(&h[0]);
	hold_del(&h[1]);
}

/*
 * Networks whose device part the kernel never holds whole while the run
 * is queued: a CPU task before a DLA task, or no DLA task at all. No
 * sync_file (-EOPNOTSUPP and why: in process, no fences first), and the
 * run completes; none after it either.
 */
static void test_sync_file_refused(struct nvdla_runtime *rt, bool device,
				   const char *kinds, const char *why)
{
	struct nvdla_network *net = cpu_network(rt, kinds);
	struct nvdla_run *run = NULL;
	int fd = -ENOMEM, again = -ENOMEM, ret = -ENOMEM;
	const char *msg = "not submitted";

	if (net && !nvdla_run_submit(net, 0, &run)) {
		fd = nvdla_run_sync_file(run);
		msg = nvdla_run_error(run);
		ret = nvdla_run_wait(run, -1);
		again = nvdla_run_sync_file(run);
	}
	tap_ok(fd == -EOPNOTSUPP && again == -EOPNOTSUPP &&
	       strstr(msg, device ? why : "no kernel fences") && !ret &&
	       softmax_out(net),
	       "tasks %s: no sync_file, %d (%s): %s; the run completes (%d), and still none after it (%d)",
	       kinds, fd, strerror(-fd), msg, ret, again);
	if (again >= 0)
		close(again);
	nvdla_run_free(run);
	nvdla_network_unload(net);
}

/* Through the driver: three runs in flight, the last one's sync_file. */
static void test_sync_file(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt, 128);
	struct frame f[RUNS] = { 0 };
	int i, ret, fd = -1, fd2 = -1, status;

	ret = !net || frames_new(rt, net, f);
	for (i = 0; i < RUNS && !ret; i++)
		ret = submit(net, f, i, 0);
	if (!ret) {
		fd = nvdla_run_sync_file(f[RUNS - 1].run);
		fd2 = nvdla_run_sync_file(f[RUNS - 1].run);
	}
	tap_ok(fd >= 0 && fd2 >= 0 && fd != fd2 &&
	       (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	       "the last of three runs in flight gives a sync_file, a new close-on-exec fd per call (%d, %d)",
	       fd, fd2);
	status = fd >= 0 && fd_readable(fd, 60000) ? sync_status(fd) : 0;
	tap_ok(status == 1 && nvdla_run_wait(f[RUNS - 1].run, -1) == 0 &&
	       filled(f[RUNS - 1].out, 0x10 + RUNS - 1),
	       "poll() finds it readable when the run's job ends, signalled without error (status %d); the run's output is there",
	       status);
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	nvdla_network_unload(net);
	frames_del(f);
}

/*
 * Through the driver, a compiled network that ends with a CPU task (the
 * loadable NVDLA_TEST_CPU_NETWORK names: the digit demo in the guests):
 * the sync_file of its device part signals without error; the run
 * completes.
 */
static void test_sync_file_cpu_network(struct nvdla_runtime *rt)
{
	const char *path = getenv("NVDLA_TEST_CPU_NETWORK");
	struct nvdla_network *net = NULL;
	struct nvdla_run *run = NULL;
	int fd = -ENOENT, status = 0, ret = -ENOENT;

	if (!path || access(path, R_OK)) {
		tap_skip("no loadable in NVDLA_TEST_CPU_NETWORK",
			 "the sync_file of a compiled network that ends with a CPU task");
		return;
	}
	if (!nvdla_network_load_file(rt, path, &net) &&
	    !nvdla_run_submit(net, 0, &run))
		fd = nvdla_run_sync_file(run);
	if (fd >= 0 && fd_readable(fd, 60000))
		status = sync_status(fd);
	if (run)
		ret = nvdla_run_wait(run, -1);
	tap_ok(fd >= 0 && status == 1 && !ret,
	       "%s, which ends with a CPU task: the sync_file of its device part (%d) signals without error (status %d); the run completes (%d)",
	       path, fd, status, ret);
	if (fd >= 0)
		close(fd);
	nvdla_run_free(run);
	nvdla_network_unload(net);
}

/* Write @value into the module parameter @path; its old value into @old. */
static int set_param(const char *path, const char *value, char *old,
		     size_t len)
{
	FILE *f = fopen(path, "r+");
	int ret;

	if (!f)
		return -errno;
	ret = old && !fgets(old, len, f) ? -EIO : 0;
	if (!ret && (fseek(f, 0, SEEK_SET) || fputs(value, f) < 0))
		ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}

/*
 * Through a virtual device whose interrupts are dropped (nvdla_sim's
 * fault parameter), one run of @net with @timeout_ns: its first job never
 * completes and the driver stops it, at the run's limit or else at the
 * job timeout (300 ms here). The run's sync_file is an fd even so: its
 * last job was queued while the first was still on the engine, and it
 * signals with the first one's -ETIMEDOUT.
 */
static void test_faulty_run(struct nvdla_network *net, int64_t timeout_ns,
			    const char *what)
{
	static const char fault[] = "/sys/module/nvdla_sim/parameters/fault";
	static const char job_timeout[] = "/sys/module/nvdla/parameters/job_timeout_ms";
	struct nvdla_run *run = NULL;
	int fd = -1, ret, status = 0;
	char old[32];

	if (access(fault, W_OK)) {
		tap_skip("no nvdla_sim fault parameter", "%s", what);
		return;
	}
	ret = !net || set_param(job_timeout, "300", old, sizeof(old)) ||
	      set_param(fault, "1", NULL, 0);
	if (!ret)
		ret = nvdla_run_submit(net, timeout_ns, &run);
	if (!ret)
		fd = nvdla_run_sync_file(run);
	if (fd >= 0 && fd_readable(fd, 60000))
		status = sync_status(fd);
	if (set_param(fault, "0", NULL, 0) ||
	    set_param(job_timeout, old, NULL, 0))
		ret = -EIO;
	if (!ret)
		ret = nvdla_run_wait(run, -1) == -ETIMEDOUT ? 0 : -EINVAL;
	tap_ok(!ret && fd >= 0 && status == -ETIMEDOUT &&
	       strstr(nvdla_run_error(run), "task 0 failed") &&
	       strstr(nvdla_run_error(run), "job"),
	       "%s: the sync_file (%d) signals with %d (%s), the run fails: %s",
	       what, fd, status, strerror(-status),
	       run ? nvdla_run_error(run) : "not submitted");
	if (fd >= 0)
		close(fd);
	nvdla_run_free(run);
}

/*
 * A network of three DLA tasks, each copying what the one before wrote:
 * three runs in flight give their own inputs back; through the driver the
 * last run's sync_file signals without error.
 */
static void test_tasks(struct nvdla_runtime *rt, bool device)
{
	struct nvdla_network *net = echo_tasks(rt, 16, 3);
	struct frame f[RUNS] = { 0 };
	int i, ret, fd = -1, status = 0;
	bool outputs = true;

	ret = !net || frames_new(rt, net, f);
	for (i = 0; i < RUNS && !ret; i++)
		ret = submit(net, f, i, 0);
	if (!ret && device)
		fd = nvdla_run_sync_file(f[RUNS - 1].run);
	if (fd >= 0 && fd_readable(fd, 60000))
		status = sync_status(fd);
	for (i = 0; i < RUNS && !ret; i++)
		outputs &= nvdla_run_wait(f[i].run, -1) == 0 &&
			   filled(f[i].out, 0x10 + i);
	tap_ok(!ret && outputs && (!device || status == 1),
	       "three runs of a network of three DLA tasks in flight: each output its own input%s (sync_file status %d)",
	       device ? ", the last run's sync_file signalled" : "", status);
	if (fd >= 0)
		close(fd);
	if (device) {
		test_faulty_run(net, 0,
				"three tasks chained in the kernel, the first stopped at the job timeout");
		nvdla_network_unload(net);
		net = echo(rt, 8);
		test_faulty_run(net, 300000000,
				"one task stopped at the run's time limit of 300 ms");
	}
	nvdla_network_unload(net);
	frames_del(f);
}

static void test_refused(struct nvdla_runtime *rt)
{
	struct nvdla_network *net = echo(rt, 8);
	struct nvdla_run *run = (struct nvdla_run *)&run;
	int ret;

	ret = net ? nvdla_run_submit(net, -1, &run) : -ENOMEM;
	tap_ok(ret == -EINVAL && !run &&
	       strstr(nvdla_runtime_error(rt), "time limit") &&
	       !nvdla_network_enable_stats(net),
	       "a negative time limit is refused, nothing queued: %s",
	       nvdla_runtime_error(rt));
	ret = net ? nvdla_network_submit(net, 0) : -ENOMEM;
	tap_ok(!ret && nvdla_network_num_op_stats(net) == 1,
	       "the synchronous submission runs on top of a run: statistics of its BDMA operation");
	nvdla_network_unload(net);
}

/*
 * On the in-process model, or on the device NVDLA_TEST_DEVICE names (the
 * guests' 35-runtime-api.sh). The first argument is run-tests.sh's build
 * directory.
 */
int main(void)
{
	const char *device = getenv("NVDLA_TEST_DEVICE") ?: "sim:nv_full";
	bool driver = strncmp(device, "sim:", 4);
	struct nvdla_runtime *rt;
	char err[256];

	if (nvdla_runtime_new(device, &rt, err, sizeof(err))) {
		tap_ok(0, "runtime on %s: %s", device, err);
		return tap_done();
	}
	test_in_flight(rt, driver);
	test_failure_among_others(rt);
	test_cancel(rt);
	test_two_networks(rt);
	test_refused(rt);
	if (driver) {
		test_sync_file(rt);
		test_sync_file_cpu_network(rt);
	} else {
		test_sync_file_in_process(rt);
		test_device_during_cpu_tail(rt);
	}
	test_sync_file_cpu_tail(rt, driver);
	test_slot_alloc_failure(rt, driver);
	test_sync_file_refused(rt, driver, "DCD",
			       "CPU task 1 comes before DLA task 2");
	test_sync_file_refused(rt, driver, "CD",
			       "CPU task 0 comes before DLA task 1");
	test_sync_file_refused(rt, driver, "C",
			       "the network has no DLA task");
	test_tasks(rt, driver);
	nvdla_runtime_del(rt);
	return tap_done();
}
