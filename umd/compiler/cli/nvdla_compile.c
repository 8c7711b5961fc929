// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_compile: an ONNX model into a loadable for one NVDLA
 * configuration (docs/compiler.md), or run in float32 (--exec), or its
 * graph printed (--dump-ir).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "compiler.h"
#include "estimate.h"
#include "exec.h"
#include "lower.h"
#include "quality.h"
#include "target.h"

struct args {
	const char *model, *out, *calib_dir, *exec, *config;
	const char *precision;
	struct nvc_options lower;
	struct nvc_calib_options calib;
	int dump;
	bool report;
	enum nvc_equalize equalize;
	bool equalize_data;	/* activation ranges from --calibrate */
	bool bias_correct;
	/* --mixed-precision: layers kept in fp16, a count or a percentage */
	bool mixed;
	double mixed_n;
	bool mixed_pct;
	double *snr;		/* per node: int8 error (calib_error.c) */
	bool *fp16;		/* per node: kept in fp16 */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvdla_compile MODEL.onnx --config nv_full|nv_large|nv_small\n"
		"         [--precision fp16|int8] [--calibrate DIR]\n"
		"         [--calib-method minmax|percentile[=P]|entropy]\n"
		"         [--input-format image|feature] [--mean B,G,R] [--normalize S]\n"
		"         [--equalize[=relu6,data]] [--bias-correct]\n"
		"         [--mixed-precision N|P%%] [--cpu-fallback] [--report]\n"
		"         [--jobs N] -o OUT.nvdla\n"
		"       nvdla_compile MODEL.onnx --exec INPUT.{pgm,ppm,png,jpg,npy} [--jobs N]\n"
		"       nvdla_compile MODEL.onnx --dump-ir [--calibrate DIR] [--jobs N]\n"
		"Default precision: fp16 on nv_full, int8 elsewhere (int8 needs\n"
		"--calibrate DIR of images or .npy arrays, or a QDQ model's own\n"
		"scales). Pixels p become (p - mean) / normalize, mean 0 and\n"
		"normalize 255 unless given; colour images as B, G, R planes.\n"
		"Calibration: minmax unless --calib-method (percentile: P 99.99).\n"
		"--jobs N: threads of the float executor (--exec, calibration);\n"
		"one per online CPU by default.\n"
		"Input format: feature unless --input-format image.\n"
		"--cpu-fallback: what the DLA does not compute (Erf, layer\n"
		"normalisation, bilinear Resize, token layout swaps; Sigmoid,\n"
		"Tanh and SiLU on nv_small) runs as CPU tasks, each such node\n"
		"listed on stderr.\n"
		"--equalize: cross-layer equalization of the weights before\n"
		"calibration (relu6: also through ReLU6, made ReLU there; data:\n"
		"activation ranges from the calibration images, not weights).\n"
		"--bias-correct: int8 weights' mean error over the calibration\n"
		"images taken off each convolution's bias.\n"
		"--mixed-precision N|P%%: int8 on nv_full with the N convolutions\n"
		"(or P percent of them) that lose most in int8 kept in fp16: those\n"
		"of lowest signal-to-noise ratio against float over the\n"
		"calibration images, each measured alone (needs --calibrate).\n"
		"--report: each layer's estimated time on the configuration at its\n"
		"default clock and memory, the Winograd/direct choices, frames/s;\n"
		"int8 with --calibrate: each convolution's int8 error and precision.\n");
}

static int bad(const char *fmt, const char *what)
{
	fprintf(stderr, "nvdla_compile: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\n");
	return 2;
}

static int parse_mean(const char *s, float *mean)
{
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		mean[i] = strtof(s, &end);
		if (end == s)
			return -1;
		if (!*end) {
			for (i++; i < 3; i++)
				mean[i] = mean[i - 1];
			return 0;
		}
		if (*end != ',')
			return -1;
		s = end + 1;
	}
	return -1;
}

