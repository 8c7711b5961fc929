/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The virt board's NVDLAs (hw/nvdla/virt_nvdla.c). */
#ifndef HW_NVDLA_VIRT_NVDLA_H
#define HW_NVDLA_VIRT_NVDLA_H

#include "qom/object.h"

struct VirtMachineState;

/* The machine property "nvdla" (virt_machine_class_init). */
void virt_nvdla_class_init(ObjectClass *oc);
/* The devices it names and their device-tree nodes (machvirt_init). */
void virt_nvdla_create(struct VirtMachineState *vms);

#endif /* HW_NVDLA_VIRT_NVDLA_H */
