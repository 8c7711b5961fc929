// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Faults inside the QEMU guest, with the virtual devices' fault injection:
 * a job whose completion interrupt is lost times out and the engine is
 * reset, a bus error fails the job, waits with deadlines give up in time,
 * and a process that dies with jobs queued leaves the device working.
 * Every case ends with a job that must work.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

FIXTURE(fault) {
	struct bdma_task t;
	int job_timeout_ms;	/* the module's, put back after each test */
};

FIXTURE_SETUP(fault)
{
	self->job_timeout_ms = param_value("job_timeout_ms");
	ASSERT_LE(0, self->job_timeout_ms);
	ASSERT_EQ(0, bdma_task_open(&self->t))
		TH_LOG("no nvdla device node, or no buffers on it");
}

FIXTURE_TEARDOWN(fault)
{
	set_fault(0);
	set_param("job_timeout_ms", self->job_timeout_ms);
	bdma_task_close(&self->t);
}

/* The device still computes: a fresh copy is right. */
static int works_again(struct bdma_task *t)
{
	memset(t->map[DST], 0, COPY_SIZE);
	return job_run(t) || !bdma_task_copied(t) ? -1 : 0;
}

TEST_F(fault, timeout_then_recovery)
{
	ASSERT_EQ(0, set_param("job_timeout_ms", 300));
	ASSERT_EQ(0, set_fault(1));
	EXPECT_EQ(-ETIMEDOUT, job_run(&self->t));
	ASSERT_EQ(0, set_fault(0));
	EXPECT_EQ(0, works_again(&self->t));
}

/*
 * A failed job on a device without a reset line (nor power domain): the
 * device is wedged, refuses jobs with -EIO, and keeps the job's buffers
 * even once their file is gone, until debugfs "wedged" recovers it.
 */
TEST_F(fault, wedged_without_reset)
{
	long long before, pinned;
	struct bdma_task t;
	uint64_t id;

	before = debugfs_sum("jobs", "buffers");
	ASSERT_GT(before, 0) TH_LOG("no buffer count in debugfs jobs");
	ASSERT_EQ(0, bdma_task_open(&t));
	pinned = debugfs_sum("jobs", "buffers") - before;
	EXPECT_EQ(NUM_ENTRIES * COPY_SIZE, pinned);
	ASSERT_EQ(0, set_fault(2 | 4));
	EXPECT_EQ(-EIO, job_run(&t));
	EXPECT_EQ(1, debugfs_value("wedged"));
	EXPECT_EQ(-EIO, job_submit(&self->t, NULL, 0, 0, &id));
	/* Gone from user space, but the device may still write them. */
	bdma_task_close(&t);
	EXPECT_EQ(before + pinned, debugfs_sum("jobs", "buffers"));
	/* Still no reset: recovery fails and changes nothing. */
	EXPECT_NE(0, debugfs_zero("wedged"));
	EXPECT_EQ(1, debugfs_value("wedged"));
	ASSERT_EQ(0, set_fault(0));
	EXPECT_EQ(0, debugfs_zero("wedged"));
	EXPECT_EQ(0, debugfs_value("wedged"));
	EXPECT_EQ(before, debugfs_sum("jobs", "buffers"));
	EXPECT_EQ(0, works_again(&self->t));
}

/* A job that ends after its deadline timed out, whichever path saw it end. */
TEST_F(fault, late_completion_is_a_timeout)
{
	int i;

	ASSERT_EQ(0, set_param("job_timeout_ms", 0));
	for (i = 0; i < 20; i++)
		EXPECT_EQ(-ETIMEDOUT, job_run(&self->t));
	ASSERT_EQ(0, set_param("job_timeout_ms", self->job_timeout_ms));
	EXPECT_EQ(0, works_again(&self->t));
}

TEST_F(fault, bus_error_then_recovery)
{
	ASSERT_EQ(0, set_fault(2));
	EXPECT_EQ(-EIO, job_run(&self->t));
	ASSERT_EQ(0, set_fault(0));
	EXPECT_EQ(0, works_again(&self->t));
}

