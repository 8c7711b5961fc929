/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_runtime --detect: the library's decoding of a network's heads. */
#ifndef __NVDLA_CLI_DETECT_H__
#define __NVDLA_CLI_DETECT_H__

#include <nvdla/runtime.h>

/* @path read by nvdla_yolo_read(); its message on stderr on failure. */
int cli_yolo_read(const char *path, struct nvdla_yolo **yolo);

/*
 * The boxes the heads of @yolo find in the outputs of @net for input 0's
 * size, scoring at least @threshold, after suppression at IoU @nms, best
 * first, as "box x0 y0 x1 y1 class score [name]" lines.
 */
int cli_detect(struct nvdla_network *net, const struct nvdla_yolo *yolo,
	       double threshold, double nms);

#endif /* __NVDLA_CLI_DETECT_H__ */
