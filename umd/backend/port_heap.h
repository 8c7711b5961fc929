/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef NVDLA_PORT_HEAP_H
#define NVDLA_PORT_HEAP_H

#include <stddef.h>

/*
 * The firmware port's alloc and free in user space: the C heap, with no
 * limit of its own (the kernel driver's port accounts and bounds).
 */
int nvdla_port_heap_alloc(void *drv, void *task, size_t size, void **ptr);
void nvdla_port_heap_free(void *drv, void *task, void *ptr, size_t size);

#endif
