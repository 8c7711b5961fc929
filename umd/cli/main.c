// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime: run a loadable once, optionally on an image or raw input
 * data, and write its
 * first output as a DIMG file (or as text with --rawdump), on an NVDLA
 * device or on the in-process hardware model.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/runtime.h>

#include "detect.h"
#include "output.h"

struct options {
	const char *loadable;
	const char *device;
	const char *output;
	const char *image;
	const char *input;
	const char *record;
	enum nvdla_record_format record_format;
	bool rawdump;
	bool stats;
	unsigned int top;
	int64_t timeout_ns;
	bool allow_hw_hazards;
	bool estimate;
	bool estimate_only;	/* --estimate-only: no values, no output */
	bool output_set;	/* -o given */
	bool estimate_set;	/* --clock, --dram-gbps or --dram-latency */
	const char *timeline;	/* --timeline FILE.svg */
	struct nvdla_estimate_params est;
	struct nvdla_image_options image_opt;
	bool mean_set, normalize_set;	/* given on the command line */
	const char *detect;	/* the .yolo file of --detect */
	double detect_threshold, nms;
	bool detect_set;	/* --detect-threshold or --nms */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: nvdla_runtime --loadable FILE [--device DEV] [--image FILE | --input FILE]\n"
		"                     [--timeout S] [--top K]\n"
		"                     [--record DIR [--record-format F]] [-o FILE]\n"
		"                     [--estimate|--estimate-only [--clock MHZ] [--dram-gbps X]\n"
		"                      [--dram-latency NS] [--timeline FILE.svg]]\n"
		"                     [--detect FILE [--detect-threshold T] [--nms IOU]]\n"
		"\n"
		"  --loadable FILE  the network to run (an NVDLA loadable)\n"
		"  --device DEV     a device node (/dev/accel/accel0,\n"
		"                   /dev/dri/renderD128), or sim:nv_full,\n"
		"                   sim:nv_small, sim:nv_large for the built-in\n"
		"                   hardware model; default: the first NVDLA\n"
		"                   device, else sim:nv_full\n"
		"  -o, --output FILE  where to write output 0 (default output.dimg);\n"
		"                   output N > 0 goes to FILE with .N before its\n"
		"                   extension (output.1.dimg)\n"
		"  --image FILE     input 0 from a PGM, PPM, JPEG or PNG image of\n"
		"                   its width and height\n"
		"  --input FILE     input 0 from a .npy array (FILE ending in .npy)\n"
		"                   of its values, C, H, W (a [1, T, D] token input:\n"
		"                   [1, T, D]), or from raw bytes in its layout and\n"
		"                   precision (exactly the tensor's size)\n"
		"  --mean A[,B,C,D] per-channel mean subtracted (fp16/int16 inputs)\n"
		"  --normalize V    divisor after the mean (default 1)\n"
		"                   (both default to the mapping the loadable\n"
		"                   records, nvdla_compile's, said on stderr)\n"
		"  --rawdump        write the outputs as text values instead of DIMG\n"
		"  --stats          profile each operation: print its run time and\n"
		"                   the engine counters that are not zero\n"
		"  --timeout S      stop the network after S seconds (default: no\n"
		"                   limit on the model, the driver's job timeout\n"
		"                   per task on a device)\n"
		"  --top K          for a classifier (a 1x1xC output), print its K\n"
		"                   best classes and their values (default 5)\n"
		"  --detect FILE    decode the outputs as the YOLO heads FILE\n"
		"                   describes (models/detect/detect.yolo) and print\n"
		"                   the boxes: box x0 y0 x1 y1 class score [name]\n"
		"  --detect-threshold T  the least score of a box (default 0.25)\n"
		"  --nms IOU        drop a box that overlaps a better one of its\n"
		"                   class by more than IOU (default 0.45)\n"
		"  --record DIR     write the run as a hardware trace into DIR\n"
		"                   (input.txn on nv_full, DIR.cfg on nv_small and\n"
		"                   nv_large), which nvdla_trace and NVIDIA's test\n"
		"                   benches replay; the built-in model only\n"
		"  --record-format F  txn or cfg instead of the configuration's\n"
		"  --allow-hw-hazards  run layers the hardware cannot run (a\n"
		"                   convolution-buffer limit that hangs the chip)\n"
		"                   on the model anyway, with a warning, instead\n"
		"                   of refusing the network\n"
		"  --estimate       also estimate how long each operation takes\n"
		"                   on the hardware (the built-in model only):\n"
		"                   a table of operations and the frames/s\n"
		"  --estimate-only  the same estimate alone: the\n"
		"                   model computes no value and nothing is written\n"
		"  --clock MHZ      the estimate's core clock (default: the\n"
		"                   configuration's, docs/performance.md)\n"
		"  --dram-gbps X    the estimate's memory bandwidth in GB/s\n"
		"  --dram-latency NS  the estimate's memory latency in ns\n"
		"  --timeline FILE.svg  also draw the estimate: each engine's\n"
		"                   operations on a time axis, as SVG\n"
		"  -h, --help       this text\n");
}

