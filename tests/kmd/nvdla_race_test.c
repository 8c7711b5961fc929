// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Descriptors rewritten in the mapped buffers while jobs are submitted,
 * queued and running. The driver validates a copy of each task once and
 * runs the job from that copy, so every job is refused (-EINVAL) or runs
 * as it was checked: status 0 and the right output. The guest's kernel
 * log is checked after all tests (tools/qemu/guest-lib.sh), with
 * panic_on_warn, softlockup_panic and panic_on_rcu_stall on.
 *
 * Then the largest task a buffer of the virtual device can describe (one
 * BDMA operation per 644-byte surface descriptor in 4 MiB): it is checked
 * at submission, outside the engine's spinlock, and runs.
 */
#include <pthread.h>
#include <stdlib.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

/* net, graph, ops, surfaces; in -(op 0)-> a -(op 1)-> b -(op 2)-> out */
enum { C_NET, C_GRAPH, C_OPS, C_SURFS, C_IN, C_A, C_B, C_OUT, C_NUM };
#define CHAIN_OPS 3
#define RACE_SECONDS 20
#define RACE_JOBS 4000
#define BATCH 4		/* jobs queued at once */

struct chain {
	int fd;
	uint32_t handle[C_NUM];
	void *map[C_NUM];
	struct drm_nvdla_address addr[C_NUM];
};

static struct dla_common_op_desc *node(struct chain *c, int op)
{
	return (struct dla_common_op_desc *)c->map[C_GRAPH] + op;
}

static struct dla_bdma_transfer_desc *xfer(struct chain *c, int op)
{
	return &((union dla_surface_container *)c->map[C_SURFS])[op]
		.bdma_surface.transfers[0];
}

/*
 * Three BDMA copies of 4 KiB, each waiting for the one before: lines of
 * 256 bytes, 8 lines a surface, 2 surfaces.
 */
static void chain_write(struct chain *c)
{
	struct dla_network_desc *net = c->map[C_NET];
	union dla_operation_container *op = c->map[C_OPS];
	union dla_surface_container *surf = c->map[C_SURFS];
	int i, k;

	bdma_net_write(net, C_GRAPH, C_OPS, C_SURFS, CHAIN_OPS);
	for (i = 0; i < CHAIN_OPS; i++) {
		struct dla_common_op_desc *g = node(c, i);
		struct dla_bdma_transfer_desc *x = xfer(c, i);

		memset(g, 0, sizeof(*g));
		g->index = i;
		g->op_type = DLA_OP_BDMA;
		g->dependency_count = i > 0;
		for (k = 0; k < DLA_OP_NUM; k++)
			g->consumers[k].index = -1;
		g->fused_parent.index = -1;
		if (i + 1 < CHAIN_OPS)
			g->consumers[DLA_OP_BDMA] = (struct dla_consumer){
				.index = i + 1, .event = DLA_EVENT_OP_COMPLETED };
		memset(&op[i], 0, sizeof(op[i]));
		op[i].bdma_op.num_transfers = 1;
		memset(&surf[i], 0, sizeof(surf[i]));
		surf[i].bdma_surface.num_transfers = 1;
		*x = (struct dla_bdma_transfer_desc){
			.source_address = C_IN + i,
			.destination_address = C_IN + i + 1,
			.line_size = 256, .line_repeat = 8, .source_line = 256,
			.destination_line = 256, .surface_repeat = 2,
			.source_surface = 2048, .destination_surface = 2048,
		};
	}
}

static int chain_init(struct chain *c)
{
	int i, ret;

	memset(c, 0, sizeof(*c));
	c->fd = open_nvdla();
	if (c->fd < 0)
		return -ENODEV;
	for (i = 0; i < C_NUM; i++) {
		ret = bo_new(c->fd, COPY_SIZE, &c->handle[i], &c->map[i]);
		if (ret)
			return ret;
		c->addr[i].handle = c->handle[i];
	}
	for (i = 0; i < COPY_SIZE; i++)
		((uint8_t *)c->map[C_IN])[i] = i * 29 + 3;
	chain_write(c);
	return 0;
}