/* Waits give up at their deadline, the job goes on; polls do not block. */
TEST_F(fault, wait_deadlines)
{
	struct drm_nvdla_wait w = { 0 };
	struct drm_nvdla_gem_wait gw = { .handle = self->t.handle[DST] };
	uint64_t id;

	ASSERT_EQ(0, set_param("job_timeout_ms", 1000));
	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &id));
	w.job_id = id;
	w.timeout_ns = 0;
	EXPECT_EQ(-ETIMEDOUT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	EXPECT_EQ(-ETIMEDOUT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &gw));
	/* Waits in jiffies: under TCG they may run ahead of the clock. */
	w.timeout_ns = deadline_ms(200);
	EXPECT_EQ(-ETIMEDOUT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	/* The job timeout ends it, with that error. */
	w.timeout_ns = deadline_ms(10000);
	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	EXPECT_EQ(-ETIMEDOUT, w.status);
	gw.timeout_ns = deadline_ms(10000);
	EXPECT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_GEM_WAIT, &gw));
	ASSERT_EQ(0, set_fault(0));
	EXPECT_EQ(0, works_again(&self->t));
}

/* A submission's time limit replaces the job timeout, shorter or longer. */
TEST_F(fault, submission_time_limit)
{
	struct drm_nvdla_wait w = { 0 };

	ASSERT_EQ(0, set_param("job_timeout_ms", 60000));
	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, submit_limited(&self->t, 300, &w.job_id));
	w.timeout_ns = deadline_ms(10000);
	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	EXPECT_EQ(-ETIMEDOUT, w.status);

	ASSERT_EQ(0, set_param("job_timeout_ms", 200));
	ASSERT_EQ(0, submit_limited(&self->t, 4000, &w.job_id));
	w.timeout_ns = deadline_ms(1000);
	EXPECT_EQ(-ETIMEDOUT, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	w.timeout_ns = deadline_ms(20000);
	ASSERT_EQ(0, xioctl(self->t.fd, DRM_IOCTL_NVDLA_WAIT, &w));
	EXPECT_EQ(-ETIMEDOUT, w.status);
	ASSERT_EQ(0, set_fault(0));
	EXPECT_EQ(0, works_again(&self->t));
}

/* Jobs queued behind one that times out run once it is reset. */
TEST_F(fault, queue_continues_after_timeout)
{
	uint64_t ids[4];
	int i;

	ASSERT_EQ(0, set_param("job_timeout_ms", 300));
	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &ids[0]));
	EXPECT_EQ(-ETIMEDOUT, job_wait(self->t.fd, ids[0], deadline_ms(10000)));
	for (i = 1; i < 4; i++)
		ASSERT_EQ(0, job_submit(&self->t, NULL, 0, 0, &ids[i]));
	ASSERT_EQ(0, set_fault(0));
	for (i = 1; i < 4; i++) {
		int ret = job_wait(self->t.fd, ids[i], deadline_ms(10000));

		/* Jobs that ran while the fault was on time out too. */
		EXPECT_TRUE(ret == 0 || ret == -ETIMEDOUT);
	}
	EXPECT_EQ(0, works_again(&self->t));
}

static long long job_counter(const char *key)
{
	return debugfs_sum("jobs", key);
}

static long long jobs_open(void)
{
	return job_counter("submitted") - job_counter("completed") -
	       job_counter("failed") - job_counter("timed out");
}

/*
 * A process killed with jobs queued: they end (run or cancelled), none is
 * lost, and the device works for the next process.
 */
TEST_F(fault, process_killed_with_jobs_queued)
{
	int status, i;
	pid_t pid;

	ASSERT_EQ(0, jobs_open()) TH_LOG("debugfs job counters not found or busy");
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct bdma_task t;
		uint64_t id;

		if (bdma_task_open(&t))
			_exit(1);
		for (i = 0; i < 50; i++)
			if (job_submit(&t, NULL, 0, 0, &id))
				_exit(1);
		kill(getpid(), SIGKILL);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("the child failed to queue its jobs");
	for (i = 0; i < 100 && jobs_open(); i++)
		usleep(100000);
	EXPECT_EQ(0, jobs_open());
	EXPECT_EQ(0, works_again(&self->t));
}

TEST_HARNESS_MAIN
