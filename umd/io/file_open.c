// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Opening the files a user names: regular files only, their size known. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime_internal.h"

int nvdla_rt_open_file(struct nvdla_runtime *rt, const char *path, FILE **out,
		       uint64_t *size)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	*out = NULL;
	if (!f)
		return nvdla_rt_error(rt, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st)) {
		fclose(f);
		return nvdla_rt_error(rt, -errno, "%s: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode)) {
		fclose(f);
		return nvdla_rt_error(rt, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				      "%s: %s", path, S_ISDIR(st.st_mode) ?
				      "is a directory" : "not a regular file");
	}
	*out = f;
	*size = st.st_size;
	return 0;
}
