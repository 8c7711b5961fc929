// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The thread an NVDLA computes on, so that a layer's work never runs on a
 * vCPU thread or in the main loop, and the lock that serialises the model
 * (which is not thread safe) between that thread and register accesses.
 *
 * The worker holds the lock while it runs the model, for one slice of a
 * layer's work at a time (the model calls nvdla_worker_yield() between
 * slices); a register access therefore waits at most one slice, as on the
 * kernel's virtual device. Mutexes are not fair, so the worker counts who
 * waits and lets them in before it takes the next slice.
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"

#include "nvdla.h"
#undef BIT
#undef ARRAY_SIZE
#include <nvdla/sim.h>

void nvdla_lock(NVDLACore *s)
{
	qatomic_inc(&s->waiters);
	qemu_mutex_lock(&s->lock);
	qatomic_dec(&s->waiters);
}

void nvdla_unlock(NVDLACore *s)
{
	qemu_cond_broadcast(&s->turn);
	qemu_mutex_unlock(&s->lock);
}

/* The model's kick (lock held): it has work. */
void nvdla_worker_kick(void *opaque)
{
	NVDLACore *s = opaque;

	s->pending = true;
	qemu_cond_signal(&s->work);
}

/* Between slices (lock held): let waiters in; true stops the model. */
bool nvdla_worker_yield(void *opaque)
{
	NVDLACore *s = opaque;

	qemu_mutex_unlock(&s->lock);
	qemu_mutex_lock(&s->lock);
	while (qatomic_read(&s->waiters) && !qatomic_read(&s->stop))
		qemu_cond_wait(&s->turn, &s->lock);
	return qatomic_read(&s->stop);
}

/* Lock held: wait until the worker is out of the model. */
void nvdla_worker_wait_idle(NVDLACore *s)
{
	while (s->running)
		qemu_cond_wait(&s->idle, &s->lock);
}

/*
 * Lock held: a layer the model refused (a convolution-buffer limit the
 * chip hangs on, docs/model.md) hangs the model, as it hangs the chip
 * (nvdla_sim_hang_on_hazards()): its done pulses never come, and nothing
 * more runs until reset. Logged, since the chip cannot say why.
 */
static void nvdla_worker_check(NVDLACore *s)
{
	struct nvdla_cbuf_verdict v;
	uint32_t hazards = nvdla_sim_hazards(s->sim, &v);
	char text[NVDLA_CBUF_VERDICT_MAX];

	if (hazards == s->hazards)
		return;
	s->hazards = hazards;
	qemu_log_mask(LOG_GUEST_ERROR,
		      "nvdla: a layer the hardware cannot run, the device stops until reset: %s\n",
		      nvdla_cbuf_verdict_text(text, sizeof(text), &v));
}

static void *nvdla_worker(void *opaque)
{
	NVDLACore *s = opaque;

	qemu_mutex_lock(&s->lock);
	while (!s->quit) {
		if (!s->pending || qatomic_read(&s->stop)) {
			qemu_cond_wait(&s->work, &s->lock);
			continue;
		}
		s->pending = false;
		s->running = true;
		/* The model kicks again when work remains. */
		nvdla_sim_run(s->sim);
		nvdla_worker_check(s);
		s->running = false;
		qemu_cond_broadcast(&s->idle);
		/* The line as the run left it, raised from the main loop. */
		qatomic_set(&s->level, nvdla_sim_irq_level(s->sim));
		qemu_bh_schedule(s->irq_bh);
	}
	qemu_mutex_unlock(&s->lock);
	return NULL;
}

void nvdla_worker_start(NVDLACore *s)
{
	qemu_thread_create(&s->thread, "nvdla", nvdla_worker, s,
			   QEMU_THREAD_JOINABLE);
}

void nvdla_worker_stop(NVDLACore *s)
{
	qatomic_set(&s->stop, true);
	qemu_mutex_lock(&s->lock);
	s->quit = true;
	qemu_cond_signal(&s->work);
	qemu_mutex_unlock(&s->lock);
	qemu_thread_join(&s->thread);
}
