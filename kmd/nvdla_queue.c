// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The device's job queues. Each file's jobs wait in a queue of its own, in
 * submission order; the engine runs one job at a time, taking the files in
 * turn (round robin), so that a file whose next job waits for an in-fence,
 * or that queued many jobs, holds back only itself. Work items on one
 * ordered workqueue start and end jobs, so that they never race each
 * other: "run" starts the next job whose in-fences have signalled, "done"
 * ends it when the firmware reports the task complete or failed,
 * "timeout" ends it when it overran the job timeout, "reap" ends the
 * queued jobs of a closed file at once, and "cancel" ends every job when
 * the device goes away. After a job that did not complete
 * the engine is reset and found idle before the job's buffers are let go;
 * if that cannot be done the device is wedged.
 */
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include <nvdla/firmware.h>

#include "nvdla_drv.h"
#include "nvdla_file.h"
#include "nvdla_job.h"
#include "nvdla_power.h"
#include "nvdla_queue.h"
#include "nvdla_sim_dev.h"

static unsigned int job_timeout_ms = 5000;
module_param(job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "Time a job may run before it is stopped and the engine reset, unless its submission sets another (ms, default 5000)");

/*
 * A job holds the engine while it runs: the longest a submission may ask
 * for bounds how long one file can keep every other file's jobs waiting.
 */
