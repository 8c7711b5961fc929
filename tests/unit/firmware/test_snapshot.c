// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Descriptors rewritten after validation: through the firmware port, a
 * host that rewrites a task's descriptors between dla_task_prepare() and
 * dla_execute_task(), or while the task runs, must not change what runs.
 * The task (BDMA -> SDP with a LUT -> BDMA) runs on the hardware model as
 * it was validated: right output, no bus fault, dependency counts never
 * written into the host's buffer. Every buffer is allocated to its exact
 * size, so the -asan build reports any access beyond one.
 *
 * Then a plain loadable whose BDMA operation copies over a later
 * operation's dependency-graph node, through the runtime.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>
#include <nvdla/firmware.h>
#include <nvdla/runtime.h>
#include <nvdla/sim.h>

#include "builder.h"
#include "../lib/tap.h"

#define ATOM 32
#define W 8
#define SIZE (W * ATOM)		/* one line of W x 32 int8 channels */
#define LUT_START -64
#define SDP_ACT_LUT 2
#define NUM_OPS 3
#define HUGE_REPEAT 16777215u	/* the largest a 24-bit field holds */

enum { B_NET, B_GRAPH, B_OPS, B_SURFS, B_LUTS, B_IN, B_A, B_B, B_OUT, NUM_BUFS };

struct host {
	struct nvdla_sim *sim;
	struct dla_engine *engine;
	uint8_t *buf[NUM_BUFS];
	uint64_t size[NUM_BUFS];
	bool kicked;
	char error[160];
	/* What the port's alloc gave out and not yet got back. */
	struct { void *ptr; size_t size; } live[16];
	size_t held, peak, limit;	/* bytes; a limit of 0 is none */
	int bad_frees;	/* frees of unknown pointers or wrong sizes */
};

static struct host h;

static uint64_t dev_addr(int i)
{
	return 0x10000000ull * (i + 1);
}

/* The buffer holding [@addr, @addr + @len), or -1. */
static int host_buf(uint64_t addr, uint64_t len)
{
	int i;

	for (i = 0; i < NUM_BUFS; i++)
		if (addr >= dev_addr(i) && addr - dev_addr(i) <= h.size[i] &&
		    len <= h.size[i] - (addr - dev_addr(i)))
			return i;
	return -1;
}

static int bus_read(void *ctx, u64 addr, void *dst, u32 len)
{
	int i = host_buf(addr, len);

	(void)ctx;
	if (i < 0)
		return -EFAULT;
	memcpy(dst, h.buf[i] + (addr - dev_addr(i)), len);
	return 0;
}

static int bus_write(void *ctx, u64 addr, const void *src, u32 len)
{
	int i = host_buf(addr, len);

	(void)ctx;
	if (i < 0)
		return -EFAULT;
	memcpy(h.buf[i] + (addr - dev_addr(i)), src, len);
	return 0;
}

static void *bus_map(void *ctx, u64 addr, u64 len)
{
	int i = host_buf(addr, len);

	(void)ctx;
	return i < 0 ? NULL : h.buf[i] + (addr - dev_addr(i));
}

static void kick(void *ctx)
{
	(void)ctx;
	h.kicked = true;
}

static void irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

static u32 port_reg_read(void *drv, u32 addr)
{
	(void)drv;
	return nvdla_sim_reg_read(h.sim, addr);
}

static void port_reg_write(void *drv, u32 addr, u32 val)
{
	(void)drv;
	nvdla_sim_reg_write(h.sim, addr, val);
}

static int port_entry(void *drv, void *task, u16 index, u64 *dma, void **cpu,
		      u64 *size)
{
	(void)drv;
	(void)task;
	*dma = dev_addr(index);
	if (cpu)
		*cpu = h.buf[index];
	*size = h.size[index];
	return 0;
}

static u64 port_time_us(void *drv)
{
	(void)drv;
	return 0;
}

static void port_log(void *drv, enum dla_log_level level, const char *msg)
{
	(void)drv;
	if (level == DLA_LOG_ERROR)
		snprintf(h.error, sizeof(h.error), "%s", msg);
}

/*
 * The heap, tracking every block: the firmware must give each back with
 * the size it asked for, as a host that accounts its memory needs. Above
 * h.limit bytes held, it refuses with -E2BIG.
 */