static void chain_fini(struct chain *c)
{
	int i;

	for (i = 0; i < C_NUM; i++)
		if (c->map[i] && c->map[i] != MAP_FAILED)
			munmap(c->map[i], COPY_SIZE);
	if (c->fd >= 0)
		close(c->fd);
}

/*
 * The counts as written, which the official user space puts back before
 * each submission (firmware that counted down in place needed that); the
 * driver must never have written them.
 */
static void chain_rearm(struct chain *c)
{
	int i;

	for (i = 1; i < CHAIN_OPS; i++)
		node(c, i)->dependency_count = 1;
}

static int chain_submit(struct chain *c, uint64_t *id)
{
	struct drm_nvdla_submit s = {
		.addresses = (uintptr_t)c->addr,
		.num_addresses = C_NUM,
		.address_size = sizeof(struct drm_nvdla_address),
	};
	int ret = xioctl(c->fd, DRM_IOCTL_NVDLA_SUBMIT, &s);

	*id = s.job_id;
	return ret;
}

/*
 * Rewrites, each between the task's value and one that validation
 * refuses: a copy that passes validation is the task as written above.
 */
struct rewriter {
	struct chain *c;
	volatile int stop;
	unsigned long rounds;
};

/* Set *@p to @bad, hold it a little, put @good back. */
#define FLIP(p, bad, good) do {					\
	*(volatile __typeof__(*(p)) *)(p) = (bad);		\
	for (spin = rand() % 64; spin; spin--)			\
		__asm__ volatile("" ::: "memory");		\
	*(volatile __typeof__(*(p)) *)(p) = (good);		\
} while (0)

static void *rewrite(void *arg)
{
	struct rewriter *r = arg;
	struct chain *c = r->c;
	struct dla_network_desc *net = c->map[C_NET];
	int spin;

	while (!r->stop) {
		/* The task as written, a while: some copies pass. */
		for (spin = rand() % 4096; spin; spin--)
			__asm__ volatile("" ::: "memory");
		switch (r->rounds++ % 8) {
		case 0:	/* graph consumer indices */
			FLIP(&node(c, 2)->consumers[DLA_OP_SDP].index, -2, -1);
			FLIP(&node(c, 0)->consumers[DLA_OP_BDMA].index, 30000, 1);
			break;
		case 1:	/* operation types */
			FLIP(&node(c, 1)->op_type, 9, DLA_OP_BDMA);
			FLIP(&node(c, 2)->op_type, DLA_OP_NUM, DLA_OP_BDMA);
			break;
		case 2:	/* transfer repeats */
			FLIP(&xfer(c, 1)->line_repeat, 16777215, 8);
			FLIP(&xfer(c, 2)->surface_repeat, 16777215, 2);
			break;
		case 3:	/* a grown copy */
			FLIP(&xfer(c, 1)->line_size, 8192, 256);
			break;
		case 4:	/* a surface address outside the task */
			FLIP(&xfer(c, 0)->destination_address, 99, C_A);
			FLIP(&xfer(c, 2)->source_address, -2, C_B);
			break;
		case 5:	/* dependency counts */
			FLIP(&node(c, 2)->dependency_count, 0, 1);
			FLIP(&node(c, 1)->dependency_count, 5, 1);
			break;
		case 6:	/* the network: more operations than described */
			FLIP(&net->num_operations, 32767, CHAIN_OPS);
			break;
		default: /* the chain's head */
			FLIP(&net->op_head[DLA_OP_BDMA], 2, 0);
			break;
		}
	}
	return NULL;
}

struct race_result {
	unsigned int accepted, refused, bad_status, bad_output, other;
	int other_err;
};

