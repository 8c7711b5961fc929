/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Task descriptors that user space places in memory and the firmware reads:
 * the official NVDLA layout (firmware ABI 0.12), byte for byte, so that
 * loadables from the official compiler run unchanged. Every struct is packed
 * with 4-byte alignment; the sizes are pinned at the end of this file.
 *
 * Descriptors refer to memory only by an index into the task's address list
 * (int16, -1 meaning none) plus, for data cubes, a byte offset.
 */
#ifndef __NVDLA_DLA_INTERFACE_H__
#define __NVDLA_DLA_INTERFACE_H__

#include <linux/build_bug.h>
#include <linux/compiler_attributes.h>
#include <linux/types.h>

/* Operation (processor) types, also the index of op_head[] and consumers[]. */
enum dla_op_type {
	DLA_OP_BDMA = 0,
	DLA_OP_CONV = 1,
	DLA_OP_SDP = 2,
	DLA_OP_PDP = 3,
	DLA_OP_CDP = 4,
	DLA_OP_RUBIK = 5,
	DLA_OP_NUM = 6,
};

#define DLA_NUM_GROUPS 2

/* Events a consumer can wait for. */
enum dla_event {
	DLA_EVENT_NONE = 0,
	DLA_EVENT_OP_COMPLETED = 1,
	DLA_EVENT_OP_PROGRAMMED = 2,
	DLA_EVENT_OP_ENABLED = 3,
	DLA_EVENT_CDMA_WT_DONE = 4,
	DLA_EVENT_CDMA_DT_DONE = 5,
};

/* Where a data cube or BDMA endpoint lives. */
enum dla_mem_type {
	DLA_MEM_MC = 0,		/* external memory (DRAM) */
	DLA_MEM_CV = 1,		/* on-chip SRAM */
	DLA_MEM_HW = 2,		/* on the fly from the upstream engine */
};

enum dla_precision {
	DLA_PRECISION_INT8 = 0,
	DLA_PRECISION_INT16 = 1,
	DLA_PRECISION_FP16 = 2,
};

/* dla_sdp_op.type: which of the ALU and the multiplier an SDP stage uses */
enum dla_sdp_op_type { SDP_TYPE_NONE, SDP_TYPE_MUL, SDP_TYPE_ADD, SDP_TYPE_BOTH };

/* dla_sdp_op.mode: one operand, one per channel, or one per element */
enum dla_sdp_op_mode { SDP_MODE_PER_LAYER, SDP_MODE_PER_KERNEL, SDP_MODE_PER_POINT };

/* dla_sdp_op.act and .alu_type */
enum dla_sdp_act { SDP_ACT_NONE, SDP_ACT_RELU, SDP_ACT_LUT, SDP_ACT_PRELU };
enum dla_sdp_alu { SDP_ALU_MAX, SDP_ALU_MIN, SDP_ALU_SUM, SDP_ALU_EQL };

struct dla_network_desc {
	__s16 operation_desc_index;
	__s16 surface_desc_index;
	__s16 dependency_graph_index;
	__s16 lut_data_index;
	__s16 roi_array_index;
	__s16 surface_index;
	__s16 stat_list_index;
	__s16 reserved1;
	__s16 op_head[DLA_OP_NUM];
	__u16 num_rois;
	__u16 num_operations;
	__u16 num_luts;
	__u16 num_addresses;
	__s16 input_layer;
	__u8 dynamic_roi;
	__u8 reserved0;
} __packed __aligned(4);

struct dla_consumer {
	__s16 index;		/* -1: none */
	__u8 event;
	__u8 res;
} __packed __aligned(4);

/* One node of the dependency graph; the firmware writes it back. */
struct dla_common_op_desc {
	__s16 index;
	__s8 roi_index;
	__u8 op_type;
	__u8 dependency_count;
	__u8 reserved0[3];
	struct dla_consumer consumers[DLA_OP_NUM];
	struct dla_consumer fused_parent;
} __packed __aligned(4);

struct dla_roi_array_desc {
	__u32 array_length;
	__u32 array_reserved;
} __packed __aligned(4);

struct dla_roi_desc {
	__u32 left;
	__u32 top;
	__u32 right;
	__u32 bottom;
} __packed __aligned(4);

#define DLA_BDMA_MAX_TRANSFERS 20

