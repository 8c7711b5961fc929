#!/bin/sh
# SPDX-License-Identifier: MIT
# The device-tree binding
# (Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml): it passes the
# dt-schema meta-schema, its examples validate against it, a wrong node is
# caught, and its compatible strings are exactly those of the driver's
# match table. dt-schema and dtc come from tools/setup.sh. Run from the
# repository root. (make upstream-series runs the kernel's own
# dt_binding_check on it too.)
set -u
bindings=Documentation/devicetree/bindings
binding=$bindings/npu/nvidia,nvdla.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# show FILE: its lines as TAP comments.
show() {
	sed 's/^/# /' "$1"
}

if ! command -v python3 >/dev/null || ! python3 -c 'import yaml' 2>/dev/null; then
	skip "device-tree binding checks" "python3 or python3-yaml missing (tools/setup.sh)"
	exit 0
fi

# The driver's strings, from the of_device_id table, against the binding's.
sed -n 's/.*\.compatible = "\([^"]*\)".*/\1/p' drivers/accel/nvdla/nvdla_device.c |
	sort >"$tmp/driver"
python3 -c '
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for c in doc["properties"]["compatible"]["enum"]:
    print(c)
' "$binding" 2>"$tmp/err" | sort >"$tmp/binding"
[ -s "$tmp/driver" ] && [ -s "$tmp/binding" ]
ok $? "driver and binding list compatible strings"
show "$tmp/err"
diff "$tmp/driver" "$tmp/binding" >"$tmp/diff"
ok $? "the binding lists exactly the driver's compatible strings"
show "$tmp/diff"

if ! command -v dt-doc-validate >/dev/null || ! command -v dtc >/dev/null; then
	skip "binding checked by dt-schema" "dt-schema or dtc missing (tools/setup.sh)"
	exit 0
fi

# dt-validate reports problems on its output but exits 0: any output fails.
dt-doc-validate -u "$bindings" "$binding" >"$tmp/doc" 2>&1 && [ ! -s "$tmp/doc" ]
ok $? "binding passes the dt-schema meta-schema"
show "$tmp/doc"

dt-mk-schema -j "$(dirname "$binding")/" >"$tmp/schema.json" 2>"$tmp/mk"
ok $? "processed schema built"
show "$tmp/mk"

# build NAME: NAME.dts (with #include) to NAME.dtb, as the kernel does.
# The kernel's dt-bindings headers, from the headers tools/setup.sh unpacked.
inc=$(find "${NVDLA_CACHE:-$HOME/.cache/nvdla}/kernels" -mindepth 5 -maxdepth 5 \
	-path '*/usr/src/linux-headers-*/include' \
	-exec test -d {}/dt-bindings \; -print 2>/dev/null | head -1)
build() {
	cpp -P -nostdinc ${inc:+-I "$inc"} -undef -x assembler-with-cpp \
		"$tmp/$1.dts" >"$tmp/$1.pre.dts" 2>>"$tmp/$1.log" &&
		dtc -q -O dtb -o "$tmp/$1.dtb" -@ "$tmp/$1.pre.dts" 2>>"$tmp/$1.log"
}
# validate NAME: dt-validate's findings for NAME.dtb in NAME.out.
validate() {
	dt-validate -M -s "$tmp/schema.json" "$tmp/$1.dtb" >"$tmp/$1.out" 2>&1
	grep -v 'matched on schema\|^	http' "$tmp/$1.out" >"$tmp/$1.findings"
}

if [ -z "$inc" ]; then
	skip "binding examples validate" "no kernel headers for dt-bindings"
else
	dt-extract-example "$binding" >"$tmp/ex.dts"
	build ex
	ok $? "examples compile"
	show "$tmp/ex.log"
	validate ex
	[ ! -s "$tmp/ex.findings" ]
	ok $? "examples validate against the binding"
	show "$tmp/ex.findings"
	[ "$(grep -c "^$tmp/ex.dtb: .*npu@.*matched on schema" "$tmp/ex.out")" -eq 2 ] &&
		[ "$(grep -c 'schemas/npu/nvidia,nvdla.yaml#' "$tmp/ex.out")" -eq 2 ]
	ok $? "both example nodes are checked by this binding"
fi

# The node of the emulated arm64 board (tools/qemu/board/nvdla-virt.dtsi),
# under a root with the board's address cells and interrupt controller.
cat >"$tmp/board.dts" <<'DTS'
/dts-v1/;
/ {
	compatible = "linux,dummy-virt";
	model = "linux,dummy-virt";
	#address-cells = <2>;
	#size-cells = <2>;
	interrupt-parent = <&gic>;

	gic: interrupt-controller@8000000 {
		compatible = "arm,cortex-a15-gic";
		reg = <0x0 0x8000000 0x0 0x10000>, <0x0 0x8010000 0x0 0x10000>;
		interrupt-controller;
		#interrupt-cells = <3>;
	};
};
DTS
cat tools/qemu/board/nvdla-virt.dtsi >>"$tmp/board.dts"
build board
validate board
[ -f "$tmp/board.dtb" ] && [ ! -s "$tmp/board.findings" ] &&
	grep -q 'npu@7f000000: matched' "$tmp/board.out"
ok $? "the emulated board's node validates against the binding"
show "$tmp/board.log"
show "$tmp/board.findings"

# A node with an unknown property, a second register window and no
# interrupts: each must be reported.
cat >"$tmp/bad.dts" <<'DTS'
/dts-v1/;
/ {
	compatible = "foo";
	model = "foo";
	#address-cells = <1>;
	#size-cells = <1>;

	npu@10000000 {
		compatible = "nvidia,nvdla-nv-small";
		reg = <0x10000000 0x20000>, <0x20000000 0x1000>;
		clock-names = "csb";
		nvidia,bogus = <1>;
	};
};
DTS
build bad
validate bad
grep -q "reg: .* is too long" "$tmp/bad.findings" &&
	grep -q "'interrupts' is a required property" "$tmp/bad.findings" &&
	grep -q "nvidia,bogus" "$tmp/bad.findings" &&
	grep -q "clock-names:0: 'core' was expected" "$tmp/bad.findings"
ok $? "a wrong node is reported (extra reg, no interrupts, unknown property, clock name)"
show "$tmp/bad.findings"
