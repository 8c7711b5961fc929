// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_trace [--config NAME] [--seed DIR] [--verilator DIR]
 *             [--allow-hw-hazards] [--estimate MHZ,GBPS,NS] TEST_DIR...
 *
 * Plays public NVDLA hardware tests against the model: a directory with a
 * <name>.cfg register script, or with an input.txn trace. The configuration
 * is the one --config names, else the one a trace recorded by the runtime
 * names on its first line (record.h), else the one the directory name
 * contains (the longest), else nv_full. Prints PASS or FAIL per test,
 * then "N passed, N failed"; exits 0 only when all passed. --seed also records each test's
 * register writes as DIR/<test>, a seed of tests/fuzz/fuzz_sim.c.
 * --verilator writes each .cfg test as DIR/<test>.bin, the command stream
 * of nvdla/hw's RTL bench (verif/verilator; docs/recording.md).
 * A test with a layer the hardware cannot run (a convolution-buffer
 * limit, nvdla/cbuf_limits.h) fails with the rule and its numbers; with
 * --allow-hw-hazards the model runs it and the test says so.
 * --estimate prints the performance estimate of each operation at that
 * clock (MHz), memory bandwidth (GB/s) and latency (ns), integers
 * (docs/performance.md).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "record.h"
#include "trace.h"

static int bus_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	uint8_t *p = trace_mem_ptr(&((struct trace *)ctx)->mem, addr, len);

	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

static int bus_write(void *ctx, uint64_t addr, const void *src, uint32_t len)
{
	uint8_t *p = trace_mem_ptr(&((struct trace *)ctx)->mem, addr, len);

	if (!p)
		return -EFAULT;
	memcpy(p, src, len);
	return 0;
}

static void *bus_map(void *ctx, uint64_t addr, uint64_t len)
{
	return trace_mem_ptr(&((struct trace *)ctx)->mem, addr, len);
}

static void kick(void *ctx)
{
	((struct trace *)ctx)->kicked = true;
}

static void irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

#define NVDLA_HW_CONFIG(id, name, ...) name,
static const char *const config_names[] = {
#include <nvdla/hw_configs.h>
};
#undef NVDLA_HW_CONFIG

/* The configuration a recorded script's first line names, or NULL. */
static const char *script_config(const char *script)
{
	char line[256], *tag;
	FILE *f = fopen(script, "r");
	size_t i, n;

	if (!f)
		return NULL;
	tag = fgets(line, sizeof(line), f) ?
	      strstr(line, NVDLA_RECORD_CONFIG_TAG) : NULL;
	fclose(f);
	if (!tag)
		return NULL;
	tag += strlen(NVDLA_RECORD_CONFIG_TAG);
	n = strcspn(tag, " \t\r\n");
	for (i = 0; i < sizeof(config_names) / sizeof(config_names[0]); i++)
		if (strlen(config_names[i]) == n &&
		    !strncmp(config_names[i], tag, n))
			return config_names[i];
	return NULL;
}

/*
 * The configuration of a test: --config, else the one a recorded script
 * names, else the one its directory name names (the longest name wins).
 */
static const char *config_of(const char *dir, const char *script,
			     const char *forced)
{
	const char *best = script_config(script);
	size_t i;

	if (forced)
		return forced;
	if (best)
		return best;
	for (i = 0; i < sizeof(config_names) / sizeof(config_names[0]); i++)
		if (strstr(dir, config_names[i]) &&
		    (!best || strlen(config_names[i]) > strlen(best)))
			best = config_names[i];
	return best ? best : "nv_full";
}

