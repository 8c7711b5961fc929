// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A pipelined classifier on libnvdla_runtime's asynchronous API: for each
 * of N frames, decode an image into an input buffer, run the network, and
 * post-process its output (the top classes, scales applied), with 1, 2 or
 * 3 runs in flight, each on its own set of input and output buffers, so
 * that the device computes one frame while the CPU decodes the next and
 * post-processes the last. Mode 0 is the synchronous loop (decode, run and
 * wait, post-process) it is measured against. Results come out in frame
 * order whatever the mode. Built outside the tree with
 *
 *	cc stream.c $(pkg-config --cflags --libs nvdla-runtime)
 *
 * Usage: stream [OPTION]... LOADABLE IMAGE...
 *   -d DEVICE   device (default: the first NVDLA device, else sim:nv_full)
 *   -n FRAMES   frames to process (default: one per image), the images
 *               taken in turn
 *   -k MODES    runs in flight, a comma-separated list run one after the
 *               other on the same frames, 0 for the synchronous loop
 *               (default: 2)
 *   -t TOP      classes printed per frame (default: 1)
 *   -s SCALE    the image's pixels are divided by SCALE (default: 1)
 *   -w US       CPU time, in microseconds, the application spends on each
 *               frame besides decoding and the top classes (a busy loop
 *               standing for heavier pre- or post-processing: resizing,
 *               colour conversion, drawing); default 0
 *   -i US       time, in microseconds, the application waits for each
 *               frame's input before decoding it, asleep (a camera's next
 *               frame, a read from the network); default 0
 *   -q          print only the modes' frames/s, on one line
 *   -a          run layers the hardware cannot run, on the model only
 *               (nvdla_runtime_allow_hw_hazards())
 *
 * Each frame prints "frame F IMAGE: CLASS VALUE ...", each mode a line
 * "N frames in S s: K in flight X frames/s" ("synchronous" for 0), with,
 * after a synchronous mode, the ratio to its frames/s.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvdla/runtime.h>

#define MAX_IN_FLIGHT 3

struct options {
	const char *device;
	unsigned int frames;
	unsigned int modes[8];
	unsigned int num_modes;
	unsigned int top;
	long work_us, wait_us;
	int quiet;
	int allow_hazards;
	struct nvdla_image_options image;
	const char *loadable;
	char **images;
	unsigned int num_images;
};

/* One set of buffers for a run in flight, and what it holds. */
struct slot {
	struct nvdla_buffer **in, **out;
	struct nvdla_run *run;
	unsigned int frame;
};

struct stream {
	const struct options *o;
	struct nvdla_runtime *rt;
	struct nvdla_network *net;
	unsigned int ni, no;
	float *values;
	size_t num_values;
	struct slot slots[MAX_IN_FLIGHT];
};