/* Batches of jobs against the rewriter, until RACE_JOBS or RACE_SECONDS. */
static void race(struct chain *c, struct race_result *res)
{
	int64_t end = deadline_ms(RACE_SECONDS * 1000);
	uint64_t ids[BATCH];
	unsigned int n, i, ok;
	int ret;

	for (n = 0; n < RACE_JOBS && deadline_ms(0) < end; n += BATCH) {
		memset(c->map[C_OUT], 0, COPY_SIZE);
		ok = 0;
		for (i = 0; i < BATCH; i++) {
			chain_rearm(c);
			ret = chain_submit(c, &ids[ok]);
			if (!ret) {
				ok++;
			} else if (ret == -EINVAL) {
				res->refused++;
			} else {
				res->other++;
				res->other_err = ret;
			}
		}
		for (i = 0; i < ok; i++) {
			ret = job_wait(c->fd, ids[i], deadline_ms(10000));
			res->accepted++;
			if (ret) {
				res->bad_status++;
				res->other_err = ret;
			}
		}
		if (ok && memcmp(c->map[C_IN], c->map[C_OUT], COPY_SIZE))
			res->bad_output++;
	}
}

FIXTURE(race) {
	struct chain c;
};

FIXTURE_SETUP(race)
{
	ASSERT_EQ(0, chain_init(&self->c))
		TH_LOG("no nvdla device node, or no buffers on it");
}

FIXTURE_TEARDOWN(race)
{
	chain_fini(&self->c);
}

/* The task as written runs, and the output is its input. */
TEST_F(race, chain_runs)
{
	uint64_t id;

	ASSERT_EQ(0, chain_submit(&self->c, &id));
	ASSERT_EQ(0, job_wait(self->c.fd, id, deadline_ms(10000)));
	EXPECT_EQ(0, memcmp(self->c.map[C_IN], self->c.map[C_OUT], COPY_SIZE));
}

TEST_F(race, rewrites_while_submitting)
{
	struct rewriter r = { .c = &self->c };
	struct race_result res = { 0 };
	pthread_t thread;
	uint64_t id;

	srand(7);
	ASSERT_EQ(0, pthread_create(&thread, NULL, rewrite, &r));
	race(&self->c, &res);
	r.stop = 1;
	pthread_join(thread, NULL);
	TH_LOG("%u jobs ran, %u refused, %lu rewrites", res.accepted,
	       res.refused, r.rounds);
	EXPECT_EQ(0, res.bad_status) TH_LOG("last error %d", res.other_err);
	EXPECT_EQ(0, res.bad_output);
	EXPECT_EQ(0, res.other) TH_LOG("submit error %d", res.other_err);
	EXPECT_LT(0, res.accepted);
	EXPECT_LT(0, res.refused);

	/* Restored: the device still computes. */
	chain_write(&self->c);
	memset(self->c.map[C_OUT], 0, COPY_SIZE);
	ASSERT_EQ(0, chain_submit(&self->c, &id));
	ASSERT_EQ(0, job_wait(self->c.fd, id, deadline_ms(10000)));
	EXPECT_EQ(0, memcmp(self->c.map[C_IN], self->c.map[C_OUT], COPY_SIZE));
}

/* The official interface, which waits for each task, on the same path. */
TEST_F(race, rewrites_while_submitting_legacy)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_nvdla_legacy_address list[C_NUM];
	struct drm_nvdla_legacy_task task = {
		.num_addresses = C_NUM, .timeout = 0xffffffff,
		.address_list = (uintptr_t)list,
	};
	struct drm_nvdla_legacy_submit submit = {
		.tasks = (uintptr_t)&task, .num_tasks = 1,
	};
	struct rewriter r = { .c = &self->c };
	unsigned int n, ran = 0, refused = 0, bad = 0;
	int64_t end = deadline_ms(RACE_SECONDS * 1000 / 2);
	pthread_t thread;
	int i, ret, last = 0;

	if (!has_legacy_ioctls(self->c.fd))
		SKIP(return, "no legacy ioctls (the in-tree driver)");
	memset(list, 0, sizeof(list));
	for (i = 0; i < C_NUM; i++) {
		prime.handle = self->c.handle[i];
		ASSERT_EQ(0, xioctl(self->c.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
				    &prime));
		list[i].handle = prime.fd;
	}
	ASSERT_EQ(0, xioctl(self->c.fd, DRM_IOCTL_NVDLA_LEGACY_SUBMIT, &submit));
	srand(8);
	ASSERT_EQ(0, pthread_create(&thread, NULL, rewrite, &r));
	for (n = 0; n < RACE_JOBS / 2 && deadline_ms(0) < end; n++) {
		memset(self->c.map[C_OUT], 0, COPY_SIZE);
		chain_rearm(&self->c);
		ret = xioctl(self->c.fd, DRM_IOCTL_NVDLA_LEGACY_SUBMIT, &submit);
		if (ret == -EINVAL) {
			refused++;
		} else if (ret || memcmp(self->c.map[C_IN], self->c.map[C_OUT],
					 COPY_SIZE)) {
			bad++;
			last = ret;
		} else {
			ran++;
		}
	}
	r.stop = 1;
	pthread_join(thread, NULL);
	TH_LOG("legacy: %u tasks ran, %u refused, %lu rewrites", ran, refused,
	       r.rounds);
	EXPECT_EQ(0, bad) TH_LOG("last error %d", last);
	EXPECT_LT(0, ran);
	EXPECT_LT(0, refused);
	for (i = 0; i < C_NUM; i++)
		close(list[i].handle);
}