/* The script of a test directory: input.txn, else the only *.cfg. */
static int find_script(const char *dir, char *path, size_t len, bool *txn)
{
	struct dirent *e;
	DIR *d;
	int found = -1;

	snprintf(path, len, "%s/input.txn", dir);
	*txn = true;
	if (!access(path, R_OK))
		return 0;
	*txn = false;
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 4 && !strcmp(e->d_name + n - 4, ".cfg")) {
			snprintf(path, len, "%s/%s", dir, e->d_name);
			found = 0;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static const char *base_name(const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (p = dir + n; p > dir && p[-1] != '/'; p--)
		;
	return p;
}

/* The file recording @dir's register writes, or NULL with an error. */
static FILE *seed_open(const char *seed_dir, const char *dir, char *err,
		       size_t errlen)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", seed_dir, base_name(dir));
	f = fopen(path, "wb");
	if (!f)
		snprintf(err, errlen, "cannot create %s", path);
	return f;
}

/* The RTL bench's stream for @dir's .cfg script, or NULL with an error. */
static struct trace_vlt *vlt_open(const char *vlt_dir, const char *dir,
				  bool txn, char *err, size_t errlen)
{
	struct trace_vlt *v;
	char path[512];

	if (txn) {
		snprintf(err, errlen, "--verilator takes .cfg scripts only");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s.bin", vlt_dir, base_name(dir));
	v = trace_vlt_open(path);
	if (!v)
		snprintf(err, errlen, "cannot create %s", path);
	return v;
}

static int vlt_close(struct trace *t)
{
	return trace_vlt_close(t->vlt,
			       trace_glb_reg(t, NVDLA_GLB_S_INTR_STATUS),
			       trace_glb_reg(t, NVDLA_GLB_S_INTR_MASK));
}

struct options {
	const char *config, *seed_dir, *vlt_dir;
	bool allow_hazards;
	bool estimate;
	struct nvdla_sim_perf_params perf;
};

/* One estimated operation, a line before the test's verdict. */
static void print_perf(void *ctx, const struct nvdla_sim_perf_op *op)
{
	int e;

	(void)ctx;
	printf("  estimate");
	for (e = 0; e < NVDLA_SIM_ENGINES; e++)
		if (op->engines & BIT(e))
			printf(" %s", nvdla_sim_engine_name(e));
	printf(": %llu cycles (mac %llu, post %llu, memory %llu), %s-bound, %llu bytes read, %llu written\n",
	       (unsigned long long)op->cycles,
	       (unsigned long long)op->mac_cycles,
	       (unsigned long long)op->post_cycles,
	       (unsigned long long)op->mem_cycles,
	       nvdla_sim_bound_name(op->bound),
	       (unsigned long long)op->read_bytes,
	       (unsigned long long)op->write_bytes);
}

/* "MHZ,GBPS,NS", positive integers but the latency, into @p. */
static int parse_perf(const char *arg, struct nvdla_sim_perf_params *p)
{
	unsigned int mhz, gbps, ns;
	char end;

	if (sscanf(arg, "%u,%u,%u%c", &mhz, &gbps, &ns, &end) != 3 ||
	    !mhz || !gbps || mhz > 100000 || gbps > 10000 || ns > 1000000) {
		fprintf(stderr, "nvdla_trace: --estimate takes MHZ,GBPS,NS: integers, clock 1 to 100000, bandwidth 1 to 10000, latency to 1000000: '%s'\n",
			arg);
		return -1;
	}
	*p = (struct nvdla_sim_perf_params){ mhz * 1000, gbps * 1000, ns };
	return 0;
}

/*
 * Layers the hardware could not run: the test's error, or where they
 * are allowed, a note in @note. Returns whether the test fails.
 */
static bool hazards(struct trace *t, const struct options *o, char *note,
		    size_t len)
{
	struct nvdla_cbuf_verdict v;
	u32 n = nvdla_sim_hazards(t->sim, &v);
	char text[NVDLA_CBUF_VERDICT_MAX];

	if (!n)
		return false;
	snprintf(o->allow_hazards ? note : t->err,
		 o->allow_hazards ? len : sizeof(t->err),
		 "%s%u layers the hardware cannot run, the last: %s",
		 o->allow_hazards ? "ran " : "", n,
		 nvdla_cbuf_verdict_text(text, sizeof(text), &v));
	return !o->allow_hazards;
}

static int run_test(const char *dir, const struct options *o, char *err,
		    size_t errlen, char *note, size_t notelen)
{
	struct trace t = { .dir = dir, .file = dir };
	const struct nvdla_sim_host host = {
		.ctx = &t, .bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
		.perf_op = o->estimate ? print_perf : NULL,
	};
	const struct dla_hw_config *hw;
	enum nvdla_sim_config_id id;
	const char *config;
	char path[1024];
	bool txn;
	int ret;

	if (find_script(dir, path, sizeof(path), &txn)) {
		snprintf(err, errlen, "no input.txn or .cfg script");
		return -1;
	}
	config = config_of(dir, path, o->config);
	hw = dla_hw_config_get(config);
	if (!hw || nvdla_sim_config_by_name(config, &id)) {
		snprintf(err, errlen, "unknown configuration %s", config);
		return -1;
	}
	t.unit_base = hw->unit_base;
	if (o->seed_dir) {
		t.seed = seed_open(o->seed_dir, dir, err, errlen);
		if (!t.seed)
			return -1;
		if (trace_seed_start(&t, config)) {
			fclose(t.seed);
			snprintf(err, errlen, "no seed for %s", config);
			return -1;
		}
	}
	if (o->vlt_dir) {
		t.vlt = vlt_open(o->vlt_dir, dir, txn, err, errlen);
		if (!t.vlt)
			goto err_seed;
	}
	if (trace_mem_init(&t.mem)) {
		snprintf(err, errlen, "cannot reserve the test memory");
		goto err_vlt;
	}
	t.sim = calloc(1, nvdla_sim_size());
	if (!t.sim || nvdla_sim_init(t.sim, id, &host)) {
		snprintf(err, errlen, "cannot start the model");
		goto err_mem;
	}
	nvdla_sim_allow_hazards(t.sim, o->allow_hazards);
	if (o->estimate)
		nvdla_sim_set_perf(t.sim, &o->perf);
	ret = txn ? trace_play_txn(&t, path) : trace_play_cfg(&t, path);
	/* The reason the output is missing, rather than its absence. */
	if (hazards(&t, o, note, notelen))
		ret = -1;
	if (!ret && nvdla_sim_fault_count(t.sim)) {
		snprintf(t.err, sizeof(t.err), "%u model faults",
			 nvdla_sim_fault_count(t.sim));
		ret = -1;
	}
	if (t.seed && fclose(t.seed) && !ret) {
		snprintf(t.err, sizeof(t.err), "cannot write the seed");
		ret = -1;
	}
	if (t.vlt && vlt_close(&t) && !ret) {
		snprintf(t.err, sizeof(t.err), "cannot write the RTL bench's stream");
		ret = -1;
	}
	snprintf(err, errlen, "%s", t.err);
	trace_mem_free(&t.mem);
	free(t.sim);
	return ret;

err_mem:
	free(t.sim);
	trace_mem_free(&t.mem);
err_vlt:
	if (t.vlt)
		vlt_close(&t);
err_seed:
	if (t.seed)
		fclose(t.seed);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int i = 1, passed = 0, failed = 0;
	char err[600], note[300];

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--allow-hw-hazards"))
			o.allow_hazards = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--config"))
			o.config = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--seed"))
			o.seed_dir = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--verilator"))
			o.vlt_dir = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--estimate")) {
			if (parse_perf(argv[++i], &o.perf))
				return 2;
			o.estimate = true;
		} else
			break;
	}
	if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
		fprintf(i >= argc ? stderr : stdout,
			"usage: nvdla_trace [--config NAME] [--seed DIR] [--verilator DIR] [--allow-hw-hazards] [--estimate MHZ,GBPS,NS] TEST_DIR...\n");
		return i >= argc ? 2 : 0;
	}
	for (; i < argc; i++) {
		note[0] = '\0';
		if (run_test(argv[i], &o, err, sizeof(err), note, sizeof(note))) {
			printf("FAIL %s: %s\n", base_name(argv[i]), err);
			failed++;
		} else {
			printf("PASS %s%s%s\n", base_name(argv[i]),
			       *note ? ": " : "", note);
			passed++;
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
