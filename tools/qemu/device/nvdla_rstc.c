// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A reset controller of the kind Linux's reset-simple driver serves as
 * "snps,dw-low-reset": one 32-bit register, bit N low holds line N in
 * reset. Its lines drive the NVDLAs' "reset" inputs, so that the driver's
 * reset_control_assert() stops and restarts the device as on an SoC. At
 * power-on every line is released, so that a kernel without the reset
 * driver still finds its devices working.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "migration/vmstate.h"

#include "nvdla.h"

static void nvdla_rstc_update(NVDLARstcState *s, uint32_t old)
{
	int i;

	for (i = 0; i < NVDLA_RSTC_LINES; i++) {
		if ((old ^ s->value) & (1u << i))
			qemu_set_irq(s->lines[i], !(s->value & (1u << i)));
	}
}

static uint64_t nvdla_rstc_read(void *opaque, hwaddr addr, unsigned int size)
{
	NVDLARstcState *s = opaque;

	if (addr) {
		qemu_log_mask(LOG_GUEST_ERROR, "nvdla-rstc: read of 0x%"
			      HWADDR_PRIx ": no register\n", addr);
		return 0;
	}
	return s->value;
}

static void nvdla_rstc_write(void *opaque, hwaddr addr, uint64_t val,
			     unsigned int size)
{
	NVDLARstcState *s = opaque;
	uint32_t old = s->value;

	if (addr) {
		qemu_log_mask(LOG_GUEST_ERROR, "nvdla-rstc: write of 0x%"
			      HWADDR_PRIx ": no register\n", addr);
		return;
	}
	s->value = val;
	nvdla_rstc_update(s, old);
}

static const MemoryRegionOps nvdla_rstc_ops = {
	.read = nvdla_rstc_read,
	.write = nvdla_rstc_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = {
		.min_access_size = 4,
		.max_access_size = 4,
	},
};

static void nvdla_rstc_reset(DeviceState *dev)
{
	NVDLARstcState *s = NVDLA_RSTC(dev);
	uint32_t old = s->value;

	s->value = ~0u;
	nvdla_rstc_update(s, old);
}

static void nvdla_rstc_init(Object *obj)
{
	NVDLARstcState *s = NVDLA_RSTC(obj);

	memory_region_init_io(&s->iomem, obj, &nvdla_rstc_ops, s,
			      TYPE_NVDLA_RSTC, NVDLA_RSTC_SIZE);
	sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
	qdev_init_gpio_out(DEVICE(obj), s->lines, NVDLA_RSTC_LINES);
	s->value = ~0u;
}

static const VMStateDescription nvdla_rstc_vmstate = {
	.name = TYPE_NVDLA_RSTC,
	.version_id = 1,
	.minimum_version_id = 1,
	.fields = (VMStateField[]) {
		VMSTATE_UINT32(value, NVDLARstcState),
		VMSTATE_END_OF_LIST()
	},
};

static void nvdla_rstc_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);

	dc->desc = "Reset controller for NVDLA devices (snps,dw-low-reset)";
	dc->reset = nvdla_rstc_reset;
	dc->vmsd = &nvdla_rstc_vmstate;
}

static const TypeInfo nvdla_rstc_info = {
	.name = TYPE_NVDLA_RSTC,
	.parent = TYPE_SYS_BUS_DEVICE,
	.instance_size = sizeof(NVDLARstcState),
	.instance_init = nvdla_rstc_init,
	.class_init = nvdla_rstc_class_init,
};

static void nvdla_rstc_register_types(void)
{
	type_register_static(&nvdla_rstc_info);
}

type_init(nvdla_rstc_register_types)
