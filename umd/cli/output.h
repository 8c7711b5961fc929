/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* What nvdla_runtime shows besides the DIMG file. */
#ifndef __NVDLA_CLI_OUTPUT_H__
#define __NVDLA_CLI_OUTPUT_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <nvdla/runtime.h>

/* The values, space separated, as the official --rawdump writes them. */
int cli_write_rawdump(struct nvdla_network *net, unsigned int index,
		      const char *path);

/*
 * Where output @index goes for -o @path: @path for output 0, else @path
 * with ".INDEX" before its extension (out.dimg: out.1.dimg), into @buf.
 */
void cli_output_path(const char *path, unsigned int index, char *buf,
		     size_t size);

/*
 * Every output of @net into its file (cli_output_path), as text values
 * with @rawdump, else as DIMG; their names on stdout after @what.
 */
int cli_write_outputs(struct nvdla_network *net, const char *path,
		      bool rawdump, const char *what);

/* For a classifier output (1x1xC, C > 1): its @top largest classes. */
void cli_print_top(struct nvdla_network *net, unsigned int index,
		   unsigned int top);

/* The statistics of every operation of the last run, one line each. */
int cli_print_stats(struct nvdla_network *net);

/* The performance estimate of the last run: each operation, the totals. */
int cli_print_estimate(struct nvdla_network *net);

/* That estimate as an SVG time line of each engine's operations, to @f. */
int cli_write_timeline(struct nvdla_network *net, FILE *f);

#endif /* __NVDLA_CLI_OUTPUT_H__ */
