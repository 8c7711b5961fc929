/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * An NVDLA for QEMU, computing with the project's hardware model (sim/):
 * the device's state and the interfaces between its files.
 *
 *   nvdla.c         the core (register window, interrupt, resets) and the
 *                   sysbus device around it
 *   nvdla_pci.c     the PCI device around the same core
 *   nvdla_bus.c     the model's memory bus: DMA into the SoC's RAM
 *   nvdla_mirror.c  device addresses behind an IOMMU seen as one host range
 *   nvdla_worker.c  the thread the model computes on, and its lock
 *   nvdla_rstc.c    a reset controller driving the devices' reset lines
 *   virt_nvdla.c    the "nvdla" property of the virt board
 */
#ifndef HW_NVDLA_NVDLA_H
#define HW_NVDLA_NVDLA_H

#include "hw/pci/pci.h"
#include "hw/sysbus.h"
#include "qemu/thread.h"
#include "qom/object.h"

#define TYPE_NVDLA "nvdla"
OBJECT_DECLARE_SIMPLE_TYPE(NVDLAState, NVDLA)

#define TYPE_NVDLA_PCI "nvdla-pci"
OBJECT_DECLARE_SIMPLE_TYPE(NVDLAPCIState, NVDLA_PCI)

#define TYPE_NVDLA_RSTC "nvdla-rstc"
OBJECT_DECLARE_SIMPLE_TYPE(NVDLARstcState, NVDLA_RSTC)

/* Register window of every configuration (the binding's reg size). */
#define NVDLA_WINDOW_SIZE 0x20000
/* The reset controller: one 32-bit register, one active-low bit a line. */
#define NVDLA_RSTC_SIZE 0x1000
#define NVDLA_RSTC_LINES 32

struct nvdla_sim;

/**
 * struct NVDLACore - one NVDLA, whichever bus carries it
 * @config: the configuration's name (property "config": nv_full, ...)
 * @config_id: its model configuration (enum nvdla_sim_config_id)
 * @iomem: the register window
 * @irq: the interrupt output, level high
 * @as: the address space the engines' DMA reaches: the system's on the
 *	system bus, the device's bus-master space (through any IOMMU) on PCI
 * @mirror: with an IOMMU in @as, a host range as large as the device's
 *	address space where nvdla_mirror_map() places the RAM pages a device
 *	range translates to, so that an engine sees it in one piece; NULL
 *	where @as has no IOMMU
 * @sim: the hardware model; only with @lock held
 * @lock: serialises every call into @sim: register accesses from the vCPU
 *	threads (with the BQL held) and the worker's runs, which drop it
 *	between slices of a layer's work
 * @waiters: threads waiting for @lock: the worker lets them in at its next
 *	slice before it goes on
 * @turn: signalled when a waiter got @lock and left it
 * @work: signalled when @pending or @quit is set
 * @idle: signalled when the worker leaves nvdla_sim_run()
 * @thread: the worker
 * @pending: the model asked to run (its kick); under @lock
 * @running: the worker is inside nvdla_sim_run(); under @lock
 * @stop: the model is being reset: its run stops at the next slice
 * @quit: the worker ends (device finalised); under @lock
 * @level: the model's interrupt output, as the model last reported it
 * @irq_bh: raises or lowers @irq to @level in the main loop (BQL held)
 * @in_reset: the reset line is asserted: registers read 0, writes ignored
 * @reset_logged: an access in this reset was logged
 * @bus_errors: DMA accesses refused (outside RAM, or failed); under @lock
 * @hazards: layers the model refused as the chip cannot run them
 *	(nvdla_sim_hazards()) since power-on; under @lock
 */
typedef struct NVDLACore {
	char *config;
	int config_id;
	MemoryRegion iomem;
	qemu_irq irq;
	AddressSpace *as;
	uint8_t *mirror;

	struct nvdla_sim *sim;
	QemuMutex lock;
	int waiters;
	QemuCond turn;
	QemuCond work;
	QemuCond idle;
	QemuThread thread;
	bool pending;
	bool running;
	bool stop;
	bool quit;
	bool level;
	QEMUBH *irq_bh;
	bool in_reset;
	bool reset_logged;
	uint64_t bus_errors;
	uint32_t hazards;
} NVDLACore;

/* The NVDLA on the system bus: a device-tree node describes it. */
struct NVDLAState {
	SysBusDevice parent_obj;

	NVDLACore core;
};

/* The NVDLA on PCI: BAR 0 the register window, INTA its interrupt. */
struct NVDLAPCIState {
	PCIDevice parent_obj;

	NVDLACore core;
};

/**
 * struct NVDLARstcState - a reset controller of the "snps,dw-low-reset"
 *	kind: bit N of its register, when 0, holds line N in reset
 * @iomem: the register
 * @value: the register's value
 * @lines: the reset lines (high: in reset)
 */
struct NVDLARstcState {
	SysBusDevice parent_obj;

	MemoryRegion iomem;
	uint32_t value;
	qemu_irq lines[NVDLA_RSTC_LINES];
};

/* nvdla.c */
void nvdla_core_realize(NVDLACore *s, Object *owner, AddressSpace *as,
			Error **errp);
void nvdla_core_unrealize(NVDLACore *s);
void nvdla_core_restart(NVDLACore *s);

/* nvdla_worker.c */
void nvdla_lock(NVDLACore *s);
void nvdla_unlock(NVDLACore *s);
void nvdla_worker_start(NVDLACore *s);
void nvdla_worker_stop(NVDLACore *s);
void nvdla_worker_kick(void *opaque);
bool nvdla_worker_yield(void *opaque);
void nvdla_worker_wait_idle(NVDLACore *s);

/* nvdla_bus.c */
int nvdla_bus_read(void *opaque, uint64_t addr, void *dst, uint32_t len);
int nvdla_bus_write(void *opaque, uint64_t addr, const void *src,
		    uint32_t len);
void *nvdla_bus_map(void *opaque, uint64_t addr, uint64_t len);
void nvdla_bus_map_write(void *opaque, uint64_t addr, uint64_t len);

/* nvdla_mirror.c */
bool nvdla_mirror_init(NVDLACore *s, Error **errp);
void nvdla_mirror_fini(NVDLACore *s);
void *nvdla_mirror_map(NVDLACore *s, uint64_t addr, uint64_t len);

#endif /* HW_NVDLA_NVDLA_H */