static int parse_method(const char *s, struct nvc_calib_options *c)
{
	char *end;

	if (!strcmp(s, "minmax")) {
		c->method = NVC_CALIB_MINMAX;
	} else if (!strcmp(s, "entropy")) {
		c->method = NVC_CALIB_ENTROPY;
	} else if (!strncmp(s, "percentile", 10) && (!s[10] || s[10] == '=')) {
		c->method = NVC_CALIB_PERCENTILE;
		if (s[10]) {
			c->percentile = strtod(s + 11, &end);
			if (end == s + 11 || *end || !(c->percentile > 0) ||
			    c->percentile > 100)
				return -1;
		}
	} else {
		return -1;
	}
	return 0;
}

/* --equalize[=relu6|data|relu6,data] */
static int parse_equalize(const char *s, struct args *a)
{
	char buf[32], *tok, *save;

	a->equalize = NVC_EQ_EXACT;
	if (!s)
		return 0;
	if (strlen(s) >= sizeof(buf) || !*s)
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "relu6"))
			a->equalize = NVC_EQ_RELU6;
		else if (!strcmp(tok, "data"))
			a->equalize_data = true;
		else
			return -1;
	}
	return 0;
}

/* Whether the compile is int8: asked, or by default off nv_full. */
static bool int8(const struct args *a)
{
	if (a->precision)
		return !strcmp(a->precision, "int8");
	return a->config && strcmp(a->config, "nv_full");
}

/* --mixed-precision N or P% */
static int parse_mixed(const char *s, struct args *a)
{
	char *end;

	a->mixed = true;
	a->mixed_n = strtod(s, &end);
	a->mixed_pct = *end == '%';
	if (end == s || *(end + a->mixed_pct) || !(a->mixed_n >= 0) ||
	    (a->mixed_pct ? a->mixed_n > 100 :
	     a->mixed_n != (int)a->mixed_n))
		return -1;
	return 0;
}

/* --mixed-precision: int8 with calibration images, on nv_full. */
static int check_mixed(const struct args *a)
{
	if (!a->mixed || !a->config || !a->out)
		return 0;
	if (strcmp(a->config, "nv_full"))
		return bad("--mixed-precision keeps layers in fp16: %s computes in int8 only (nv_full has fp16)",
			   a->config);
	if (!a->precision || strcmp(a->precision, "int8"))
		return bad("%s", "--mixed-precision keeps layers of an int8 network in fp16: it needs --precision int8 (nv_full's default is fp16)");
	if (!a->calib_dir)
		return bad("%s", "--mixed-precision ranks layers by their int8 error on calibration images: it needs --calibrate");
	return 0;
}

