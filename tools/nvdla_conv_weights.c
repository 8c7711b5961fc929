// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_conv_weights: the weight bytes of the first convolution of a
 * loadable's first DLA task, found through its descriptors as the firmware
 * finds them (network descriptor at address index 0, op_head[CONV], its
 * surface descriptor's weight_data). Prints that layer's geometry; writes
 * the bytes to OUT, or with --replace writes a copy of the loadable whose
 * weight bytes are those of WEIGHTS (same size). tests/unit/runtime/networks_check.py
 * uses it to check and repair the official compiler's post-extended weights.
 *
 * CONFIG (nv_full, ...) gives the atomic K that makes the kernel groups.
 *
 * Usage: nvdla_conv_weights CONFIG LOADABLE OUT.bin
 *        nvdla_conv_weights --replace WEIGHTS.bin CONFIG LOADABLE OUT.nvdla
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>
#include <nvdla/sim.h>
#include "loadable.h"
#include "../sim/sim_internal.h"

static int fail(const char *msg, const char *what)
{
	fprintf(stderr, "nvdla_conv_weights: %s%s%s\n", msg, what ? ": " : "",
		what ? what : "");
	return 1;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc(n ? (size_t)n : 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || (fwrite(data, 1, len, f) != len) | (fclose(f) != 0))
		return fail("cannot write", path);
	return 0;
}

/*
 * The @size bytes at @offset of the task's address entry @index, inside
 * one blob of its memory; NULL if they are not all in one blob.
 */
static uint8_t *entry_bytes(const struct nvdla_loadable *l,
			    const struct nvdla_lbl_task *t, int index,
			    uint64_t offset, uint64_t size)
{
	const struct nvdla_lbl_address *a;
	const struct nvdla_lbl_memory *m;
	const struct nvdla_lbl_blob *b;
	uint32_t i;

	if (index < 0 || (uint32_t)index >= t->num_addresses ||
	    t->address_list[index] >= l->num_addresses)
		return NULL;
	a = &l->addresses[t->address_list[index]];
	m = nvdla_loadable_memory(l, a->mem_id);
	if (!m)
		return NULL;
	offset += a->offset;
	for (i = 0; i < m->num_contents && i < m->num_offsets; i++) {
		b = nvdla_loadable_blob(l, m->contents[i]);
		if (b && offset >= m->offsets[i] &&
		    offset + size <= m->offsets[i] + b->data_len)
			return b->data + (offset - m->offsets[i]);
	}
	return NULL;
}

/* The first convolution's weight bytes (*@size of them); NULL if none. */
static uint8_t *conv_weights(const struct nvdla_loadable *l, uint32_t atomic_k,
			     uint32_t *size)
{
	const struct nvdla_lbl_task *t = NULL;
	struct dla_network_desc net;
	struct dla_conv_op_desc op;
	struct dla_conv_surface_desc s;
	const uint8_t *p;
	uint32_t i;
	int head;

	for (i = 0; i < l->num_tasks && !t; i++)
		if (l->tasks[i].interface == NVDLA_LBL_IF_DLA1)
			t = &l->tasks[i];
	if (!t || !(p = entry_bytes(l, t, 0, 0, sizeof(net))))
		return NULL;
	memcpy(&net, p, sizeof(net));
	head = net.op_head[DLA_OP_CONV];
	if (head < 0)
		return NULL;
	p = entry_bytes(l, t, net.operation_desc_index,
			(uint64_t)head * sizeof(union dla_operation_container),
			sizeof(op));
	if (!p)
		return NULL;
	memcpy(&op, p, sizeof(op));
	p = entry_bytes(l, t, net.surface_desc_index,
			(uint64_t)head * sizeof(union dla_surface_container),
			sizeof(s));
	if (!p)
		return NULL;
	memcpy(&s, p, sizeof(s));
	printf("op %d kernels_per_group %u kernels %u width %u height %u channels %u post_extension %u in_precision %u data_format %u weight_bytes %u\n",
	       head, atomic_k / (op.in_precision ? 2 : 1), s.dst_data.channel, op.kernel_width_csc,
	       op.kernel_height_csc, op.kernel_channel_csc, op.post_extension,
	       op.in_precision, op.data_format, s.weight_data.size);
	*size = s.weight_data.size;
	return entry_bytes(l, t, s.weight_data.address, s.weight_data.offset,
			   s.weight_data.size);
}

int main(int argc, char **argv)
{
	const char *repl = NULL, *in, *out;
	enum nvdla_sim_config_id cfg;
	struct nvdla_loadable *l;
	char err[256];
	uint8_t *w, *nw = NULL;
	void *buf;
	size_t len, nlen = 0;
	uint32_t size;
	int ret = 1;

	if (argc == 6 && !strcmp(argv[1], "--replace"))
		repl = argv[2];
	else if (argc != 4)
		return fail("usage: nvdla_conv_weights [--replace WEIGHTS.bin] CONFIG LOADABLE OUT",
			    NULL);
	if (nvdla_sim_config_by_name(argv[argc - 3], &cfg))
		return fail("unknown configuration", argv[argc - 3]);
	in = argv[argc - 2];
	out = argv[argc - 1];
	buf = slurp(in, &len);
	if (!buf)
		return fail("cannot read", in);
	if (nvdla_loadable_parse(buf, len, &l, err, sizeof(err))) {
		free(buf);
		return fail(err, in);
	}
	free(buf);
	buf = NULL;
	w = conv_weights(l, sim_config_get(cfg)->cbuf.atomic_k, &size);
	if (!w) {
		ret = fail("no convolution weights found", in);
	} else if (repl) {
		nw = slurp(repl, &nlen);
		if (!nw || nlen != size) {
			ret = fail("weights missing or of another size", repl);
		} else {
			memcpy(w, nw, size);
			if (nvdla_loadable_write(l, &buf, &len))
				ret = fail("cannot serialise", in);
			else
				ret = write_file(out, buf, len);
		}
	} else {
		ret = write_file(out, w, size);
	}
	free(nw);
	free(buf);
	nvdla_loadable_free(l);
	return ret;
}
