// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A network's two threads, started at its first submission. The worker
 * takes the queued runs in submission order, gives each a free slot
 * (run_slot.c) and executes its device part holding the device; the
 * finisher takes them in the same order, waits for each device part to
 * end, runs its CPU tail and ends the run. So runs end in order, and the
 * next run's device part is queued, or computed by the in-process model,
 * while a run's CPU tail runs on memory of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime_internal.h"

void nvdla_net_worker_init(struct nvdla_net_worker *w)
{
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	pthread_cond_init(&w->done_cond, NULL);
}

/* A free slot of @net, or -1 (the worker's lock held). */
static int worker_free_slot(const struct nvdla_network *net)
{
	int s;

	for (s = 0; s < NVDLA_NET_SLOTS; s++)
		if (!net->slots[s].busy)
			return s;
	return -1;
}

/* The next queued run, holding a free slot, or NULL once the network closes. */
static struct nvdla_run *worker_next(struct nvdla_network *net)
{
	struct nvdla_net_worker *w = &net->worker;
	struct nvdla_run *run = NULL;
	int s;

	pthread_mutex_lock(&w->lock);
	while (!w->closing && (!w->head || (s = worker_free_slot(net)) < 0))
		pthread_cond_wait(&w->cond, &w->lock);
	if (!w->closing) {
		run = w->head;
		w->head = run->next;
		if (!w->head)
			w->tail = NULL;
		run->next = NULL;
		run->slot = s;
		net->slots[s].busy = true;
	}
	pthread_mutex_unlock(&w->lock);
	return run;
}

/* Hand @run, its device part executed, to the finisher. */
static void worker_done(struct nvdla_net_worker *w, struct nvdla_run *run)
{
	pthread_mutex_lock(&w->lock);
	if (w->done_tail)
		w->done_tail->next = run;
	else
		w->done_head = run;
	w->done_tail = run;
	pthread_cond_signal(&w->done_cond);
	pthread_mutex_unlock(&w->lock);
}

static void *worker_main(void *arg)
{
	struct nvdla_network *net = arg;
	struct nvdla_run *run;

	while ((run = worker_next(net))) {
		nvdla_rt_error_to(run->error);
		run->device_status = nvdla_net_execute(net, run);
		nvdla_rt_error_to(NULL);
		worker_done(&net->worker, run);
	}
	return NULL;
}

/* The next run to finish, or NULL once the worker stopped and none is left. */
static struct nvdla_run *finisher_next(struct nvdla_net_worker *w)
{
	struct nvdla_run *run;

	pthread_mutex_lock(&w->lock);
	while (!w->done_head && !w->stopped)
		pthread_cond_wait(&w->done_cond, &w->lock);
	run = w->done_head;
	if (run) {
		w->done_head = run->next;
		if (!w->done_head)
			w->done_tail = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	return run;
}

static void *finisher_main(void *arg)
{
	struct nvdla_network *net = arg;
	struct nvdla_net_worker *w = &net->worker;
	struct nvdla_run *run;
	int status;

	while ((run = finisher_next(w))) {
		nvdla_rt_error_to(run->error);
		status = nvdla_net_complete(net, run);
		nvdla_rt_error_to(NULL);
		/* The network's state first: a waiter woken by the run sees it. */
		pthread_mutex_lock(&w->lock);
		net->status = status;
		net->stats_valid = !status;
		net->slots[run->slot].busy = false;
		w->in_flight--;
		pthread_cond_signal(&w->cond);
		pthread_mutex_unlock(&w->lock);
		nvdla_run_end(run, status);
		nvdla_run_put(run);
	}
	return NULL;
}

/* Start both threads (the worker's lock held). */
static int worker_start(struct nvdla_network *net)
{
	struct nvdla_net_worker *w = &net->worker;
	int ret;

	ret = pthread_create(&w->finisher, NULL, finisher_main, net);
	if (ret)
		return -ret;
	ret = pthread_create(&w->thread, NULL, worker_main, net);
	if (ret) {
		w->stopped = true;
		pthread_cond_signal(&w->done_cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->finisher, NULL);
		pthread_mutex_lock(&w->lock);
		w->stopped = false;
		return -ret;
	}
	w->started = true;
	return 0;
}

int nvdla_net_worker_queue(struct nvdla_network *net, struct nvdla_run *run)
{
	struct nvdla_net_worker *w = &net->worker;
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	if (!w->started)
		ret = worker_start(net);
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
		return nvdla_rt_error(net->rt, ret, "cannot start the run threads: %s",
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
	if (w->started) {
		pthread_join(w->thread, NULL);
		pthread_mutex_lock(&w->lock);
		w->stopped = true;
		pthread_cond_signal(&w->done_cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->finisher, NULL);
	}
	/* After the runs that started: runs end in order. */
	for (; run; run = next) {
		next = run->next;
		snprintf(run->error, sizeof(run->error),
			 "cancelled: its network was unloaded before it started");
		nvdla_run_end(run, -ECANCELED);
		nvdla_run_put(run);
	}
	pthread_cond_destroy(&w->done_cond);
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
