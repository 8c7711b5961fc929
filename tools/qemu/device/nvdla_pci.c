// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The NVDLA as a PCI Express function, as on an FPGA card: "-device
 * nvdla-pci,config=nv_small". BAR 0 is the register window, INTA the
 * interrupt, and the engines' DMA goes through the function's bus-master
 * address space, so through the IOMMU when the machine has one in front
 * of the PCI bus ("-M virt,iommu=smmuv3"): the guest maps every buffer.
 * It is a PCI Express endpoint (virt's bus is PCI Express) whose
 * function-level reset restarts the model, as device reset does. The
 * core is nvdla.c's.
 *
 * IDs: vendor 1af4, device 10f0 plus the configuration's index (nv_full
 * 10f0, nv_small 10f1, nv_large 10f2, ...: the order of hw_configs.h and
 * of the driver's enum drm_nvdla_config), in the range QEMU's PCI ID list
 * leaves to experimental devices without registration
 * (docs/specs/pci-ids.txt); no product has them. The class is a
 * processing accelerator (0x1200).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"

#include "nvdla.h"
#undef BIT
#undef ARRAY_SIZE
#include <nvdla/sim.h>

#define NVDLA_PCI_VENDOR_ID 0x1af4
#define NVDLA_PCI_DEVICE_ID 0x10f0
#define NVDLA_PCI_DEVICE_LAST 0x10ff
#define NVDLA_PCI_CLASS_ACCEL 0x1200
/* The PCI Express capability, after the standard header. */
#define NVDLA_PCI_EXP_OFFSET 0x80

/* Every configuration has its device ID in the experimental range. */
QEMU_BUILD_BUG_ON(NVDLA_PCI_DEVICE_ID + NVDLA_SIM_CONFIG_COUNT - 1 >
		  NVDLA_PCI_DEVICE_LAST);

static void nvdla_pci_realize(PCIDevice *pdev, Error **errp)
{
	NVDLAPCIState *s = NVDLA_PCI(pdev);
	Error *err = NULL;

	pdev->config[PCI_INTERRUPT_PIN] = 1;
	s->core.irq = pci_allocate_irq(pdev);
	nvdla_core_realize(&s->core, OBJECT(s), pci_get_address_space(pdev),
			   &err);
	if (err)
		goto fail_irq;
	/* An endpoint that can be reset alone (FLR). */
	if (pcie_endpoint_cap_init(pdev, NVDLA_PCI_EXP_OFFSET) < 0) {
		error_setg(&err, "nvdla-pci: no room for the PCIe capability");
		goto fail_core;
	}
	pcie_cap_flr_init(pdev);
	pci_config_set_device_id(pdev->config,
				 NVDLA_PCI_DEVICE_ID + s->core.config_id);
	pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY,
			 &s->core.iomem);
	return;

fail_core:
	nvdla_core_unrealize(&s->core);
fail_irq:
	qemu_free_irq(s->core.irq);
	error_propagate(errp, err);
}

static void nvdla_pci_exit(PCIDevice *pdev)
{
	NVDLAPCIState *s = NVDLA_PCI(pdev);

	nvdla_core_unrealize(&s->core);
	qemu_free_irq(s->core.irq);
}

/* A write setting Initiate FLR resets the function (pci_device_reset()). */
static void nvdla_pci_write_config(PCIDevice *pdev, uint32_t addr,
				   uint32_t val, int len)
{
	pci_default_write_config(pdev, addr, val, len);
	pcie_cap_flr_write_config(pdev, addr, val, len);
}

static void nvdla_pci_reset(DeviceState *dev)
{
	nvdla_core_restart(&NVDLA_PCI(dev)->core);
}

static Property nvdla_pci_properties[] = {
	DEFINE_PROP_STRING("config", NVDLAPCIState, core.config),
	DEFINE_PROP_END_OF_LIST(),
};

static void nvdla_pci_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

	k->realize = nvdla_pci_realize;
	k->exit = nvdla_pci_exit;
	k->config_write = nvdla_pci_write_config;
	k->vendor_id = NVDLA_PCI_VENDOR_ID;
	k->device_id = NVDLA_PCI_DEVICE_ID;
	k->class_id = NVDLA_PCI_CLASS_ACCEL;
	dc->desc = "NVIDIA Deep Learning Accelerator on PCI (hardware model)";
	dc->reset = nvdla_pci_reset;
	device_class_set_props(dc, nvdla_pci_properties);
	set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo nvdla_pci_info = {
	.name = TYPE_NVDLA_PCI,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(NVDLAPCIState),
	.class_init = nvdla_pci_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ },
	},
};

static void nvdla_pci_register_types(void)
{
	type_register_static(&nvdla_pci_info);
}

type_init(nvdla_pci_register_types)
