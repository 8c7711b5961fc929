// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The pool of threads a layer is split over, and the choice of vector
 * path: one pool per process, started on first use with a thread per
 * online CPU (or more if NVDLA_SIM_THREADS asks), of which each job uses
 * as many as the setting says when it starts. A forked child has the
 * parent's pool state but none of its threads, so it runs alone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "accel.h"

#define THREADS_MAX 64
#define POOL_SPINS (1u << 11)	/* pauses: some 60 us */

struct pool {
	pthread_mutex_t lock;	/* one caller at a time */
	pthread_mutex_t m;
	pthread_cond_t start, done;
	void (*fn)(void *ctx, u32 i, u32 n);
	void *ctx;
	u64 generation;
	u64 running;		/* threads still busy */
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
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static bool cpu_avx2;

static void cpu_probe(void)
{
	__builtin_cpu_init();
	cpu_avx2 = __builtin_cpu_supports("avx2");
}

/* Read at every layer, so that a test may switch paths between layers. */
enum sim_simd sim_simd(void)
{
	const char *env = getenv("NVDLA_SIM_SIMD");

	pthread_once(&cpu_once, cpu_probe);
	if (env && !strcmp(env, "off"))
		return SIM_SIMD_OFF;
	return cpu_avx2 ? SIM_SIMD_AVX2 : SIM_SIMD_OFF;
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

static void *pool_worker(void *arg)
{
	u32 i = (u32)(uintptr_t)arg;
	u64 seen = 0;

	for (;;) {
		spin_until(&pool.generation, seen + 1);
		pthread_mutex_lock(&pool.m);
		while (pool.generation == seen)
			pthread_cond_wait(&pool.start, &pool.m);
		seen = pool.generation;
		pthread_mutex_unlock(&pool.m);
		if (i < pool.used)	/* the others sit this one out */
			pool.fn(pool.ctx, i, pool.used);
		pthread_mutex_lock(&pool.m);
		if (!__atomic_sub_fetch(&pool.running, 1, __ATOMIC_RELEASE))
			pthread_cond_signal(&pool.done);
		pthread_mutex_unlock(&pool.m);
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

	if (n == 1 || pthread_mutex_trylock(&pool.lock)) {
		fn(ctx, 0, 1);
		return;
	}
	pthread_mutex_lock(&pool.m);
	pool.fn = fn;
	pool.ctx = ctx;
	pool.used = n;
	pool.running = pool.n - 1;
	__atomic_store_n(&pool.generation, pool.generation + 1,
			 __ATOMIC_RELEASE);
	pthread_cond_broadcast(&pool.start);
	pthread_mutex_unlock(&pool.m);
	fn(ctx, 0, n);
	spin_until(&pool.running, 0);
	pthread_mutex_lock(&pool.m);
	while (pool.running)
		pthread_cond_wait(&pool.done, &pool.m);
	pthread_mutex_unlock(&pool.m);
	pthread_mutex_unlock(&pool.lock);
}
