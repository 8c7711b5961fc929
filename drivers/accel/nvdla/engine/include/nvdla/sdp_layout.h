/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * How the SDP lays a 1x1 cube (width and height 1) in memory. Its DMA
 * engines move such a cube as one run of atoms from its base address,
 * whatever the surface stride says: SDP_RDMA the input, BRDMA, NRDMA and
 * ERDMA their operands (per channel or per element), the WDMA the output
 * unless it writes batches (nvdla/hw vmod/nvdla/sdp, the "1x1_pack"
 * mode of its *_ig.v and WDMA_cmd.v). NVIDIA's C models stop on a 1x1
 * cube whose surface stride says otherwise, for every engine that is on
 * (cmod/sdp: surface stride one atom for the input and output, one group
 * of the processing's lanes of operands for an operand engine). The
 * firmware refuses such a layer at submission, the hardware model when it
 * starts (with hazards allowed it reads and writes packed, as the RTL);
 * both from this one header. Per-channel operands of any cube are one
 * such run too: no surface stride is used for them.
 */
#ifndef __NVDLA_SDP_LAYOUT_H__
#define __NVDLA_SDP_LAYOUT_H__

#include <nvdla/cbuf_limits.h>
#include <nvdla/sdp_precision.h>

/* The SDP's DMA streams, in the order they are checked. */
enum nvdla_sdp_stream {
	NVDLA_SDP_STREAM_IN,
	NVDLA_SDP_STREAM_BS,
	NVDLA_SDP_STREAM_BN,
	NVDLA_SDP_STREAM_EW,
	NVDLA_SDP_STREAM_OUT,
	NVDLA_SDP_STREAMS,
};

/**
 * struct nvdla_sdp_layout - what an SDP layer asks of its DMA engines
 * @atom: bytes of an atom of the configuration
 * @proc: processing precision (NVDLA_SDP_*)
 * @width: width of the cube (SDP D_DATA_CUBE_WIDTH + 1)
 * @height: its height
 * @on: the stream's engine runs: the input read from memory, an operand
 *	engine on (used or not), the output written to memory and not in
 *	batches
 * @elem: bytes of one element of the stream's operands (operand streams)
 * @surf: the stream's surface stride, in bytes
 */
struct nvdla_sdp_layout {
	u32 atom, proc, width, height;
	bool on[NVDLA_SDP_STREAMS];
	u32 elem[NVDLA_SDP_STREAMS];
	u32 surf[NVDLA_SDP_STREAMS];
};

/* The surface stride of @stream when packed: one atom, or one group. */
static inline u32 nvdla_sdp_packed_stride(const struct nvdla_sdp_layout *l,
					  enum nvdla_sdp_stream stream)
{
	u32 lanes = l->proc == NVDLA_SDP_INT8 ? l->atom : l->atom / 2;

	if (stream == NVDLA_SDP_STREAM_IN || stream == NVDLA_SDP_STREAM_OUT)
		return l->atom;
	return lanes * l->elem[stream];
}

/* Whether @l's cube is one the engines move packed. */
static inline bool nvdla_sdp_packed(const struct nvdla_sdp_layout *l)
{
	return l->width == 1 && l->height == 1;
}

/*
 * Check @l; the first stream whose surface stride the C models refuse is
 * in *@v (NVDLA_CBUF_SDP_PACKED_IN plus the stream), else NVDLA_CBUF_OK.
 * Returns whether they run it.
 */
static inline bool nvdla_sdp_layout_check(const struct nvdla_sdp_layout *l,
					  struct nvdla_cbuf_verdict *v)
{
	u32 s;

	for (s = 0; nvdla_sdp_packed(l) && s < NVDLA_SDP_STREAMS; s++)
		if (l->on[s] &&
		    nvdla_cbuf_differs(v, NVDLA_CBUF_SDP_PACKED_IN + s,
				       l->surf[s],
				       nvdla_sdp_packed_stride(l, s)))
			return false;
	*v = (struct nvdla_cbuf_verdict){ NVDLA_CBUF_OK, 0, 0, 0 };
	return true;
}

#endif /* __NVDLA_SDP_LAYOUT_H__ */
