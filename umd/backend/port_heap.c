// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
#include <errno.h>
#include <stdlib.h>

#include "port_heap.h"

int nvdla_port_heap_alloc(void *drv, void *task, size_t size, void **ptr)
{
	(void)drv;
	(void)task;
	*ptr = calloc(1, size);
	return *ptr ? 0 : -ENOMEM;
}

void nvdla_port_heap_free(void *drv, void *task, void *ptr, size_t size)
{
	(void)drv;
	(void)task;
	(void)size;
	free(ptr);
}
