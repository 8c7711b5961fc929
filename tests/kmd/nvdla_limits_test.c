// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Limits inside the QEMU guest, against an unprivileged user who holds the
 * engine with one long job and queues jobs behind it, each carrying 5,991
 * LUTs (one 4 MiB buffer of its own, 4.19 MB that the kernel copies per
 * job): the kernel memory the jobs hold is bounded per job, per file and
 * per device, charged to the user's memory cgroup, and given back at once
 * when the file is closed, while the engine still runs; and a file that
 * floods the device with jobs keeps another file's job waiting for no
 * more than the job on the engine. Jobs run with the completion
 * interrupt dropped (fault injection), so each holds the engine until its
 * time limit.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

#define LUT_SIZE (4u << 20)
#define NUM_LUTS (LUT_SIZE / sizeof(struct dla_lut_param))
#define LUT_ENTRY NUM_ENTRIES
/* The long job's time limit: the attacks behind it must fit in it. */
#define HOLD_MS (4000 * time_scale())
#define CGROUP "/sys/fs/cgroup/nvdla-limits"

/* The BDMA task with a 4 MiB LUT buffer as its address list's last entry. */
struct lut_task {
	struct bdma_task t;
	uint32_t lut;
	void *lut_map;
	struct drm_nvdla_address addr[NUM_ENTRIES + 1];
};

static int lut_task_open(struct lut_task *l)
{
	int ret;

	memset(l, 0, sizeof(*l));
	ret = bdma_task_open(&l->t);
	if (ret)
		return ret;
	ret = bo_new(l->t.fd, LUT_SIZE, &l->lut, &l->lut_map);
	memcpy(l->addr, l->t.addr, sizeof(l->t.addr));
	l->addr[LUT_ENTRY].handle = l->lut;
	return ret;
}

static void lut_task_close(struct lut_task *l)
{
	munmap(l->lut_map, LUT_SIZE);
	bdma_task_close(&l->t);
}

/* Submit the copy with @luts LUTs and a time limit of @timeout_ms. */
static int lut_submit(struct lut_task *l, uint16_t luts, uint32_t timeout_ms,
		      __u64 *id)
{
	struct dla_network_desc *net = l->t.map[0];

	net->lut_data_index = luts ? LUT_ENTRY : -1;
	net->num_luts = luts;
	return submit_list(l->t.fd, l->addr, NUM_ENTRIES + 1, timeout_ms, id);
}

/* Run the copy with @luts LUTs; its status. */
static int lut_run(struct lut_task *l, uint16_t luts)
{
	__u64 id;
	int ret = lut_submit(l, luts, 0, &id);

	return ret ? ret : job_wait(l->t.fd, id, deadline_ms(10000));
}

/* Kernel memory the device's jobs hold (debugfs "jobs"), in bytes. */
static long long job_memory(void)
{
	return debugfs_sum("jobs", "job memory");
}

/* Unreclaimable slab and vmalloc memory of the guest, in kB. */
static long kernel_kb(void)
{
	char line[128];
	long kb, sum = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1 ||
		    sscanf(line, "VmallocUsed: %ld kB", &kb) == 1)
			sum += kb;
	if (f)
		fclose(f);
	return sum;
}