static int port_alloc(void *drv, void *task, size_t size, void **ptr)
{
	size_t i;

	(void)drv;
	(void)task;
	*ptr = NULL;
	if (h.limit && h.held + size > h.limit)
		return -E2BIG;
	for (i = 0; i < sizeof(h.live) / sizeof(h.live[0]); i++) {
		if (h.live[i].ptr)
			continue;
		*ptr = calloc(1, size);
		if (!*ptr)
			return -ENOMEM;
		h.live[i].ptr = *ptr;
		h.live[i].size = size;
		h.held += size;
		if (h.held > h.peak)
			h.peak = h.held;
		return 0;
	}
	return -ENOMEM;
}

static void port_free(void *drv, void *task, void *ptr, size_t size)
{
	size_t i;

	(void)drv;
	(void)task;
	if (!ptr)
		return;
	for (i = 0; i < sizeof(h.live) / sizeof(h.live[0]); i++) {
		if (h.live[i].ptr != ptr)
			continue;
		h.bad_frees += h.live[i].size != size;
		h.held -= h.live[i].size;
		h.live[i].ptr = NULL;
		free(ptr);
		return;
	}
	h.bad_frees++;
}

static const struct dla_port_ops port_ops = {
	.reg_read = port_reg_read,
	.reg_write = port_reg_write,
	.entry = port_entry,
	.time_us = port_time_us,
	.log = port_log,
	.alloc = port_alloc,
	.free = port_free,
};

static int16_t lut_value(int i)
{
	return (int16_t)((i * 7) % 200 - 100);
}

/* Linear from -64, index select 0: an int8 x reads entry x + 64 exactly. */
static void lut_fill(struct dla_lut_param *l)
{
	int i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		l->linear_exp_table[i] = lut_value(i);
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		l->linear_only_table[i] = lut_value(i);
	l->method = 1;
	l->linear_exp_start = (uint64_t)(int64_t)LUT_START;
	l->linear_only_start = (uint64_t)(int64_t)LUT_START;
}

static struct dla_data_cube cube(int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = SIZE,
		.width = W, .height = 1, .channel = ATOM, .line_stride = SIZE,
		.surf_stride = SIZE,
	};
}

static void copy_op(struct nvdla_build_op *op, int16_t src, int16_t dst)
{
	nvdla_build_bdma_op(op, &(struct dla_bdma_transfer_desc){
		.source_address = src, .destination_address = dst,
		.line_size = SIZE, .line_repeat = 1, .source_line = SIZE,
		.destination_line = SIZE, .surface_repeat = 1,
		.source_surface = SIZE, .destination_surface = SIZE,
	});
}

/*
 * in -(BDMA 0)-> a -(SDP 1, LUT 0)-> b -(BDMA 2)-> out; each operation
 * waits for the one before it to complete.
 */
static void build_task(void)
{
	struct dla_network_desc net = {
		.operation_desc_index = B_OPS, .surface_desc_index = B_SURFS,
		.dependency_graph_index = B_GRAPH, .lut_data_index = B_LUTS,
		.roi_array_index = -1, .surface_index = -1,
		.stat_list_index = -1, .reserved1 = -1,
		.op_head = { 0, -1, 1, -1, -1, -1 },
		.num_rois = 1, .num_operations = NUM_OPS, .num_luts = 1,
		.num_addresses = NUM_BUFS,
	};
	struct nvdla_build_op ops[NUM_OPS];
	struct dla_sdp_op_desc *p;
	int i;

	copy_op(&ops[0], B_IN, B_A);
	ops[0].graph.consumers[DLA_OP_BDMA].index = 2;	/* chain only */
	ops[0].graph.consumers[DLA_OP_SDP] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	nvdla_build_op_init(&ops[1], DLA_OP_SDP);
	p = &ops[1].op.sdp_op;
	p->lut_index = 0;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	p->y_op.enable = 1;
	p->y_op.act = SDP_ACT_LUT;
	ops[1].surf.sdp_surface.src_data = cube(B_A);
	ops[1].surf.sdp_surface.dst_data = cube(B_B);
	ops[1].graph.dependency_count = 1;
	ops[1].graph.consumers[DLA_OP_BDMA] = (struct dla_consumer){
		.index = 2, .event = DLA_EVENT_OP_COMPLETED };
	copy_op(&ops[2], B_B, B_OUT);
	ops[2].graph.dependency_count = 1;

	memcpy(h.buf[B_NET], &net, sizeof(net));
	for (i = 0; i < NUM_OPS; i++) {
		ops[i].graph.index = i;
		memcpy(h.buf[B_GRAPH] + i * sizeof(ops[i].graph), &ops[i].graph,
		       sizeof(ops[i].graph));
		memcpy(h.buf[B_OPS] + i * sizeof(ops[i].op), &ops[i].op,
		       sizeof(ops[i].op));
		memcpy(h.buf[B_SURFS] + i * sizeof(ops[i].surf), &ops[i].surf,
		       sizeof(ops[i].surf));
	}
	lut_fill((struct dla_lut_param *)h.buf[B_LUTS]);
	for (i = 0; i < SIZE; i++)
		h.buf[B_IN][i] = (uint8_t)(rand() % 127 - 63);
	memset(h.buf[B_A], 0, SIZE);
	memset(h.buf[B_B], 0, SIZE);
	memset(h.buf[B_OUT], 0, SIZE);
}

