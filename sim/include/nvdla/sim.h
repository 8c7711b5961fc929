/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The NVDLA hardware model, seen from its host exactly like the hardware:
 * 32-bit registers, one level interrupt, and a memory bus that the host
 * provides and checks. The model never allocates and never touches memory
 * except through the bus.
 *
 * Register writes only latch state. Work that an engine starts is carried
 * out by nvdla_sim_run(), which the host calls when the model asks for it
 * through nvdla_sim_host.kick (for example from a workqueue), so that the
 * model never runs inside the driver's register-programming path.
 *
 * Not thread safe: the host serialises every call on one instance.
 */
#ifndef __NVDLA_SIM_H__
#define __NVDLA_SIM_H__

#include <nvdla/deps.h>
#include <nvdla/cbuf_limits.h>

struct nvdla_sim;
struct nvdla_sim_perf_op;

/* NVDLA_SIM_NV_FULL, NVDLA_SIM_NV_SMALL, ...: one a configuration. */
#define NVDLA_HW_CONFIG(id, ...) NVDLA_SIM_##id,
enum nvdla_sim_config_id {
#include <nvdla/hw_configs.h>
	NVDLA_SIM_CONFIG_COUNT,
};

#undef NVDLA_HW_CONFIG

/**
 * struct nvdla_sim_host - what the host provides to one model instance
 * @ctx: passed back to every callback
 * @bus_read: copy @len bytes at device address @addr to @dst; -EFAULT (or
 *	another negative errno) when the host does not map the whole range
 * @bus_write: copy @len bytes from @src to device address @addr
 * @bus_map: the host's mapping of the @len bytes at device address @addr
 *	if they lie in one buffer it owns, else NULL; engines compute on
 *	whole data cubes through it
 * @kick: work is pending; call nvdla_sim_run() soon (may be called from
 *	inside nvdla_sim_reg_write(), so it must only schedule)
 * @irq: the interrupt line changed to @level
 * @max_work: most basic steps (MACs, elements, copied lines) one operation
 *	may take; an operation asking for more ends as a fault instead of
 *	running (0: NVDLA_SIM_DEFAULT_MAX_WORK)
 * @cv_read: like @bus_read, for the second memory interface (CVSRAM) of
 *	configurations that have one; with @cv_write and @cv_map NULL, that
 *	interface reaches the same address space as the primary one, as in
 *	the public test benches, which place the SRAM at its own addresses
 * @cv_write: like @bus_write, on the second memory interface
 * @cv_map: like @bus_map, on the second memory interface
 * @yield: called between slices of an operation's work (SIM_SLICE_WORK
 *	basic steps; may be NULL): the host may sleep or run others here,
 *	and returns true to stop the model, which then ends the operations
 *	in progress without touching memory again and does nothing more
 *	until the next nvdla_sim_init()
 * @map_write: (may be NULL) the @len bytes at device address @addr that an
 *	engine has just mapped (@bus_map or @cv_map) to write its output
 *	through; a host that records the run learns there what the engines
 *	write (it sees @bus_write itself)
 * @perf_op: (may be NULL) an operation has run, with its estimate
 */
struct nvdla_sim_host {
	void *ctx;
	int (*bus_read)(void *ctx, u64 addr, void *dst, u32 len);
	int (*bus_write)(void *ctx, u64 addr, const void *src, u32 len);
	void *(*bus_map)(void *ctx, u64 addr, u64 len);
	void (*kick)(void *ctx);
	void (*irq)(void *ctx, bool level);
	u64 max_work;
	int (*cv_read)(void *ctx, u64 addr, void *dst, u32 len);
	int (*cv_write)(void *ctx, u64 addr, const void *src, u32 len);
	void *(*cv_map)(void *ctx, u64 addr, u64 len);
	bool (*yield)(void *ctx);
	void (*map_write)(void *ctx, u64 addr, u64 len);
	void (*perf_op)(void *ctx, const struct nvdla_sim_perf_op *op);
};

/*
 * The performance estimate (sim/perf*.c): every operation the model runs
 * also gets an estimated duration on a clock and memory system.
 */

/* Engines of an estimated operation (struct nvdla_sim_perf_op.engines). */
enum nvdla_sim_engine {
	NVDLA_SIM_ENGINE_CONV,
	NVDLA_SIM_ENGINE_SDP,
	NVDLA_SIM_ENGINE_PDP,
	NVDLA_SIM_ENGINE_CDP,
	NVDLA_SIM_ENGINE_BDMA,
	NVDLA_SIM_ENGINE_RUBIK,
	NVDLA_SIM_ENGINES,
};

/* What limits an operation: the part of it that takes longest. */
enum nvdla_sim_bound {
	NVDLA_SIM_BOUND_MAC,		/* the MAC array */
	NVDLA_SIM_BOUND_MEMORY,		/* DRAM bandwidth or latency */
	NVDLA_SIM_BOUND_POST,		/* SDP, PDP, CDP or RUBIK throughput */
};

/**
 * struct nvdla_sim_perf_params - the system the estimate assumes
 * @clock_khz: core clock
 * @dram_mbps: bandwidth of the memory (reads and writes together), MB/s
 * @latency_ns: read latency of the memory
 */
