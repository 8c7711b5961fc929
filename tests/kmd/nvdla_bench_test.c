// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Driver benchmark inside the QEMU guest (figures, not pass/fail limits:
 * TCG timing says little in absolute terms, the ratios in one run more):
 * the round trip of DRM_IOCTL_VERSION next to the submit ioctl of a
 * minimal job (a 32-byte BDMA copy) and its submit-to-completion latency,
 * then jobs per second and latency with 1, 2 and 4 processes submitting
 * at once. Every job's result is checked: the one TAP line fails if any
 * job failed or copied wrongly.
 */
#include <stdlib.h>
#include <sys/wait.h>

#include "nvdla_test.h"

#define MINIMAL 32
#define WINDOW 8
/* Jobs submitted back to back, under the driver's max_queued_jobs (128). */
#define BURST 100

static double now_us(void)
{
	return deadline_ms(0) / 1000.0;
}

static int minimal_task(struct bdma_task *t)
{
	if (bdma_task_open(t))
		return -1;
	bdma_task_write(t, SRC, MINIMAL);
	return 0;
}

/* Report the first failure of this process: what, and its error. */
static int failed_at(const char *what, int ret)
{
	static int reported;

	if (ret && !reported++)
		printf("# bench: %s failed: %d (the driver: %lld jobs submitted, %lld completed, %lld failed, %lld bytes of job memory)\n",
		       what, ret, debugfs_sum("jobs", "submitted"),
		       debugfs_sum("jobs", "completed"),
		       debugfs_sum("jobs", "failed"),
		       debugfs_sum("jobs", "job memory"));
	return ret != 0;
}

/* Submit @n jobs keeping WINDOW in flight; -1 if any failed. */
static int pipelined(struct bdma_task *t, int n)
{
	uint64_t ids[WINDOW];
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		if (i >= WINDOW)
			bad |= failed_at("pipelined wait",
					 job_wait(t->fd, ids[i % WINDOW],
						  deadline_ms(10000)));
		if (failed_at("pipelined submit",
			      job_submit(t, NULL, 0, 0, &ids[i % WINDOW])))
			return -1;
	}
	for (i = n > WINDOW ? n - WINDOW : 0; i < n; i++)
		bad |= failed_at("pipelined wait",
				 job_wait(t->fd, ids[i % WINDOW],
					  deadline_ms(10000)));
	bad |= failed_at("pipelined copy",
			 memcmp(t->map[SRC], t->map[DST], MINIMAL));
	return bad ? -1 : 0;
}

/* Submit and wait, one job at a time; the mean latency in *@us. */
static int serial(struct bdma_task *t, int n, double *us)
{
	double start = now_us();
	int i;

	for (i = 0; i < n; i++)
		if (failed_at("serial job", job_run(t)))
			return -1;
	*us = (now_us() - start) / n;
	return failed_at("serial copy",
			 memcmp(t->map[SRC], t->map[DST], MINIMAL)) ? -1 : 0;
}

struct result {
	double jobs_per_s;
	double latency_us;
	int failed;
};

/* @procs processes at once, each pipelining then timing serial jobs. */
static struct result run_processes(int procs, int jobs)
{
	struct result r = { 0 }, one;
	int pipes[4][2], i, status;
	double start = now_us(), wall;

	for (i = 0; i < procs; i++) {
		if (pipe(pipes[i]))
			r.failed = 1;
		if (fork() == 0) {
			struct bdma_task t;

			memset(&one, 0, sizeof(one));
			one.failed = minimal_task(&t) || pipelined(&t, jobs) ||
				     serial(&t, jobs / 4, &one.latency_us);
			if (write(pipes[i][1], &one, sizeof(one)) != sizeof(one))
				_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++) {
		if (read(pipes[i][0], &one, sizeof(one)) != sizeof(one))
			one.failed = 1;
		r.failed |= one.failed;
		r.latency_us += one.latency_us / procs;
		wait(&status);
	}
	wall = now_us() - start;
	r.jobs_per_s = procs * (jobs + jobs / 4) / (wall / 1e6);
	return r;
}

int main(void)
{
	char name[16];
	struct drm_version v = { .name = name, .name_len = sizeof(name) };
	struct bdma_task t;
	double start, version_us, submit_us, latency_us;
	uint64_t id = 0;
	int i, n = 2000, failed = 0, procs;
	struct result r;

	printf("TAP version 13\n1..1\n");
	if (minimal_task(&t)) {
		printf("not ok 1 - benchmark: no nvdla device\n");
		return 1;
	}
	start = now_us();
	for (i = 0; i < n; i++)
		failed |= failed_at("DRM_IOCTL_VERSION",
				    ioctl(t.fd, DRM_IOCTL_VERSION, &v));
	version_us = (now_us() - start) / n;

	/* In bursts the driver's cap on queued jobs admits, waits untimed. */
	submit_us = 0;
	for (i = 0; i < n / 4; i++) {
		start = now_us();
		failed |= failed_at("burst submit",
				    job_submit(&t, NULL, 0, 0, &id));
		submit_us += now_us() - start;
		if (i % BURST == BURST - 1 || i == n / 4 - 1)
			failed |= failed_at("burst wait",
					    job_wait(t.fd, id,
						     deadline_ms(30000)));
	}
	submit_us /= n / 4;
	failed |= serial(&t, n / 8, &latency_us) != 0;

	printf("# bench: DRM_IOCTL_VERSION round trip        %8.1f us\n",
	       version_us);
	printf("# bench: minimal job, submit ioctl only      %8.1f us (%.1fx VERSION)\n",
	       submit_us, submit_us / version_us);
	printf("# bench: minimal job, submit to completion   %8.1f us (%.1fx VERSION)\n",
	       latency_us, latency_us / version_us);
	for (procs = 1; procs <= 4; procs *= 2) {
		r = run_processes(procs, 200);
		failed |= r.failed;
		printf("# bench: %d process%s  %8.0f jobs/s  latency %8.1f us\n",
		       procs, procs > 1 ? "es" : "  ", r.jobs_per_s,
		       r.latency_us);
	}
	printf("%s 1 - benchmark: every job completed with the right output\n",
	       failed ? "not ok" : "ok");
	bdma_task_close(&t);
	return failed;
}
