// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libFuzzer target: random register programs on the hardware model.
 * Input: one byte picks the configuration (DRM_NVDLA_CONFIG_NAMES), then
 * 6-byte records (register index into the map's register list, 32-bit
 * value; little endian), with the model run after every eighth write:
 * the format in which "nvdla_trace --seed" records the public hardware
 * tests, the corpus's seeds (tests/unit/fuzz/test_fuzz.sh). Memory is 256 KiB,
 * seen at every 256 KiB-aligned 32-bit address (a bus decoding only the
 * low address bits), so that the tests' buffers map; a range crossing a
 * boundary or above 4 GiB faults. Whatever the program, the model must not
 * read or write outside what the host maps, crash, or run unbounded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "nvdla_accel.h"

#define MEM_SIZE (256u << 10)
#define RECORD 6
#define MAX_RUNS 64
#define MAX_WORK (1u << 14)	/* keep every input quick */

static const struct {
	int unit;
	const char *name;
	uint32_t offset;
} regs[] = NVDLA_REG_NAMES;

static uint8_t mem[MEM_SIZE];

/* What the memory holds before each program, made once. */
static const uint8_t *mem_start(void)
{
	static uint8_t start[MEM_SIZE];
	static bool made;
	size_t i;

	for (i = 0; !made && i < MEM_SIZE; i++)
		start[i] = i * 131;
	made = true;
	return start;
}

static uint8_t *mem_at(uint64_t addr, uint64_t len)
{
	uint64_t offset = addr % MEM_SIZE;

	if (addr >> 32 || len > MEM_SIZE - offset)
		return NULL;
	return mem + offset;
}

static int bus_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	uint8_t *p = mem_at(addr, len);

	(void)ctx;
	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

static int bus_write(void *ctx, uint64_t addr, const void *src, uint32_t len)
{
	uint8_t *p = mem_at(addr, len);

	(void)ctx;
	if (!p)
		return -EFAULT;
	memcpy(p, src, len);
	return 0;
}

static void *bus_map(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	return mem_at(addr, len);
}

static void kick(void *ctx)
{
	(void)ctx;
}

static void irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

static void run(struct nvdla_sim *sim)
{
	int i;

	for (i = 0; i < MAX_RUNS && nvdla_sim_run(sim); i++)
		;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const configs[] = DRM_NVDLA_CONFIG_NAMES;
	const char *config;
	const struct nvdla_sim_host host = {
		.bus_read = bus_read, .bus_write = bus_write, .bus_map = bus_map,
		.kick = kick, .irq = irq, .max_work = MAX_WORK,
	};
	const struct dla_hw_config *hw;
	enum nvdla_sim_config_id id;
	struct nvdla_sim *sim;
	size_t i, n = 0;

	if (!size)
		return 0;
	config = configs[data[0] % (sizeof(configs) / sizeof(configs[0]))];
	if (nvdla_sim_config_by_name(config, &id))
		abort();
	hw = dla_hw_config_get(config);
	sim = malloc(nvdla_sim_size());
	if (!sim || nvdla_sim_init(sim, id, &host))
		abort();
	memcpy(mem, mem_start(), MEM_SIZE);

	for (i = 1; i + RECORD <= size; i += RECORD) {
		uint32_t r = (data[i] | data[i + 1] << 8) %
			     (sizeof(regs) / sizeof(regs[0]));
		uint32_t val;

		memcpy(&val, data + i + 2, 4);
		if (hw->unit_base[regs[r].unit] != NVDLA_UNIT_ABSENT)
			nvdla_sim_reg_write(sim, hw->unit_base[regs[r].unit] +
					    regs[r].offset, val);
		if (++n % 8 == 0)
			run(sim);
	}
	run(sim);
	free(sim);
	return 0;
}