static unsigned int max_job_timeout_ms = 60000;
module_param(max_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(max_job_timeout_ms,
		 "Longest time limit a submission may set (ms, default 60000)");

u32 nvdla_queue_max_timeout_ms(void)
{
	return READ_ONCE(max_job_timeout_ms);
}

static unsigned int max_queued_jobs = 128;
module_param(max_queued_jobs, uint, 0644);
MODULE_PARM_DESC(max_queued_jobs,
		 "Jobs a file may have queued or running; more are refused with EBUSY (default 128)");

static void nvdla_queue_kick(struct nvdla_device *ndev)
{
	queue_work(ndev->wq, &ndev->run_work);
}

static void nvdla_queue_dep_signalled(struct dma_fence *fence,
				      struct dma_fence_cb *cb)
{
	struct nvdla_job *job = container_of(cb, struct nvdla_job, dep_cb);

	nvdla_queue_kick(job->ndev);
}

static void nvdla_queue_disarm(struct nvdla_job *job)
{
	if (job->dep_armed)
		dma_fence_remove_callback(job->deps[job->next_dep], &job->dep_cb);
	job->dep_armed = false;
}

/*
 * Whether every in-fence of @job has signalled; if not, a callback on the
 * first one that has not runs the queue again. Sets @job->error to the
 * first in-fence error.
 */
static bool nvdla_queue_deps_ready(struct nvdla_job *job)
{
	struct dma_fence *dep;

	nvdla_queue_disarm(job);
	for (; job->next_dep < job->num_deps; job->next_dep++) {
		dep = job->deps[job->next_dep];
		if (!dma_fence_add_callback(dep, &job->dep_cb,
					    nvdla_queue_dep_signalled)) {
			job->dep_armed = true;
			return false;
		}
		if (dep->error && !job->error)
			job->error = dep->error;
	}
	return true;
}

/* Why a queued job of @nfile must end unrun, or 0; under queue_lock. */
static int nvdla_queue_refusal(struct nvdla_device *ndev,
			       struct nvdla_file *nfile)
{
	if (READ_ONCE(ndev->unplugged) || nfile->closed)
		return -ECANCELED;
	return ndev->wedged ? -EIO : 0;
}

/*
 * The next job to end or start: the first job of the first file, in round
 * robin order, that must end unrun (its file closed, an in-fence failed,
 * the device wedged or going away) or whose in-fences have all signalled.
 * It leaves its file's queue, and the file goes to the back of the round
 * robin, stamped as served last. NULL if there is none, or while paused
 * for system sleep.
 */
static struct nvdla_job *nvdla_queue_next(struct nvdla_device *ndev)
{
	struct nvdla_file *nfile;
	struct nvdla_job *job;

	spin_lock(&ndev->queue_lock);
	if (ndev->paused)
		goto none;
	list_for_each_entry(nfile, &ndev->files, node) {
		job = list_first_entry(&nfile->queue, struct nvdla_job, node);
		if (!job->error)
			job->error = nvdla_queue_refusal(ndev, nfile);
		if (job->error || nvdla_queue_deps_ready(job))
			goto found;
	}
none:
	spin_unlock(&ndev->queue_lock);
	return NULL;

found:
	nvdla_queue_disarm(job);
	list_del(&job->node);
	list_del_init(&nfile->node);
	nfile->served = ++ndev->served_seq;
	if (!list_empty(&nfile->queue))
		list_add_tail(&nfile->node, &ndev->files);
	spin_unlock(&ndev->queue_lock);
	return job;
}

/*
 * A job ended with @status after @busy_ns on the engine: count it, signal
 * its fence, and free it; unless @pin, when the engine could not be
 * stopped after it: it then keeps its buffers until the engine is reset.
 */
static void nvdla_queue_end(struct nvdla_device *ndev, struct nvdla_job *job,
			    int status, u64 busy_ns, bool pin)
{
	spin_lock(&ndev->queue_lock);
	job->file->queued--;
	ndev->stats.busy_ns += busy_ns;
	if (!status)
		ndev->stats.completed++;
	else if (status == -ETIMEDOUT)
		ndev->stats.timed_out++;
	else
		ndev->stats.failed++;
	spin_unlock(&ndev->queue_lock);
	nvdla_job_signal(job, status);
	if (pin)
		list_add_tail(&job->node, &ndev->pinned);
	else
		nvdla_job_free(job);
}

/* End a job that never reached the engine. */
static void nvdla_queue_drop(struct nvdla_device *ndev, struct nvdla_job *job,
			     int status)
{
	bool cookie = dma_fence_begin_signalling();

	drm_dbg_driver(&ndev->drm, "job %llu ends unrun: %d\n",
		       job->done->seqno, status);
	nvdla_queue_end(ndev, job, status, 0, false);
	dma_fence_end_signalling(cookie);
}

/* Power the engine and start the job on it; it stays powered until retired. */
static int nvdla_queue_start(struct nvdla_device *ndev, struct nvdla_job *job)
{
	unsigned long flags;
	int ret;

	ret = nvdla_power_get(ndev);
	if (ret)
		return ret;
	spin_lock_irqsave(&ndev->engine_lock, flags);
	ndev->job = job;
	ndev->job_done = false;
	ndev->job_status = 0;
	nvdla_sim_dev_job_start(ndev);
	ret = dla_execute_task(ndev->engine, job->checked);
	if (ret) {
		dla_clear_task(ndev->engine);
		ndev->job = NULL;
	}
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (ret)
		nvdla_power_put(ndev);
	return ret;
}

static void nvdla_queue_run(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 run_work);
	unsigned long timeout;
	struct nvdla_job *job;
	int ret;

	while (!ndev->job && (job = nvdla_queue_next(ndev))) {
		if (job->error) {
			nvdla_queue_drop(ndev, job, job->error);
			continue;
		}
		job->start_ns = ktime_get_ns();
		timeout = msecs_to_jiffies(job->timeout_ms ?:
					   READ_ONCE(job_timeout_ms));
		job->deadline = jiffies + timeout;
		ret = nvdla_queue_start(ndev, job);
		if (ret) {
			nvdla_queue_drop(ndev, job, ret);
			continue;
		}
		drm_dbg_driver(&ndev->drm, "job %llu started\n",
			       job->done->seqno);
		mod_delayed_work(ndev->wq, &ndev->timeout_work, timeout);
	}
}

static void nvdla_queue_wedge(struct nvdla_device *ndev, int err)
{
	drm_err(&ndev->drm,
		"engine not reset after a failed job (%d): device wedged, jobs fail with -EIO until it is recovered (debugfs \"wedged\") or unbound\n",
		err);
	spin_lock(&ndev->queue_lock);
	ndev->wedged = true;
	spin_unlock(&ndev->queue_lock);
}

/*
 * Take the job off the engine, finished or not, and end it: with its own
 * status if the firmware finished it in time, else with @reason. After a
 * failure the engine is reset and found idle, since its operations may
 * still be running; if that fails the device is wedged and the job's
 * buffers stay pinned. Firmware codes are errnos already; any other is an
 * I/O error.
 */
