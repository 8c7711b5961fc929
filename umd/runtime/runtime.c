// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Runtime objects: device selection, errors and buffers. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla_accel.h>

#include "runtime_internal.h"

#define SIM_PREFIX "sim:"
#define DEFAULT_DEVICE "sim:nv_full"

/* Where a worker executing a run sends its messages (the run's). */
static __thread char *thread_error;

static char *rt_error_buf(struct nvdla_runtime *rt)
{
	return thread_error ? thread_error : rt->error;
}

void nvdla_rt_error_to(char *buf)
{
	thread_error = buf;
}

const char *nvdla_rt_message(struct nvdla_runtime *rt)
{
	return rt_error_buf(rt);
}

int nvdla_rt_error(struct nvdla_runtime *rt, int err, const char *fmt, ...)
{
	char msg[NVDLA_RT_ERROR_MAX];
	va_list ap;

	/* Through a copy: callers prefix the message already recorded. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(rt_error_buf(rt), msg, sizeof(msg));
	return err;
}

/* Append to @err what --device takes: a node or sim: and each model. */
static void device_hint(char *err, size_t errlen, bool node)
{
	static const char *const names[] = DRM_NVDLA_CONFIG_NAMES;
	size_t i, n = strlen(err);

	n += snprintf(err + n, n < errlen ? errlen - n : 0, " (%s%s",
		      node ? "a device node, or " : "",
		      "sim:NAME for the model, NAME one of");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		n += snprintf(err + n, n < errlen ? errlen - n : 0, "%s %s",
			      i ? "," : "", names[i]);
	snprintf(err + n, n < errlen ? errlen - n : 0, ")");
}

static int nvdla_backend_open(const char *device, struct nvdla_backend **be,
			      char *err, size_t errlen)
{
	char node[64];
	int ret;

	if (!device) {
		if (nvdla_backend_drm_find(node, sizeof(node)))
			device = DEFAULT_DEVICE;
		else
			device = node;
	}
	if (!strncmp(device, SIM_PREFIX, strlen(SIM_PREFIX))) {
		ret = nvdla_backend_sim_open(device + strlen(SIM_PREFIX), be,
					     err, errlen);
		if (ret == -EINVAL)
			device_hint(err, errlen, false);
		return ret;
	}
	ret = nvdla_backend_drm_open(device, be, err, errlen);
	if (ret == -ENOENT || ret == -ENODEV)
		device_hint(err, errlen, true);
	return ret;
}

NVDLA_EXPORT int nvdla_runtime_new(const char *device,
				   struct nvdla_runtime **out, char *err,
				   size_t errlen)
{
	char msg[256] = "";
	struct nvdla_runtime *rt;
	int ret;

	*out = NULL;
	rt = calloc(1, sizeof(*rt));
	if (!rt) {
		if (err)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = nvdla_backend_open(device, &rt->be, msg, sizeof(msg));
	if (ret) {
		if (err)
			snprintf(err, errlen, "%s", msg);
		free(rt);
		return ret;
	}
	pthread_mutex_init(&rt->be_lock, NULL);
	*out = rt;
	return 0;
}

NVDLA_EXPORT void nvdla_runtime_del(struct nvdla_runtime *rt)
{
	if (!rt)
		return;
	rt->be->ops->del(rt->be);
	pthread_mutex_destroy(&rt->be_lock);
	free(rt);
}

NVDLA_EXPORT const char *nvdla_runtime_device(const struct nvdla_runtime *rt)
{
	return rt->be->name;
}

NVDLA_EXPORT const char *nvdla_runtime_error(const struct nvdla_runtime *rt)
{
	return rt->error;
}

NVDLA_EXPORT int nvdla_runtime_allow_hw_hazards(struct nvdla_runtime *rt,
						int allow)
{
	if (!rt->be->can_allow_hazards)
		return nvdla_rt_error(rt, -EOPNOTSUPP,
				      "%s runs only what the hardware can: only the model runs the rest",
				      rt->be->name);
	rt->be->allow_hazards = allow;
	return 0;
}

NVDLA_EXPORT unsigned int nvdla_runtime_hw_hazards(const struct nvdla_runtime *rt,
						   const char **last)
{
	if (last)
		*last = rt->be->hazard;
	return rt->be->hazards;
}

/*
 * A buffer around a backend object: a new one of @size bytes, or the
 * dma-buf (memfd in process) @fd imported.
 */
static int buffer_open(struct nvdla_runtime *rt, bool import, uint64_t size,
		       int fd, struct nvdla_buffer **out)
{
	const struct nvdla_backend_ops *ops = rt->be->ops;
	struct nvdla_buffer *buf;
	int ret;

	*out = NULL;
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return nvdla_rt_error(rt, -ENOMEM, "out of memory");
	pthread_mutex_lock(&rt->be_lock);
	ret = import ? ops->bo_import(rt->be, fd, &buf->bo) :
		       ops->bo_new(rt->be, size, &buf->bo);
	if (ret)
		nvdla_rt_error(rt, ret, "%s", rt->be->error);
	pthread_mutex_unlock(&rt->be_lock);
	if (ret) {
		free(buf);
		return ret;
	}
	buf->rt = rt;
	*out = buf;
	return 0;
}

NVDLA_EXPORT int nvdla_buffer_new(struct nvdla_runtime *rt, uint64_t size,
				  struct nvdla_buffer **out)
{
	return buffer_open(rt, false, size, -1, out);
}

NVDLA_EXPORT int nvdla_buffer_import(struct nvdla_runtime *rt, int fd,
				     struct nvdla_buffer **out)
{
	return buffer_open(rt, true, 0, fd, out);
}

NVDLA_EXPORT int nvdla_buffer_export(struct nvdla_buffer *buf, int *fd)
{
	struct nvdla_runtime *rt = buf->rt;
	int ret;

	*fd = -1;
	/* In process, the memory may move into a memfd under a running task. */
	pthread_mutex_lock(&rt->be_lock);
	ret = rt->be->ops->bo_export(buf->bo, fd);
	if (ret)
		nvdla_rt_error(rt, ret, "%s", rt->be->error);
	pthread_mutex_unlock(&rt->be_lock);
	return ret;
}

NVDLA_EXPORT void *nvdla_buffer_map(const struct nvdla_buffer *buf)
{
	return buf->bo->map;
}

NVDLA_EXPORT uint64_t nvdla_buffer_size(const struct nvdla_buffer *buf)
{
	return buf->bo->size;
}

NVDLA_EXPORT void nvdla_buffer_del(struct nvdla_buffer *buf)
{
	if (!buf)
		return;
	pthread_mutex_lock(&buf->rt->be_lock);
	buf->rt->be->ops->bo_del(buf->bo);
	pthread_mutex_unlock(&buf->rt->be_lock);
	free(buf);
}
