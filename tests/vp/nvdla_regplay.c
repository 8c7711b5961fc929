// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A recorded register program (the input.txn of nvdla_runtime --record)
 * into an NVDLA device from inside a guest, through /dev/mem, with no
 * driver bound: its register writes up to its first wait, then the
 * interrupt status watched until a bit is set or the time is up. The
 * virtual platform's tests play a layer the hardware cannot run (the
 * device must stop: no status bit) and the same layer split so that it
 * can (its done bits, though its memory is outside the guest's RAM: the
 * device ends such an operation with a bus error and raises done).
 *
 * Usage: nvdla_regplay BASE FILE SECONDS  (hexadecimal base)
 * Prints the interrupt status word it ended with; exits 1 on errors.
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The writes of @f up to its first wait into window @w: CSB word
 * addresses 0xffffWWWW, byte offset 4 x WWWW. Returns the number
 * written, or -1 for an address outside the window.
 */
static int play(FILE *f, volatile uint32_t *w)
{
	char line[256];
	unsigned int addr, val;
	int n = 0;

	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "wait", 4))
			break;
		if (sscanf(line, "write_reg %x %x", &addr, &val) != 2)
			continue;
		if ((addr & 0xffff) * 4u >= WINDOW) {
			fprintf(stderr, "register 0x%x outside the window\n",
				addr);
			return -1;
		}
		w[addr & 0xffff] = val;
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	volatile uint32_t *w;
	uint32_t status = 0;
	double end;
	FILE *f;
	int fd, n;

	if (argc != 4) {
		fprintf(stderr, "usage: %s BASE FILE SECONDS\n", argv[0]);
		return 1;
	}
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	fd = open("/dev/mem", O_RDWR | O_SYNC);
	if (fd < 0) {
		perror("/dev/mem");
		return 1;
	}
	w = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 strtoull(argv[1], NULL, 16));
	if (w == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	n = play(f, w);
	fclose(f);
	if (n <= 0)
		return 1;
	end = now() + atof(argv[3]);
	while (!status && now() < end) {
		status = w[NVDLA_GLB_S_INTR_STATUS / 4];
		usleep(10000);
	}
	printf("0x%x\n", status);
	return 0;
}