static void nvdla_queue_retire(struct nvdla_device *ndev, int reason)
{
	struct nvdla_job *job = ndev->job;
	unsigned long flags;
	int status, ret = 0;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	status = ndev->job_done ? ndev->job_status : reason;
	status = nvdla_sim_dev_job_stop(ndev, status);
	dla_clear_task(ndev->engine);
	ndev->job = NULL;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	/* Done, but only once the timeout work could not run in time. */
	if (!status && time_after_eq(jiffies, job->deadline))
		status = -ETIMEDOUT;
	if (status) {
		ret = nvdla_power_reset(ndev);
		if (ret)
			nvdla_queue_wedge(ndev, ret);
	}
	nvdla_power_put(ndev);
	wake_up(&ndev->idle_wq);

	if (status && status != -EINVAL && status != -ETIMEDOUT &&
	    status != -ECANCELED)
		status = -EIO;
	drm_dbg_driver(&ndev->drm, "job %llu done: %d\n", job->done->seqno,
		       status);
	nvdla_queue_end(ndev, job, status, ktime_get_ns() - job->start_ns,
			ret);
	nvdla_queue_kick(ndev);
}

static void nvdla_queue_done(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 done_work);
	unsigned long flags;
	bool done;

	bool cookie;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	done = ndev->job && ndev->job_done;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (done) {
		cookie = dma_fence_begin_signalling();
		cancel_delayed_work(&ndev->timeout_work);
		nvdla_queue_retire(ndev, 0);
		dma_fence_end_signalling(cookie);
	}
}

static void nvdla_queue_timeout(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(to_delayed_work(work),
						 struct nvdla_device,
						 timeout_work);
	struct nvdla_job *job = ndev->job;
	bool cookie;

	if (!job)
		return;
	if (time_before(jiffies, job->deadline)) {
		mod_delayed_work(ndev->wq, &ndev->timeout_work,
				 job->deadline - jiffies);
		return;
	}
	drm_err_ratelimited(&ndev->drm,
			    "job %llu ran past the job timeout, resetting the engine\n",
			    job->done->seqno);
	cookie = dma_fence_begin_signalling();
	nvdla_queue_retire(ndev, -ETIMEDOUT);
	dma_fence_end_signalling(cookie);
}

static void nvdla_queue_cancel(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 cancel_work);
	struct nvdla_job *job;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	cancel_delayed_work(&ndev->timeout_work);
	if (ndev->job)
		nvdla_queue_retire(ndev, -ECANCELED);
	spin_lock(&ndev->queue_lock);
	ndev->paused = false;
	spin_unlock(&ndev->queue_lock);
	/* Unplugged: every job left ends unrun. */
	while ((job = nvdla_queue_next(ndev)))
		nvdla_queue_drop(ndev, job, job->error);
	dma_fence_end_signalling(cookie);
}

/*
 * A file whose queue was empty joins the round robin before every file
 * served after it: one that has waited never goes behind one that just
 * ran, so however many files flood the device, a job of a file that has
 * not run since waits for the job on the engine and for files that have
 * waited longer, not for a turn of each flooding file.
 */
static void nvdla_queue_enter(struct nvdla_device *ndev,
			      struct nvdla_file *nfile)
{
	struct nvdla_file *pos;

	lockdep_assert_held(&ndev->queue_lock);
	list_for_each_entry(pos, &ndev->files, node)
		if (pos->served > nfile->served)
			break;
	list_add_tail(&nfile->node, &pos->node);
}

/* Put a job back at the end of its file's queue. */
static void nvdla_queue_requeue(struct nvdla_device *ndev,
				struct nvdla_job *job)
{
	struct nvdla_file *nfile = job->file;

	spin_lock(&ndev->queue_lock);
	if (list_empty(&nfile->queue))
		nvdla_queue_enter(ndev, nfile);
	list_add_tail(&job->node, &nfile->queue);
	spin_unlock(&ndev->queue_lock);
}

/*
 * The queued jobs of closed files end unrun at once, without waiting for
 * the engine, and let go of their task copies, buffers and in-fences.
 * Their fences signal in the file's order: if the file has the job on the
 * engine, which keeps its own buffers until it ends, they signal after
 * it, waiting stripped in their queue until the queue reaches them.
 */
