// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * In-process backend: the firmware scheduler drives the hardware model in
 * this process. Buffers are host memory given device addresses in a private
 * address space; the model reaches them only through sim_bus_*(), which
 * refuses any access outside a buffer.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <nvdla/firmware.h>
#include <nvdla/sim.h>

#include "backend.h"
#include "port_heap.h"
#include "record.h"

#define SIM_PAGE 4096u
/*
 * First device address handed out: where the public test benches put
 * their memory, so that a recorded trace (record.h) holds every buffer
 * of a network below 4 GiB at the same addresses in every run.
 */
#define SIM_DEV_BASE 0x80000000ull

struct sim_bo {
	struct nvdla_bo base;
	uint64_t dev_addr;
	uint64_t span;
	int fd;		/* the memfd or imported file it maps, or -1 */
	struct sim_bo *next;
};

struct sim_backend {
	struct nvdla_backend base;
	struct nvdla_sim *sim;
	struct dla_engine *engine;
	struct sim_bo *bos;
	uint64_t next_addr;
	const struct nvdla_backend_address *list;	/* running task */
	uint32_t num;
	bool kicked;
	int64_t submit_ns;	/* when the running task was submitted */
	bool written;		/* a register was written since */
	char name[32];
	enum nvdla_sim_config_id id;
	struct nvdla_sim_host host;
	struct nvdla_record *rec;	/* recording the tasks, or NULL */
};

static struct sim_backend *to_sim(struct nvdla_backend *be)
{
	return (struct sim_backend *)be;
}

static int64_t sim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sim_error(struct sim_backend *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sb->base.error, sizeof(sb->base.error), fmt, ap);
	va_end(ap);
}

static struct sim_bo *sim_bo_at(struct sim_backend *sb, uint64_t addr,
				uint64_t len)
{
	struct sim_bo *bo;

	for (bo = sb->bos; bo; bo = bo->next)
		if (addr >= bo->dev_addr &&
		    addr - bo->dev_addr <= bo->base.size &&
		    len <= bo->base.size - (addr - bo->dev_addr))
			return bo;
	return NULL;
}

/* The host view of @len bytes at @addr, told to the recorder if any. */
static uint8_t *sim_bus_host(struct sim_backend *sb, uint64_t addr,
			     uint64_t len, bool write)
{
	struct sim_bo *bo = sim_bo_at(sb, addr, len);
	uint8_t *p;

	if (!bo)
		return NULL;
	p = (uint8_t *)bo->base.map + (addr - bo->dev_addr);
	if (sb->rec)
		nvdla_record_touch(sb->rec, addr, len, p, write);
	return p;
}

static int sim_bus_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	uint8_t *p = sim_bus_host(ctx, addr, len, false);

	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

static int sim_bus_write(void *ctx, uint64_t addr, const void *src,
			 uint32_t len)
{
	uint8_t *p = sim_bus_host(ctx, addr, len, true);

	if (!p)
		return -EFAULT;
	memcpy(p, src, len);
	return 0;
}

static void *sim_bus_map(void *ctx, uint64_t addr, uint64_t len)
{
	return sim_bus_host(ctx, addr, len, false);
}

static void sim_map_write(void *ctx, uint64_t addr, uint64_t len)
{
	sim_bus_host(ctx, addr, len, true);
}

static void sim_kick(void *ctx)
{
	to_sim(ctx)->kicked = true;
}

/* The loop in sim_submit() polls the level; nothing to do on an edge. */
static void sim_irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

static uint32_t port_reg_read(void *drv, uint32_t addr)
{
	struct sim_backend *sb = drv;
	uint32_t val = nvdla_sim_reg_read(sb->sim, addr);

	if (sb->rec)
		nvdla_record_reg(sb->rec, false, addr, val);
	return val;
}

static void port_reg_write(void *drv, uint32_t addr, uint32_t val)
{
	struct sim_backend *sb = drv;

	if (!sb->written) {
		sb->written = true;
		sb->base.timing.submit_to_first_write_ns =
			sim_now_ns() - sb->submit_ns;
	}
	if (sb->rec)
		nvdla_record_reg(sb->rec, true, addr, val);
	nvdla_sim_reg_write(sb->sim, addr, val);
}

/* Offsets were checked against their buffers in sim_submit(). */
static int port_entry(void *drv, void *task, uint16_t index, uint64_t *dma,
		      void **cpu, uint64_t *size)
{
	const struct nvdla_backend_address *a = &to_sim(drv)->list[index];
	const struct sim_bo *bo = (const struct sim_bo *)a->bo;

	(void)task;
	*dma = bo->dev_addr + a->offset;
	if (cpu)
		*cpu = (char *)bo->base.map + a->offset;
	*size = bo->base.size - a->offset;
	return 0;
}