/* A number for option @name into @v. */
static int parse_number(const char *name, const char *arg, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end) {
		fprintf(stderr, "nvdla_runtime: --%s takes a number: '%s'\n",
			name, arg);
		return -1;
	}
	return 0;
}

/* A number from 0 to 1 for option @name into @v. */
static int parse_fraction(const char *name, const char *arg, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v >= 0 && *v <= 1)) {
		fprintf(stderr, "nvdla_runtime: --%s takes a number from 0 to 1: '%s'\n",
			name, arg);
		return -1;
	}
	return 0;
}

/* "a[,b[,c[,d]]]" into @mean. */
static int parse_mean(const char *arg, float mean[4])
{
	char *end;
	int i;

	for (i = 0; i < 4; i++) {
		mean[i] = strtof(arg, &end);
		if (end == arg)
			break;
		if (!*end)
			return 0;
		if (*end != ',')
			break;
		arg = end + 1;
	}
	fprintf(stderr, "nvdla_runtime: --mean takes up to 4 numbers, comma separated\n");
	return -1;
}

/* "S" seconds, positive, up to a year, into @ns. */
static int parse_timeout(const char *arg, int64_t *ns)
{
	char *end;
	double s = strtod(arg, &end);

	if (end == arg || *end || !(s > 0) || s > 366 * 86400.0) {
		fprintf(stderr, "nvdla_runtime: --timeout takes seconds, more than 0 and at most a year: '%s'\n",
			arg);
		return -1;
	}
	*ns = (int64_t)(s * 1e9);
	if (!*ns)
		*ns = 1;
	return 0;
}

/* "K", a count of classes from 1 to 65536, into @top. */
static int parse_top(const char *arg, unsigned int *top)
{
	char *end;
	long k = strtol(arg, &end, 10);

	if (end == arg || *end || k < 1 || k > 65536) {
		fprintf(stderr, "nvdla_runtime: --top takes a count of classes from 1 to 65536: '%s'\n",
			arg);
		return -1;
	}
	*top = (unsigned int)k;
	return 0;
}