static int parse(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "precision", required_argument, NULL, 'p' },
		{ "calibrate", required_argument, NULL, 'C' },
		{ "calib-method", required_argument, NULL, 'M' },
		{ "input-format", required_argument, NULL, 'f' },
		{ "mean", required_argument, NULL, 'm' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "exec", required_argument, NULL, 'e' },
		{ "dump-ir", no_argument, NULL, 'd' },
		{ "cpu-fallback", no_argument, NULL, 'F' },
		{ "report", no_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "equalize", optional_argument, NULL, 'E' },
		{ "bias-correct", no_argument, NULL, 'B' },
		{ "mixed-precision", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long jobs;
	int o;

	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			if (strcmp(optarg, "nv_full") && strcmp(optarg, "nv_large") &&
			    strcmp(optarg, "nv_small"))
				return bad("--config %s: nv_full, nv_large or nv_small", optarg);
			a->config = optarg;
			break;
		case 'p':
			if (strcmp(optarg, "fp16") && strcmp(optarg, "int8"))
				return bad("--precision %s: fp16 or int8", optarg);
			a->precision = optarg;
			break;
		case 'C':
			a->calib_dir = optarg;
			break;
		case 'M':
			if (parse_method(optarg, &a->calib))
				return bad("--calib-method %s: minmax, percentile[=P] (0 < P <= 100) or entropy",
					   optarg);
			break;
		case 'f':
			if (strcmp(optarg, "image") && strcmp(optarg, "feature"))
				return bad("--input-format %s: image or feature", optarg);
			a->lower.input_format = strcmp(optarg, "image") ?
						NVC_INPUT_FEATURE : NVC_INPUT_IMAGE;
			break;
		case 'm':
			if (parse_mean(optarg, a->calib.pixels.mean))
				return bad("--mean %s: one to three numbers, comma separated", optarg);
			break;
		case 'n':
			a->calib.pixels.normalize = strtof(optarg, &end);
			if (end == optarg || *end || !(a->calib.pixels.normalize != 0))
				return bad("--normalize %s: a non-zero number", optarg);
			break;
		case 'e':
			a->exec = optarg;
			break;
		case 'd':
			a->dump = 1;
			break;
		case 'F':
			a->lower.cpu_fallback = true;
			break;
		case 'r':
			a->report = true;
			break;
		case 'j':
			jobs = strtol(optarg, &end, 10);
			if (end == optarg || *end || jobs < 1 || jobs > NVC_JOBS_MAX)
				return bad("--jobs %s: a number of threads from 1 to 64", optarg);
			nvc_exec_set_jobs(jobs);
			break;
		case 'E':
			if (parse_equalize(optarg, a))
				return bad("--equalize=%s: relu6, data or both, comma separated",
					   optarg);
			break;
		case 'B':
			a->bias_correct = true;
			break;
		case 'X':
			if (parse_mixed(optarg, a))
				return bad("--mixed-precision %s: a number of layers, or a percentage of them (such as 10%%)",
					   optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	a->model = argv[optind];
	if (!a->exec && !a->dump && (!a->config || !a->out))
		return bad("%s", "compiling needs --config and -o (or use --exec or --dump-ir)");
	if (a->report && (!a->config || !a->out))
		return bad("%s", "--report estimates what it compiles: it needs --config and -o");
	if (a->equalize_data && !a->calib_dir)
		return bad("%s", "--equalize=data measures activations on calibration images: it needs --calibrate");
	if (a->bias_correct && (!a->calib_dir || !int8(a)))
		return bad("%s", "--bias-correct corrects int8 weights from calibration images: it needs --calibrate and int8");
	return check_mixed(a);
}

/* Run the graph on one input file and print its outputs, a value a line. */
static int exec(const struct nvc_graph *g, const struct args *a, char *err,
		size_t errlen)
{
	const struct nvc_tensor *t = &g->tensors[g->inputs[0]];
	long n = nvc_tensor_size(t), i;
	const char *dot = strrchr(a->exec, '.');
	float *in = malloc(n * sizeof(*in)), **values;
	const float *ins[1] = { in };
	int ret, k;

	values = calloc(g->num_tensors, sizeof(*values));
	if (!in || !values) {
		ret = nvc_error(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if (g->num_inputs != 1) {
		ret = nvc_error(err, errlen, -EINVAL,
				"--exec needs a model with one input (it has %d)",
				g->num_inputs);
		goto out;
	}
	if (dot && !strcmp(dot, ".npy"))
		ret = nvc_npy_read(a->exec, t, in, err, errlen);
	else
		ret = nvc_image_input(a->exec, t, &a->calib.pixels, in, err, errlen);
	if (!ret)
		ret = nvc_exec(g, ins, values, err, errlen);
	for (k = 0; !ret && k < g->num_outputs; k++) {
		int o = g->outputs[k];

		for (i = 0; i < nvc_tensor_size(&g->tensors[o]); i++)
			printf("%.9g\n", values[o][i]);
	}
	if (!ret)
		nvc_exec_free(g, values);
out:
	free(values);
	free(in);
	return ret;
}

static int write_file(const char *path, const void *buf, size_t len,
		      char *err, size_t errlen)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return nvc_error(err, errlen, -errno, "%s: %s", path, strerror(errno));
	ok = fwrite(buf, 1, len, f) == len;
	if (fclose(f) || !ok)
		return nvc_error(err, errlen, -EIO, "%s: write error", path);
	return 0;
}

/* The nodes that run as CPU tasks, on stderr. */
static void list_cpu_nodes(const struct nvc_graph *g)
{
	int i;

	for (i = 0; i < g->num_nodes; i++)
		if (g->nodes[i].op == NVC_SOFTMAX || g->nodes[i].op == NVC_CPU)
			fprintf(stderr, "nvdla_compile: node '%s' (%s) runs on the CPU\n",
				g->nodes[i].name, g->nodes[i].onnx_op);
}

/* The layers mixed precision keeps in fp16, on stderr. */
static void list_fp16_nodes(const struct nvc_graph *g, const struct args *a)
{
	int i;

	for (i = 0; i < g->num_nodes; i++)
		if (a->fp16[i])
			fprintf(stderr, "nvdla_compile: node '%s' (%s) runs in fp16 (int8: %.1f dB)\n",
				g->nodes[i].name, g->nodes[i].onnx_op, a->snr[i]);
}

/* Whether @g is a QDQ model: ranges from its own scales. */
static bool has_qdq(const struct nvc_graph *g)
{
	int i;

	for (i = 0; i < g->num_tensors; i++)
		if (g->tensors[i].calibrated == NVC_RANGE_QDQ)
			return true;
	return false;
}

/* The compile's configuration and precision, int8 calibrated. */
static int settle_precision(const struct nvc_graph *g, struct args *a,
			    char *err, size_t errlen)
{
	a->lower.config = a->config;
	if (!a->precision)
		a->precision = int8(a) ? "int8" : "fp16";
	a->lower.precision = strcmp(a->precision, "int8") ? NVC_FP16 : NVC_INT8;
	if (a->lower.precision == NVC_INT8 && !a->calib_dir && !has_qdq(g))
		return nvc_error(err, errlen, -EINVAL,
				 "int8 needs --calibrate DIR: a directory of images or .npy arrays that sets each tensor's range%s",
				 strcmp(a->config, "nv_full") ? "" :
				 " (or --precision fp16)");
	return 0;
}

static int compile(const struct nvc_graph *g, struct args *a, char *err,
		   size_t errlen)
{
	struct nvc_report r;
	void *buf = NULL;
	size_t len;
	int ret;

	memcpy(a->lower.mean, a->calib.pixels.mean, sizeof(a->lower.mean));
	a->lower.normalize = a->calib.pixels.normalize;
	ret = nvc_compile_best(g, &a->lower, a->report, &buf, &len, &r, err,
			       errlen);
	if (!ret)
		ret = write_file(a->out, buf, len, err, errlen);
	if (!ret)
		list_cpu_nodes(g);
	if (!ret && a->lower.fp16_nodes)
		list_fp16_nodes(g, a);
	if (!ret && a->report)
		nvc_report_print(stdout, g, a->config, &r);
	if (!ret && a->report && a->snr)
		nvc_report_errors(stdout, g, a->snr, a->fp16);
	if (!ret)
		nvc_report_free(&r);
	free(buf);
	return ret;
}

/*
 * Each convolution's int8 error, for --mixed-precision (the layers it
 * keeps in fp16) and an int8 --report.
 */
static int layer_errors(struct nvc_graph *g, struct args *a, char *err,
			size_t errlen)
{
	int n;

	if (!a->mixed && !(a->report && a->calib_dir &&
			   a->lower.precision == NVC_INT8))
		return 0;
	a->snr = calloc(g->num_nodes ? g->num_nodes : 1, sizeof(*a->snr));
	a->fp16 = calloc(g->num_nodes ? g->num_nodes : 1, sizeof(*a->fp16));
	if (!a->snr || !a->fp16)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	n = nvc_layer_errors(g, a->calib_dir, &a->calib, a->snr, err, errlen);
	if (n || !a->mixed)
		return n;
	n = a->mixed_pct ? nvc_mixed_count(g, a->mixed_n) : (int)a->mixed_n;
	nvc_mixed_choose(g, a->snr, n, a->fp16);
	a->lower.fp16_nodes = a->fp16;
	return 0;
}

/* The --config target's hardware, or NULL without one. */
static const struct dla_hw_config *target_hw(const struct args *a)
{
	struct nvc_target t;

	return a->config && !nvc_target_get(a->config, &t) ? t.hw : NULL;
}

/*
 * With --cpu-fallback on a target without the SDP's Y stage (its LUT),
 * Sigmoid, Tanh and SiLU as CPU functions.
 */
static int cpu_activations(struct nvc_graph *g, const struct args *a,
			   const struct dla_hw_config *hw, char *err,
			   size_t errlen)
{
	if (!a->lower.cpu_fallback || !hw || hw->sdp_y)
		return 0;
	return nvc_cpu_activations(g, err, errlen);
}

/* Equalization, then bias correction (before calibration measures ranges). */
static int quality(struct nvc_graph *g, const struct args *a, char *err,
		   size_t errlen)
{
	int ret = nvc_equalize(g, a->equalize,
			       a->equalize_data ? a->calib_dir : NULL,
			       &a->calib, err, errlen);

	if (ret > 0)
		fprintf(stderr, "nvdla_compile: %d pairs of convolutions equalized\n",
			ret);
	if (ret >= 0 && a->bias_correct)
		return nvc_bias_correct(g, a->calib_dir, &a->calib, err, errlen);
	return ret < 0 ? ret : 0;
}

int main(int argc, char **argv)
{
	struct args a = {
		.calib = { .method = NVC_CALIB_MINMAX, .percentile = 99.99,
			   .pixels = { .normalize = 255 } },
		.lower = { .input_format = NVC_INPUT_FEATURE },
	};
	char err[NVC_ERR_LEN * 2] = "", note[NVC_ERR_LEN] = "";
	const struct dla_hw_config *hw;
	struct nvc_graph g;
	int ret;

	ret = parse(argc, argv, &a);
	if (ret)
		return ret;
	ret = nvc_onnx_load_file(a.model, &g, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "nvdla_compile: %s\n", err);
		return 1;
	}
	hw = target_hw(&a);
	ret = cpu_activations(&g, &a, hw, err, sizeof(err));
	if (!ret)
		ret = nvc_passes(&g, hw, err, sizeof(err));
	a.calib.note = note;
	a.calib.note_len = sizeof(note);
	if (!ret)
		ret = quality(&g, &a, err, sizeof(err));
	if (!ret && a.calib_dir)
		ret = nvc_calibrate(&g, a.calib_dir, &a.calib, err, sizeof(err));
	if (note[0])
		fprintf(stderr, "nvdla_compile: %s\n", note);
	if (!ret && a.dump)
		nvc_graph_dump(&g, stdout);
	if (!ret && a.exec)
		ret = exec(&g, &a, err, sizeof(err));
	if (!ret && a.config && a.out)
		ret = nvc_deconv_rewrite(&g, err, sizeof(err));
	if (!ret && a.config && a.out)
		ret = settle_precision(&g, &a, err, sizeof(err));
	if (!ret && a.config && a.out)
		ret = layer_errors(&g, &a, err, sizeof(err));
	if (!ret && a.config && a.out)
		ret = compile(&g, &a, err, sizeof(err));
	free(a.snr);
	free(a.fp16);
	nvc_graph_free(&g);
	if (ret) {
		fprintf(stderr, "nvdla_compile: %s: %s\n", a.model, err);
		return 1;
	}
	return 0;
}