/* Number @key of this process's fdinfo of @fd. */
static long long fdinfo_value(int fd, const char *key)
{
	char path[64], line[128];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) &&
		    sscanf(line + len, ":%lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static long long jobs_started(int fd)
{
	return fdinfo_value(fd, "nvdla-jobs-started");
}

/* Wait until no job of any file holds kernel memory or the engine. */
static int wait_idle(int64_t timeout_ms)
{
	int64_t end = deadline_ms(timeout_ms);

	while (deadline_ms(0) < end) {
		if (!job_memory() &&
		    debugfs_sum("jobs", "submitted") ==
		    debugfs_sum("jobs", "completed") +
		    debugfs_sum("jobs", "failed") +
		    debugfs_sum("jobs", "timed out"))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

FIXTURE(limits) {
	struct lut_task l;
};

FIXTURE_SETUP(limits)
{
	ASSERT_EQ(0, lut_task_open(&self->l))
		TH_LOG("no nvdla device node, or no buffers on it");
	ASSERT_EQ(0, wait_idle(10000));
}

FIXTURE_TEARDOWN(limits)
{
	set_fault(0);
	set_param("max_job_kb", 16384);
	set_param("max_file_jobs_mb", 64);
	set_param("max_device_jobs_mb", 256);
	lut_task_close(&self->l);
	wait_idle(2 * HOLD_MS);
}

/* A task whose copy is larger than one job may hold: -E2BIG, nothing kept. */
TEST_F(limits, job_above_max_job_kb)
{
	__u64 id;

	ASSERT_EQ(0, set_param("max_job_kb", 1024));
	EXPECT_EQ(-E2BIG, lut_submit(&self->l, NUM_LUTS, 0, &id));
	EXPECT_EQ(-E2BIG, lut_submit(&self->l, 1024 * 1024 / 700 + 1, 0, &id));
	EXPECT_EQ(0, job_memory());
	ASSERT_EQ(0, set_param("max_job_kb", 16384));
	EXPECT_EQ(0, lut_run(&self->l, NUM_LUTS));
	EXPECT_EQ(0, wait_idle(1000));
}

/*
 * Behind a long job, one file's LUT jobs are refused with -EBUSY once
 * they hold max_file_jobs_mb, another file's still queue; closing the
 * file frees its queued jobs' memory at once, while the long job runs.
 */
TEST_F_TIMEOUT(limits, file_budget_and_close, 60)
{
	const long long per_job = (long long)NUM_LUTS *
				  sizeof(struct dla_lut_param);
	long long held, after_close;
	struct lut_task other;
	int64_t closed, end;
	__u64 id;
	int n = 0, ret;

	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, lut_submit(&self->l, 0, HOLD_MS, &id));
	while (!(ret = lut_submit(&self->l, NUM_LUTS, 100, &id)) && n < 64)
		n++;
	held = job_memory();
	EXPECT_EQ(-EBUSY, ret);
	/* 64 MiB of 4.19 MB copies: 16 do not fit with their lists. */
	EXPECT_EQ(15, n);
	EXPECT_LE(held, 64ll << 20);
	EXPECT_GE(held, n * per_job);

	ASSERT_EQ(0, lut_task_open(&other));
	EXPECT_EQ(0, lut_submit(&other, NUM_LUTS, 100, &id));
	closed = deadline_ms(0);
	lut_task_close(&self->l);
	end = deadline_ms(500);
	while ((after_close = job_memory()) >= 2 * per_job &&
	       deadline_ms(0) < end)
		usleep(1000);
	TH_LOG("job memory %lld bytes with 16 jobs queued, %lld %lld ms after closing their file",
	       held, after_close, (long long)(deadline_ms(0) - closed) / 1000000);
	EXPECT_LT(after_close, 2 * per_job);
	EXPECT_EQ(-ETIMEDOUT, job_wait(other.t.fd, id, deadline_ms(2 * HOLD_MS)));
	set_fault(0);
	EXPECT_EQ(0, lut_run(&other, 0));
	self->l = other;
}

/* All files together: -ENOSPC past max_device_jobs_mb, small jobs pass. */
TEST_F_TIMEOUT(limits, device_budget, 60)
{
	struct lut_task other;
	__u64 id;
	int n = 0, ret;

	ASSERT_EQ(0, set_param("max_device_jobs_mb", 16));
	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, lut_submit(&self->l, 0, 1000, &id));
	while (!(ret = lut_submit(&self->l, NUM_LUTS, 100, &id)) && n < 64)
		n++;
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(3, n);
	ASSERT_EQ(0, lut_task_open(&other));
	EXPECT_EQ(-ENOSPC, lut_submit(&other, NUM_LUTS, 100, &id));
	EXPECT_EQ(0, lut_submit(&other, 0, 100, &id));
	lut_task_close(&other);
	EXPECT_LE(job_memory(), 16ll << 20);
}

/*
 * CGROUP, a memory cgroup that may hold @max: 0; -1 (errno set) without a
 * cgroup2 file system; 1 if it cannot be made.
 */
static int memory_cgroup(const char *max)
{
	mkdir("/sys/fs/cgroup", 0755);
	if (mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL) && errno != EBUSY)
		return -1;
	if (write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory") ||
	    (mkdir(CGROUP, 0755) && errno != EEXIST) ||
	    write_file(CGROUP "/memory.max", max))
		return 1;
	return 0;
}

/*
 * In a child: @step(@ctx) until it fails, a byte '+' to @out for each
 * time it did not, then the error (a byte, -errno); then wait for the
 * parent to read the cgroup and kill.
 */
static void __attribute__((noreturn))
report_until_refused(int out, int (*step)(void *ctx), void *ctx)
{
	uint8_t err;
	int ret;

	while (!(ret = step(ctx)))
		if (write(out, "+", 1) != 1)
			_exit(4);
	err = -ret;
	if (write(out, &err, 1) != 1)
		_exit(4);
	for (;;)
		pause();
}