static double now_s(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Spend @us microseconds of this thread's CPU time. */
static void busy(long us)
{
	double end = now_s(CLOCK_THREAD_CPUTIME_ID) + us / 1e6;

	while (us > 0 && now_s(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static int fail(struct stream *s, const char *what)
{
	fprintf(stderr, "%s: %s\n", what, nvdla_runtime_error(s->rt));
	return -1;
}

/* Bind @slot's buffers to the network: what the next call reads or fills. */
static int bind(struct stream *s, struct slot *slot)
{
	unsigned int i;

	for (i = 0; i < s->ni; i++)
		if (nvdla_network_bind_input(s->net, i, slot->in[i]))
			return fail(s, "bind input");
	for (i = 0; i < s->no; i++)
		if (nvdla_network_bind_output(s->net, i, slot->out[i]))
			return fail(s, "bind output");
	return 0;
}

/* Sleep @us microseconds. */
static void wait_input(long us)
{
	struct timespec t = { us / 1000000, us % 1000000 * 1000 };

	while (us > 0 && nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Wait for frame @f's input, then decode its image into @slot's input 0. */
static int decode(struct stream *s, struct slot *slot, unsigned int f)
{
	const char *path = s->o->images[f % s->o->num_images];

	slot->frame = f;
	wait_input(s->o->wait_us);
	if (bind(s, slot))
		return -1;
	if (nvdla_network_set_image(s->net, 0, path, &s->o->image)) {
		fprintf(stderr, "frame %u: %s\n", f, nvdla_runtime_error(s->rt));
		return -1;
	}
	busy(s->o->work_us / 2);
	return 0;
}

/* Print the top classes of output 0 of @slot's frame. */
static int post_process(struct stream *s, struct slot *slot)
{
	const struct options *o = s->o;
	size_t i, j, b;
	float *v = s->values;

	if (bind(s, slot) ||
	    nvdla_network_output_values(s->net, 0, v, s->num_values))
		return fail(s, "output");
	busy(o->work_us - o->work_us / 2);
	if (o->quiet)
		return 0;
	printf("frame %u %s:", slot->frame,
	       o->images[slot->frame % o->num_images]);
	/* Selection: the largest left, then the largest of the rest. */
	for (i = 0; i < o->top && i < s->num_values; i++) {
		for (b = i, j = i + 1; j < s->num_values; j++)
			if (v[j] > v[b])
				b = j;
		printf(" %zu %.6f", b, v[b]);
		v[b] = -INFINITY;
	}
	printf("\n");
	return 0;
}

/* Wait for @slot's run, then post-process its frame. */
static int finish(struct stream *s, struct slot *slot)
{
	int ret = nvdla_run_wait(slot->run, -1);

	if (ret)
		fprintf(stderr, "frame %u: %s\n", slot->frame,
			nvdla_run_error(slot->run));
	nvdla_run_free(slot->run);
	slot->run = NULL;
	return ret ? -1 : post_process(s, slot);
}

static int run_sync(struct stream *s)
{
	unsigned int f;

	for (f = 0; f < s->o->frames; f++) {
		if (decode(s, &s->slots[0], f))
			return -1;
		if (nvdla_network_submit(s->net, 0))
			return fail(s, "run");
		if (post_process(s, &s->slots[0]))
			return -1;
	}
	return 0;
}

/*
 * Frame f goes into slot f % @k once the frame before it there, f - @k,
 * has been post-processed; the other slots' runs go on meanwhile.
 */
static int run_pipelined(struct stream *s, unsigned int k)
{
	unsigned int f, n = s->o->frames;
	struct slot *slot;
	int ret = 0;

	for (f = 0; f < n + k && !ret; f++) {
		slot = &s->slots[f % k];
		if (slot->run)
			ret = finish(s, slot);
		if (!ret && f < n)
			ret = decode(s, slot, f);
		if (!ret && f < n && nvdla_run_submit(s->net, 0, &slot->run))
			ret = fail(s, "submit");
	}
	/* After a failure, the runs still in flight end before unloading. */
	for (f = 0; f < k; f++) {
		if (s->slots[f].run)
			nvdla_run_wait(s->slots[f].run, -1);
		nvdla_run_free(s->slots[f].run);
		s->slots[f].run = NULL;
	}
	return ret;
}

/* "synchronous" or "K in flight", its frames/s, its ratio to the first's. */
static void print_mode(unsigned int k, double fps, double sync_fps)
{
	if (k)
		printf("%u in flight %.2f frames/s", k, fps);
	else
		printf("synchronous %.2f frames/s", fps);
	if (k && sync_fps > 0)
		printf(" (%.2f x the synchronous loop)", fps / sync_fps);
}

/*
 * One mode's pass over the frames, its frames/s in *@fps and on a line
 * of its own (-q: on one line with the other modes).
 */
static int run_mode(struct stream *s, unsigned int k, double sync_fps,
		    double *fps)
{
	double start = now_s(CLOCK_MONOTONIC), t;
	int ret = k ? run_pipelined(s, k) : run_sync(s);

	if (ret)
		return ret;
	t = now_s(CLOCK_MONOTONIC) - start;
	*fps = s->o->frames / t;
	if (!s->o->quiet)
		printf("%u frames in %.3f s: ", s->o->frames, t);
	print_mode(k, *fps, sync_fps);
	printf(s->o->quiet ? "" : "\n");
	fflush(stdout);
	return 0;
}

static int alloc_set(struct stream *s, unsigned int n, struct nvdla_buffer ***set,
		     int out)
{
	struct nvdla_tensor_desc d;
	unsigned int i;

	*set = calloc(n ? n : 1, sizeof(**set));
	if (!*set)
		return -1;
	for (i = 0; i < n; i++) {
		if ((out ? nvdla_network_output_desc(s->net, i, &d) :
			   nvdla_network_input_desc(s->net, i, &d)) ||
		    nvdla_buffer_new(s->rt, d.size, &(*set)[i]))
			return fail(s, "buffer");
	}
	return 0;
}

/* A set of input and output buffers per slot, and room for the values. */
static int setup(struct stream *s)
{
	struct nvdla_tensor_desc d;
	unsigned int i;

	s->ni = nvdla_network_num_inputs(s->net);
	s->no = nvdla_network_num_outputs(s->net);
	if (!s->ni || !s->no) {
		fprintf(stderr, "%s: no input or no output\n", s->o->loadable);
		return -1;
	}
	if (nvdla_network_output_desc(s->net, 0, &d))
		return fail(s, "output 0");
	s->num_values = (size_t)d.c * d.h * d.w;
	s->values = malloc(s->num_values * sizeof(*s->values));
	if (!s->values)
		return -1;
	for (i = 0; i < MAX_IN_FLIGHT; i++)
		if (alloc_set(s, s->ni, &s->slots[i].in, 0) ||
		    alloc_set(s, s->no, &s->slots[i].out, 1))
			return -1;
	return 0;
}

/* Unload first: the network lets go of the buffers bound to it. */
static void teardown(struct stream *s)
{
	unsigned int i, j;

	nvdla_network_unload(s->net);
	for (i = 0; i < MAX_IN_FLIGHT; i++) {
		for (j = 0; s->slots[i].in && j < s->ni; j++)
			nvdla_buffer_del(s->slots[i].in[j]);
		for (j = 0; s->slots[i].out && j < s->no; j++)
			nvdla_buffer_del(s->slots[i].out[j]);
		free(s->slots[i].in);
		free(s->slots[i].out);
	}
	free(s->values);
}

static int parse_modes(const char *arg, struct options *o)
{
	char *end;
	unsigned long k;

	o->num_modes = 0;
	do {
		k = strtoul(arg, &end, 10);
		if (end == arg || k > MAX_IN_FLIGHT ||
		    o->num_modes == sizeof(o->modes) / sizeof(o->modes[0]))
			return -1;
		o->modes[o->num_modes++] = k;
		arg = end + 1;
	} while (*end == ',');
	return *end ? -1 : 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	char *end;
	int c;

	*o = (struct options){ .num_modes = 1, .modes = { 2 }, .top = 1,
			       .image = { .normalize = 1 } };
	while ((c = getopt(argc, argv, "d:n:k:t:s:w:i:qa")) != -1) {
		end = NULL;
		switch (c) {
		case 'd': o->device = optarg; break;
		case 'n': o->frames = strtoul(optarg, &end, 10); break;
		case 'k': if (parse_modes(optarg, o)) return -1; break;
		case 't': o->top = strtoul(optarg, &end, 10); break;
		case 's': o->image.normalize = strtof(optarg, &end); break;
		case 'w': o->work_us = strtol(optarg, &end, 10); break;
		case 'i': o->wait_us = strtol(optarg, &end, 10); break;
		case 'q': o->quiet = 1; break;
		case 'a': o->allow_hazards = 1; break;
		default: return -1;
		}
		if (end && (*end || end == optarg))
			return -1;
	}
	if (argc - optind < 2 || o->work_us < 0 || o->wait_us < 0 || !(o->image.normalize > 0))
		return -1;
	o->loadable = argv[optind];
	o->images = argv + optind + 1;
	o->num_images = argc - optind - 1;
	if (!o->frames)
		o->frames = o->num_images;
	return 0;
}

int main(int argc, char **argv)
{
	struct stream s = { 0 };
	struct options o;
	double sync_fps = 0, fps = 0;
	char err[256];
	unsigned int m;
	int ret;

	if (parse_options(argc, argv, &o)) {
		fprintf(stderr, "usage: %s [-d DEVICE] [-n FRAMES] [-k MODES] [-t TOP] [-s SCALE] [-w US] [-i US] [-q] [-a] LOADABLE IMAGE...\n"
			"MODES: runs in flight, 0 to %d, comma-separated (0: the synchronous loop)\n",
			argv[0], MAX_IN_FLIGHT);
		return 2;
	}
	s.o = &o;
	if (nvdla_runtime_new(o.device, &s.rt, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (o.allow_hazards && nvdla_runtime_allow_hw_hazards(s.rt, 1)) {
		fprintf(stderr, "-a: %s\n", nvdla_runtime_error(s.rt));
		nvdla_runtime_del(s.rt);
		return 1;
	}
	if (nvdla_network_load_file(s.rt, o.loadable, &s.net)) {
		ret = fail(&s, o.loadable);
		nvdla_runtime_del(s.rt);
		return 1;
	}
	ret = setup(&s);
	if (!ret && o.quiet)
		printf("%u frames: ", o.frames);
	for (m = 0; m < o.num_modes && !ret; m++) {
		if (m && o.quiet)
			printf(", ");
		ret = run_mode(&s, o.modes[m], sync_fps, &fps);
		if (!o.modes[m])
			sync_fps = fps;
	}
	if (o.quiet)
		printf("\n");
	teardown(&s);
	nvdla_runtime_del(s.rt);
	return ret ? 1 : 0;
}
