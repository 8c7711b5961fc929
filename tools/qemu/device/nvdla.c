// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * An NVDLA, computing with the project's hardware
 * model (sim/, the code the kernel's virtual device and the user-space
 * runtime run, bit for bit): its register window (32-bit accesses), its
 * interrupt (level high: any unmasked GLB status bit), its DMA into the
 * SoC's RAM (nvdla_bus.c), and device reset, which restarts the model.
 * The model computes on a thread of its own (nvdla_worker.c). That core is
 * the same on either bus; here it is also the device on QEMU's system bus,
 * with a reset line ("reset", high holds the device in reset), and in
 * nvdla_pci.c a PCI device. docs/qemu-device.md describes both from the
 * guest's side.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "exec/address-spaces.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/blocker.h"

#include "nvdla.h"
#undef BIT
#undef ARRAY_SIZE
#include <nvdla/sim.h>

static Error *nvdla_migration_blocker;

/* The model's interrupt output changed (lock held, any thread). */
static void nvdla_line(void *opaque, bool level)
{
	NVDLACore *s = opaque;

	qatomic_set(&s->level, level);
	qemu_bh_schedule(s->irq_bh);
}

/* Main loop, BQL held: the line follows the model. */
static void nvdla_irq_bh(void *opaque)
{
	NVDLACore *s = opaque;

	qemu_set_irq(s->irq, qatomic_read(&s->level));
}

/* The model at power-on; lock held, the worker out of the model. */
static void nvdla_model_init(NVDLACore *s)
{
	const struct nvdla_sim_host host = {
		.ctx = s,
		.bus_read = nvdla_bus_read,
		.bus_write = nvdla_bus_write,
		.bus_map = nvdla_bus_map,
		.map_write = nvdla_bus_map_write,
		.kick = nvdla_worker_kick,
		.irq = nvdla_line,
		.yield = nvdla_worker_yield,
	};

	nvdla_sim_init(s->sim, s->config_id, &host);
	nvdla_sim_hang_on_hazards(s->sim, true);
	s->pending = false;
	s->hazards = 0;
	qatomic_set(&s->level, false);
}

/*
 * Stop the model at its next slice (it touches memory no more), wait for
 * the worker to leave it, and start it again at power-on. BQL held.
 */
void nvdla_core_restart(NVDLACore *s)
{
	qatomic_set(&s->stop, true);
	nvdla_lock(s);
	nvdla_worker_wait_idle(s);
	nvdla_model_init(s);
	qatomic_set(&s->stop, false);
	nvdla_unlock(s);
	qemu_set_irq(s->irq, 0);
}

/* An access while in reset: logged once each time the line is asserted. */
static void nvdla_in_reset(NVDLACore *s, const char *what, hwaddr addr)
{
	if (s->reset_logged)
		return;
	s->reset_logged = true;
	qemu_log_mask(LOG_GUEST_ERROR,
		      "nvdla@0x%" HWADDR_PRIx ": %s of 0x%" HWADDR_PRIx
		      " in reset (ignored, as are the next ones until the line is released)\n",
		      s->iomem.addr, what, addr);
}

static uint64_t nvdla_read(void *opaque, hwaddr addr, unsigned int size)
{
	NVDLACore *s = opaque;
	uint32_t val;

	if (s->in_reset) {
		nvdla_in_reset(s, "read", addr);
		return 0;
	}
	nvdla_lock(s);
	val = nvdla_sim_reg_read(s->sim, addr);
	nvdla_unlock(s);
	return val;
}

/*
 * A write may clear the interrupt (GLB status): the line drops before the
 * vCPU goes on, or the guest would take the interrupt again at its EOI.
 */
static void nvdla_write(void *opaque, hwaddr addr, uint64_t val,
			unsigned int size)
{
	NVDLACore *s = opaque;
	bool level;

	if (s->in_reset) {
		nvdla_in_reset(s, "write", addr);
		return;
	}
	nvdla_lock(s);
	nvdla_sim_reg_write(s->sim, addr, val);
	level = nvdla_sim_irq_level(s->sim);
	qatomic_set(&s->level, level);
	nvdla_unlock(s);
	qemu_set_irq(s->irq, level);
}

