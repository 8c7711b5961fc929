// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Random register programs into NVDLA devices from inside a guest, through
 * /dev/mem, with no driver bound: for a bounded time, random values into
 * random registers of each unit, many of them addresses outside the
 * board's RAM (no memory, the interrupt controller, the device's own
 * window, the top of the address space), every engine enabled again and
 * again, interrupts cleared. What it checks is that the device answers
 * every access and that the emulator survives (the guest goes on).
 *
 * Usage: nvdla_regfuzz SECONDS SEED BASE[,BASE...]  (hexadecimal bases)
 * Prints TAP lines; exits 0 when every window answered to the end.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <nvdla/regs.h>

#define WINDOW 0x20000u
#define MAX_DEVICES 4

static uint64_t rng_state;

/* xorshift64*: reproducible from the seed printed. */
static uint32_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

/* A value a register might get: mostly addresses the SoC has no RAM at. */
static uint32_t value(void)
{
	static const uint32_t bad[] = {
		0x00000000, 0x08000000, 0x0b000000, 0x0b004000, 0x3eff0000,
		0xfffff000, 0xffffffff, 0x7ffff000, 0x40000000, 0x80000000,
	};

	switch (rnd() % 8) {
	case 0:
	case 1:
		return bad[rnd() % (sizeof(bad) / sizeof(bad[0]))];
	case 2:
		return rnd() & 0xff;
	case 3:
		return rnd() & 0xffff;
	case 4:
		return 1;
	default:
		return rnd();
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void reg_write(volatile uint32_t *w, uint32_t off, uint32_t val)
{
	w[off / 4] = val;
}

static uint32_t reg_read(volatile uint32_t *w, uint32_t off)
{
	return w[off / 4];
}

/* One round: a burst of writes into one unit, its engines enabled. */
static void round_of(volatile uint32_t *w, unsigned long *writes)
{
	uint32_t unit = (rnd() % (WINDOW / NVDLA_UNIT_SIZE)) * NVDLA_UNIT_SIZE;
	int i, n = 16 + rnd() % 64;

	for (i = 0; i < n; i++) {
		/* Most registers sit in the first 0x100 bytes of a unit. */
		uint32_t off = rnd() % 4 ? rnd() % 0x100 : rnd() % NVDLA_UNIT_SIZE;

		reg_write(w, unit + (off & ~3u), value());
		(*writes)++;
	}
	/* The op-enable registers of the units (0x008, 0x010, 0x038), the
	 * pointer (0x004), BDMA's launch: start whatever is programmed. */
	reg_write(w, unit + 0x004, rnd() & 0x10001);
	reg_write(w, unit + 0x008, 1);
	reg_write(w, unit + 0x010, 1);
	reg_write(w, unit + 0x038, 1);
	*writes += 4;
	/* Interrupts of both address maps' GLB acknowledged, now and then. */
	if (!(rnd() % 4)) {
		reg_write(w, NVDLA_GLB_S_INTR_STATUS,
			  reg_read(w, NVDLA_GLB_S_INTR_STATUS));
		reg_write(w, 0x1000 + NVDLA_GLB_S_INTR_STATUS,
			  reg_read(w, 0x1000 + NVDLA_GLB_S_INTR_STATUS));
		*writes += 2;
	}
}

int main(int argc, char **argv)
{
	volatile uint32_t *win[MAX_DEVICES];
	unsigned long writes = 0, rounds = 0;
	uint64_t base[MAX_DEVICES];
	double seconds, end;
	char *list, *tok;
	int fd, n = 0, i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SECONDS SEED BASE[,BASE...]\n", argv[0]);
		return 2;
	}
	seconds = atof(argv[1]);
	rng_state = strtoull(argv[2], NULL, 0) | 1;
	list = argv[3];
	while ((tok = strsep(&list, ",")) && n < MAX_DEVICES)
		base[n++] = strtoull(tok, NULL, 16);

	fd = open("/dev/mem", O_RDWR | O_SYNC);
	if (fd < 0) {
		perror("/dev/mem");
		return 1;
	}
	for (i = 0; i < n; i++) {
		win[i] = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED,
			      fd, base[i]);
		if (win[i] == MAP_FAILED) {
			printf("not ok - map the window at 0x%llx\n",
			       (unsigned long long)base[i]);
			return 1;
		}
	}
	printf("# seed %s, %d devices, %g s\n", argv[2], n, seconds);
	end = now() + seconds;
	while (now() < end) {
		for (i = 0; i < n; i++)
			round_of(win[i], &writes);
		rounds++;
	}
	/* Every window still answers: the version registers read back. */
	for (i = 0; i < n; i++) {
		uint32_t v = reg_read(win[i], 0) | reg_read(win[i], 0x1000);

		printf("# device at 0x%llx: version word 0x%x\n",
		       (unsigned long long)base[i], v);
	}
	printf("ok - %lu rounds, %lu register writes of random programs in %g s\n",
	       rounds, writes, seconds);
	return 0;
}
