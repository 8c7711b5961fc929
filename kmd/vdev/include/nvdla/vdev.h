/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A virtual NVDLA as a platform device, the way nvdla_sim.ko (kmd/vdev/)
 * offers the hardware model to nvdla.ko: a platform device named "nvdla"
 * whose interrupt is its IRQ resource 0, like a board's, and whose
 * platform data is a struct nvdla_vdev for what a board has in hardware:
 * the register window, the memory the device reaches, its reset. The two
 * modules share no symbol.
 */
#ifndef __NVDLA_VDEV_H__
#define __NVDLA_VDEV_H__

#include <linux/types.h>

/**
 * struct nvdla_vdev_bus - the memory a virtual device may reach
 * @ctx: passed back to @map
 * @map: the CPU mapping of the @len bytes at device address @addr if they
 *	lie in one buffer of the running job, else NULL; callable with
 *	interrupts off. Its result stays valid until the device is reset.
 */
struct nvdla_vdev_bus {
	void *ctx;
	void *(*map)(void *ctx, u64 addr, u64 len);
};

/**
 * struct nvdla_vdev - platform data of a virtual NVDLA
 * @config: its hardware configuration (nv_full, nv_small, ...)
 * @ctx: passed back to every callback
 * @reg_read: read the register at byte address @addr; never sleeps
 * @reg_write: write it; never sleeps
 * @attach: the bus the device reaches memory through from now on, or NULL
 *	for none (every access then faults); sleeps
 * @reset: back to the power-on state: a layer in progress stops at its
 *	next slice of work, waited for; sleeps
 * @faults: the bus and programming faults the device has seen
 * @resettable: whether its engine reset works (not while fault injection
 *	takes it away)
 */
struct nvdla_vdev {
	const char *config;
	void *ctx;
	u32 (*reg_read)(void *ctx, u32 addr);
	void (*reg_write)(void *ctx, u32 addr, u32 val);
	void (*attach)(void *ctx, const struct nvdla_vdev_bus *bus);
	void (*reset)(void *ctx);
	u32 (*faults)(void *ctx);
	bool (*resettable)(void *ctx);
};

#endif /* __NVDLA_VDEV_H__ */
