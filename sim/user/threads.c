// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The pool of threads a layer is split over, and the choice of vector
 * path: one pool per process, started on first use with a thread per
 * online CPU (or more if NVDLA_SIM_THREADS asks), of which each job uses
 * as many as the setting says when it starts. A job comes in parts,
 * several a thread, that the threads take in turn: a thread that wakes
 * late, or that the host holds back, leaves its parts to the others. A
 * forked child has the parent's pool state but none of its threads, so it
 * runs alone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef SIM_NEON
#include <sys/auxv.h>
#endif

#include "accel.h"

#define THREADS_MAX 64
#define POOL_SPINS (1u << 11)	/* pauses: some 60 us */
#define POOL_PARTS 8		/* parts of a job per thread it uses */

struct pool {
	pthread_mutex_t lock;	/* one caller at a time */
	pthread_mutex_t m;
	pthread_cond_t start, done;
	void (*fn)(void *ctx, u32 i, u32 n);
	void *ctx;
	u64 generation;
	/* the job's generation in the high half, its next part in the low */
	u64 ticket;
	u64 finished;		/* parts done */
	u32 parts;
	u32 n, used;		/* threads; those a job uses */
	u32 spins;		/* pauses before a wait sleeps; 0 if CPUs are short */
	pid_t pid;
};

static struct pool pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.m = PTHREAD_MUTEX_INITIALIZER,
	.start = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

#ifdef SIM_AVX2
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static bool cpu_avx2;

static void cpu_probe(void)
{
	__builtin_cpu_init();
	cpu_avx2 = __builtin_cpu_supports("avx2");
}
#endif

/*
 * Read at every layer, so that a test may switch paths between layers;
 * plain C on targets built without a vector path.
 */
enum sim_simd sim_simd(void)
{
#ifdef SIM_AVX2
	const char *env = getenv("NVDLA_SIM_SIMD");

	pthread_once(&cpu_once, cpu_probe);
	if (cpu_avx2 && !(env && !strcmp(env, "off")))
		return SIM_SIMD_AVX2;
#elif defined(SIM_NEON)
	const char *env = getenv("NVDLA_SIM_SIMD");

	if ((getauxval(AT_HWCAP) & HWCAP_ASIMD) && !(env && !strcmp(env, "off")))
		return SIM_SIMD_NEON;
#endif
	return SIM_SIMD_OFF;
}

/* NVDLA_SIM_THREADS if set and valid, else the online CPUs; at least 1. */
static u32 threads_wanted(void)
{
	const char *env = getenv("NVDLA_SIM_THREADS");
	long n = env && *env ? strtol(env, NULL, 10) :
		 sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : n;
}

/*
 * Each wait spins a while before it sleeps: a layer hands out its next
 * job within microseconds, and waking a sleeping thread costs more than
 * that (some 150 us a round trip on a virtual machine).
 */
static void spin_until(const u64 *v, u64 want)
{
	u32 i;

	for (i = 0; i < pool.spins; i++) {
		if (__atomic_load_n(v, __ATOMIC_ACQUIRE) == want)
			return;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ volatile("yield");
#endif
	}
}

/*
 * Run the parts of job @gen that are left. A part is claimed together
 * with its generation, so a thread that comes late takes none of the
 * next job's; the job's fields stay as they are until its last part is
 * done.
 */
static void pool_parts(u64 gen)
{
	u64 t = __atomic_load_n(&pool.ticket, __ATOMIC_ACQUIRE);
	u32 parts;

	/* parts is read before the ticket's generation is known to match */
	while (t >> 32 == gen &&
	       (u32)t < __atomic_load_n(&pool.parts, __ATOMIC_RELAXED)) {
		if (!__atomic_compare_exchange_n(&pool.ticket, &t, t + 1, false,
						 __ATOMIC_ACQUIRE,
						 __ATOMIC_ACQUIRE))
			continue;	/* t is the ticket now */
		parts = pool.parts;	/* the next job may set it once ours are done */
		pool.fn(pool.ctx, (u32)t, parts);
		if (__atomic_add_fetch(&pool.finished, 1, __ATOMIC_ACQ_REL) ==
		    parts) {
			pthread_mutex_lock(&pool.m);
			pthread_cond_signal(&pool.done);
			pthread_mutex_unlock(&pool.m);
		}
		t = __atomic_load_n(&pool.ticket, __ATOMIC_ACQUIRE);
	}
}

static void *pool_worker(void *arg)
{
	u32 i = (u32)(uintptr_t)arg;
	u64 seen = 0;
	bool used;

	for (;;) {
		spin_until(&pool.generation, seen + 1);
		pthread_mutex_lock(&pool.m);
		while (pool.generation == seen)
			pthread_cond_wait(&pool.start, &pool.m);
		seen = pool.generation;
		used = i < pool.used;	/* the others sit this one out */
		pthread_mutex_unlock(&pool.m);
		if (used)
			pool_parts(seen);
	}
	return NULL;
}

static void pool_start(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	u32 n = threads_wanted(), i;
	pthread_attr_t attr;
	pthread_t t;

	/* room for the CPUs, or for more if asked: the setting may change */
	if (cpus > n)
		n = cpus < THREADS_MAX ? cpus : THREADS_MAX;
	pool.n = 1;
	pool.pid = getpid();
	pool.spins = cpus >= n ? POOL_SPINS : 0;
	if (pthread_attr_init(&attr))
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (i = 1; i < n; i++) {
		if (pthread_create(&t, &attr, pool_worker, (void *)(uintptr_t)i))
			break;
		pool.n = i + 1;
	}
	pthread_attr_destroy(&attr);
}

u32 sim_threads(void)
{
	u32 n = threads_wanted();

	pthread_once(&pool_once, pool_start);
	if (pool.pid != getpid())
		return 1;
	return n < pool.n ? n : pool.n;
}

void sim_threads_run(void (*fn)(void *ctx, u32 i, u32 n), void *ctx)
{
	u32 n = sim_threads();
	u64 gen;

	if (n == 1 || pthread_mutex_trylock(&pool.lock)) {
		fn(ctx, 0, 1);
		return;
	}
	pthread_mutex_lock(&pool.m);
	gen = pool.generation + 1;
	pool.fn = fn;
	pool.ctx = ctx;
	pool.used = n;
	__atomic_store_n(&pool.parts, n * POOL_PARTS, __ATOMIC_RELAXED);
	pool.finished = 0;
	__atomic_store_n(&pool.ticket, gen << 32, __ATOMIC_RELEASE);
	__atomic_store_n(&pool.generation, gen, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&pool.start);
	pthread_mutex_unlock(&pool.m);
	pool_parts(gen);
	spin_until(&pool.finished, pool.parts);
	pthread_mutex_lock(&pool.m);
	while (__atomic_load_n(&pool.finished, __ATOMIC_ACQUIRE) != pool.parts)
		pthread_cond_wait(&pool.done, &pool.m);
	pthread_mutex_unlock(&pool.m);
	pthread_mutex_unlock(&pool.lock);
}