/*
 * One BDMA operation per surface descriptor that fits a 4 MiB buffer (the
 * largest the virtual device allocates without CMA), each copying the
 * input to the output: validated at submission, outside the spinlock.
 */
TEST(largest_task)
{
	const uint64_t desc_size = 4u << 20;
	const uint32_t num = desc_size / sizeof(union dla_surface_container);
	const uint64_t size[C_NUM] = {
		[C_NET] = COPY_SIZE,
		[C_GRAPH] = num * sizeof(struct dla_common_op_desc),
		[C_OPS] = num * sizeof(union dla_operation_container),
		[C_SURFS] = desc_size,
		[C_IN] = COPY_SIZE, [C_A] = COPY_SIZE, [C_B] = COPY_SIZE,
		[C_OUT] = COPY_SIZE,
	};
	struct chain c = { .fd = open_nvdla() };
	struct dla_network_desc *net;
	int64_t t0, t1, t2;
	uint64_t id;
	uint32_t i;
	int k;

	ASSERT_LE(0, c.fd);
	for (i = 0; i < C_NUM; i++) {
		ASSERT_EQ(0, bo_new(c.fd, size[i], &c.handle[i], &c.map[i]))
			TH_LOG("buffer %u of %llu bytes", i,
			       (unsigned long long)size[i]);
		c.addr[i].handle = c.handle[i];
	}
	chain_write(&c);
	net = c.map[C_NET];
	net->num_operations = num;
	for (i = 0; i < num; i++) {
		struct dla_common_op_desc *g = node(&c, i);

		memset(g, 0, sizeof(*g));
		g->index = i;
		g->op_type = DLA_OP_BDMA;
		for (k = 0; k < DLA_OP_NUM; k++)
			g->consumers[k].index = -1;
		g->fused_parent.index = -1;
		/* Only the order of the chain: no dependency. */
		g->consumers[DLA_OP_BDMA].index = i + 1 < num ? (int16_t)(i + 1) : -1;
		((union dla_operation_container *)c.map[C_OPS])[i]
			.bdma_op.num_transfers = 1;
		((union dla_surface_container *)c.map[C_SURFS])[i].bdma_surface =
			((union dla_surface_container *)c.map[C_SURFS])[0].bdma_surface;
		xfer(&c, i)->destination_address = C_OUT;
	}
	for (i = 0; i < COPY_SIZE; i++)
		((uint8_t *)c.map[C_IN])[i] = i * 31 + 1;
	t0 = deadline_ms(0);
	ASSERT_EQ(0, chain_submit(&c, &id));
	t1 = deadline_ms(0);
	ASSERT_EQ(0, job_wait(c.fd, id, deadline_ms(120000)));
	t2 = deadline_ms(0);
	TH_LOG("%u operations: submission (copy and validation) %lld us, run %lld ms",
	       num, (long long)(t1 - t0) / 1000,
	       (long long)(t2 - t1) / 1000000);
	EXPECT_EQ(0, memcmp(c.map[C_IN], c.map[C_OUT], COPY_SIZE));
	for (i = 0; i < C_NUM; i++)
		munmap(c.map[i], size[i]);
	close(c.fd);
}

TEST_HARNESS_MAIN