static int host_setup(void)
{
	struct nvdla_sim_host sh = {
		.bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
	};
	const uint64_t size[NUM_BUFS] = {
		[B_NET] = sizeof(struct dla_network_desc),
		[B_GRAPH] = NUM_OPS * sizeof(struct dla_common_op_desc),
		[B_OPS] = NUM_OPS * sizeof(union dla_operation_container),
		[B_SURFS] = NUM_OPS * sizeof(union dla_surface_container),
		[B_LUTS] = sizeof(struct dla_lut_param),
		[B_IN] = SIZE, [B_A] = SIZE, [B_B] = SIZE, [B_OUT] = SIZE,
	};
	enum nvdla_sim_config_id id;
	int i, ret;

	for (i = 0; i < NUM_BUFS; i++) {
		h.size[i] = size[i];
		h.buf[i] = malloc(size[i]);
		if (!h.buf[i])
			return -ENOMEM;
	}
	h.sim = calloc(1, nvdla_sim_size());
	h.engine = calloc(1, dla_engine_size());
	if (!h.sim || !h.engine)
		return -ENOMEM;
	ret = nvdla_sim_config_by_name("nv_full", &id);
	if (!ret)
		ret = nvdla_sim_init(h.sim, id, &sh);
	if (!ret)
		ret = dla_register_driver(h.engine, &h, &port_ops,
					  dla_hw_config_get("nv_full"));
	return ret;
}

static void host_teardown(void)
{
	int i;

	for (i = 0; i < NUM_BUFS; i++)
		free(h.buf[i]);
	free(h.engine);
	free(h.sim);
}

static struct dla_common_op_desc *graph(int op)
{
	return (struct dla_common_op_desc *)h.buf[B_GRAPH] + op;
}

static struct dla_bdma_transfer_desc *transfer(int op)
{
	return &((union dla_surface_container *)h.buf[B_SURFS])[op]
		.bdma_surface.transfers[0];
}

static struct dla_sdp_surface_desc *sdp_surface(int op)
{
	return &((union dla_surface_container *)h.buf[B_SURFS])[op].sdp_surface;
}

/* Rewrites of the task, each of which validation refuses or which changes
 * what the task computes. */
static void w_consumer(void)
{
	graph(1)->consumers[DLA_OP_BDMA].index = -2;
	graph(2)->consumers[DLA_OP_SDP] = (struct dla_consumer){
		.index = 30000, .event = DLA_EVENT_OP_COMPLETED };
}
static void w_op_type(void) { graph(2)->op_type = DLA_OP_NUM; }
static void w_count(void) { graph(2)->dependency_count = 0; }
static void w_repeats(void)
{
	transfer(2)->line_repeat = HUGE_REPEAT;
	transfer(2)->surface_repeat = HUGE_REPEAT;
}
static void w_bdma_address(void) { transfer(2)->destination_address = B_NET; }
static void w_sdp_address(void) { sdp_surface(1)->dst_data.address = B_NET; }
static void w_lut(void)
{
	struct dla_lut_param *l = (struct dla_lut_param *)h.buf[B_LUTS];
	int i;

	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		l->linear_exp_table[i] = 5;
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		l->linear_only_table[i] = 5;
}