struct dla_bdma_transfer_desc {
	__s16 source_address;		/* address-list index */
	__s16 destination_address;	/* address-list index */
	__u32 line_size;
	__u32 line_repeat;
	__u32 source_line;
	__u32 destination_line;
	__u32 surface_repeat;
	__u32 source_surface;
	__u32 destination_surface;
} __packed __aligned(4);

struct dla_bdma_surface_desc {
	__u8 source_type;
	__u8 destination_type;
	__u16 num_transfers;
	struct dla_bdma_transfer_desc transfers[DLA_BDMA_MAX_TRANSFERS];
} __packed __aligned(4);

struct dla_bdma_op_desc {
	__u16 num_transfers;
	__u16 reserved0;
} __packed __aligned(4);

struct dla_cvt_param {
	__s16 scale;
	__u8 truncate;
	__u8 enable;
	__s32 offset;
} __packed __aligned(4);

struct dla_data_cube {
	__u16 type;		/* enum dla_mem_type */
	__s16 address;		/* address-list index, -1: none */
	__u32 offset;		/* byte offset into that buffer */
	__u32 size;
	__u16 width;
	__u16 height;
	__u16 channel;
	__u16 reserved0;
	__u32 line_stride;
	__u32 surf_stride;
	__u32 plane_stride;
} __packed __aligned(4);

struct dla_conv_surface_desc {
	struct dla_data_cube weight_data;
	struct dla_data_cube wmb_data;
	struct dla_data_cube wgs_data;
	struct dla_data_cube src_data;
	struct dla_data_cube dst_data;
	__s64 offset_u;
	__u32 in_line_uv_stride;
} __packed __aligned(4);

struct dla_conv_op_desc {
	__u8 conv_mode;
	__u8 data_reuse;
	__u8 weight_reuse;
	__u8 skip_data_rls;
	__u8 skip_weight_rls;
	__u8 reserved0;
	__u16 entry_per_slice;
	__u8 data_format;
	__u8 pixel_mapping;
	__u16 fetch_grain;
	__u8 reserved_b[8];
	__u8 batch;
	__u8 weight_format;
	__u8 data_bank;
	__u8 weight_bank;
	__u32 batch_stride;
	__u8 post_extension;
	__u8 pixel_override;
	__u16 release;
	__u16 input_width_csc;
	__u16 input_height_csc;
	__u16 input_channel_csc;
	__u16 kernel_width_csc;
	__u16 kernel_height_csc;
	__u16 kernel_channel_csc;
	__u16 input_width_cmac;
	__u16 input_height_cmac;
	__u32 bytes_per_kernel;
	__s16 mean_ry;
	__s16 mean_gu;
	__s16 mean_bv;
	__s16 mean_ax;
	__u8 mean_format;
	__u8 conv_stride_x;
	__u8 conv_stride_y;
	__u8 pad_x_left;
	__u8 pad_x_right;
	__u8 pad_y_top;
	__u8 pad_y_bottom;
	__u8 dilation_x;
	__u8 dilation_y;
	__u8 reserved2[2];
	__u8 pra_truncate;
	__u8 in_precision;
	__u8 out_precision;
	__s16 pad_val;
	struct dla_cvt_param in_cvt;
	struct dla_cvt_param out_cvt;
} __packed __aligned(4);

#define DLA_LUT_LE_TABLE_ENTRIES 65
#define DLA_LUT_LO_TABLE_ENTRIES 257

union dla_lut_offset {
	__s8 exp_offset;
	__s8 frac_bits;
	__u16 reserved0;
} __packed;	/* 2 bytes: not padded to 4 */

union dla_slope {
	struct {
		__s16 scale;
		__s8 shifter;
		__u8 reserved0;
	} __packed __aligned(4) data_i;
	struct {
		__u16 scale;
		__u16 reserved0;
	} __packed __aligned(4) data_f;
} __packed __aligned(4);

struct dla_lut_param {
	__s16 linear_exp_table[DLA_LUT_LE_TABLE_ENTRIES];
	__s16 linear_only_table[DLA_LUT_LO_TABLE_ENTRIES];
	union dla_lut_offset linear_exp_offset;
	union dla_lut_offset linear_only_offset;
	__u64 linear_exp_start;
	__u64 linear_exp_end;
	__u64 linear_only_start;
	__u64 linear_only_end;
	union dla_slope linear_exp_underflow_slope;
	union dla_slope linear_exp_overflow_slope;
	union dla_slope linear_only_underflow_slope;
	union dla_slope linear_only_overflow_slope;
	__u8 hybrid_priority;
	__u8 underflow_priority;
	__u8 overflow_priority;
	__u8 method;
} __packed __aligned(4);