static void nvdla_queue_reap(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 reap_work);
	struct nvdla_file *nfile, *next_file;
	struct nvdla_job *job, *next;
	LIST_HEAD(reaped);
	bool cookie;

	spin_lock(&ndev->queue_lock);
	list_for_each_entry_safe(nfile, next_file, &ndev->files, node) {
		if (!nfile->closed)
			continue;
		list_for_each_entry(job, &nfile->queue, node) {
			nvdla_queue_disarm(job);
			job->error = -ECANCELED;
		}
		list_splice_tail_init(&nfile->queue, &reaped);
		list_del_init(&nfile->node);
	}
	spin_unlock(&ndev->queue_lock);

	list_for_each_entry(job, &reaped, node)
		nvdla_job_strip(job);
	cookie = dma_fence_begin_signalling();
	list_for_each_entry_safe(job, next, &reaped, node) {
		list_del(&job->node);
		if (ndev->job && ndev->job->file == job->file)
			nvdla_queue_requeue(ndev, job);
		else
			nvdla_queue_drop(ndev, job, job->error);
	}
	dma_fence_end_signalling(cookie);
}

/**
 * nvdla_queue_close() - a file of the device was closed
 * @ndev: the device
 * @nfile: the file
 *
 * Its queued jobs end unrun (-ECANCELED) and let go of what they hold at
 * once, from the queue's workqueue; a job of it on the engine runs on.
 */
void nvdla_queue_close(struct nvdla_device *ndev, struct nvdla_file *nfile)
{
	spin_lock(&ndev->queue_lock);
	nfile->closed = true;
	spin_unlock(&ndev->queue_lock);
	queue_work(ndev->wq, &ndev->reap_work);
}

/**
 * nvdla_queue_admit() - whether @nfile may queue one more job
 * @ndev: the device
 * @nfile: the submitting file
 *
 * Under the submit lock, which nvdla_queue_push() must follow.
 *
 * Return: 0; -ENODEV once the device is going away; -EIO while it is
 * wedged; -EBUSY when the file has max_queued_jobs queued or running.
 */
int nvdla_queue_admit(struct nvdla_device *ndev, struct nvdla_file *nfile)
{
	int ret = 0;

	lockdep_assert_held(&ndev->submit_lock);
	if (ndev->unplugged)
		return -ENODEV;
	spin_lock(&ndev->queue_lock);
	if (ndev->wedged)
		ret = -EIO;
	else if (nfile->queued >= READ_ONCE(max_queued_jobs))
		ret = -EBUSY;
	spin_unlock(&ndev->queue_lock);
	if (ret)
		drm_dbg_driver(&ndev->drm, "job refused: %d\n", ret);
	return ret;
}

void nvdla_queue_push(struct nvdla_device *ndev, struct nvdla_job *job)
{
	struct nvdla_file *nfile = job->file;

	lockdep_assert_held(&ndev->submit_lock);
	/* Once on the queue, the job may end at any time. */
	drm_dbg_driver(&ndev->drm, "job %llu queued\n", job->done->seqno);
	spin_lock(&ndev->queue_lock);
	if (list_empty(&nfile->queue))
		nvdla_queue_enter(ndev, nfile);
	list_add_tail(&job->node, &nfile->queue);
	nfile->queued++;
	ndev->stats.submitted++;
	spin_unlock(&ndev->queue_lock);
	nvdla_queue_kick(ndev);
}

/* The interrupt that let the job on: its latency to the next layer. */
static void nvdla_queue_time_irq(struct nvdla_device *ndev)
{
	struct nvdla_file *nfile = ndev->job->file;

	atomic64_add(ktime_get_ns() - ndev->irq_ns, &nfile->irq_to_next_ns);
	atomic64_inc(&nfile->irqs_to_next);
}

void nvdla_queue_irq(struct nvdla_device *ndev)
{
	unsigned long flags;
	bool complete = false, done = false;
	int ret;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	if (ndev->job && !ndev->job_done) {
		ret = dla_process_events(ndev->engine, &complete);
		if (ret || complete) {
			ndev->job_status = ret;
			ndev->job_done = true;
			done = true;
		} else if (ndev->irq_ns) {
			nvdla_queue_time_irq(ndev);
		}
	}
	ndev->irq_ns = 0;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (done)
		queue_work(ndev->wq, &ndev->done_work);
}

