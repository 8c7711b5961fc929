/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* A .yolo file as nvdla_yolo_read() holds it (include/nvdla/runtime.h). */
#ifndef __NVDLA_UMD_DETECT_H__
#define __NVDLA_UMD_DETECT_H__

#include <nvdla/runtime.h>

struct detect_head {
	unsigned int output;
	unsigned int stride;
	unsigned int anchors;
	double anchor[NVDLA_DETECT_MAX_ANCHORS][2];	/* width, height */
};

struct nvdla_yolo {
	unsigned int classes;
	unsigned int heads;
	unsigned int names;	/* the names given so far */
	struct detect_head head[NVDLA_DETECT_MAX_HEADS];
	char *name[NVDLA_DETECT_MAX_CLASSES];
};

#endif /* __NVDLA_UMD_DETECT_H__ */