struct dla_sdp_surface_desc {
	struct dla_data_cube src_data;
	struct dla_data_cube x1_data;
	struct dla_data_cube x2_data;
	struct dla_data_cube y_data;
	struct dla_data_cube dst_data;
} __packed __aligned(4);

struct dla_sdp_cvt {
	struct dla_cvt_param alu_cvt;
	struct dla_cvt_param mul_cvt;
} __packed __aligned(4);

struct dla_sdp_op {
	__u8 enable;
	__u8 alu_type;
	__u8 type;
	__u8 mode;
	__u8 act;
	__u8 shift_value;
	__u8 truncate;
	__u8 precision;
	__s32 alu_operand;
	__s32 mul_operand;
	struct dla_sdp_cvt cvt;
} __packed __aligned(4);

struct dla_sdp_op_desc {
	__u8 src_precision;
	__u8 dst_precision;
	__s16 lut_index;
	struct dla_cvt_param out_cvt;
	__u8 conv_mode;
	__u8 batch_num;
	__u16 reserved0;
	__u32 batch_stride;
	struct dla_sdp_op x1_op;
	struct dla_sdp_op x2_op;
	struct dla_sdp_op y_op;
} __packed __aligned(4);

struct dla_pdp_surface_desc {
	struct dla_data_cube src_data;
	struct dla_data_cube dst_data;
} __packed __aligned(4);

#define DLA_PDP_PAD_VALUES 7

struct dla_pdp_op_desc {
	__u16 partial_in_width_first;
	__u16 partial_in_width_mid;
	__u16 partial_in_width_last;
	__u16 partial_width_first;
	__u16 partial_width_mid;
	__u16 partial_width_last;
	__u8 split_num;
	__u8 pool_mode;
	__u8 pool_width;
	__u8 pool_height;
	__u8 stride_x;
	__u8 stride_y;
	__u8 pad_left;
	__u8 pad_right;
	__u8 pad_top;
	__u8 pad_bottom;
	__u8 precision;
	__u8 reserved0;
	__s32 padding_value[DLA_PDP_PAD_VALUES];
} __packed __aligned(4);

struct dla_cdp_surface_desc {
	struct dla_data_cube src_data;
	struct dla_data_cube dst_data;
} __packed __aligned(4);

struct dla_cdp_op_desc {
	__u8 in_precision;
	__u8 out_precision;
	__s16 lut_index;
	struct dla_cvt_param in_cvt;
	struct dla_cvt_param out_cvt;
	__u8 local_size;
	__u8 bypass_sqsum;
	__u8 bypass_out_mul;
	__u8 reserved0;
} __packed __aligned(4);

struct dla_rubik_surface_desc {
	struct dla_data_cube src_data;
	struct dla_data_cube dst_data;
} __packed __aligned(4);

struct dla_rubik_op_desc {
	__u8 mode;
	__u8 precision;
	__u8 stride_x;
	__u8 stride_y;
} __packed __aligned(4);

/*
 * Statistics of one operation, written back by the firmware when it
 * completes (network stat_list_index): the engine's counters and the
 * run time in microseconds.
 */
struct dla_bdma_stat_desc {
	__u32 read_stall;
	__u32 write_stall;
	__u32 runtime;
} __packed __aligned(4);

struct dla_conv_stat_desc {
	__u32 data_read_stall;
	__u32 weight_read_stall;
	__u32 data_read_latency;
	__u32 weight_read_latency;
	__u32 saturation_count;
	__u32 nan_data_num;
	__u32 nan_weight_num;
	__u32 inf_data_num;
	__u32 inf_weight_num;
	__u32 runtime;
} __packed __aligned(4);

struct dla_sdp_stat_desc {
	__u32 nan_input_num;
	__u32 inf_input_num;
	__u32 nan_output_num;
	__u32 wdma_write_stall;
	__u32 lut_underflow;
	__u32 lut_overflow;
	__u32 lut_hybrid;
	__u32 lut_le_hit;
	__u32 lut_lo_hit;
	__u32 saturation_count;
	__u32 runtime;
} __packed __aligned(4);

struct dla_pdp_stat_desc {
	__u32 inf_input_num;
	__u32 nan_input_num;
	__u32 nan_output_num;
	__u32 write_stall;
	__u32 runtime;
} __packed __aligned(4);