/*
 * In the parent: the child's count of '+' bytes from @in, and its error
 * in *@err.
 */
static int count_until_refused(int in, uint8_t *err)
{
	int n = 0;

	*err = 0;
	while (read(in, err, 1) == 1 && *err == '+')
		n++;
	return n;
}

static int submit_lut_job(void *l)
{
	__u64 id;

	return lut_submit(l, NUM_LUTS, 100, &id);
}

/*
 * In a child whose memory cgroup may hold 64 MiB: queue LUT jobs behind a
 * long job until refused, reporting them.
 */
static void attacker(int out)
{
	struct lut_task l;
	__u64 id;

	if (write_file(CGROUP "/cgroup.procs", "0") || lut_task_open(&l))
		_exit(2);
	if (lut_submit(&l, 0, HOLD_MS, &id))
		_exit(3);
	report_until_refused(out, submit_lut_job, &l);
}

/*
 * The attack of a process in a 64 MiB memory cgroup, the device's own
 * limits raised out of its way: the cgroup, charged with the jobs'
 * memory, refuses it with -ENOMEM (not the OOM killer) before 64 MiB, and
 * when the process is killed the kernel's unreclaimable memory is back
 * to its level within a second, while the long job still holds the
 * engine. Under a slab quarantine the level is read with the caches
 * shrunk, after that second, and the second is checked on the driver's
 * count of the memory jobs hold: no copy is left (the job on the engine
 * has none, and keeps the process's buffers, charged, until it ends).
 */
TEST_F_TIMEOUT(limits, memory_cgroup_attack, 60)
{
	const long long per_job = (long long)NUM_LUTS *
				  sizeof(struct dla_lut_param);
	long before, during, after = 0;
	long long peak, held = -1;
	bool quarantined;
	int pipefd[2], status, ret, jobs;
	int64_t end, killed, took;
	uint8_t c;
	pid_t pid;

	ret = memory_cgroup("64M");
	if (ret < 0)
		SKIP(return, "no cgroup2 file system: %s", strerror(errno));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, set_param("max_file_jobs_mb", 1024));
	ASSERT_EQ(0, set_param("max_device_jobs_mb", 1024));
	ASSERT_EQ(0, set_fault(1));
	ASSERT_EQ(0, pipe(pipefd));

	quarantined = slab_quarantined();
	if (quarantined)
		shrink_slabs();
	before = kernel_kb();
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		attacker(pipefd[1]);
	}
	close(pipefd[1]);
	jobs = count_until_refused(pipefd[0], &c);
	during = kernel_kb();
	peak = read_number(CGROUP "/memory.peak");
	killed = deadline_ms(0);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(pipefd[0]);

	end = deadline_ms(1000);
	while (deadline_ms(0) < end) {
		held = job_memory();
		after = kernel_kb();
		if (quarantined ? held < per_job : after <= before + 256)
			break;
		usleep(20000);
	}
	took = deadline_ms(0) - killed;
	if (quarantined) {
		shrink_slabs();
		after = kernel_kb();
	}
	TH_LOG("%d jobs of %lld bytes went in, refused with %d; cgroup peak %lld bytes; kernel memory %ld kB -> %ld kB -> %ld kB%s; jobs hold %lld bytes, %lld ms after the kill",
	       jobs, per_job, -c, peak, before, during, after,
	       quarantined ? " (slab caches shrunk)" : "", held,
	       (long long)took / 1000000);
	EXPECT_EQ(ENOMEM, c);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* Charged: the jobs' copies filled the cgroup, which bounded them. */
	EXPECT_GE(jobs, 8);
	EXPECT_LT(jobs, 16);
	EXPECT_GE(peak, jobs * per_job);
	EXPECT_LE(peak, 64ll << 20);
	/*
	 * Kernel memory held them: all but one copy's worth at least, as the
	 * rest of the kernel may free memory of its own meanwhile (once 58 kB
	 * more than it took, on the debug kernel).
	 */
	EXPECT_GE(during - before, (jobs - 1) * per_job / 1024);
	EXPECT_LE(after, before + 256);
	if (quarantined)
		EXPECT_LT(held, per_job);
	EXPECT_EQ(0, rmdir(CGROUP)) TH_LOG("rmdir: %s", strerror(errno));
}

static int create_buffer(void *fd)
{
	struct drm_nvdla_gem_create c = { .size = 1 << 20 };

	return xioctl(*(int *)fd, DRM_IOCTL_NVDLA_GEM_CREATE, &c);
}

