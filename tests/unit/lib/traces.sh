# SPDX-License-Identifier: MIT
# The public hardware traces whose golden CRC is not the hardware's,
# sourced by the tests that play them: nv_small's tests of the SDP's Y
# stage, which nv_small is built without (NVIDIA's own nv_small test list
# leaves them out). Their CRCs are the C model's; the RTL passes the data
# through Y and writes 0xc43621c5 (both tests, on ../shared/oracle/A's
# bench), and so must the model.
# rtl_crc CONFIG/TEST: the RTL's CRC where it differs, else nothing.
rtl_crc() {
	case $1 in
	nv_small/sdp_3x3x33_ew_le_exp_int8 | nv_small/sdp_3x3x33_ew_le_lin_int8)
		echo 0xc43621c5 ;;
	esac
}

# trace_ok CONFIG/TEST STATUS OUTPUT: whether nvdla_trace's run of the
# test (its exit status and output) passed: its golden outputs, or the
# RTL's CRC where rtl_crc names one.
trace_ok() {
	crc=$(rtl_crc "$1")
	if [ -n "$crc" ]; then
		echo "$3" | grep -q "is $crc, expected"
	else
		[ "$2" -eq 0 ]
	fi
}