/* The CSB takes whole aligned 32-bit words; other accesses fault. */
static const MemoryRegionOps nvdla_ops = {
	.read = nvdla_read,
	.write = nvdla_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = {
		.min_access_size = 4,
		.max_access_size = 4,
		.unaligned = false,
	},
};

/* The reset line: asserted, the model restarts and stays at power-on. */
static void nvdla_reset_line(void *opaque, int n, int level)
{
	NVDLACore *s = &NVDLA(opaque)->core;

	if (level && !s->in_reset) {
		nvdla_core_restart(s);
		s->reset_logged = false;
	}
	s->in_reset = level;
}

static void nvdla_reset(DeviceState *dev)
{
	nvdla_core_restart(&NVDLA(dev)->core);
}

/*
 * The core of a device that @owner is, its engines' DMA reaching @as;
 * the caller exposes s->iomem and s->irq on its bus.
 */
void nvdla_core_realize(NVDLACore *s, Object *owner, AddressSpace *as,
			Error **errp)
{
	enum nvdla_sim_config_id id;

	if (!s->config || nvdla_sim_config_by_name(s->config, &id)) {
		error_setg(errp, "nvdla: unknown configuration '%s'",
			   s->config ? s->config : "");
		return;
	}
	s->config_id = id;
	if (!nvdla_migration_blocker) {
		error_setg(&nvdla_migration_blocker,
			   "nvdla: the hardware model's state does not migrate");
		if (migrate_add_blocker(nvdla_migration_blocker, errp) < 0)
			return;
	}
	s->as = as;
	if (!nvdla_mirror_init(s, errp))
		return;
	s->sim = g_malloc0(nvdla_sim_size());
	qemu_mutex_init(&s->lock);
	qemu_cond_init(&s->turn);
	qemu_cond_init(&s->work);
	qemu_cond_init(&s->idle);
	s->irq_bh = qemu_bh_new(nvdla_irq_bh, s);
	qemu_mutex_lock(&s->lock);
	nvdla_model_init(s);
	qemu_mutex_unlock(&s->lock);
	memory_region_init_io(&s->iomem, owner, &nvdla_ops, s, TYPE_NVDLA,
			      NVDLA_WINDOW_SIZE);
	nvdla_worker_start(s);
}

void nvdla_core_unrealize(NVDLACore *s)
{
	nvdla_worker_stop(s);
	qemu_bh_delete(s->irq_bh);
	qemu_cond_destroy(&s->idle);
	qemu_cond_destroy(&s->work);
	qemu_cond_destroy(&s->turn);
	qemu_mutex_destroy(&s->lock);
	g_free(s->sim);
	nvdla_mirror_fini(s);
}

static void nvdla_realize(DeviceState *dev, Error **errp)
{
	NVDLAState *s = NVDLA(dev);
	Error *err = NULL;

	nvdla_core_realize(&s->core, OBJECT(s), &address_space_memory, &err);
	if (err) {
		error_propagate(errp, err);
		return;
	}
	sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->core.iomem);
	sysbus_init_irq(SYS_BUS_DEVICE(s), &s->core.irq);
	qdev_init_gpio_in_named(dev, nvdla_reset_line, "reset", 1);
}

static void nvdla_unrealize(DeviceState *dev)
{
	nvdla_core_unrealize(&NVDLA(dev)->core);
}

static Property nvdla_properties[] = {
	DEFINE_PROP_STRING("config", NVDLAState, core.config),
	DEFINE_PROP_END_OF_LIST(),
};

static void nvdla_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);

	dc->desc = "NVIDIA Deep Learning Accelerator (hardware model)";
	dc->realize = nvdla_realize;
	dc->unrealize = nvdla_unrealize;
	dc->reset = nvdla_reset;
	device_class_set_props(dc, nvdla_properties);
	set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo nvdla_info = {
	.name = TYPE_NVDLA,
	.parent = TYPE_SYS_BUS_DEVICE,
	.instance_size = sizeof(NVDLAState),
	.class_init = nvdla_class_init,
};

static void nvdla_register_types(void)
{
	type_register_static(&nvdla_info);
}

type_init(nvdla_register_types)
