/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The standard NVDLA hardware configurations, as the hardware project
 * names them (spec/defs/<name>.spec of nvdla/hw): what both the firmware
 * and the hardware model know of each, one entry a configuration. The
 * engine scheduler (engine/hw_config.c) and the model (sim/include/nvdla/sim.h,
 * sim/config.c, which adds the facts only the model needs) each define
 * NVDLA_HW_CONFIG() and include this file where they want the list, so
 * neither depends on the other (no include guard, on purpose).
 *
 * NVDLA_HW_CONFIG() is called once a configuration, in the order of enum
 * drm_nvdla_config, with:
 *   id		a token naming it: NVDLA_SIM_<id> is its model configuration
 *   name	its name
 *   map	its address map: NVDLA_UNIT_BASES_<map> (regs.h)
 *   atom	memory atom in bytes
 *   bdma	1: it has the bridge DMA
 *   rubik	1: it has the RUBIK engine
 *   wcomp	1: its convolution pipeline accepts compressed weights
 *   wino	1: its convolution pipeline computes 3x3 kernels in Winograd mode
 *   int16	1: it computes in int16 (every configuration computes in int8)
 *   fp16	1: it computes in fp16
 *   addr_bits	width of the memory addresses its DMA engines drive
 *   atomic_c	channels one MAC pass takes (int8 elements of one kernel)
 *   atomic_k	bytes of kernels one MAC pass computes (kernels x bytes each)
 *   cbuf_banks	banks of the convolution buffer
 *   cbuf_depth	entries of one bank
 *   cbuf_width	bytes of one entry
 *   cdma_early	1: a convolution's CDMA may be enabled before its CSC, also
 *		while the one before runs: it waits for its CSC to start the
 *		layer (the v2 designs: their C model always, their RTL when the
 *		banks change; that RTL's CDMA counts the releases of the layer
 *		before only while enabled). 0 on nv_full: its CDMA fetches at
 *		once, and a CSC starting a layer in other banks than its last
 *		(or its first) forgets the kernels announced before and waits
 *		forever; the model refuses that (nvdla/cbuf_limits.h,
 *		docs/model.md)
 *   sdp_y	1: its SDP has the Y stage (element-wise: the EW operand read
 *		engine, ALU, MUL and the LUT; the specs' SDP_EW_ENABLE and
 *		SDP_LUT_ENABLE, set together). Without it the RTL ties the
 *		stage's enable to 0 and its read engine off: Y passes the
 *		data through whatever D_DP_EW_CFG says (docs/model.md)
 *
 * The v2 configurations compute int8 only (nvdla v2 defines no other type);
 * the nv_small family drives 32-bit addresses (its CFGROM), the others 64.
 */
NVDLA_HW_CONFIG(NV_FULL, "nv_full", NV_FULL, 32, 1, 1, 1, 1, 1, 1, 64,
		64, 32, 16, 256, 128, 0, 1)
NVDLA_HW_CONFIG(NV_SMALL, "nv_small", NV_SMALL, 8, 0, 0, 0, 0, 0, 0, 32,
		8, 8, 32, 512, 8, 1, 0)
NVDLA_HW_CONFIG(NV_LARGE, "nv_large", NV_SMALL, 32, 0, 0, 0, 0, 0, 0, 64,
		64, 32, 16, 512, 64, 1, 1)
NVDLA_HW_CONFIG(NV_SMALL_256, "nv_small_256", NV_SMALL, 8, 0, 0, 0, 0, 0, 0, 32,
		32, 8, 32, 128, 32, 1, 0)
NVDLA_HW_CONFIG(NV_SMALL_256_FULL, "nv_small_256_full", NV_SMALL, 8, 0, 0, 0, 0, 0, 0, 32,
		32, 8, 32, 128, 32, 1, 1)
NVDLA_HW_CONFIG(NV_MEDIUM_512, "nv_medium_512", NV_SMALL, 16, 0, 0, 0, 0, 0, 0, 64,
		32, 16, 32, 512, 32, 1, 0)
NVDLA_HW_CONFIG(NV_MEDIUM_1024_FULL, "nv_medium_1024_full", NV_SMALL, 32, 0, 0, 0, 0, 0, 0, 64,
		32, 32, 32, 512, 32, 1, 1)