struct nvdla_sim_perf_params {
	u32 clock_khz, dram_mbps, latency_ns;
};

/**
 * struct nvdla_sim_perf_op - one estimated operation: one engine, or a
 *	pipeline of them fed on the fly (convolution into SDP into PDP)
 * @engines: BIT(enum nvdla_sim_engine) of each engine in it
 * @group: the register group it ran from
 * @bound: what limits it
 * @start: its first cycle on the model's estimated time line, which the
 *	host's handling of done interrupts moves on (nvdla_sim_perf_now())
 * @cycles: its duration
 * @mac_cycles: cycles of the MAC array alone (atomic operations)
 * @post_cycles: cycles of the slowest post-processing engine alone
 * @mem_cycles: cycles of its memory traffic alone, at the bandwidth
 * @latency_cycles: of the memory, once per operation
 * @macs: multiply-accumulates of the layer (what it computes, 0: none)
 * @peak_macs: multiply-accumulates the MAC array does per cycle in its
 *	precision (0: no convolution)
 * @read_bytes: bytes it reads from memory
 * @write_bytes: bytes it writes
 */
struct nvdla_sim_perf_op {
	u32 engines;
	u8 group;
	enum nvdla_sim_bound bound;
	u64 start, cycles;
	u64 mac_cycles, post_cycles, mem_cycles, latency_cycles;
	u64 macs;
	u32 peak_macs;
	u64 read_bytes, write_bytes;
};

/* The estimate's defaults for configuration @id (docs/performance.md). */
int nvdla_sim_perf_defaults(enum nvdla_sim_config_id id,
			    struct nvdla_sim_perf_params *params);

/*
 * Estimate with @params from now on (nvdla_sim_init() sets the
 * configuration's defaults); -EINVAL, nothing changed, for a zero clock
 * or bandwidth.
 */
int nvdla_sim_set_perf(struct nvdla_sim *sim,
		       const struct nvdla_sim_perf_params *params);

/* "conv", "sdp", "pdp", "cdp", "bdma", "rubik"; "mac", "memory", "post". */
const char *nvdla_sim_engine_name(enum nvdla_sim_engine e);
const char *nvdla_sim_bound_name(enum nvdla_sim_bound b);

/* The cycle up to which the host has handled the model's interrupts. */
u64 nvdla_sim_perf_now(const struct nvdla_sim *sim);

/* About a minute of work on one core: no real layer comes close. */
#define NVDLA_SIM_DEFAULT_MAX_WORK (1ull << 36)

/* Size of one model instance; the host allocates it (zeroed). */
size_t nvdla_sim_size(void);

/* Reset an instance to the power-on state of configuration @id. */
int nvdla_sim_init(struct nvdla_sim *sim, enum nvdla_sim_config_id id,
		   const struct nvdla_sim_host *host);

/* Look a configuration up by its name (hw_configs.h). */
int nvdla_sim_config_by_name(const char *name, enum nvdla_sim_config_id *id);

/*
 * The hardware's limits (nvdla/cbuf_limits.h, nvdla/sdp_layout.h): a
 * layer that breaks one ends as a fault, as on the chip it would never
 * end or NVIDIA's C models stop; with @allow set, it runs and is only
 * counted. nvdla_sim_init() clears it.
 */
void nvdla_sim_allow_hazards(struct nvdla_sim *sim, bool allow);

/*
 * For a host that stands for the chip (a virtual device), with @on set a
 * layer that breaks a limit of the convolution buffer (not an SDP layout
 * rule: the chip runs those) hangs as on the chip: no unit of it finishes,
 * its done pulses never come, and nothing more runs until
 * nvdla_sim_init() (the pulses queued before it still come).
 * nvdla_sim_init() clears it.
 */
void nvdla_sim_hang_on_hazards(struct nvdla_sim *sim, bool on);

/*
 * Times alone: with @off set, the convolution, SDP, PDP and CDP check,
 * estimate and end each operation as before but compute no element, so
 * what they would write is left as it was (the estimate does not depend
 * on it). nvdla_sim_init() clears it.
 */
void nvdla_sim_skip_values(struct nvdla_sim *sim, bool off);

/* Layers so far that broke a limit; the latest's rule and numbers in *@last. */
u32 nvdla_sim_hazards(const struct nvdla_sim *sim,
		      struct nvdla_cbuf_verdict *last);

u32 nvdla_sim_reg_read(struct nvdla_sim *sim, u32 addr);
void nvdla_sim_reg_write(struct nvdla_sim *sim, u32 addr, u32 val);

/*
 * Carry out all pending work. Returns true if work remains (it will kick
 * again). Raises the interrupt through the host as operations finish.
 */
bool nvdla_sim_run(struct nvdla_sim *sim);

/* Level of the interrupt output: any unmasked GLB status bit. */
bool nvdla_sim_irq_level(const struct nvdla_sim *sim);

/* Faults the model has seen (bad bus access, impossible programming). */
u32 nvdla_sim_fault_count(const struct nvdla_sim *sim);

#endif /* __NVDLA_SIM_H__ */
