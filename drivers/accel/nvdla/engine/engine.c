// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Engine context: binding to a host and device, register access, logging
 * and descriptor access through the host's port.
 */
#include <linux/stdarg.h>

#include "engine.h"

size_t dla_engine_size(void)
{
	return sizeof(struct dla_engine);
}

int dla_register_driver(struct dla_engine *engine, void *drv,
			const struct dla_port_ops *ops,
			const struct dla_hw_config *config)
{
	if (!ops || !config || !config->unit_base ||
	    config->unit_base[NVDLA_UNIT_GLB] == NVDLA_UNIT_ABSENT)
		return -EINVAL;

	memset(engine, 0, sizeof(*engine));
	engine->drv = drv;
	engine->ops = ops;
	engine->config = config;
	engine->log_op = -1;
	return 0;
}

u32 dla_reg_read(struct dla_engine *engine, enum nvdla_unit unit, u32 reg)
{
	return engine->ops->reg_read(engine->drv,
				     engine->config->unit_base[unit] + reg);
}

void dla_reg_write(struct dla_engine *engine, enum nvdla_unit unit, u32 reg,
		   u32 val)
{
	engine->ops->reg_write(engine->drv,
			       engine->config->unit_base[unit] + reg, val);
}

int dla_log(struct dla_engine *engine, enum dla_log_level level, int err,
	    const char *fmt, ...)
{
	char msg[DLA_LOG_MAX];
	int n = 0;
	va_list ap;

	if (engine->log_op >= 0)
		n = snprintf(msg, sizeof(msg), "op %d: ", engine->log_op);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	engine->ops->log(engine->drv, level, msg);
	return err;
}

static int dla_check_index(struct dla_engine *engine, s16 index)
{
	if (index < 0 || index >= engine->task->num_addresses)
		return dla_reject(engine,
				  "address index %d outside the list of %u",
				  index, engine->task->num_addresses);
	return 0;
}

/*
 * Locate @len bytes at @offset of address-list entry @index: the one
 * place where the firmware checks an access against the buffer it names.
 * @cpu is NULL when the firmware wants only the device address, so the
 * host knows which buffers the CPU reads or writes.
 */
static int dla_locate(struct dla_engine *engine, s16 index, u64 offset,
		      u64 len, u64 *dma, u8 **cpu)
{
	u64 size;
	void *base;
	int ret = dla_check_index(engine, index);

	if (ret)
		return ret;
	ret = engine->ops->entry(engine->drv, engine->task->host_task, index,
				 dma, cpu ? &base : NULL, &size);
	if (ret)
		return dla_log(engine, DLA_LOG_ERROR, ret,
			       "address %d cannot be resolved", index);
	if (offset > size || len > size - offset)
		return dla_reject(engine,
				  "%llu bytes at %llu overrun address %d (%llu bytes)",
				  (unsigned long long)len,
				  (unsigned long long)offset, index,
				  (unsigned long long)size);
	*dma += offset;
	if (cpu)
		*cpu = (u8 *)base + offset;
	return 0;
}

int dla_copy_in(struct dla_engine *engine, s16 index, u32 count, u32 size,
		void *dst)
{
	u64 dma;
	u8 *cpu;
	int ret = dla_locate(engine, index, 0, (u64)count * size, &dma, &cpu);

	if (!ret)
		memcpy(dst, cpu, (size_t)count * size);
	return ret;
}

int dla_write_desc(struct dla_engine *engine, s16 index, u32 elem,
		   const void *src, u32 size)
{
	u64 dma;
	u8 *cpu;
	int ret = dla_locate(engine, index, (u64)elem * size, size, &dma, &cpu);

	if (!ret)
		memcpy(cpu, src, size);
	return ret;
}

int dla_dma_range(struct dla_engine *engine, s16 index, u64 offset, u64 len,
		  u64 *addr)
{
	return dla_locate(engine, index, offset, len, addr, NULL);
}