static int parse_record_format(const char *arg,
			       enum nvdla_record_format *format)
{
	if (!strcmp(arg, "txn"))
		*format = NVDLA_RECORD_TXN;
	else if (!strcmp(arg, "cfg"))
		*format = NVDLA_RECORD_CFG;
	else {
		fprintf(stderr, "nvdla_runtime: --record-format is txn or cfg, not '%s'\n",
			arg);
		return -1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "loadable", required_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'i' },
		{ "input", required_argument, NULL, 'I' },
		{ "mean", required_argument, NULL, 'm' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "rawdump", no_argument, NULL, 'r' },
		{ "stats", no_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "top", required_argument, NULL, 'k' },
		{ "record", required_argument, NULL, 'R' },
		{ "record-format", required_argument, NULL, 'F' },
		{ "allow-hw-hazards", no_argument, NULL, 'H' },
		{ "estimate", no_argument, NULL, 'e' },
		{ "estimate-only", no_argument, NULL, 'E' },
		{ "clock", required_argument, NULL, 'C' },
		{ "dram-gbps", required_argument, NULL, 'G' },
		{ "dram-latency", required_argument, NULL, 'L' },
		{ "detect", required_argument, NULL, 'D' },
		{ "detect-threshold", required_argument, NULL, 'T' },
		{ "nms", required_argument, NULL, 'N' },
		{ "timeline", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->output = "output.dimg";
	o->top = 5;
	o->image_opt.normalize = 1.0f;
	o->est.latency_ns = -1;
	o->detect_threshold = 0.25;
	o->nms = 0.45;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->image = optarg;
			break;
		case 'I':
			o->input = optarg;
			break;
		case 'm':
			if (parse_mean(optarg, o->image_opt.mean))
				return -1;
			o->mean_set = true;
			break;
		case 'n':
			o->image_opt.normalize = strtof(optarg, NULL);
			if (!(o->image_opt.normalize > 0.0f)) {
				fprintf(stderr, "nvdla_runtime: --normalize needs a positive number\n");
				return -1;
			}
			o->normalize_set = true;
			break;
		case 'r':
			o->rawdump = true;
			break;
		case 's':
			o->stats = true;
			break;
		case 't':
			if (parse_timeout(optarg, &o->timeout_ns))
				return -1;
			break;
		case 'k':
			if (parse_top(optarg, &o->top))
				return -1;
			break;
		case 'R':
			o->record = optarg;
			break;
		case 'F':
			if (parse_record_format(optarg, &o->record_format))
				return -1;
			break;
		case 'H':
			o->allow_hw_hazards = true;
			break;
		case 'E':
			o->estimate_only = true;
			/* fall through */
		case 'e':
			o->estimate = true;
			break;
		case 'C':
		case 'G':
		case 'L':
			o->estimate_set = true;
			if (parse_number(c == 'C' ? "clock" : c == 'G' ?
					 "dram-gbps" : "dram-latency", optarg,
					 c == 'C' ? &o->est.clock_mhz :
					 c == 'G' ? &o->est.dram_gbps :
					 &o->est.latency_ns))
				return -1;
			break;
		case 'D':
			o->detect = optarg;
			break;
		case 'T':
		case 'N':
			o->detect_set = true;
			if (parse_fraction(c == 'T' ? "detect-threshold" : "nms",
					   optarg, c == 'T' ?
					   &o->detect_threshold : &o->nms))
				return -1;
			break;
		case 'V':
			o->timeline = optarg;
			break;
		case 'l':
			o->loadable = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'o':
			o->output = optarg;
			o->output_set = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (o->estimate_set && !o->estimate) {
		fprintf(stderr, "nvdla_runtime: --clock, --dram-gbps and --dram-latency need --estimate\n");
		return -1;
	}
	if (o->estimate_only && (o->output_set || o->rawdump || o->record ||
				 o->detect || o->stats)) {
		fprintf(stderr, "nvdla_runtime: --estimate-only computes no value: -o, --rawdump, --record, --detect and --stats need --estimate\n");
		return -1;
	}
	if (o->detect_set && !o->detect) {
		fprintf(stderr, "nvdla_runtime: --detect-threshold and --nms need --detect\n");
		return -1;
	}
	if (o->timeline && !o->estimate) {
		fprintf(stderr, "nvdla_runtime: --timeline draws the estimate: it needs --estimate\n");
		return -1;
	}
	if (o->record_format && !o->record) {
		fprintf(stderr, "nvdla_runtime: --record-format needs --record\n");
		return -1;
	}
	if (o->image && o->input) {
		fprintf(stderr, "nvdla_runtime: --image and --input both fill input 0: give one\n");
		return -1;
	}
	if (optind != argc) {
		fprintf(stderr, "nvdla_runtime: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return -1;
	}
	if (!o->loadable) {
		fprintf(stderr, "nvdla_runtime: --loadable is required\n");
		usage(stderr);
		return -1;
	}
	return 0;
}

/*
 * The pixel mapping for --image: the one the loadable records (said on
 * stderr) with what the command line gives instead (warned about where it
 * differs), else the command line's.
 */
/* Whether --input @path names a .npy array (else raw bytes). */
static bool is_npy(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && !strcmp(path + n - 4, ".npy");
}

static int image_options(struct nvdla_network *net, const struct options *o,
			 struct nvdla_image_options *opt)
{
	struct nvdla_image_options map;
	bool differs;
	int ret;

	*opt = o->image_opt;
	ret = nvdla_network_input_mapping(net, 0, &map);
	if (ret <= 0)
		return ret;
	differs = (o->normalize_set && o->image_opt.normalize != map.normalize) ||
		  (o->mean_set && (o->image_opt.mean[0] != map.mean[0] ||
				   o->image_opt.mean[1] != map.mean[1] ||
				   o->image_opt.mean[2] != map.mean[2]));
	if (!o->mean_set)
		memcpy(opt->mean, map.mean, sizeof(opt->mean));
	if (!o->normalize_set)
		opt->normalize = map.normalize;
	fprintf(stderr,
		"nvdla_runtime: %s%s was compiled for pixels p as (p - %g,%g,%g) / %g (B, G, R)%s\n",
		differs ? "warning: " : "", o->loadable, map.mean[0],
		map.mean[1], map.mean[2], map.normalize,
		differs ? "; the command line's --mean or --normalize differ, and are used" :
		o->mean_set || o->normalize_set ? "; the command line agrees" :
		"; applied");
	return 0;
}

/* The loadable of @o run, its outputs written, its boxes by @yolo. */
static int run_network(struct nvdla_runtime *rt, const struct options *o,
		       FILE *timeline, const struct nvdla_yolo *yolo)
{
	struct nvdla_image_options opt;
	char what[4200];
	struct nvdla_network *net;
	const char *hazard;
	unsigned int hazards;
	int ret;

	ret = o->allow_hw_hazards ? nvdla_runtime_allow_hw_hazards(rt, 1) : 0;
	if (!ret && o->estimate)
		ret = nvdla_runtime_estimate(rt, &o->est);
	if (!ret && o->estimate_only)
		ret = nvdla_runtime_estimate_only(rt, 1);
	if (!ret)
		ret = nvdla_network_load_file(rt, o->loadable, &net);
	if (ret)
		return ret;
	if ((o->image || o->input) && !nvdla_network_num_inputs(net)) {
		fprintf(stderr, "nvdla_runtime: %s has no input for %s\n",
			o->loadable, o->image ? "--image" : "--input");
		nvdla_network_unload(net);
		return -EINVAL;
	}
	if (o->image)
		ret = image_options(net, o, &opt);
	if (!ret && o->image)
		ret = nvdla_network_set_image(net, 0, o->image, &opt);
	if (o->input && is_npy(o->input))
		ret = nvdla_network_set_input_npy(net, 0, o->input);
	else if (o->input)
		ret = nvdla_network_set_input_file(net, 0, o->input);
	if (!ret && o->stats)
		ret = nvdla_network_enable_stats(net);
	if (!ret && o->record)
		ret = nvdla_network_set_record_dir(net, o->record,
						   o->record_format);
	if (!ret)
		ret = nvdla_network_submit(net, o->timeout_ns);
	hazards = nvdla_runtime_hw_hazards(rt, &hazard);
	if (hazards)
		fprintf(stderr, "nvdla_runtime: warning: the hardware would not run %u of these layers (last: %s)\n",
			hazards, hazard);
	if (!ret && o->stats)
		ret = cli_print_stats(net);
	if (!ret && o->estimate)
		ret = cli_print_estimate(net);
	if (!ret && timeline)
		ret = cli_write_timeline(net, timeline);
	if (!ret && o->detect)
		ret = cli_detect(net, yolo, o->detect_threshold, o->nms);
	else if (!ret && !o->estimate_only && nvdla_network_num_outputs(net))
		cli_print_top(net, 0, o->top);
	if (!ret && !o->estimate_only) {
		snprintf(what, sizeof(what), "%s: ran %s, wrote ",
			 nvdla_runtime_device(rt), o->loadable);
		ret = cli_write_outputs(net, o->output, o->rawdump, what);
	}
	if (!ret && (o->estimate_only || !nvdla_network_num_outputs(net)))
		printf("%s: ran %s\n", nvdla_runtime_device(rt), o->loadable);
	nvdla_network_unload(net);
	return ret;
}

/* run_network() with the heads of --detect, read first. */
static int run(struct nvdla_runtime *rt, const struct options *o,
	       FILE *timeline)
{
	struct nvdla_yolo *yolo = NULL;
	int ret = o->detect ? cli_yolo_read(o->detect, &yolo) : 0;

	if (!ret)
		ret = run_network(rt, o, timeline, yolo);
	nvdla_yolo_free(yolo);
	return ret;
}

int main(int argc, char **argv)
{
	struct nvdla_runtime *rt;
	struct options o = { 0 };
	FILE *timeline;
	char err[256];
	int ret;

	if (parse_options(argc, argv, &o))
		return 2;
	/* opened first: a path it cannot write stops it before the run */
	timeline = o.timeline ? fopen(o.timeline, "w") : NULL;
	if (o.timeline && !timeline) {
		fprintf(stderr, "nvdla_runtime: --timeline %s: %s\n",
			o.timeline, strerror(errno));
		return 1;
	}
	if (nvdla_runtime_new(o.device, &rt, err, sizeof(err))) {
		fprintf(stderr, "nvdla_runtime: %s\n", err);
		ret = 1;
	} else {
		ret = run(rt, &o, timeline);
		if (ret && *nvdla_runtime_error(rt))
			fprintf(stderr, "nvdla_runtime: %s\n",
				nvdla_runtime_error(rt));
		nvdla_runtime_del(rt);
		ret = ret ? 1 : 0;
	}
	if (timeline && fclose(timeline) && !ret) {
		fprintf(stderr, "nvdla_runtime: --timeline %s: %s\n",
			o.timeline, strerror(errno));
		ret = 1;
	}
	if (timeline && ret)
		remove(o.timeline);
	return ret;
}
