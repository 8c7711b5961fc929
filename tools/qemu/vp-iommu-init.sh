#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# /init of the virtual platform's IOMMU run (run-vp.sh --iommu): QEMU's
# virt board with an SMMUv3 in front of its PCI bus and four nvdla-pci
# functions, nv_full, nv_full, nv_small and nv_large as on the device-tree
# board (tools/qemu/device/nvdla_pci.c), whose DMA the SMMU translates. nvdla.ko binds them
# through PCI and gives them shmem buffers, each mapped by the IOMMU to
# one device range over pages scattered in RAM; the driver's guest tests,
# the regression loadables and the corpus networks then run through the
# IOMMU as on the device-tree board (vp-init.sh).
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh
guest_start

# config_of DIR: the configuration of the NVDLA function of sysfs DIR (its
# device ID is 0x10f0 plus the configuration's index), or nothing.
config_of() {
	[ "$(cat "$1/vendor")" = 0x1af4 ] || return 0
	case $(cat "$1/device") in
	0x10f0) echo nv_full ;;
	0x10f1) echo nv_small ;;
	0x10f2) echo nv_large ;;
	esac
}
# pci_of CONFIG: the PCI address of the first function of CONFIG.
pci_of() {
	for d in /sys/bus/pci/devices/*; do
		[ "$(config_of "$d")" = "$1" ] && basename "$d" && return 0
	done
}
# node_of_config CONFIG: the device node of the function of CONFIG.
node_of_config() {
	local pci

	pci=$(pci_of "$1")
	for d in $(nvdla_classes); do
		[ "$(basename "$(readlink "$d/device")")" = "$pci" ] && node_of "$d"
	done
}

guest_load_deps
# The fuzzer's random sizes would pin up to 1 GiB of shmem pages a buffer:
# 64 MiB for all buffers of a device bounds what it takes (the default
# again after the driver's tests).
insmod /nvdla.ko max_buffer_mb=64
ok $? "insmod nvdla.ko"
bound=0
for d in /sys/bus/pci/devices/*; do
	c=$(config_of "$d")
	[ -n "$c" ] || continue
	pci=$(basename "$d")
	[ "$(basename "$(readlink "$d/driver")")" = nvdla ] &&
		dmesg | grep -q "$pci: .*NVDLA $c (PCI)$" &&
		dmesg | grep -q "$pci: .*shmem buffers, mapped by the IOMMU$" &&
		bound=$((bound + 1))
	echo "# $c: PCI $pci, IOMMU group type $(cat "$d/iommu_group/type")"
done
[ "$bound" -eq 4 ]
ok $? "the four PCI functions bound to nvdla, shmem buffers behind the IOMMU ($bound of 4)"
types=$(cat /sys/bus/pci/devices/*/iommu_group/type 2>/dev/null | sort -u | tr '\n' ' ')
case $types in
DMA*) ok 0 "the SMMU translates the functions' DMA (group type $types)" ;;
*) ok 1 "the SMMU translates the functions' DMA (group type '$types')" ;;
esac
insmod /modules/vgem.ko || echo "not ok - insmod vgem.ko"

# The driver's tests, on the first device (nv_full; the second for the
# tests that need two).
board_tests
echo 1024 >/sys/module/nvdla/parameters/max_buffer_mb
full=$(node_of_config nv_full)
board_goldens "$full"
# The runtime's API through the driver: other drivers' dma-bufs (vgem)
# are inputs without a copy here, behind the SMMU.
runtime_api_tests "$full" /networks/digits-fp16-nv_full/net.nvdla
# The timeout path: the driver resets the function (FLR) and it computes
# again, its buffers still mapped.
if [ -x /bin/nvdla_runtime ] && [ -f /loadables/conv_long.nvdla ]; then
	timeout_then_golden "$full" bdma_copy-after-flr
fi
# Networks on the function of their configuration, through the IOMMU.
board_networks
grep nvdla /proc/interrupts | sed 's/^/#   /'
dmesg | grep -i 'smmu' | tail -5 | sed 's/^/#   /'
rmmod vgem
rmmod nvdla
ok $? "rmmod nvdla"

guest_end
