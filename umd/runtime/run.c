// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Run handles: a submitted run's buffers, its result, and the ways to
 * learn it (wait, poll, an eventfd for event loops, and through the driver
 * a sync_file of its device part).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "runtime_internal.h"

/* Snapshot the buffers bound to @net's inputs and outputs now. */
static int run_snapshot(struct nvdla_network *net, struct nvdla_run *run)
{
	unsigned int i, ni = nvdla_network_num_inputs(net);
	unsigned int no = nvdla_network_num_outputs(net);

	run->io = calloc(ni + no ? ni + no : 1, sizeof(*run->io));
	if (!run->io)
		return -ENOMEM;
	for (i = 0; i < ni; i++)
		run->io[i] = nvdla_network_input(net, i);
	for (i = 0; i < no; i++)
		run->io[ni + i] = nvdla_network_output(net, i);
	return 0;
}

static int run_init_sync(struct nvdla_run *run)
{
	pthread_condattr_t attr;
	int ret;

	/* nvdla_run_wait() takes CLOCK_MONOTONIC deadlines. */
	ret = pthread_condattr_init(&attr);
	if (ret)
		return -ret;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&run->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		return -ret;
	pthread_mutex_init(&run->lock, NULL);
	return 0;
}

/* @run has no sync_file: @err, and why. */
static void run_sync_refuse(struct nvdla_run *run, int err, const char *fmt,
			    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->sync_error, sizeof(run->sync_error), fmt, ap);
	va_end(ap);
	run->sync_err = err;
	__atomic_store_n(&run->sync_known, true, __ATOMIC_RELEASE);
}

/*
 * The task whose job's fence is @run's sync_file: the network's last DLA
 * task, if the kernel gets every DLA task of a run at its turn, that is
 * if no CPU task comes before a DLA task (the runtime queues the DLA
 * tasks after a CPU task only once it has run); CPU tasks after the last
 * DLA task run once its job has ended.
 */
static void run_sync_task(struct nvdla_network *net, struct nvdla_run *run)
{
	int64_t cpu = -1;
	uint32_t n;

	run->sync_task = -1;
	if (!net->rt->be->ops->sync_file) {
		run_sync_refuse(run, -EOPNOTSUPP,
				"no sync_file on %s: it has no kernel fences",
				net->rt->be->name);
		return;
	}
	for (n = 0; n < net->num_tasks; n++) {
		if (net->tasks[n].src->interface == NVDLA_LBL_IF_EMU1) {
			cpu = cpu < 0 ? n : cpu;
		} else if (cpu >= 0) {
			run->sync_task = -1;
			run_sync_refuse(run, -EOPNOTSUPP,
					"no sync_file: CPU task %lld comes before DLA task %u, which the kernel gets only once the CPU task has run",
					(long long)cpu, n);
			return;
		} else {
			run->sync_task = n;
		}
	}
	if (run->sync_task < 0)
		run_sync_refuse(run, -EOPNOTSUPP,
				"no sync_file: the network has no DLA task");
}

int nvdla_run_new(struct nvdla_network *net, int64_t timeout_ns,
		  struct nvdla_run **out)
{
	struct nvdla_run *run = calloc(1, sizeof(*run));
	int ret;

	if (!run)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	run->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (run->efd < 0) {
		ret = nvdla_rt_error(net->rt, -errno, "run: eventfd: %s",
				     strerror(errno));
		free(run);
		return ret;
	}
	ret = run_snapshot(net, run);
	if (!ret)
		ret = run_init_sync(run);
	if (ret) {
		close(run->efd);
		free(run->io);
		free(run);
		return nvdla_rt_error(net->rt, ret, "run: %s", strerror(-ret));
	}
	run->timeout_ns = timeout_ns;
	run->sync_fd = -1;
	run_sync_task(net, run);
	run->refs = 2;
	*out = run;
	return 0;
}