static const struct {
	void (*rewrite)(void);
	const char *name;
	bool refused;	/* validation refuses the rewritten task */
} rewrites[] = {
	{ w_consumer, "graph consumer indices -2 and 30000", true },
	{ w_op_type, "operation type 6 (DLA_OP_NUM)", true },
	{ w_count, "a dependency count of 0", true },
	{ w_repeats, "BDMA line and surface repeats of 16777215", true },
	{ w_bdma_address, "BDMA destination the network descriptor", true },
	{ w_sdp_address, "SDP output the network descriptor", true },
	{ w_lut, "LUT contents", false },
};

/* Run the loaded task on the model; @rewrite (or NULL) at the first interrupt. */
static int run(void (*rewrite)(void))
{
	bool done = false;
	int ret, rounds = 0;

	while (!done) {
		if (++rounds > 100000)
			return -ETIMEDOUT;
		if (h.kicked) {
			h.kicked = false;
			if (nvdla_sim_run(h.sim))
				h.kicked = true;
		}
		if (!nvdla_sim_irq_level(h.sim)) {
			if (h.kicked)
				continue;
			return -EIO;	/* idle with the task unfinished */
		}
		dla_isr_handler(h.engine);
		if (rewrite) {
			rewrite();
			rewrite = NULL;
		}
		ret = dla_process_events(h.engine, &done);
		if (ret)
			return ret;
	}
	return 0;
}

/* Output bytes that differ from LUT(input): what the validated task makes. */
static int wrong_outputs(void)
{
	int i, bad = 0;

	for (i = 0; i < SIZE; i++)
		bad += (int8_t)h.buf[B_OUT][i] !=
		       (int8_t)lut_value((int8_t)h.buf[B_IN][i] - LUT_START);
	return bad;
}

/*
 * Validate the task, apply @rewrite before it starts (@during false) or
 * at its first interrupt, and check that it ran as validated.
 */
static void attack(int n, bool during)
{
	struct dla_task task = { .host_task = &h, .num_addresses = NUM_BUFS };
	struct dla_checked_task *checked = NULL;
	uint8_t graph_after[NUM_OPS * sizeof(struct dla_common_op_desc)];
	uint32_t faults = nvdla_sim_fault_count(h.sim);
	int prep, exec = -1, ret = -1, bad = -1;

	build_task();
	h.error[0] = '\0';
	prep = dla_task_prepare(h.engine, &task, &checked);
	if (!prep) {
		if (!during)
			rewrites[n].rewrite();
		exec = dla_execute_task(h.engine, checked);
		if (!exec)
			ret = run(during ? rewrites[n].rewrite : NULL);
		/* What the host's graph holds now: no count written back. */
		memcpy(graph_after, h.buf[B_GRAPH], sizeof(graph_after));
		dla_clear_task(h.engine);
		dla_task_release(h.engine, checked);
		bad = wrong_outputs();
	}
	build_task();
	rewrites[n].rewrite();
	tap_ok(!prep && !exec && !ret && !bad &&
	       nvdla_sim_fault_count(h.sim) == faults &&
	       !memcmp(graph_after, h.buf[B_GRAPH], sizeof(graph_after)),
	       "%s %s: runs as validated (prepare %d, execute %d, run %d, %d wrong bytes, %u faults, \"%s\")",
	       rewrites[n].name, during ? "while it runs" : "after its check",
	       prep, exec, ret, bad, nvdla_sim_fault_count(h.sim) - faults,
	       h.error);
}

/* The same rewrite before validation: refused, so it is an attack. */
static void refused(int n)
{
	struct dla_task task = { .host_task = &h, .num_addresses = NUM_BUFS };
	struct dla_checked_task *checked;
	int ret;

	build_task();
	rewrites[n].rewrite();
	h.error[0] = '\0';
	ret = dla_task_prepare(h.engine, &task, &checked);
	dla_task_release(h.engine, checked);
	tap_ok(ret == -EINVAL && checked == NULL && h.error[0],
	       "%s, checked: refused (%d, \"%s\")", rewrites[n].name, ret,
	       h.error);
}

/*
 * The port's memory: every block of a prepared task comes back, with its
 * size, when it is released; and a port that refuses any of the blocks
 * fails the preparation with its own error, holding nothing.
 */