struct dla_cdp_stat_desc {
	__u32 nan_input_num;
	__u32 inf_input_num;
	__u32 nan_output_num;
	__u32 write_stall;
	__u32 lut_uflow;
	__u32 lut_oflow;
	__u32 lut_hybrid;
	__u32 lut_le_hit;
	__u32 lut_lo_hit;
	__u32 saturation_count;
	__u32 runtime;
} __packed __aligned(4);

struct dla_rubik_stat_desc {
	__u32 read_stall;
	__u32 write_stall;
	__u32 runtime;
} __packed __aligned(4);

union dla_stat_container {
	struct dla_bdma_stat_desc bdma_stat;
	struct dla_conv_stat_desc conv_stat;
	struct dla_sdp_stat_desc sdp_stat;
	struct dla_pdp_stat_desc pdp_stat;
	struct dla_cdp_stat_desc cdp_stat;
	struct dla_rubik_stat_desc rubik_stat;
} __packed __aligned(4);

union dla_surface_container {
	struct dla_bdma_surface_desc bdma_surface;
	struct dla_conv_surface_desc conv_surface;
	struct dla_sdp_surface_desc sdp_surface;
	struct dla_pdp_surface_desc pdp_surface;
	struct dla_cdp_surface_desc cdp_surface;
	struct dla_rubik_surface_desc rubik_surface;
} __packed __aligned(4);

union dla_operation_container {
	struct dla_bdma_op_desc bdma_op;
	struct dla_conv_op_desc conv_op;
	struct dla_sdp_op_desc sdp_op;
	struct dla_pdp_op_desc pdp_op;
	struct dla_cdp_op_desc cdp_op;
	struct dla_rubik_op_desc rubik_op;
} __packed __aligned(4);

#define DLA_ABI_ASSERT_SIZE(type, size) \
	static_assert(sizeof(type) == (size), #type " breaks the NVDLA ABI")

DLA_ABI_ASSERT_SIZE(struct dla_network_desc, 40);
DLA_ABI_ASSERT_SIZE(struct dla_consumer, 4);
DLA_ABI_ASSERT_SIZE(struct dla_common_op_desc, 36);
DLA_ABI_ASSERT_SIZE(struct dla_roi_array_desc, 8);
DLA_ABI_ASSERT_SIZE(struct dla_roi_desc, 16);
DLA_ABI_ASSERT_SIZE(struct dla_bdma_transfer_desc, 32);
DLA_ABI_ASSERT_SIZE(struct dla_bdma_surface_desc, 644);
DLA_ABI_ASSERT_SIZE(struct dla_bdma_op_desc, 4);
DLA_ABI_ASSERT_SIZE(struct dla_cvt_param, 8);
DLA_ABI_ASSERT_SIZE(struct dla_data_cube, 32);
DLA_ABI_ASSERT_SIZE(struct dla_conv_surface_desc, 172);
DLA_ABI_ASSERT_SIZE(struct dla_conv_op_desc, 92);
DLA_ABI_ASSERT_SIZE(struct dla_lut_param, 700);
DLA_ABI_ASSERT_SIZE(struct dla_sdp_surface_desc, 160);
DLA_ABI_ASSERT_SIZE(struct dla_sdp_op, 32);
DLA_ABI_ASSERT_SIZE(struct dla_sdp_op_desc, 116);
DLA_ABI_ASSERT_SIZE(struct dla_pdp_surface_desc, 64);
DLA_ABI_ASSERT_SIZE(struct dla_pdp_op_desc, 52);
DLA_ABI_ASSERT_SIZE(struct dla_cdp_op_desc, 24);
DLA_ABI_ASSERT_SIZE(struct dla_rubik_op_desc, 4);
DLA_ABI_ASSERT_SIZE(struct dla_bdma_stat_desc, 12);
DLA_ABI_ASSERT_SIZE(struct dla_conv_stat_desc, 40);
DLA_ABI_ASSERT_SIZE(struct dla_sdp_stat_desc, 44);
DLA_ABI_ASSERT_SIZE(struct dla_pdp_stat_desc, 20);
DLA_ABI_ASSERT_SIZE(struct dla_cdp_stat_desc, 44);
DLA_ABI_ASSERT_SIZE(struct dla_rubik_stat_desc, 12);
DLA_ABI_ASSERT_SIZE(union dla_stat_container, 44);
DLA_ABI_ASSERT_SIZE(union dla_surface_container, 644);
DLA_ABI_ASSERT_SIZE(union dla_operation_container, 116);

#endif /* __NVDLA_DLA_INTERFACE_H__ */
