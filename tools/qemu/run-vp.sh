#!/bin/sh
# SPDX-License-Identifier: MIT
# The virtual platform: Debian's arm64 kernel KVER on QEMU's virt board
# with NVDLA devices (tools/qemu/device/, built by build-qemu.sh), from a
# busybox initramfs holding the cross-built nvdla.ko, the modules it needs
# and the guest tests built for arm64 (make vp-tests); /init is
# tools/qemu/vp-init.sh. Prints the TAP lines the guest reports, prefixed
# with [vp KVER]; a guest that panics or hangs yields a "not ok" line; the
# console log is kept in BUILD_DIR/qemu/vp-KVER.log.
#
# Usage: tools/qemu/run-vp.sh [--shell DEVICES] [--intree DIR]
#                            [--iommu DEVICES] KVER BUILD_DIR
#   --shell DEVICES  boot the board with DEVICES (nv_small, nv_full+nv_small,
#                    ...) to a shell on the console, the driver loaded
#   --iommu DEVICES  the board with an SMMUv3 in front of its PCI bus and
#                    DEVICES as nvdla-pci functions instead of device-tree
#                    nodes, guest RAM shared through a memfd (the device
#                    sees scattered pages through it, nvdla_mirror.c);
#                    /init is tools/qemu/vp-iommu-init.sh. Its lines say
#                    [vp-iommu KVER], its logs go to BUILD_DIR/qemu/vp-iommu-KVER*.
#   --intree DIR     the in-tree driver instead of the out-of-tree one:
#                    DIR's nvdla.ko and drm.ko, built from the upstream
#                    series for KVER by tools/upstream/arm64-modules.sh
#                    (drm.ko with the accel core replaces Debian's); no
#                    legacy test, the series has no legacy ioctls. Its
#                    lines say [vp-intree KVER], its logs go to
#                    BUILD_DIR/qemu/vp-intree-KVER*.
# NVDLA_QEMU (default NVDLA_CACHE/qemu/build/qemu-system-aarch64) is the
# emulator; NVDLA_VP_RUNTIME (default BUILD_DIR/arm64/bin/nvdla_runtime, the
# arm64 cross build) the nvdla_runtime that runs the regression loadables
# in the guest, with its libraries from the cross toolchain and the arm64
# sysroot (skipped without it); NVDLA_VP_FILES a directory copied into the
# guest as /files (a network and its input, say); NVDLA_VP_NETWORKS the
# corpus networks run there (names; default all, every one is of a
# configuration the board has); NVDLA_QEMU_TIMEOUT (default 600 s) bounds the guest;
# NVDLA_QEMU_APPEND adds kernel parameters (nvdla_fuzz_seconds=N,
# nvdla_fuzz_seed=N, nvdla_test_timeout=N).
set -eu

shell=
intree=
iommu=
while [ $# -gt 2 ]; do
	case $1 in
	--shell) shell=$2 ;;
	--intree) intree=$(realpath "$2") ;;
	--iommu) iommu=$2 ;;
	*) echo "run-vp.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
kver=$1
build=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
qemu=${NVDLA_QEMU:-$cache/qemu/build/qemu-system-aarch64}
kroot=$cache/board/$kver
vp=vp${intree:+-intree}${iommu:+-iommu}
out=$build/qemu/$vp-$kver
root=$out/root
log=$build/qemu/$vp-$kver.log
timeout_s=${NVDLA_QEMU_TIMEOUT:-600}
hw="-cpu cortex-a57 -m 1024 -smp 2"
kver_tag="$vp $kver"

. tools/qemu/guest-host.sh
kver_real=$kver
kver=$kver_tag

kernel=$kroot/boot/vmlinuz-$kver_real
[ -f "$kernel" ] || fail "no arm64 kernel in $kroot (run tools/setup.sh)"
[ -x "$qemu" ] || fail "no $qemu (run tools/setup.sh)"
ko=${intree:-$build/kmod/$kver_real}/nvdla.ko
[ -f "$ko" ] || fail "no $ko (run make module-board)"
[ -x "$build/vp-tests/nvdla_regfuzz" ] || fail "no guest tests (run make vp-tests)"

