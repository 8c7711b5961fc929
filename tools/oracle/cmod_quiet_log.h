/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Force-included (g++ -include) into every file of NVIDIA's C model by
 * tools/cmodel-fast.sh. The C model formats every debug and info message
 * and hands it to SystemC, which looks its type up by name before it
 * drops it for its verbosity: nine tenths of a convolution's time. These
 * take the C model's own macro names and skip both steps unless SystemC
 * would print the message; what the C model computes is untouched.
 */
#include "log.h"

#undef cslDebugInternal
#undef cslInfoInternal

#define CMOD_QUIET_REPORT(verbosity, ...) do { \
	if (sc_core::sc_report_handler::get_verbosity_level() >= (verbosity)) { \
		char msg_buf[MSG_BUF_SIZE]; \
		int pos = snprintf(msg_buf, MSG_BUF_SIZE, "%d:", __LINE__); \
		snprintf(msg_buf + pos, MSG_BUF_SIZE - pos, __VA_ARGS__); \
		SC_REPORT_INFO_VERB(__FILENAME__, msg_buf, (verbosity)); \
	} \
} while (0)

#define cslDebugInternal(lvl, ...) CMOD_QUIET_REPORT(sc_core::SC_DEBUG, __VA_ARGS__)
#define cslInfoInternal(...) CMOD_QUIET_REPORT(sc_core::SC_FULL, __VA_ARGS__)
