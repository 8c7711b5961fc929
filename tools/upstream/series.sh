#!/bin/sh
# SPDX-License-Identifier: MIT
# Write the upstream patch series against Debian's linux-source-6.12
# (tools/upstream/kernel-tree.sh): git format-patch into OUT (default
# build/upstream-series), one patch each for
#
#   1. the UAPI header           include/uapi/drm/nvdla_accel.h
#   2. the device-tree binding   Documentation/devicetree/bindings/npu/
#   3. the engine scheduler      drivers/accel/nvdla/engine/ and a Makefile
#                                building it (not yet hooked into the tree)
#   4. the driver                drivers/accel/nvdla/, its Kconfig, and
#                                the hooks in drivers/accel/{Kconfig,Makefile}
#   5. the documentation         Documentation/accel/nvdla/ and its entry in
#                                Documentation/accel/index.rst
#
# each adding its paths to the MAINTAINERS section of
# tools/upstream/MAINTAINERS.fragment (so that checkpatch finds MAINTAINERS
# updated with every new file), with the message of tools/upstream/messages/
# and a Signed-off-by of the repository's git identity (on a fresh clone
# without one, the author of its HEAD). The commits are
# made in a worktree of the kernel tree ($cache/upstream/gen) with the date
# of the repository's HEAD, so the same sources give the same series.
#
# Usage: tools/upstream/series.sh [OUT]
set -eu

root=$(git rev-parse --show-toplevel)
here=$root/tools/upstream
out=${1:-$root/build/upstream-series}
# absolute: the commits are made in the kernel tree
case $out in /*) ;; *) out=$PWD/$out ;; esac
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
src=$("$here/kernel-tree.sh" src)
gen=$cache/upstream/gen
# One writer at a time: the series is made in one worktree.
mkdir -p "$cache/upstream"
exec 9>"$cache/upstream/series.lock"
flock 9

die() {
	echo "series: $*" >&2
	exit 1
}

name=$(git -C "$root" config user.name ||
	git -C "$root" log -1 --format=%an) || die "no git identity"
email=$(git -C "$root" config user.email ||
	git -C "$root" log -1 --format=%ae) || die "no git identity"
date=$(git -C "$root" log -1 --format=%cI)

# The files of the series, in the kernel's layout, into $stage.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
[ -d "$root/drivers/accel/nvdla" ] || die "no drivers/accel/nvdla"
(cd "$root" && cp --parents -r drivers/accel/nvdla \
	include/uapi/drm/nvdla_accel.h \
	Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml \
	Documentation/accel/nvdla "$stage/")
for f in drivers/accel/nvdla/Kconfig drivers/accel/nvdla/Makefile; do
	[ -f "$stage/$f" ] || die "no $f"
done

# The engine patch's Makefile: the driver's, less the driver's own objects
# (every object outside engine/), and without a dangling continuation.
engine_makefile() {
	grep -v -E '^[[:space:]]*(nvdla-[^ ]*[[:space:]]*[:+]=[[:space:]]*)?nvdla_[a-z0-9_]*\.o[[:space:]]*\\?[[:space:]]*$' \
		"$stage/drivers/accel/nvdla/Makefile" |
		awk '{ l[NR] = $0 } END {
			for (i = 1; i <= NR; i++) {
				s = l[i]
				if (s ~ /\\[ \t]*$/ && (i == NR || l[i + 1] !~ /^[ \t]+[^ \t]/))
					sub(/[ \t]*\\[ \t]*$/, "", s)
				print s
			}
		}' | cat -s
}

# commit MESSAGE F-PATH...: add the MAINTAINERS entry with these F: paths
# and commit everything staged in the worktree.
commit() {
	msg=$1
	shift
	"$here/maintainers.py" MAINTAINERS "$here/MAINTAINERS.fragment" "$@"
	# -f: Debian's .gitignore ignores everything at the top level.
	git add -f -A
	{
		cat "$here/messages/$msg"
		printf '\nSigned-off-by: %s <%s>\n' "$name" "$email"
	} | GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		git commit -q -F -
}

if [ ! -d "$gen/.git" ] && [ ! -f "$gen/.git" ]; then
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$gen" base
fi
cd "$gen"
git checkout -q -f --detach base
git reset -q --hard base
git clean -fdxq

uapi=include/uapi/drm/nvdla_accel.h
binding=Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml
drv=drivers/accel/nvdla

cp "$stage/$uapi" "$uapi"
commit 1-uapi "$uapi"

mkdir -p "${binding%/*}"
cp "$stage/$binding" "$binding"
commit 2-binding "$binding" "$uapi"

mkdir -p "$drv"
cp -r "$stage/$drv/engine" "$drv/"
engine_makefile >"$drv/Makefile"
commit 3-engine "$binding" "$drv/engine/" "$uapi"

cp -r "$stage/$drv/." "$drv/"
sed -i '/^source "drivers\/accel\/ivpu\/Kconfig"$/a source "drivers/accel/nvdla/Kconfig"' \
	drivers/accel/Kconfig
sed -i 's|^\(obj-$(CONFIG_DRM_ACCEL_IVPU)\t\t+= ivpu/\)$|\1\nobj-$(CONFIG_DRM_ACCEL_NVDLA)\t\t+= nvdla/|' \
	drivers/accel/Makefile
grep -q nvdla/Kconfig drivers/accel/Kconfig && grep -q nvdla/ drivers/accel/Makefile ||
	die "the hooks in drivers/accel/Kconfig and Makefile did not go in"
commit 4-driver "$binding" "$drv/" "$uapi"

cp -r "$stage/Documentation/accel/nvdla" Documentation/accel/
sed -i 's|^   qaic/index$|   nvdla/index\n   qaic/index|' Documentation/accel/index.rst
grep -q nvdla/index Documentation/accel/index.rst || die "no toctree entry"
commit 5-docs
git -C "$gen" log --oneline base..HEAD >&2

rm -rf "$out"
mkdir -p "$out"
git format-patch -q --base=base -o "$out" base..HEAD
ls "$out"