# guest-host.sh's helpers name the kernel by $kver: the real one for them.
kver=$kver_real
root_start "$kroot/bin/busybox" tools/qemu/vp${iommu:+-iommu}-init.sh
cp "$build"/vp-tests/* "$root/tests/"
[ -z "$intree" ] || rm "$root/tests/nvdla_legacy_test"

# record_conv NAME [MKCONV OPTION...]: regplay/NAME.txn, a 56x56x64 to 128
# int8 convolution for nv_full made by nvdla_mkconv, recorded on the
# in-process model for nvdla_regplay: "hazard" given one data bank, which
# the hardware cannot run, "control" split as nvdla_mkconv splits it.
record_conv() {
	name=$1
	shift
	rec=$(mktemp -d)
	"$build/bin/nvdla_mkconv" "$@" 56 56 64 128 "$rec/conv.nvdla" \
		>/dev/null 2>&1 &&
		"$build/bin/nvdla_runtime" --loadable "$rec/conv.nvdla" \
			--device sim:nv_full --allow-hw-hazards --record "$rec/r" \
			-o "$rec/out.dimg" >/dev/null 2>&1 &&
		cp "$rec/r/input.txn" "$root/regplay/$name.txn"
	rm -rf "$rec"
}
if [ -z "$iommu" ]; then
	mkdir -p "$root/regplay"
	record_conv hazard --banks 1,1 --allow-hw-hazards
	record_conv control
fi

# copy_arm64 FILE DIR: an arm64 program into DIR of the guest, with the
# libraries it needs (its NEEDED entries, recursively) and the loader.
sysroot=$cache/sysroot/arm64
libdirs="$sysroot/usr/lib/aarch64-linux-gnu $sysroot/lib/aarch64-linux-gnu
	/usr/aarch64-linux-gnu/lib"
copy_arm64() {
	cp "$1" "$root/$2/"
	mkdir -p "$root/lib/aarch64-linux-gnu"
	cp /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 "$root/lib/"
	todo=$1
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # one word per file
		set -- $todo
		todo=
		for f in "$@"; do
			for lib in $(aarch64-linux-gnu-readelf -d "$f" |
				sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				[ -f "$root/lib/aarch64-linux-gnu/$lib" ] && continue
				for d in $libdirs; do
					if [ -f "$d/$lib" ]; then
						cp -L "$d/$lib" "$root/lib/aarch64-linux-gnu/"
						todo="$todo $d/$lib"
						break
					fi
				done
			done
		done
	done
}
runtime=${NVDLA_VP_RUNTIME:-$build/arm64/bin/nvdla_runtime}
if [ -f "$runtime" ]; then
	copy_arm64 "$runtime" bin
	# The runtime's API tests, built with it (runtime_api_tests).
	for t in test_async test_buffer_share; do
		t=$(dirname "$runtime")/../tests/$t
		if [ -x "$t" ]; then copy_arm64 "$t" bin; fi
	done
	cp -r loadables "$root/loadables"
	# A convolution of 9.4e9 multiply-adds: about 0.24 s on the device's
	# vector code on this host, five times the 50 ms job timeout the
	# boards set (2.4e9 took 49 ms: the timeout was a race).
	[ -x "$build/bin/nvdla_mkconv" ] && "$build/bin/nvdla_mkconv" 40 40 256 2560 \
		"$root/loadables/conv_long.nvdla" >/dev/null
	cp tests/golden-loadables "$root/tests/"
	if [ -d ../shared/conformance/loadables ]; then
		mkdir -p "$root/shared"
		cp -r ../shared/conformance/loadables "$root/shared/loadables"
	fi
fi

# Networks of the corpus (from NVIDIA's compiler) and the digit demo
# (compiled here), each with its arguments one a line, its configuration
# and the output values the in-process model gives (tools/qemu/vp-init.sh
# runs them on the board's device of that configuration). One the
# in-process runtime refuses before it runs (a hardware limit the firmware
# checks, docs/model.md) must be refused there with the same message.
networks=../shared/conformance/networks
stage_network() {
	d=$root/networks/$1
	mkdir -p "$d"
	printf '%s\n' "$@" | tail -n +2 >"$d/args"
	sed -n '/^--device$/{n;s/^sim://p;}' "$d/args" >"$d/config"
}
expect_network() {
	# shellcheck disable=SC2046 # one argument a line
	if (IFS='
'; cd "$1" && "$build/bin/nvdla_runtime" $(cat args) --rawdump \
		-o expected.txt >/dev/null 2>why); then
		return
	fi
	if ! sed -n 's/.*: \(task [0-9]*: op [0-9]*: .*\)/\1/p' "$1/why" |
		grep . >"$1/refused"; then
		rm -f "$1/refused"
		echo "not ok - [$kver] $(basename "$1") in process, for the guest"
	fi
}
if [ -f "$runtime" ] && [ -x "$build/bin/nvdla_runtime" ]; then
	if [ -d "$networks" ] && command -v python3 >/dev/null; then
		list=${NVDLA_VP_NETWORKS:-all}
		[ "$list" = all ] && list=$(ls "$networks")
		for c in $list; do
			[ -f "$networks/$c/case.json" ] || continue
			# shellcheck disable=SC2046 # one argument a line
			(IFS='
'; stage_network "$c" $(python3 -c 'import json, sys
print("\n".join(json.load(open(sys.argv[1]))["run"]["args"]))' \
				"$networks/$c/case.json"))
			case $(cat "$root/networks/$c/config") in
			nv_full|nv_small|nv_large) ;;
			*) rm -r "$root/networks/$c"; continue ;;
			esac
			cp "$networks/$c/$c.nvdla" "$networks/$c"/input.* \
				"$root/networks/$c/"
			expect_network "$root/networks/$c"
		done
	fi
	if [ -x "$build/bin/nvdla_compile" ]; then
		for c in nv_full:fp16 nv_small:int8; do
			cfg=${c%:*}
			prec=${c#*:}
			calib=
			[ "$prec" = int8 ] && calib="--calibrate models/digits/calib"
			stage_network "digits-$prec-$cfg" --loadable net.nvdla \
				--device "sim:$cfg" --image input.pgm --normalize 255
			cp models/digits/input.pgm "$root/networks/digits-$prec-$cfg/"
			# shellcheck disable=SC2086 # no --calibrate in fp16
			"$build/bin/nvdla_compile" models/digits/digits.onnx \
				--config "$cfg" --precision "$prec" $calib \
				-o "$root/networks/digits-$prec-$cfg/net.nvdla" >/dev/null &&
				expect_network "$root/networks/digits-$prec-$cfg" ||
				echo "not ok - [$kver] digits $prec $cfg compiled here"
		done
	fi
fi
[ -n "${NVDLA_VP_FILES:-}" ] && cp -r "$NVDLA_VP_FILES" "$root/files"
root_modules vgem
[ -z "$intree" ] || cp "$intree/drm.ko" "$root/modules/drm.ko"
root_pack
kver=$kver_tag

if [ -n "$shell" ]; then
	# shellcheck disable=SC2086 # one word per option
	exec "$qemu" -accel tcg -M "virt,nvdla=$shell" $hw -nographic \
		-nic none -no-reboot -kernel "$kernel" -initrd "$out/initrd.gz" \
		-append "console=ttyAMA0 panic=-1 iomem=relaxed quiet nvdla_vp=shell ${NVDLA_QEMU_APPEND:-}"
fi

# nvdla-pci refuses a configuration the model does not know.
if [ -n "$iommu" ]; then
	msg=$(timeout 60 "$qemu" -M virt -nic none -display none \
		-device nvdla-pci,config=nv_none 2>&1) || true
	case $msg in
	*"nvdla: unknown configuration 'nv_none'"*) echo "ok - [$kver] nvdla-pci refuses an unknown configuration" ;;
	*) echo "not ok - [$kver] nvdla-pci refuses an unknown configuration: $msg" ;;
	esac
fi
# The board: four device-tree NVDLAs, or DEVICES of --iommu on PCI behind
# the SMMU, RAM a shared memfd of -m's size.
board="-M virt,nvdla=nv_full+nv_full+nv_small+nv_large"
if [ -n "$iommu" ]; then
	board="-M virt,iommu=smmuv3,memory-backend=ram
		-object memory-backend-memfd,id=ram,size=1024M,share=on"
	for c in $(echo "$iommu" | tr '+' ' '); do
		board="$board -device nvdla-pci,config=$c"
	done
fi
# -d guest_errors: the device's reports of bad programs, in the log.
start=$(date +%s)
status=0
# shellcheck disable=SC2086 # one word per option
timeout "$timeout_s" "$qemu" -accel tcg $board \
	$hw -nographic -nic none -no-reboot -kernel "$kernel" \
	-initrd "$out/initrd.gz" -d guest_errors -D "$out/guest_errors.log" \
	-append "console=ttyAMA0 panic=-1 panic_on_warn=1 iomem=relaxed quiet ${NVDLA_QEMU_APPEND:-}" \
	</dev/null >"$log" 2>&1 || status=$?
echo "# [$kver] board guest ran for $(($(date +%s) - start)) s, log in $log"
[ -s "$out/guest_errors.log" ] &&
	echo "# [$kver] $(wc -l <"$out/guest_errors.log") guest errors logged by QEMU" \
		"($(grep -c 'bus error' "$out/guest_errors.log") DMA bus errors)"
# The device that stopped on the recorded layer said why (vp-init.sh).
what="QEMU's log names the rule the device stopped on"
if [ -z "$iommu" ]; then
	if grep -q 'stops until reset: CDMA insufficient cbuf space' \
		"$out/guest_errors.log"; then
		echo "ok - [$kver] $what"
	else
		echo "not ok - [$kver] $what"
	fi
fi
guest_report
