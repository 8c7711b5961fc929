// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * NVDLAs on the virt board: "-M virt,nvdla=nv_small" creates one,
 * "nvdla=nv_full+nv_small" two (as on Xavier), with a reset controller,
 * and writes their device-tree nodes (Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml), so
 * that the board's own device tree describes them and an unmodified
 * kernel binds its driver. Device N has its register window at
 * VIRT_NVDLA_BASE + N * VIRT_NVDLA_STRIDE, in the hole of virt's memory
 * map below the platform bus, GIC SPI VIRT_NVDLA_SPI + N (after those
 * of the platform bus), and line N of the reset controller.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "hw/arm/fdt.h"
#include "hw/arm/virt.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "sysemu/device_tree.h"

#include "hw/nvdla/virt_nvdla.h"
#include "nvdla.h"

#define VIRT_NVDLA_BASE 0x0b000000
#define VIRT_NVDLA_STRIDE 0x00100000
#define VIRT_NVDLA_RSTC 0x0b800000
#define VIRT_NVDLA_SPI 144
#define VIRT_NVDLA_MAX 4

static char *virt_nvdla_get(Object *obj, Error **errp)
{
	return g_strdup(VIRT_MACHINE(obj)->nvdla);
}

static void virt_nvdla_set(Object *obj, const char *value, Error **errp)
{
	VirtMachineState *vms = VIRT_MACHINE(obj);

	g_free(vms->nvdla);
	vms->nvdla = g_strdup(value);
}

void virt_nvdla_class_init(ObjectClass *oc)
{
	object_class_property_add_str(oc, "nvdla", virt_nvdla_get,
				      virt_nvdla_set);
	object_class_property_set_description(oc, "nvdla",
		"NVDLA devices by configuration, '+' between two: "
		"nv_full, nv_large, nv_small, ...");
}

/* The reset controller's node; returns its phandle. */
static uint32_t virt_nvdla_rstc(VirtMachineState *vms, DeviceState **rstc)
{
	g_autofree char *node = g_strdup_printf("/reset-controller@%x",
						VIRT_NVDLA_RSTC);
	void *fdt = MACHINE(vms)->fdt;
	uint32_t phandle = qemu_fdt_alloc_phandle(fdt);

	*rstc = sysbus_create_simple(TYPE_NVDLA_RSTC, VIRT_NVDLA_RSTC, NULL);
	qemu_fdt_add_subnode(fdt, node);
	qemu_fdt_setprop_string(fdt, node, "compatible",
				"snps,dw-low-reset");
	qemu_fdt_setprop_sized_cells(fdt, node, "reg", 2,
				     VIRT_NVDLA_RSTC, 2, NVDLA_RSTC_SIZE);
	qemu_fdt_setprop_cell(fdt, node, "#reset-cells", 1);
	qemu_fdt_setprop_cell(fdt, node, "phandle", phandle);
	return phandle;
}

static void virt_nvdla_one(VirtMachineState *vms, int n, const char *config,
			   DeviceState *rstc, uint32_t rstc_phandle)
{
	hwaddr base = VIRT_NVDLA_BASE + (hwaddr)n * VIRT_NVDLA_STRIDE;
	int spi = VIRT_NVDLA_SPI + n;
	g_autofree char *node = g_strdup_printf("/npu@%" HWADDR_PRIx, base);
	g_autofree char *compat = g_strdup_printf("nvidia,nvdla-%s", config);
	DeviceState *dev = qdev_new(TYPE_NVDLA);
	void *fdt = MACHINE(vms)->fdt;
	char *c;

	qdev_prop_set_string(dev, "config", config);
	sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
	sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0, base);
	sysbus_connect_irq(SYS_BUS_DEVICE(dev), 0,
			   qdev_get_gpio_in(vms->gic, spi));
	qdev_connect_gpio_out(rstc, n, qdev_get_gpio_in_named(dev, "reset", 0));

	/* nv_small: "nvidia,nvdla-nv-small" */
	for (c = compat; *c; c++) {
		if (*c == '_')
			*c = '-';
	}
	qemu_fdt_add_subnode(fdt, node);
	qemu_fdt_setprop_string(fdt, node, "compatible", compat);
	qemu_fdt_setprop_sized_cells(fdt, node, "reg", 2, base, 2,
				     NVDLA_WINDOW_SIZE);
	qemu_fdt_setprop_cells(fdt, node, "interrupts",
			       GIC_FDT_IRQ_TYPE_SPI, spi,
			       GIC_FDT_IRQ_FLAGS_LEVEL_HI);
	qemu_fdt_setprop_cells(fdt, node, "resets", rstc_phandle, n);
}

void virt_nvdla_create(VirtMachineState *vms)
{
	g_auto(GStrv) configs = NULL;
	DeviceState *rstc;
	uint32_t phandle;
	int n;

	if (!vms->nvdla || !*vms->nvdla)
		return;
	configs = g_strsplit(vms->nvdla, "+", 0);
	if (g_strv_length(configs) > VIRT_NVDLA_MAX) {
		error_report("nvdla: at most %d devices", VIRT_NVDLA_MAX);
		exit(1);
	}
	phandle = virt_nvdla_rstc(vms, &rstc);
	/* Each node goes first: made last to first, they list in order. */
	for (n = g_strv_length(configs) - 1; n >= 0; n--)
		virt_nvdla_one(vms, n, configs[n], rstc, phandle);
}