static void nvdla_queue_release(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

int nvdla_queue_init(struct nvdla_device *ndev)
{
	int ret;

	ndev->wq = alloc_ordered_workqueue("nvdla-%s", 0,
					   dev_name(ndev->drm.dev));
	if (!ndev->wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&ndev->drm, nvdla_queue_release,
				       ndev->wq);
	if (ret)
		return ret;
	spin_lock_init(&ndev->queue_lock);
	spin_lock_init(&ndev->fence_lock);
	INIT_LIST_HEAD(&ndev->files);
	INIT_LIST_HEAD(&ndev->pinned);
	init_waitqueue_head(&ndev->idle_wq);
	INIT_WORK(&ndev->run_work, nvdla_queue_run);
	INIT_WORK(&ndev->done_work, nvdla_queue_done);
	INIT_DELAYED_WORK(&ndev->timeout_work, nvdla_queue_timeout);
	INIT_WORK(&ndev->cancel_work, nvdla_queue_cancel);
	INIT_WORK(&ndev->reap_work, nvdla_queue_reap);
	return drmm_mutex_init(&ndev->drm, &ndev->submit_lock);
}

/*
 * System sleep: start no job, and let the one on the engine end (the job
 * timeout bounds the wait), so that powering down loses no work.
 */
void nvdla_queue_pause(struct nvdla_device *ndev)
{
	spin_lock(&ndev->queue_lock);
	ndev->paused = true;
	spin_unlock(&ndev->queue_lock);
	flush_work(&ndev->run_work);
	wait_event(ndev->idle_wq, !READ_ONCE(ndev->job));
}

void nvdla_queue_unpause(struct nvdla_device *ndev)
{
	spin_lock(&ndev->queue_lock);
	ndev->paused = false;
	spin_unlock(&ndev->queue_lock);
	nvdla_queue_kick(ndev);
}

/* Let go of the buffers of jobs pinned while the engine could not be reset. */
static void nvdla_queue_free_pinned(struct nvdla_device *ndev)
{
	struct nvdla_job *job, *next;

	list_for_each_entry_safe(job, next, &ndev->pinned, node) {
		list_del(&job->node);
		nvdla_job_free(job);
	}
}

/**
 * nvdla_queue_unwedge() - reset a wedged device's engine and resume it
 * @ndev: the device
 *
 * For debugfs: once the reset (and the check that the engine is idle)
 * succeeds, the pinned buffers are let go and jobs run again.
 *
 * Return: 0 (also when it was not wedged); the reset's error, the device
 * staying wedged; -ENODEV once the device is going away.
 */
int nvdla_queue_unwedge(struct nvdla_device *ndev)
{
	int ret;

	mutex_lock(&ndev->submit_lock);
	/* Wedged, the workqueue touches neither the engine nor @pinned. */
	flush_workqueue(ndev->wq);
	ret = ndev->unplugged ? -ENODEV : 0;
	if (ret || !READ_ONCE(ndev->wedged))
		goto out;
	ret = nvdla_power_get(ndev);
	if (ret)
		goto out;
	ret = nvdla_power_reset(ndev);
	nvdla_power_put(ndev);
	if (ret)
		goto out;
	nvdla_queue_free_pinned(ndev);
	spin_lock(&ndev->queue_lock);
	ndev->wedged = false;
	spin_unlock(&ndev->queue_lock);
	drm_info(&ndev->drm, "engine reset, device no longer wedged\n");
	nvdla_queue_kick(ndev);
out:
	mutex_unlock(&ndev->submit_lock);
	return ret;
}

/* After unbind has switched the device off (a devm action of probe). */
void nvdla_queue_release_pinned(void *data)
{
	nvdla_queue_free_pinned(data);
}

/*
 * After drm_dev_unplug(): no ioctl queues jobs any more. End the ones
 * left, in order, from the queue's own workqueue.
 */
void nvdla_queue_fini(struct nvdla_device *ndev)
{
	mutex_lock(&ndev->submit_lock);
	WRITE_ONCE(ndev->unplugged, true);
	mutex_unlock(&ndev->submit_lock);
	queue_work(ndev->wq, &ndev->cancel_work);
	flush_workqueue(ndev->wq);
	cancel_delayed_work_sync(&ndev->timeout_work);
}
