// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * PCI driver: an NVDLA on a PCI function, as an FPGA card carries one.
 * BAR 0 is the register window, the function's first interrupt vector
 * (MSI if it has it, else INTx) the engine's interrupt, and the engine's
 * DMA goes through the function, so through the IOMMU in front of the
 * bus if there is one (nvdla_gem.c then gives it shmem buffers). The
 * function stays powered while bound; a function-level reset, with its
 * configuration saved and restored around it, resets the engine.
 *
 * The IDs are those of QEMU's NVDLA test device (tools/qemu/device of the
 * open NVDLA stack): vendor 1af4, device 10f0 plus the configuration's
 * index (enum drm_nvdla_config), in the range QEMU's PCI ID list leaves
 * to experimental devices. No product has them; a card adds its own.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <drm/drm_drv.h>
#include <drm/nvdla_accel.h>

#include "nvdla_core.h"
#include "nvdla_drv.h"

#define NVDLA_PCI_VENDOR_TEST 0x1af4
#define NVDLA_PCI_DEVICE_TEST 0x10f0

static const char *const nvdla_pci_config_names[] = DRM_NVDLA_CONFIG_NAMES;

static void nvdla_pci_free_irq_vectors(void *pdev)
{
	pci_free_irq_vectors(pdev);
}

/* The engine's reset (nvdla_power_reset()): the function's, if it has one. */
static int nvdla_pci_reset(struct nvdla_device *ndev)
{
	struct pci_dev *pdev = to_pci_dev(ndev->drm.dev);
	int ret;

	pci_save_state(pdev);
	ret = pcie_reset_flr(pdev, PCI_RESET_DO_RESET);
	pci_restore_state(pdev);
	return ret == -ENOTTY ? -EOPNOTSUPP : ret;
}

/* The register window and the interrupt, enabled from the start. */
static int nvdla_pci_hw_init(struct nvdla_device *ndev, struct pci_dev *pdev)
{
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return dev_err_probe(&pdev->dev, ret, "cannot enable\n");
	pci_set_master(pdev);
	ndev->regs = pcim_iomap_region(pdev, 0, "nvdla");
	if (IS_ERR(ndev->regs))
		return dev_err_probe(&pdev->dev, PTR_ERR(ndev->regs),
				     "cannot map BAR 0\n");
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (ret < 0)
		return dev_err_probe(&pdev->dev, ret, "no interrupt\n");
	ret = devm_add_action_or_reset(&pdev->dev, nvdla_pci_free_irq_vectors,
				       pdev);
	if (ret)
		return ret;
	ret = nvdla_core_request_irq(ndev, pci_irq_vector(pdev, 0), 0);
	if (ret)
		return ret;
	ndev->power.irq = pci_irq_vector(pdev, 0);
	ndev->power.reset = nvdla_pci_reset;
	return 0;
}

static int nvdla_pci_probe(struct pci_dev *pdev,
			   const struct pci_device_id *id)
{
	const char *config = nvdla_pci_config_names[id->driver_data];
	struct nvdla_device *ndev;
	int ret;

	ndev = devm_drm_dev_alloc(&pdev->dev, nvdla_drm_driver(),
				  struct nvdla_device, drm);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	pci_set_drvdata(pdev, ndev);
	ret = nvdla_core_init(ndev, config);
	if (ret)
		return ret;
	ret = nvdla_pci_hw_init(ndev, pdev);
	if (ret)
		return ret;
	return nvdla_core_register(ndev, config, " (PCI)");
}

static void nvdla_pci_remove(struct pci_dev *pdev)
{
	nvdla_core_remove(pci_get_drvdata(pdev));
}

#define NVDLA_PCI_TEST(config) { \
	PCI_DEVICE(NVDLA_PCI_VENDOR_TEST, \
		   NVDLA_PCI_DEVICE_TEST + DRM_NVDLA_CONFIG_##config), \
	.driver_data = DRM_NVDLA_CONFIG_##config }

static const struct pci_device_id nvdla_pci_ids[] = {
	NVDLA_PCI_TEST(NV_FULL),
	NVDLA_PCI_TEST(NV_LARGE),
	NVDLA_PCI_TEST(NV_SMALL),
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(pci, nvdla_pci_ids);

static struct pci_driver nvdla_pci_driver = {
	.name = "nvdla",
	.id_table = nvdla_pci_ids,
	.probe = nvdla_pci_probe,
	.remove = nvdla_pci_remove,
};

int nvdla_pci_register(void)
{
	return pci_register_driver(&nvdla_pci_driver);
}

void nvdla_pci_unregister(void)
{
	pci_unregister_driver(&nvdla_pci_driver);
}