static uint64_t port_time_us(void *drv)
{
	struct timespec ts;

	(void)drv;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void port_log(void *drv, enum dla_log_level level, const char *msg)
{
	struct sim_backend *sb = drv;

	if (level == DLA_LOG_ERROR)
		sim_error(sb, "firmware: %s", msg);
	if (getenv("NVDLA_DEBUG"))
		fprintf(stderr, "nvdla firmware: %s\n", msg);
}

static const struct dla_port_ops sim_port_ops = {
	.reg_read = port_reg_read,
	.reg_write = port_reg_write,
	.entry = port_entry,
	.time_us = port_time_us,
	.log = port_log,
	.alloc = nvdla_port_heap_alloc,
	.free = nvdla_port_heap_free,
};

/*
 * Zeroed pages that are only backed once touched, so that a loadable's
 * large memories cost what the network uses; an inaccessible page after
 * them stops the CPU tasks' overruns as the device's gap stops the model's.
 */
static void *sim_pages_map(uint64_t span)
{
	char *p = mmap(NULL, span + SIM_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + span, SIM_PAGE, PROT_NONE)) {
		munmap(p, span + SIM_PAGE);
		return NULL;
	}
	return p;
}

/* @size rounded up to pages, or -EINVAL with a message. */
static int sim_bo_span(struct sim_backend *sb, uint64_t size, uint64_t *span)
{
	*span = (size + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE;
	if (!size || *span < size || *span > SIZE_MAX) {
		sim_error(sb, "buffer size %llu invalid",
			  (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

/* Give @bo, mapped, its device address and list it. */
static void sim_bo_add(struct sim_backend *sb, struct sim_bo *bo,
		       uint64_t size, uint64_t span)
{
	bo->base.be = &sb->base;
	bo->base.size = size;
	bo->span = span;
	/* A page of unmapped space between buffers catches overruns. */
	bo->dev_addr = sb->next_addr;
	sb->next_addr += span + SIM_PAGE;
	bo->next = sb->bos;
	sb->bos = bo;
}

static int sim_bo_new(struct nvdla_backend *be, uint64_t size,
		      struct nvdla_bo **out)
{
	struct sim_backend *sb = to_sim(be);
	struct sim_bo *bo;
	uint64_t span;

	if (sim_bo_span(sb, size, &span))
		return -EINVAL;
	bo = calloc(1, sizeof(*bo));
	if (bo)
		bo->base.map = sim_pages_map(span);
	if (!bo || !bo->base.map) {
		free(bo);
		sim_error(sb, "out of memory for %llu bytes",
			  (unsigned long long)size);
		return -ENOMEM;
	}
	bo->fd = -1;
	sim_bo_add(sb, bo, size, span);
	*out = &bo->base;
	return 0;
}

/* Map @fd shared over the first @span bytes of @map, in place. */
static int sim_map_fd(void *map, uint64_t span, int fd)
{
	if (mmap(map, span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) == MAP_FAILED)
		return -errno;
	return 0;
}

static int sim_bo_import(struct nvdla_backend *be, int fd,
			 struct nvdla_bo **out)
{
	struct sim_backend *sb = to_sim(be);
	struct sim_bo *bo;
	uint64_t size, span;
	int ret;

	ret = nvdla_fd_size(fd, &size);
	if (ret) {
		sim_error(sb, "fd %d: no memory of a known size to import: %s",
			  fd, strerror(-ret));
		return ret;
	}
	if (sim_bo_span(sb, size, &span))
		return -EINVAL;
	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		sim_error(sb, "out of memory");
		return -ENOMEM;
	}
	/* Our own reference, for exports of it; the caller keeps @fd. */
	bo->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	bo->base.map = bo->fd < 0 ? NULL : sim_pages_map(span);
	ret = bo->fd < 0 ? -errno : !bo->base.map ? -ENOMEM :
	      sim_map_fd(bo->base.map, span, bo->fd);
	if (ret) {
		if (bo->base.map)
			munmap(bo->base.map, span + SIM_PAGE);
		if (bo->fd >= 0)
			close(bo->fd);
		free(bo);
		sim_error(sb, "fd %d: cannot map %llu bytes shared: %s", fd,
			  (unsigned long long)size, strerror(-ret));
		return ret;
	}
	sim_bo_add(sb, bo, size, span);
	*out = &bo->base;
	return 0;
}

/*
 * Move @bo's memory into a memfd at the same address, its contents
 * copied once, so that it can be shared from then on.
 */
static int sim_bo_to_memfd(struct sim_backend *sb, struct sim_bo *bo)
{
	int fd = memfd_create("nvdla-buffer", MFD_CLOEXEC);
	int ret = fd < 0 ? -errno : 0;

	if (!ret && ftruncate(fd, bo->span))
		ret = -errno;
	if (!ret && pwrite(fd, bo->base.map, bo->span, 0) != (ssize_t)bo->span)
		ret = errno ? -errno : -EIO;
	if (!ret)
		ret = sim_map_fd(bo->base.map, bo->span, fd);
	if (ret) {
		if (fd >= 0)
			close(fd);
		sim_error(sb, "cannot put a %llu-byte buffer into a memfd: %s",
			  (unsigned long long)bo->base.size, strerror(-ret));
		return ret;
	}
	bo->fd = fd;
	return 0;
}

static int sim_bo_export(struct nvdla_bo *nbo, int *fd)
{
	struct sim_backend *sb = to_sim(nbo->be);
	struct sim_bo *bo = (struct sim_bo *)nbo;
	int ret;

	if (bo->fd < 0) {
		ret = sim_bo_to_memfd(sb, bo);
		if (ret)
			return ret;
	}
	*fd = fcntl(bo->fd, F_DUPFD_CLOEXEC, 0);
	if (*fd < 0) {
		ret = -errno;
		sim_error(sb, "cannot export a buffer: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static void sim_bo_del(struct nvdla_bo *nbo)
{
	struct sim_backend *sb = to_sim(nbo->be);
	struct sim_bo **p;

	for (p = &sb->bos; *p; p = &(*p)->next) {
		if (&(*p)->base == nbo) {
			struct sim_bo *bo = *p;

			*p = bo->next;
			munmap(bo->base.map, bo->span + SIM_PAGE);
			if (bo->fd >= 0)
				close(bo->fd);
			free(bo);
			return;
		}
	}
}

/* Run the model and the scheduler until the task completes or fails. */
static int sim_run_task(struct sim_backend *sb, int64_t deadline_ns)
{
	struct nvdla_backend_timing *t = &sb->base.timing;
	bool done = false;
	int64_t irq_ns;
	int ret;

	while (!done) {
		if (deadline_ns && sim_now_ns() > deadline_ns) {
			sim_error(sb, "task timed out");
			return -ETIMEDOUT;
		}
		if (sb->kicked) {
			sb->kicked = false;
			if (nvdla_sim_run(sb->sim))
				sb->kicked = true;
		}
		if (!nvdla_sim_irq_level(sb->sim)) {
			if (sb->kicked)
				continue;
			/* Idle, no interrupt: nothing will ever finish it. */
			sim_error(sb, "hardware idle before the task completed");
			return -EIO;
		}
		irq_ns = sim_now_ns();
		if (sb->rec)
			nvdla_record_irq(sb->rec);
		dla_isr_handler(sb->engine);
		ret = dla_process_events(sb->engine, &done);
		if (ret)
			return ret;
		if (!done) {
			t->irq_to_next_ns += sim_now_ns() - irq_ns;
			t->irqs_to_next++;
		}
	}
	return 0;
}

/*
 * Layers of the task the hardware could not run, beyond the @before the
 * model counted already: the task's error, or where they are allowed,
 * counted with the last one's rule and numbers.
 */
static int sim_hazards(struct sim_backend *sb, uint32_t before)
{
	struct nvdla_cbuf_verdict v;
	uint32_t n = nvdla_sim_hazards(sb->sim, &v);
	char msg[sizeof(sb->base.hazard)];

	if (n == before)
		return 0;
	nvdla_cbuf_verdict_text(msg, sizeof(msg), &v);
	if (!sb->base.allow_hazards) {
		sim_error(sb, "the hardware cannot run a layer: %s", msg);
		return -EIO;
	}
	sb->base.hazards += n - before;
	memcpy(sb->base.hazard, msg, sizeof(msg));
	return 0;
}

static int sim_reset(struct sim_backend *sb);

static int sim_submit(struct nvdla_backend *be,
		      const struct nvdla_backend_address *list, uint32_t num,
		      int64_t deadline_ns)
{
	struct sim_backend *sb = to_sim(be);
	struct dla_task task = { .host_task = sb, .num_addresses = num };
	struct dla_checked_task *checked;
	int64_t submit_ns = sim_now_ns();
	uint32_t faults = nvdla_sim_fault_count(sb->sim);
	uint32_t hazards = nvdla_sim_hazards(sb->sim, NULL);
	uint32_t i;
	int ret, stopped = 0;
	bool reset;

	if (!num || num > UINT16_MAX) {
		sim_error(sb, "address list of %u entries", num);
		return -EINVAL;
	}
	for (i = 0; i < num; i++) {
		if (!list[i].bo || list[i].bo->be != be ||
		    list[i].offset > list[i].bo->size) {
			sim_error(sb, "address %u: bad buffer or offset", i);
			return -EINVAL;
		}
	}

	sb->list = list;
	sb->num = num;
	sb->base.error[0] = '\0';
	sb->base.timing = (struct nvdla_backend_timing){ .measured = true };
	sb->submit_ns = submit_ns;
	sb->written = false;
	nvdla_sim_allow_hazards(sb->sim, be->allow_hazards);
	nvdla_sim_skip_values(sb->sim, be->no_values);
	dla_allow_hw_hazards(sb->engine, be->allow_hazards);
	/* The same two steps as the kernel driver's: check a copy, run it. */
	ret = dla_task_prepare(sb->engine, &task, &checked);
	if (ret) {
		sb->list = NULL;
		return ret;
	}
	if (sb->rec)
		nvdla_record_task_begin(sb->rec);
	ret = dla_execute_task(sb->engine, checked);
	if (!ret)
		stopped = ret = sim_run_task(sb, deadline_ns);
	if (!ret)
		ret = sim_hazards(sb, hazards);
	if (!ret && nvdla_sim_fault_count(sb->sim) != faults) {
		sim_error(sb, "hardware model reported a bus fault");
		ret = -EIO;
	}
	if (!ret && sb->rec)
		ret = nvdla_record_task_end(sb->rec, sb->base.error,
					    sizeof(sb->base.error));
	/*
	 * As the driver resets the engine after a job that did not complete
	 * (the operations still programmed would go on into the next task's)
	 * and after one whose weight count only a reset clears.
	 */
	reset = stopped || dla_task_needs_reset(sb->engine, checked);
	dla_clear_task(sb->engine);
	dla_task_release(sb->engine, checked);
	sb->list = NULL;
	if (reset && sim_reset(sb)) {
		char msg[sizeof(sb->base.error)];

		memcpy(msg, sb->base.error, sizeof(msg));
		sim_error(sb, "%s; then the model could not be reset", msg);
		if (!ret)
			ret = -EIO;
	}
	return ret;
}

static void sim_del(struct nvdla_backend *be)
{
	struct sim_backend *sb = to_sim(be);

	while (sb->bos)
		sim_bo_del(&sb->bos->base);
	free(be->est_ops);
	free(sb->engine);
	free(sb->sim);
	free(sb);
}

/* The estimate's parameters in the model's units. */
static struct nvdla_sim_perf_params
sim_perf_params(const struct nvdla_estimate_params *p)
{
	return (struct nvdla_sim_perf_params){
		.clock_khz = (uint32_t)(p->clock_mhz * 1000 + 0.5),
		.dram_mbps = (uint32_t)(p->dram_gbps * 1000 + 0.5),
		.latency_ns = (uint32_t)(p->latency_ns + 0.5),
	};
}

/* A fresh model and firmware, as after power-on, for a new recording. */
static int sim_reset(struct sim_backend *sb)
{
	struct nvdla_sim_perf_params pp = sim_perf_params(&sb->base.est_params);
	int ret = nvdla_sim_init(sb->sim, sb->id, &sb->host);

	if (!ret && sb->base.estimating)
		ret = nvdla_sim_set_perf(sb->sim, &pp);

	if (!ret)
		ret = dla_register_driver(sb->engine, sb, &sim_port_ops,
					  sb->base.hw);
	return ret;
}

static int sim_record(struct nvdla_backend *be, struct nvdla_record *rec)
{
	struct sim_backend *sb = to_sim(be);
	int ret = 0;

	if (rec) {
		ret = sim_reset(sb);
		if (ret) {
			sim_error(sb, "cannot reset the model: %s",
				  strerror(-ret));
			return ret;
		}
	}
	sb->rec = rec;
	return 0;
}

static int sim_estimate(struct nvdla_backend *be,
			struct nvdla_estimate_params *p)
{
	struct sim_backend *sb = to_sim(be);
	struct nvdla_sim_perf_params d, pp;
	int ret;

	nvdla_sim_perf_defaults(sb->id, &d);
	if (!p->clock_mhz)
		p->clock_mhz = d.clock_khz / 1000.0;
	if (!p->dram_gbps)
		p->dram_gbps = d.dram_mbps / 1000.0;
	if (p->latency_ns < 0)
		p->latency_ns = d.latency_ns;
	pp = sim_perf_params(p);
	ret = nvdla_sim_set_perf(sb->sim, &pp);
	if (ret) {
		sim_error(sb, "estimate: clock and bandwidth must be at least 1 kHz and 1 MB/s");
		return ret;
	}
	be->est_params = *p;
	be->estimating = true;
	return 0;
}

/* The names of @engines (BIT(enum nvdla_sim_engine)), joined by '+'. */
static void sim_engine_names(uint32_t engines, char *buf, size_t len)
{
	size_t at = 0;
	int e;

	buf[0] = '\0';
	for (e = 0; e < NVDLA_SIM_ENGINES; e++)
		if (engines & (1u << e))
			at += snprintf(buf + at, len - at, "%s%s", at ? "+" : "",
				       nvdla_sim_engine_name(e));
}

/* The model estimated @op: keep it while estimating. */
static void sim_perf_op(void *ctx, const struct nvdla_sim_perf_op *op)
{
	struct nvdla_backend *be = &((struct sim_backend *)ctx)->base;
	struct nvdla_op_estimate *e;

	if (!be->estimating || be->est_failed)
		return;
	if (be->est_num == be->est_cap) {
		unsigned int cap = be->est_cap ? 2 * be->est_cap : 64;

		e = realloc(be->est_ops, cap * sizeof(*e));
		if (!e) {
			be->est_failed = true;
			return;
		}
		be->est_ops = e;
		be->est_cap = cap;
	}
	e = &be->est_ops[be->est_num++];
	memset(e, 0, sizeof(*e));
	sim_engine_names(op->engines, e->engines, sizeof(e->engines));
	e->group = op->group;
	e->bound = nvdla_sim_bound_name(op->bound);
	e->start_cycle = op->start;
	e->cycles = op->cycles;
	e->time_us = op->cycles / be->est_params.clock_mhz;
	e->mac_cycles = op->mac_cycles;
	e->post_cycles = op->post_cycles;
	e->mem_cycles = op->mem_cycles;
	e->macs = op->macs;
	e->peak_macs = op->peak_macs;
	e->read_bytes = op->read_bytes;
	e->write_bytes = op->write_bytes;
}

static const struct nvdla_backend_ops sim_backend_ops = {
	.bo_new = sim_bo_new,
	.bo_del = sim_bo_del,
	.bo_export = sim_bo_export,
	.bo_import = sim_bo_import,
	.submit = sim_submit,
	.del = sim_del,
	.record = sim_record,
	.estimate = sim_estimate,
};

int nvdla_backend_sim_open(const char *config, struct nvdla_backend **be,
			   char *err, size_t errlen)
{
	const struct nvdla_sim_host host = {
		.bus_read = sim_bus_read,
		.bus_write = sim_bus_write,
		.bus_map = sim_bus_map,
		.kick = sim_kick,
		.irq = sim_irq,
		.map_write = sim_map_write,
		.perf_op = sim_perf_op,
	};
	enum nvdla_sim_config_id id;
	struct sim_backend *sb;
	int ret;

	if (nvdla_sim_config_by_name(config, &id)) {
		snprintf(err, errlen, "unknown model configuration '%s'", config);
		return -EINVAL;
	}
	sb = calloc(1, sizeof(*sb));
	if (sb) {
		sb->sim = calloc(1, nvdla_sim_size());
		sb->engine = calloc(1, dla_engine_size());
	}
	if (!sb || !sb->sim || !sb->engine) {
		if (sb)
			sim_del(&sb->base);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}

	sb->host = host;
	sb->host.ctx = sb;
	sb->id = id;
	sb->next_addr = SIM_DEV_BASE;
	snprintf(sb->name, sizeof(sb->name), "sim:%s", config);
	sb->base.ops = &sim_backend_ops;
	sb->base.name = sb->name;
	sb->base.can_allow_hazards = true;

	sb->base.hw = dla_hw_config_get(config);
	ret = sim_reset(sb);
	if (ret) {
		snprintf(err, errlen, "cannot start the model: %s",
			 strerror(-ret));
		sim_del(&sb->base);
		return ret;
	}
	*be = &sb->base;
	return 0;
}