void nvdla_run_end(struct nvdla_run *run, int status)
{
	uint64_t one = 1;

	pthread_mutex_lock(&run->lock);
	run->status = status;
	__atomic_store_n(&run->ended, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
	/* A fresh eventfd's counter takes 1 without blocking or failing. */
	if (write(run->efd, &one, sizeof(one)) != sizeof(one))
		abort();
}

void nvdla_run_sync_file_set(struct nvdla_run *run, struct nvdla_backend *be,
			     struct nvdla_chain *chain)
{
	int fd, ret = be->ops->sync_file(be, chain, &fd);

	pthread_mutex_lock(&run->lock);
	if (ret) {
		run_sync_refuse(run, ret, "%s", be->error);
	} else {
		run->sync_fd = fd;
		__atomic_store_n(&run->sync_known, true, __ATOMIC_RELEASE);
	}
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

void nvdla_run_put(struct nvdla_run *run)
{
	if (__atomic_sub_fetch(&run->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (run->sync_fd >= 0)
		close(run->sync_fd);
	close(run->efd);
	pthread_cond_destroy(&run->cond);
	pthread_mutex_destroy(&run->lock);
	free(run->io);
	free(run);
}

NVDLA_EXPORT int nvdla_run_submit(struct nvdla_network *net,
				  int64_t timeout_ns, struct nvdla_run **out)
{
	struct nvdla_run *run;
	struct timespec now;
	int ret;

	*out = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (timeout_ns < 0 || timeout_ns > INT64_MAX - now.tv_sec * 1000000000ll -
					   now.tv_nsec)
		return nvdla_rt_error(net->rt, -EINVAL, "time limit of %lld ns",
				      (long long)timeout_ns);
	ret = nvdla_run_new(net, timeout_ns, &run);
	if (ret)
		return ret;
	ret = nvdla_net_worker_queue(net, run);
	if (ret) {
		nvdla_run_put(run);
		nvdla_run_put(run);
		return ret;
	}
	*out = run;
	return 0;
}

/* The absolute CLOCK_MONOTONIC time @ns from now, saturated. */
static struct timespec run_deadline(int64_t ns)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (ns / 1000000000 > INT64_MAX - t.tv_sec - 1) {
		t.tv_sec = INT64_MAX;
		return t;
	}
	t.tv_sec += ns / 1000000000;
	t.tv_nsec += ns % 1000000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

NVDLA_EXPORT int nvdla_run_wait(struct nvdla_run *run, int64_t timeout_ns)
{
	struct timespec deadline = run_deadline(timeout_ns < 0 ? 0 : timeout_ns);
	int ret;

	pthread_mutex_lock(&run->lock);
	while (!run->ended && timeout_ns < 0)
		pthread_cond_wait(&run->cond, &run->lock);
	while (!run->ended &&
	       pthread_cond_timedwait(&run->cond, &run->lock, &deadline) !=
	       ETIMEDOUT)
		;
	ret = run->ended ? run->status : -EINPROGRESS;
	pthread_mutex_unlock(&run->lock);
	return ret;
}

NVDLA_EXPORT int nvdla_run_poll(struct nvdla_run *run)
{
	return nvdla_run_wait(run, 0);
}

NVDLA_EXPORT int nvdla_run_fd(const struct nvdla_run *run)
{
	return run->efd;
}

NVDLA_EXPORT int nvdla_run_sync_file(struct nvdla_run *run)
{
	int ret;

	pthread_mutex_lock(&run->lock);
	while (!run->sync_known && !run->ended)
		pthread_cond_wait(&run->cond, &run->lock);
	/* Ended first: it failed or was cancelled before its device part. */
	if (!run->sync_known)
		ret = run->status;
	else if (run->sync_fd < 0)
		ret = run->sync_err;
	else if ((ret = fcntl(run->sync_fd, F_DUPFD_CLOEXEC, 0)) < 0)
		ret = -errno;
	/* nvdla_run_error() says why from now on. */
	if (run->sync_known && run->sync_fd < 0)
		__atomic_store_n(&run->sync_refused, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&run->lock);
	return ret;
}

NVDLA_EXPORT const char *nvdla_run_error(const struct nvdla_run *run)
{
	/* Each written before the flag that publishes it, never after. */
	if (__atomic_load_n(&run->ended, __ATOMIC_ACQUIRE) && run->status)
		return run->error;
	if (__atomic_load_n(&run->sync_refused, __ATOMIC_ACQUIRE))
		return run->sync_error;
	return "";
}

NVDLA_EXPORT void nvdla_run_free(struct nvdla_run *run)
{
	if (run)
		nvdla_run_put(run);
}
