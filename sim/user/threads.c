// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The pool of threads a layer is split over, and the choice of vector
 * path: one per process, started on first use. A forked child has the
 * parent's pool state but none of its threads, so it runs alone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "accel.h"

#define THREADS_MAX 64

struct pool {
	pthread_mutex_t lock;	/* one caller at a time */
	pthread_mutex_t m;
	pthread_cond_t start, done;
	void (*fn)(void *ctx, u32 i, u32 n);
	void *ctx;
	u64 generation;
	u32 n, running;
	pid_t pid;
};

static struct pool pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.m = PTHREAD_MUTEX_INITIALIZER,
	.start = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static pthread_once_t simd_once = PTHREAD_ONCE_INIT;
static enum sim_simd simd_path;

static void simd_choose(void)
{
	const char *env = getenv("NVDLA_SIM_SIMD");
	bool avx2;

	__builtin_cpu_init();
	avx2 = __builtin_cpu_supports("avx2");
	if (env && !strcmp(env, "off"))
		simd_path = SIM_SIMD_OFF;
	else
		simd_path = avx2 ? SIM_SIMD_AVX2 : SIM_SIMD_OFF;
}

enum sim_simd sim_simd(void)
{
	pthread_once(&simd_once, simd_choose);
	return simd_path;
}

static void *pool_worker(void *arg)
{
	u32 i = (u32)(uintptr_t)arg;
	u64 seen = 0;

	pthread_mutex_lock(&pool.m);
	for (;;) {
		while (pool.generation == seen)
			pthread_cond_wait(&pool.start, &pool.m);
		seen = pool.generation;
		pthread_mutex_unlock(&pool.m);
		pool.fn(pool.ctx, i, pool.n);
		pthread_mutex_lock(&pool.m);
		if (!--pool.running)
			pthread_cond_signal(&pool.done);
	}
	return NULL;
}

static void pool_start(void)
{
	const char *env = getenv("NVDLA_SIM_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
	pthread_attr_t attr;
	pthread_t t;
	u32 i;

	if (n < 1)
		n = 1;
	if (n > THREADS_MAX)
		n = THREADS_MAX;
	pool.n = 1;
	pool.pid = getpid();
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
	pthread_once(&pool_once, pool_start);
	return pool.pid == getpid() ? pool.n : 1;
}

void sim_threads_run(void (*fn)(void *ctx, u32 i, u32 n), void *ctx)
{
	if (sim_threads() == 1 || pthread_mutex_trylock(&pool.lock)) {
		fn(ctx, 0, 1);
		return;
	}
	pthread_mutex_lock(&pool.m);
	pool.fn = fn;
	pool.ctx = ctx;
	pool.running = pool.n - 1;
	pool.generation++;
	pthread_cond_broadcast(&pool.start);
	pthread_mutex_unlock(&pool.m);
	fn(ctx, 0, pool.n);
	pthread_mutex_lock(&pool.m);
	while (pool.running)
		pthread_cond_wait(&pool.done, &pool.m);
	pthread_mutex_unlock(&pool.m);
	pthread_mutex_unlock(&pool.lock);
}
