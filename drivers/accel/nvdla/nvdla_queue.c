// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The device's job queues, on the kernel's GPU scheduler (drm_sched): one
 * scheduler per device with one credit, as the engine runs one job at a
 * time, and one entity per open file. A job's in-fences are its
 * scheduler dependencies; run_job starts it on the engine and returns its
 * hardware fence, which the completion interrupt's bottom half (or the
 * timeout handler, or unplugging) signals once the job is off the engine.
 *
 * Each file gives its entity one job at a time (its "released" job): the
 * next is held here until that one ended. So the scheduler chooses among
 * files, not among a flood of one file's jobs, and the priority of each
 * released job says whether its file has waited: a file whose previous
 * job just ended releases the next at normal priority; a file that had
 * nothing queued releases its job at high priority when it started no job
 * since any file waiting at normal priority last did. A file that waited
 * thus goes before files that just ran, however many flood the device,
 * and no file is overtaken for ever: once it waits, each other file gets
 * at most one job in before it.
 *
 * drm_sched has one timeout per scheduler; each job has a time limit of
 * its own. The scheduler's timeout is a short tick, and the timeout
 * handler puts back a job whose own deadline has not passed. After a job
 * that did not complete the engine is reset and found idle before the
 * job's buffers are let go; if that cannot be done the device is wedged.
 */
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#include <nvdla/firmware.h>

#include "nvdla_drv.h"
#include "nvdla_fence.h"
#include "nvdla_file.h"
#include "nvdla_job.h"
#include "nvdla_power.h"
#include "nvdla_queue.h"

/*
 * How often the scheduler's timeout handler looks at the job on the
 * engine: the most a job overruns its own time limit by.
 */
#define NVDLA_QUEUE_TICK_MS 20

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

/**
 * nvdla_queue_job_init() - make @job a scheduler job of its file's entity
 * @job: a job being made
 * @file: the submitting DRM file
 *
 * Return: 0; -ENOMEM; -ENOENT if the entity has no scheduler.
 */
int nvdla_queue_job_init(struct nvdla_job *job, struct drm_file *file)
{
	return drm_sched_job_init(&job->base, &job->file->entity, 1, job->file,
				  file->client_id);
}

/* Why a job of @nfile must end unrun, or 0; under queue_lock. */
static int nvdla_queue_refusal(struct nvdla_device *ndev,
			       struct nvdla_file *nfile)
{
	if (READ_ONCE(ndev->unplugged) || nfile->closed)
		return -ECANCELED;
	return ndev->wedged ? -EIO : 0;
}