static void test_port_memory(void)
{
	struct dla_task task = { .host_task = &h, .num_addresses = NUM_BUFS };
	struct dla_checked_task *checked = NULL;
	size_t peak, limit;
	int ret, wrong = 0, prep;

	build_task();
	h.peak = 0;
	h.bad_frees = 0;
	ret = dla_task_prepare(h.engine, &task, &checked);
	dla_task_release(h.engine, checked);
	peak = h.peak;
	tap_ok(!ret && peak && !h.held && !h.bad_frees,
	       "a prepared task's memory all comes back on release (%d, peak %zu bytes, %zu held, %d bad frees)",
	       ret, peak, h.held, h.bad_frees);

	/* Every limit below the peak fails one allocation or another. */
	for (limit = 1; limit < peak; limit += 97) {
		h.limit = limit;
		prep = dla_task_prepare(h.engine, &task, &checked);
		wrong += prep != -E2BIG || checked || h.held || h.bad_frees;
	}
	h.limit = 0;
	tap_ok(!wrong,
	       "a port refusing memory fails preparation with its error, leaving nothing held (%d wrong of %zu limits)",
	       wrong, (peak + 95) / 97);
}

/*
 * A loadable whose first BDMA operation copies 64 bytes over the start
 * of its own dependency graph, turning operation 1 (a BDMA copying the
 * input to the output once operation 0 completed) into type 6, one past
 * the last. It runs as it was validated: the output is the input. Its
 * next submission is validated afresh, on the graph it left: refused.
 */
static void test_self_overwrite(void)
{
	struct nvdla_tensor_desc t = {
		.name = "t", .size = SIZE, .n = 1, .c = ATOM, .h = 1, .w = W,
		.data_type = NVDLA_DATA_TYPE_INT8,
	};
	struct nvdla_build_op ops[2];
	uint8_t evil[64], in[SIZE];
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len;
	char err[256];
	int ret, i;

	/* Addresses: 0-3 descriptors, 4 the evil node bytes, 5 in, 6 out. */
	nvdla_build_bdma_op(&ops[0], &(struct dla_bdma_transfer_desc){
		.source_address = 4, .destination_address = 1,
		.line_size = sizeof(evil), .line_repeat = 1,
		.source_line = sizeof(evil), .destination_line = sizeof(evil),
		.surface_repeat = 1, .source_surface = sizeof(evil),
		.destination_surface = sizeof(evil),
	});
	copy_op(&ops[1], 5, 6);
	ops[0].graph.index = 0;
	ops[0].graph.consumers[DLA_OP_BDMA] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	ops[1].graph.index = 1;
	ops[1].graph.dependency_count = 1;
	memcpy(evil, &ops[0].graph, sizeof(ops[0].graph));
	memcpy(evil + sizeof(ops[0].graph), &ops[1].graph,
	       sizeof(evil) - sizeof(ops[0].graph));
	evil[sizeof(ops[0].graph) +
	     offsetof(struct dla_common_op_desc, op_type)] = DLA_OP_NUM;
	for (i = 0; i < SIZE; i++)
		in[i] = (uint8_t)(i * 5 + 1);

	nvdla_builder_init(&b);
	nvdla_builder_task(&b, ops, 2, NULL, 0, 3);
	nvdla_builder_memory(&b, "evil", evil, sizeof(evil));
	nvdla_builder_memory(&b, "in", in, SIZE);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, SIZE), &t,
			   NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, &buf, &len);
	nvdla_builder_fini(&b);
	if (!ret)
		ret = nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err));
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	free(buf);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	tap_ok(!ret && !memcmp(nvdla_buffer_map(nvdla_network_output(net, 0)),
			       in, SIZE),
	       "a BDMA copying over a later graph node: the task runs as validated (%d, %s)",
	       ret, rt ? nvdla_runtime_error(rt) : err);
	ret = net ? nvdla_network_submit(net, 0) : 0;
	tap_ok(ret == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "operation type 6 invalid"),
	       "its next submission is checked on what it left: refused (%d, %s)",
	       ret, rt ? nvdla_runtime_error(rt) : "");
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
}

int main(void)
{
	size_t i;

	srand(5);
	if (host_setup()) {
		tap_ok(0, "model and engine on nv_full");
		return tap_done();
	}
	test_port_memory();
	for (i = 0; i < sizeof(rewrites) / sizeof(rewrites[0]); i++) {
		if (rewrites[i].refused)
			refused(i);
		attack(i, false);
		attack(i, true);
	}
	host_teardown();
	test_self_overwrite();
	return tap_done();
}
