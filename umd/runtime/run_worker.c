// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A network's worker: one thread per network, started at its first
 * submission, that executes the queued runs one at a time in submission
 * order, so that runs end in order and never share the network's
 * intermediate memory.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime_internal.h"

void nvdla_net_worker_init(struct nvdla_net_worker *w)
{
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
}

/* The next queued run, or NULL once the network closes. */
static struct nvdla_run *worker_next(struct nvdla_net_worker *w)
{
	struct nvdla_run *run;

	pthread_mutex_lock(&w->lock);
	while (!w->head && !w->closing)
		pthread_cond_wait(&w->cond, &w->lock);
	run = w->head;
	if (run) {
		w->head = run->next;
		if (!w->head)
			w->tail = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	return run;
}

static void *worker_main(void *arg)
{
	struct nvdla_network *net = arg;
	struct nvdla_net_worker *w = &net->worker;
	struct nvdla_run *run;
	int status;

	while ((run = worker_next(w))) {
		nvdla_rt_error_to(run->error);
		status = nvdla_net_execute(net, run);
		nvdla_rt_error_to(NULL);
		/* The network's state first: a waiter woken by the run sees it. */
		pthread_mutex_lock(&w->lock);
		net->status = status;
		net->stats_valid = !status;
		w->in_flight--;
		pthread_mutex_unlock(&w->lock);
		nvdla_run_end(run, status);
		nvdla_run_put(run);
	}
	return NULL;
}

int nvdla_net_worker_queue(struct nvdla_network *net, struct nvdla_run *run)
{
	struct nvdla_net_worker *w = &net->worker;
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	if (!w->started) {
		ret = -pthread_create(&w->thread, NULL, worker_main, net);
		w->started = !ret;
	}
	if (!ret) {
		if (w->tail)
			w->tail->next = run;
		else
			w->head = run;
		w->tail = run;
		w->in_flight++;
		pthread_cond_signal(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	if (ret)
		return nvdla_rt_error(net->rt, ret, "cannot start the run thread: %s",
				      strerror(-ret));
	return 0;
}

void nvdla_net_worker_close(struct nvdla_network *net)
{
	struct nvdla_net_worker *w = &net->worker;
	struct nvdla_run *run, *next;

	pthread_mutex_lock(&w->lock);
	w->closing = true;
	run = w->head;
	w->head = w->tail = NULL;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	for (; run; run = next) {
		next = run->next;
		snprintf(run->error, sizeof(run->error),
			 "cancelled: its network was unloaded before it started");
		nvdla_run_end(run, -ECANCELED);
		nvdla_run_put(run);
	}
	if (w->started)
		pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

int nvdla_net_idle(struct nvdla_network *net, const char *what)
{
	unsigned int n;

	pthread_mutex_lock(&net->worker.lock);
	n = net->worker.in_flight;
	pthread_mutex_unlock(&net->worker.lock);
	if (n)
		return nvdla_rt_error(net->rt, -EBUSY, "%s: %u run%s in flight",
				      what, n, n == 1 ? "" : "s");
	return 0;
}