/*
 * In a child whose memory cgroup may hold 16 MiB: create 1 MiB buffers
 * until refused, reporting them.
 */
static void buffer_hoarder(int out)
{
	int fd;

	if (write_file(CGROUP "/cgroup.procs", "0"))
		_exit(2);
	fd = open_nvdla();
	if (fd < 0)
		_exit(3);
	report_until_refused(out, create_buffer, &fd);
}

/*
 * Buffer memory is charged to the memory cgroup of the process that
 * creates it: in a 16 MiB cgroup, 1 MiB buffers are refused with -ENOMEM
 * before the 16th, far below max_buffer_mb. Skipped where buffers come
 * from a CMA area or a memory region, which no cgroup is charged for.
 */
TEST_F_TIMEOUT(limits, buffer_memory_cgroup, 60)
{
	struct drm_nvdla_get_param p = { .param = DRM_NVDLA_PARAM_MAX_BO_SIZE };
	int pipefd[2], status, ret, bufs;
	long long peak;
	uint8_t c;
	pid_t pid;

	ASSERT_EQ(0, xioctl(self->l.t.fd, DRM_IOCTL_NVDLA_GET_PARAM, &p));
	if (p.value > 4 << 20)
		SKIP(return, "buffers from a CMA area or memory region");
	ret = memory_cgroup("16M");
	if (ret < 0)
		SKIP(return, "no cgroup2 file system: %s", strerror(errno));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, pipe(pipefd));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		buffer_hoarder(pipefd[1]);
	}
	close(pipefd[1]);
	bufs = count_until_refused(pipefd[0], &c);
	peak = read_number(CGROUP "/memory.peak");
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(pipefd[0]);

	TH_LOG("%d buffers of 1 MiB went in, refused with %d; cgroup peak %lld bytes",
	       bufs, -c, peak);
	EXPECT_EQ(ENOMEM, c);
	EXPECT_GE(bufs, 4);
	EXPECT_LT(bufs, 16);
	EXPECT_GE(peak, (long long)bufs << 20);
	EXPECT_EQ(0, rmdir(CGROUP)) TH_LOG("rmdir: %s", strerror(errno));
}

/* Jobs started by the files of @t[@n]. */
static long long started_of(struct bdma_task *t, int n)
{
	long long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += jobs_started(t[i].fd);
	return sum;
}

/*
 * @flooders files each queue three jobs that run their whole time limit,
 * T = 1 s. Once each has run one and the next has just started, another
 * file submits one job: it waits for that job only (T plus the engine
 * reset), not for a turn of every flooding file, which the round robin's
 * order once gave ((K + 1) T for K files).
 */
static void victim_wait(struct __test_metadata *_metadata, int flooders)
{
	const int64_t t_ms = 1000;
	struct bdma_task flood[4], victim;
	int64_t t0, waited, end;
	long long started;
	__u64 id;
	int i, k;

	ASSERT_EQ(0, set_fault(1));
	for (i = 0; i < flooders; i++) {
		ASSERT_EQ(0, bdma_task_open(&flood[i]));
		for (k = 0; k < 3; k++)
			ASSERT_EQ(0, submit_limited(&flood[i], t_ms, &id));
	}
	ASSERT_EQ(0, bdma_task_open(&victim));
	end = deadline_ms((flooders + 2) * t_ms);
	while ((started = started_of(flood, flooders)) <= flooders &&
	       deadline_ms(0) < end)
		usleep(1000);
	ASSERT_EQ(flooders + 1, started);
	t0 = deadline_ms(0);
	ASSERT_EQ(0, submit_limited(&victim, 100, &id));
	end = deadline_ms(20 * t_ms);
	while (jobs_started(victim.fd) < 1 && deadline_ms(0) < end)
		usleep(1000);
	waited = (deadline_ms(0) - t0) / 1000000;
	for (i = 0; i < flooders; i++)
		bdma_task_close(&flood[i]);
	TH_LOG("%d flooding file(s), jobs of %lld ms: the other file's job waited %lld ms",
	       flooders, (long long)t_ms, (long long)waited);
	EXPECT_LT(waited, t_ms * 3 / 2);
	EXPECT_EQ(-ETIMEDOUT, job_wait(victim.fd, id, deadline_ms(4 * t_ms)));
	bdma_task_close(&victim);
}

TEST_F_TIMEOUT(limits, fair_against_one_flooding_file, 60)
{
	victim_wait(_metadata, 1);
}

TEST_F_TIMEOUT(limits, fair_against_four_flooding_files, 60)
{
	victim_wait(_metadata, 4);
}

TEST_HARNESS_MAIN
