// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Recording a network's submissions as hardware traces (record.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "runtime_internal.h"

NVDLA_EXPORT int nvdla_network_set_record_dir(struct nvdla_network *net,
					      const char *dir,
					      enum nvdla_record_format format)
{
	char *copy = NULL;
	int ret;

	ret = nvdla_net_idle(net, "recording");
	if (ret)
		return ret;
	if (format > NVDLA_RECORD_CFG)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "unknown record format %d", format);
	if (dir && !net->rt->be->ops->record)
		return nvdla_rt_error(net->rt, -EOPNOTSUPP,
				      "recording needs the in-process model (a sim: device): through the kernel driver the kernel owns the registers and the interrupt, so the runtime cannot see them");
	if (dir && !*dir)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "empty record directory name");
	if (dir) {
		copy = strdup(dir);
		if (!copy)
			return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	}
	free(net->record_dir);
	net->record_dir = copy;
	net->record_format = format;
	return 0;
}

int nvdla_net_submit_recorded(struct nvdla_network *net,
			      struct nvdla_run *run, int64_t deadline,
			      int (*run_tasks)(struct nvdla_network *net,
					       struct nvdla_run *run,
					       int64_t deadline))
{
	struct nvdla_backend *be = net->rt->be;
	struct nvdla_record *rec;
	char err[256];
	int ret, closed;

	ret = nvdla_record_open(net->record_dir, be->hw, net->record_format,
				&rec, err, sizeof(err));
	if (ret)
		return nvdla_rt_error(net->rt, ret, "record: %s", err);
	ret = be->ops->record(be, rec);
	if (ret) {
		nvdla_record_close(rec, err, sizeof(err));
		return nvdla_rt_error(net->rt, ret, "record: %s", be->error);
	}
	ret = run_tasks(net, run, deadline);
	be->ops->record(be, NULL);
	closed = nvdla_record_close(rec, err, sizeof(err));
	if (!ret && closed)
		return nvdla_rt_error(net->rt, closed, "record: %s", err);
	return ret;
}
