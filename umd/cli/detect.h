/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime --detect: a YOLO head decoded into boxes on the CPU, with
 * non-maximum suppression (the layout: tools/models/detect_ref.py, the
 * Python reference of this code).
 */
#ifndef __NVDLA_CLI_DETECT_H__
#define __NVDLA_CLI_DETECT_H__

#include <nvdla/runtime.h>

#define CLI_DETECT_MAX_ANCHORS 16
#define CLI_DETECT_MAX_CLASSES 1000

/*
 * The head of a network, as its .yolo file describes it: "yolo 1", then
 * "classes K" and one "anchor W H" line (pixels) per anchor; '#' starts a
 * comment.
 */
struct cli_yolo_head {
	unsigned int classes;
	unsigned int anchors;
	double anchor[CLI_DETECT_MAX_ANCHORS][2];
};

/* @path into @head; a message on stderr and -EINVAL if it is malformed. */
int cli_yolo_head_read(const char *path, struct cli_yolo_head *head);

/*
 * The boxes of output 0 of @net (decoded by @head for input 0's size)
 * scoring at least @threshold, after non-maximum suppression at IoU
 * @nms per class, best first, as "box x0 y0 x1 y1 class score" lines.
 */
int cli_detect(struct nvdla_network *net, const struct cli_yolo_head *head,
	       double threshold, double nms);

#endif /* __NVDLA_CLI_DETECT_H__ */