/* The first error of @job's in-fences, all signalled, or 0. */
static int nvdla_queue_dep_error(struct nvdla_job *job)
{
	int ret;
	u32 i;

	for (i = 0; i < job->num_deps; i++) {
		ret = dma_fence_get_status(job->deps[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Whether @nfile, which had nothing queued, started no job since any file
 * whose released job waits at normal priority last did; under queue_lock.
 */
static bool nvdla_queue_waited(struct nvdla_device *ndev,
			       struct nvdla_file *nfile)
{
	struct nvdla_file *pos;

	lockdep_assert_held(&ndev->queue_lock);
	list_for_each_entry(pos, &ndev->waiting, node)
		if (!pos->high && pos->served <= nfile->served)
			return false;
	return true;
}

/* @job becomes the job @nfile has on the scheduler; under queue_lock. */
static void nvdla_queue_set_released(struct nvdla_device *ndev,
				     struct nvdla_file *nfile,
				     struct nvdla_job *job, bool high)
{
	lockdep_assert_held(&ndev->queue_lock);
	nfile->released = job;
	nfile->high = high;
	list_add_tail(&nfile->node, &ndev->waiting);
}

/*
 * A job ended with @status after @busy_ns on the engine: count it, signal
 * its fence, and let go of what it holds; unless @pin, when the engine
 * could not be stopped after it: it then keeps its buffers until the
 * engine is reset. Its hardware fence signals last: the scheduler may
 * free the job from then on.
 */
static void nvdla_queue_end(struct nvdla_device *ndev, struct nvdla_job *job,
			    int status, u64 busy_ns, bool pin)
{
	struct nvdla_file *nfile = job->file;

	spin_lock(&ndev->queue_lock);
	nfile->queued--;
	if (nfile->released == job) {
		nfile->released = NULL;
		list_del_init(&nfile->node);
	}
	ndev->stats.busy_ns += busy_ns;
	if (!status)
		ndev->stats.completed++;
	else if (status == -ETIMEDOUT)
		ndev->stats.timed_out++;
	else
		ndev->stats.failed++;
	spin_unlock(&ndev->queue_lock);
	nvdla_job_signal(job, status);
	if (pin) {
		kref_get(&job->ref);
		list_add_tail(&job->node, &ndev->pinned);
	} else {
		nvdla_job_strip(job);
	}
	if (job->hw->ops) {
		if (status)
			dma_fence_set_error(job->hw, status);
		dma_fence_signal(job->hw);
	}
}

/* End held jobs (never released to the scheduler) unrun, in order. */
static void nvdla_queue_cancel_held(struct nvdla_device *ndev,
				    struct list_head *held)
{
	struct nvdla_job *job, *next;

	list_for_each_entry_safe(job, next, held, node) {
		list_del(&job->node);
		drm_dbg_driver(&ndev->drm, "job %llu ends unrun: %d\n",
			       job->done->seqno, -ECANCELED);
		nvdla_queue_end(ndev, job, -ECANCELED, 0, false);
		nvdla_job_put(job);
	}
}

static void nvdla_queue_next(struct nvdla_device *ndev,
			     struct nvdla_file *nfile);

/*
 * Give @job, which its file has just made its released job, to the
 * file's entity, at the priority chosen for it; the entity takes the run
 * queue of that priority when the job is armed. Once the entity is torn
 * down, the job ends unrun instead.
 */
static void nvdla_queue_release(struct nvdla_device *ndev,
				struct nvdla_job *job)
{
	struct nvdla_file *nfile = job->file;
	bool pushed = false;

	mutex_lock(&nfile->sched_lock);
	if (!nfile->killed) {
		drm_sched_entity_set_priority(&nfile->entity,
					      READ_ONCE(nfile->high) ?
					      DRM_SCHED_PRIORITY_HIGH :
					      DRM_SCHED_PRIORITY_NORMAL);
		drm_sched_entity_modify_sched(&nfile->entity, ndev->scheds, 1);
		drm_sched_job_arm(&job->base);
		drm_sched_entity_push_job(&job->base);
		pushed = true;
	}
	mutex_unlock(&nfile->sched_lock);
	if (pushed)
		return;
	/* The job's reference to its file may be the last. */
	nvdla_file_get(nfile);
	nvdla_queue_end(ndev, job, -ECANCELED, 0, false);
	nvdla_job_put(job);
	nvdla_queue_next(ndev, nfile);
	nvdla_file_put(nfile);
}

/*
 * The job @nfile had on the scheduler ended: release its next held job,
 * at normal priority since the file just ran; or, once the file is closed
 * or the device is going away, end every held job unrun, in order.
 */
static void nvdla_queue_next(struct nvdla_device *ndev,
			     struct nvdla_file *nfile)
{
	struct nvdla_job *job = NULL;
	LIST_HEAD(held);

	spin_lock(&ndev->queue_lock);
	if (nfile->released) {
		spin_unlock(&ndev->queue_lock);
		return;
	}
	if (nfile->closed || READ_ONCE(ndev->unplugged)) {
		list_splice_init(&nfile->queue, &held);
	} else if (!list_empty(&nfile->queue)) {
		job = list_first_entry(&nfile->queue, struct nvdla_job, node);
		list_del(&job->node);
		nvdla_queue_set_released(ndev, nfile, job, false);
	}
	spin_unlock(&ndev->queue_lock);
	nvdla_queue_cancel_held(ndev, &held);
	if (job)
		nvdla_queue_release(ndev, job);
}

/*
 * A released job ended: with @status, after @busy_ns on the engine; then
 * its file's next job goes to the scheduler.
 */
static void nvdla_queue_ended(struct nvdla_device *ndev,
			      struct nvdla_job *job, int status, u64 busy_ns,
			      bool pin)
{
	/* The job may be freed once ended: its file stays for the next. */
	struct nvdla_file *nfile = nvdla_file_get(job->file);

	nvdla_queue_end(ndev, job, status, busy_ns, pin);
	nvdla_queue_next(ndev, nfile);
	nvdla_file_put(nfile);
}

/* End a released job that never reached the engine. */
static void nvdla_queue_drop(struct nvdla_device *ndev, struct nvdla_job *job,
			     int status)
{
	bool cookie = dma_fence_begin_signalling();

	drm_dbg_driver(&ndev->drm, "job %llu ends unrun: %d\n",
		       job->done->seqno, status);
	nvdla_queue_ended(ndev, job, status, 0, false);
	dma_fence_end_signalling(cookie);
}

/*
 * Power the engine and start the job on it, its hardware fence on the
 * engine's timeline; it stays powered until retired.
 */
static int nvdla_queue_start(struct nvdla_device *ndev, struct nvdla_job *job)
{
	unsigned long flags;
	int ret;

	ret = nvdla_power_get(ndev);
	if (ret)
		return ret;
	job->start_ns = ktime_get_ns();
	job->deadline = jiffies + msecs_to_jiffies(job->timeout_ms ?:
						   READ_ONCE(job_timeout_ms));
	nvdla_fence_init_hw(ndev, job->hw);
	spin_lock_irqsave(&ndev->engine_lock, flags);
	ndev->job = job;
	ndev->job_done = false;
	ndev->job_status = 0;
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

/*
 * drm_sched's run_job: the job's in-fences have signalled and the engine
 * is free. A job that must not run (its file closed, the device wedged or
 * going away, an in-fence failed) or that cannot start ends here, and
 * the scheduler gets no fence for it.
 */
static struct dma_fence *nvdla_queue_run_job(struct drm_sched_job *sched_job)
{
	struct nvdla_job *job = to_nvdla_job(sched_job);
	struct nvdla_device *ndev = job->ndev;
	struct nvdla_file *nfile = job->file;
	int ret;

	spin_lock(&ndev->queue_lock);
	list_del_init(&nfile->node);
	nfile->served = ++ndev->served_seq;
	ret = nvdla_queue_refusal(ndev, nfile);
	spin_unlock(&ndev->queue_lock);
	if (!ret)
		ret = nvdla_queue_dep_error(job);
	if (!ret)
		ret = nvdla_queue_start(ndev, job);
	if (ret) {
		nvdla_queue_drop(ndev, job, ret);
		return NULL;
	}
	drm_dbg_driver(&ndev->drm, "job %llu started\n", job->done->seqno);
	/* The scheduler's reference; the job keeps its own. */
	return dma_fence_get(job->hw);
}

static void nvdla_queue_wedge(struct nvdla_device *ndev, int err)
{
	drm_err(&ndev->drm,
		"engine not reset (%d): device wedged, jobs fail with -EIO until it is recovered (debugfs \"wedged\") or unbound\n",
		err);
	spin_lock(&ndev->queue_lock);
	ndev->wedged = true;
	spin_unlock(&ndev->queue_lock);
}

/*
 * A job that completed left the CDMA's weight count of a design that only
 * a reset clears (dla_task_needs_reset()). Without a reset line or power
 * domain the count stays: later convolutions may stop, which the job
 * timeout then reports.
 */
static void nvdla_queue_clean(struct nvdla_device *ndev)
{
	int ret = nvdla_power_reset(ndev);

	if (ret == -EOPNOTSUPP)
		drm_warn_once(&ndev->drm,
			      "no engine reset: the CDMA's weight count is not cleared between jobs\n");
	else if (ret)
		nvdla_queue_wedge(ndev, ret);
}

/*
 * Take the job off the engine, finished or not, and end it: with its own
 * status if the firmware finished it in time, else with @reason. After a
 * failure the engine is reset and found idle, since its operations may
 * still be running; if that fails the device is wedged and the job's
 * buffers stay pinned. Firmware codes are errnos already; any other is an
 * I/O error. Runs on the device's ordered workqueue.
 */
static void nvdla_queue_retire(struct nvdla_device *ndev, int reason)
{
	struct nvdla_job *job = ndev->job;
	unsigned long flags;
	int status, ret = 0;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	status = ndev->job_done ? ndev->job_status : reason;
	dla_clear_task(ndev->engine);
	ndev->job = NULL;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	/* Done, but only once the timeout handler could not run in time. */
	if (!status && time_after_eq(jiffies, job->deadline))
		status = -ETIMEDOUT;
	if (status) {
		ret = nvdla_power_reset(ndev);
		if (ret)
			nvdla_queue_wedge(ndev, ret);
	} else if (dla_task_needs_reset(ndev->engine, job->checked)) {
		nvdla_queue_clean(ndev);
	}
	nvdla_power_put(ndev);
	wake_up(&ndev->idle_wq);

	if (status && status != -EINVAL && status != -ETIMEDOUT &&
	    status != -ECANCELED)
		status = -EIO;
	drm_dbg_driver(&ndev->drm, "job %llu done: %d\n", job->done->seqno,
		       status);
	nvdla_queue_ended(ndev, job, status, ktime_get_ns() - job->start_ns,
			  ret);
}

static void nvdla_queue_done(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 done_work);
	unsigned long flags;
	bool done, cookie;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	done = ndev->job && ndev->job_done;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (done) {
		cookie = dma_fence_begin_signalling();
		nvdla_queue_retire(ndev, 0);
		dma_fence_end_signalling(cookie);
	}
}

/*
 * The job the scheduler timed out is not hung (it still has time, or it
 * has ended): it goes back on the scheduler's pending list, before its
 * hardware fence may signal, so that free_job still gets it (the
 * scheduler took it off). Return what timedout_job returns then.
 */
static enum drm_gpu_sched_stat
nvdla_queue_job_not_hung(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/*
 * drm_sched's timedout_job, every tick while a job is on the engine: a job
 * that has ended (its fence signalled, not yet freed) or whose own
 * deadline has not passed goes back to the scheduler's pending list; one
 * past its deadline is stopped, the engine reset. Runs on the device's
 * ordered workqueue, so the job cannot be retired meanwhile.
 */
static enum drm_gpu_sched_stat
nvdla_queue_timedout_job(struct drm_sched_job *sched_job)
{
	struct nvdla_job *job = to_nvdla_job(sched_job);
	struct nvdla_device *ndev = job->ndev;
	enum drm_gpu_sched_stat stat;
	bool cookie;

	if (READ_ONCE(ndev->job) != job || time_before(jiffies, job->deadline))
		return nvdla_queue_job_not_hung(sched_job);
	drm_err_ratelimited(&ndev->drm,
			    "job %llu ran past the job timeout, resetting the engine\n",
			    job->done->seqno);
	/* Back on the list before its fence signals, for free_job. */
	stat = nvdla_queue_job_not_hung(sched_job);
	cookie = dma_fence_begin_signalling();
	nvdla_queue_retire(ndev, -ETIMEDOUT);
	dma_fence_end_signalling(cookie);
	return stat;
}

/*
 * drm_sched's free_job. A job the scheduler dropped unrun, its entity
 * torn down before it ran (its file closed, the device unplugged), has
 * not ended yet: it ends here, with its in-fence's error if one failed.
 */
static void nvdla_queue_free_job(struct drm_sched_job *sched_job)
{
	struct nvdla_job *job = to_nvdla_job(sched_job);
	int status;

	if (!job->ended) {
		status = nvdla_queue_dep_error(job) ?: -ECANCELED;
		nvdla_queue_drop(job->ndev, job, status);
	}
	drm_sched_job_cleanup(sched_job);
	nvdla_job_put(job);
}

static const struct drm_sched_backend_ops nvdla_queue_sched_ops = {
	.run_job = nvdla_queue_run_job,
	.timedout_job = nvdla_queue_timedout_job,
	.free_job = nvdla_queue_free_job,
};

static void nvdla_queue_cancel(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 cancel_work);
	bool cookie;

	cookie = dma_fence_begin_signalling();
	if (ndev->job)
		nvdla_queue_retire(ndev, -ECANCELED);
	dma_fence_end_signalling(cookie);
}

/*
 * Tear @nfile's entity down, once: the job it holds, if it has not
 * started, ends unrun (free_job), without waiting for the engine; a job
 * of the file on the engine runs on. No job is released to it after.
 */
static void nvdla_queue_kill(struct nvdla_file *nfile)
{
	bool kill;

	mutex_lock(&nfile->sched_lock);
	kill = !nfile->killed;
	nfile->killed = true;
	mutex_unlock(&nfile->sched_lock);
	if (kill)
		drm_sched_entity_fini(&nfile->entity);
}

/**
 * nvdla_queue_open() - a file of the device was opened
 * @ndev: the device
 * @nfile: the file
 *
 * Return: 0; -ENOMEM.
 */
int nvdla_queue_open(struct nvdla_device *ndev, struct nvdla_file *nfile)
{
	int ret;

	mutex_init(&nfile->sched_lock);
	INIT_LIST_HEAD(&nfile->queue);
	INIT_LIST_HEAD(&nfile->node);
	ret = drm_sched_entity_init(&nfile->entity, DRM_SCHED_PRIORITY_NORMAL,
				    ndev->scheds, 1, NULL);
	if (ret)
		return ret;
	mutex_lock(&ndev->files_lock);
	list_add_tail(&nfile->open_node, &ndev->open_files);
	mutex_unlock(&ndev->files_lock);
	return 0;
}

/**
 * nvdla_queue_close() - a file of the device was closed
 * @ndev: the device
 * @nfile: the file
 *
 * Its jobs held back behind its released job let go of their task
 * copies, buffers and in-fences at once, and its entity is torn down, so
 * that a released job that has not started ends unrun; a job of it on
 * the engine runs on. All end with -ECANCELED, in order: the held ones
 * after the released one.
 */
void nvdla_queue_close(struct nvdla_device *ndev, struct nvdla_file *nfile)
{
	struct nvdla_job *job;
	LIST_HEAD(held);

	mutex_lock(&ndev->files_lock);
	list_del(&nfile->open_node);
	mutex_unlock(&ndev->files_lock);

	spin_lock(&ndev->queue_lock);
	nfile->closed = true;
	list_splice_init(&nfile->queue, &held);
	spin_unlock(&ndev->queue_lock);
	list_for_each_entry(job, &held, node) {
		nvdla_job_strip(job);
		drm_sched_job_cleanup(&job->base);
	}

	nvdla_queue_kill(nfile);

	/* Behind the released job if it has not ended, else at once. */
	spin_lock(&ndev->queue_lock);
	if (nfile->released)
		list_splice_init(&held, &nfile->queue);
	spin_unlock(&ndev->queue_lock);
	nvdla_queue_cancel_held(ndev, &held);
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

/*
 * Queue @job behind its file's jobs: to the scheduler at once when the
 * file has none there, at high priority if it waited; else held here.
 */
void nvdla_queue_push(struct nvdla_device *ndev, struct nvdla_job *job)
{
	struct nvdla_file *nfile = job->file;
	bool now;

	lockdep_assert_held(&ndev->submit_lock);
	/* Once queued, the job may end at any time. */
	drm_dbg_driver(&ndev->drm, "job %llu queued\n", job->done->seqno);
	spin_lock(&ndev->queue_lock);
	nfile->queued++;
	ndev->stats.submitted++;
	/*
	 * Between the end of its released job and the release of its next,
	 * a file has neither: a job submitted then goes behind the held ones.
	 */
	now = !nfile->released && list_empty(&nfile->queue);
	if (now)
		nvdla_queue_set_released(ndev, nfile, job,
					 nvdla_queue_waited(ndev, nfile));
	else
		list_add_tail(&job->node, &nfile->queue);
	spin_unlock(&ndev->queue_lock);
	if (now)
		nvdla_queue_release(ndev, job);
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

static void nvdla_queue_release_wq(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

/*
 * When the DRM device goes, after its last file: every entity is torn
 * down and every job ended; let the scheduler free the last ones first.
 */
static void nvdla_queue_release_sched(struct drm_device *drm, void *arg)
{
	struct nvdla_device *ndev = arg;

	flush_workqueue(ndev->wq);
	drm_sched_fini(&ndev->sched);
}

int nvdla_queue_init(struct nvdla_device *ndev)
{
	struct device *dev = ndev->drm.dev;
	/* Run queues for every priority: a file that waited is raised. */
	struct drm_sched_init_args args = {
		.ops = &nvdla_queue_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = msecs_to_jiffies(NVDLA_QUEUE_TICK_MS),
		.name = dev_name(dev),
		.dev = dev,
	};
	int ret;

	ndev->wq = alloc_ordered_workqueue("nvdla-%s", 0, dev_name(dev));
	if (!ndev->wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&ndev->drm, nvdla_queue_release_wq,
				       ndev->wq);
	if (ret)
		return ret;
	spin_lock_init(&ndev->queue_lock);
	spin_lock_init(&ndev->fence_lock);
	INIT_LIST_HEAD(&ndev->waiting);
	INIT_LIST_HEAD(&ndev->open_files);
	INIT_LIST_HEAD(&ndev->pinned);
	init_waitqueue_head(&ndev->idle_wq);
	INIT_WORK(&ndev->done_work, nvdla_queue_done);
	INIT_WORK(&ndev->cancel_work, nvdla_queue_cancel);
	ndev->hw_context = dma_fence_context_alloc(1);
	ret = drmm_mutex_init(&ndev->drm, &ndev->submit_lock);
	if (!ret)
		ret = drmm_mutex_init(&ndev->drm, &ndev->files_lock);
	if (ret)
		return ret;

	ndev->scheds[0] = &ndev->sched;
	args.submit_wq = ndev->wq;
	args.timeout_wq = ndev->wq;
	ret = drm_sched_init(&ndev->sched, &args);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&ndev->drm, nvdla_queue_release_sched,
					ndev);
}

/*
 * System sleep: start no job, and let the one on the engine end (the job
 * timeout bounds the wait), so that powering down loses no work.
 */
void nvdla_queue_pause(struct nvdla_device *ndev)
{
	drm_sched_wqueue_stop(&ndev->sched);
	wait_event(ndev->idle_wq, !READ_ONCE(ndev->job));
}

void nvdla_queue_unpause(struct nvdla_device *ndev)
{
	drm_sched_wqueue_start(&ndev->sched);
}

/* Let go of the buffers of jobs pinned while the engine could not be reset. */
static void nvdla_queue_free_pinned(struct nvdla_device *ndev)
{
	struct nvdla_job *job, *next;

	list_for_each_entry_safe(job, next, &ndev->pinned, node) {
		list_del(&job->node);
		nvdla_job_put(job);
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
 * After drm_dev_unplug(): no ioctl queues jobs any more. Every open
 * file's entity is torn down, which ends the jobs that have not started,
 * and the job on the engine is stopped; each file's held jobs end after
 * its released one, in order.
 */
void nvdla_queue_fini(struct nvdla_device *ndev)
{
	struct nvdla_file *nfile;

	mutex_lock(&ndev->submit_lock);
	WRITE_ONCE(ndev->unplugged, true);
	mutex_unlock(&ndev->submit_lock);
	mutex_lock(&ndev->files_lock);
	list_for_each_entry(nfile, &ndev->open_files, open_node)
		nvdla_queue_kill(nfile);
	mutex_unlock(&ndev->files_lock);
	queue_work(ndev->wq, &ndev->cancel_work);
	flush_workqueue(ndev->wq);
}
