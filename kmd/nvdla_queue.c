// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The device's job queue. Jobs of every file wait in one list, in
 * submission order, and the engine runs one at a time. Work items on one
 * ordered workqueue start and end jobs, so that they never race each
 * other: "run" starts the first job once its in-fences have signalled,
 * "done" ends it when the firmware reports the task complete or failed,
 * "timeout" ends it when it overran the job timeout, resetting the engine,
 * and "cancel" ends every job when the device goes away.
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

/* The first queued job, NULL if none or while paused for system sleep. */
static struct nvdla_job *nvdla_queue_first(struct nvdla_device *ndev)
{
	struct nvdla_job *job = NULL;

	spin_lock(&ndev->queue_lock);
	if (!ndev->paused)
		job = list_first_entry_or_null(&ndev->queue, struct nvdla_job,
					       node);
	spin_unlock(&ndev->queue_lock);
	return job;
}

static void nvdla_queue_remove(struct nvdla_device *ndev,
			       struct nvdla_job *job)
{
	spin_lock(&ndev->queue_lock);
	list_del(&job->node);
	spin_unlock(&ndev->queue_lock);
}

/* Count a job that ended with @status after @busy_ns on the engine. */
static void nvdla_queue_count(struct nvdla_device *ndev, int status,
			      u64 busy_ns)
{
	spin_lock(&ndev->queue_lock);
	ndev->stats.busy_ns += busy_ns;
	if (!status)
		ndev->stats.completed++;
	else if (status == -ETIMEDOUT)
		ndev->stats.timed_out++;
	else
		ndev->stats.failed++;
	spin_unlock(&ndev->queue_lock);
}

/* End a job that never reached the engine. */
static void nvdla_queue_drop(struct nvdla_device *ndev, struct nvdla_job *job,
			     int status)
{
	drm_dbg_driver(&ndev->drm, "job %llu ends unrun: %d\n",
		       job->done->seqno, status);
	nvdla_queue_count(ndev, status, 0);
	nvdla_job_end(job, status);
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

	while (!ndev->job && (job = nvdla_queue_first(ndev))) {
		if (READ_ONCE(job->file->closed) && !job->error)
			job->error = -ECANCELED;
		if (!job->error && !nvdla_queue_deps_ready(job))
			return;
		nvdla_queue_disarm(job);
		nvdla_queue_remove(ndev, job);
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

/*
 * Take the job off the engine, finished or not, and end it: with its own
 * status if the firmware finished it, else with @reason. After a failure
 * the engine is reset: its operations may still be running. Firmware
 * codes are errnos already; any other is an I/O error.
 */
static void nvdla_queue_retire(struct nvdla_device *ndev, int reason)
{
	struct nvdla_job *job = ndev->job;
	unsigned long flags;
	int status;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	status = ndev->job_done ? ndev->job_status : reason;
	status = nvdla_sim_dev_job_stop(ndev, status);
	dla_clear_task(ndev->engine);
	ndev->job = NULL;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (status)
		nvdla_power_reset(ndev);
	nvdla_power_put(ndev);
	wake_up(&ndev->idle_wq);

	if (status && status != -EINVAL && status != -ETIMEDOUT &&
	    status != -ECANCELED)
		status = -EIO;
	nvdla_queue_count(ndev, status, ktime_get_ns() - job->start_ns);
	drm_dbg_driver(&ndev->drm, "job %llu done: %d\n", job->done->seqno,
		       status);
	nvdla_job_end(job, status);
	nvdla_queue_kick(ndev);
}

static void nvdla_queue_done(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 done_work);
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	done = ndev->job && ndev->job_done;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (done) {
		cancel_delayed_work(&ndev->timeout_work);
		nvdla_queue_retire(ndev, 0);
	}
}

static void nvdla_queue_timeout(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(to_delayed_work(work),
						 struct nvdla_device,
						 timeout_work);
	struct nvdla_job *job = ndev->job;

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
	nvdla_queue_retire(ndev, -ETIMEDOUT);
}

static void nvdla_queue_cancel(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 cancel_work);
	struct nvdla_job *job;

	cancel_delayed_work(&ndev->timeout_work);
	if (ndev->job)
		nvdla_queue_retire(ndev, -ECANCELED);
	spin_lock(&ndev->queue_lock);
	ndev->paused = false;
	spin_unlock(&ndev->queue_lock);
	while ((job = nvdla_queue_first(ndev))) {
		nvdla_queue_disarm(job);
		nvdla_queue_remove(ndev, job);
		nvdla_queue_drop(ndev, job, -ECANCELED);
	}
}

void nvdla_queue_push(struct nvdla_device *ndev, struct nvdla_job *job)
{
	lockdep_assert_held(&ndev->submit_lock);
	spin_lock(&ndev->queue_lock);
	list_add_tail(&job->node, &ndev->queue);
	ndev->stats.submitted++;
	spin_unlock(&ndev->queue_lock);
	drm_dbg_driver(&ndev->drm, "job %llu queued\n", job->done->seqno);
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
	INIT_LIST_HEAD(&ndev->queue);
	init_waitqueue_head(&ndev->idle_wq);
	INIT_WORK(&ndev->run_work, nvdla_queue_run);
	INIT_WORK(&ndev->done_work, nvdla_queue_done);
	INIT_DELAYED_WORK(&ndev->timeout_work, nvdla_queue_timeout);
	INIT_WORK(&ndev->cancel_work, nvdla_queue_cancel);
	ndev->fence_context = dma_fence_context_alloc(1);
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

/*
 * After drm_dev_unplug(): no ioctl queues jobs any more. End the ones
 * left, in order, from the queue's own workqueue.
 */
void nvdla_queue_fini(struct nvdla_device *ndev)
{
	mutex_lock(&ndev->submit_lock);
	ndev->unplugged = true;
	mutex_unlock(&ndev->submit_lock);
	queue_work(ndev->wq, &ndev->cancel_work);
	flush_workqueue(ndev->wq);
	cancel_delayed_work_sync(&ndev->timeout_work);
}
