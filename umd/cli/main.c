// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime: run a loadable once and write its first output as a DIMG
 * file, on an NVDLA device or on the in-process hardware model.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <nvdla/runtime.h>

struct options {
	const char *loadable;
	const char *device;
	const char *output;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: nvdla_runtime --loadable FILE [--device DEV] [-o FILE]\n"
		"\n"
		"  --loadable FILE  the network to run (an NVDLA loadable)\n"
		"  --device DEV     a device node (/dev/accel/accel0,\n"
		"                   /dev/dri/renderD128), or sim:nv_full,\n"
		"                   sim:nv_small, sim:nv_large for the built-in\n"
		"                   hardware model; default: the first NVDLA\n"
		"                   device, else sim:nv_full\n"
		"  -o, --output FILE  where to write output 0 (default output.dimg)\n"
		"  -h, --help       this text\n");
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "loadable", required_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->output = "output.dimg";
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->loadable = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !o->loadable) {
		fprintf(stderr, "nvdla_runtime: %s\n", optind != argc ?
			"unexpected argument" : "--loadable is required");
		usage(stderr);
		return -1;
	}
	return 0;
}

static int run(struct nvdla_runtime *rt, const struct options *o)
{
	struct nvdla_network *net;
	int ret;

	ret = nvdla_network_load_file(rt, o->loadable, &net);
	if (ret)
		return ret;
	ret = nvdla_network_submit(net, 0);
	if (!ret && nvdla_network_num_outputs(net))
		ret = nvdla_network_write_dimg(net, 0, o->output);
	nvdla_network_unload(net);
	return ret;
}

int main(int argc, char **argv)
{
	struct nvdla_runtime *rt;
	struct options o = { 0 };
	char err[256];

	if (parse_options(argc, argv, &o))
		return 2;
	if (nvdla_runtime_new(o.device, &rt, err, sizeof(err))) {
		fprintf(stderr, "nvdla_runtime: %s\n", err);
		return 1;
	}
	if (run(rt, &o)) {
		fprintf(stderr, "nvdla_runtime: %s\n", nvdla_runtime_error(rt));
		nvdla_runtime_del(rt);
		return 1;
	}
	printf("%s: ran %s, wrote %s\n", nvdla_runtime_device(rt), o.loadable,
	       o.output);
	nvdla_runtime_del(rt);
	return 0;
}
