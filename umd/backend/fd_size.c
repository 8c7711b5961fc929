// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The size of memory behind a file descriptor, for imported buffers. */
#include <errno.h>
#include <unistd.h>

#include "backend.h"

int nvdla_fd_size(int fd, uint64_t *size)
{
	/* A dma-buf tells its size this way, as a memfd or a file does. */
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		return errno == ESPIPE ? -EINVAL : -errno;
	if (!end)
		return -EINVAL;
	*size = (uint64_t)end;
	return 0;
}
