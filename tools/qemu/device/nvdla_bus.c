// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The model's memory bus: the NVDLA's DMA into the SoC's address space.
 *
 * Behind an IOMMU (the PCI device's bus-master space), each access is
 * translated page by page: a page the guest did not map is a bus error
 * too, and the IOMMU records the fault as the guest programmed it.
 *
 * The engines reach RAM only. An access that is not wholly in RAM (no
 * memory there, a device's registers, ROM for a write, the end of the
 * address space) is a bus error: the callback fails, the model reports it
 * as the hardware reports a bus error (docs/qemu-device.md), and QEMU logs
 * it under -d guest_errors. Device registers are refused rather than
 * reached: the worker runs without the BQL and holds the model's lock, so
 * a DMA into MMIO (its own window above all) could deadlock.
 *
 * Called on the worker thread with the model's lock held, without the BQL:
 * the address space is read and written through QEMU's DMA API, and the
 * translations are looked up under RCU.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/rcu.h"
#include "exec/memory.h"

#include "nvdla.h"

/*
 * The host address of [@addr, @addr + @len) when it is one piece of RAM
 * (writable if @is_write), else NULL.
 */
static void *nvdla_ram(NVDLACore *s, uint64_t addr, uint64_t len,
		       bool is_write)
{
	MemoryRegion *mr;
	hwaddr xlat, plen = len;

	if (!len || addr + len < addr)
		return NULL;
	RCU_READ_LOCK_GUARD();
	mr = address_space_translate(s->as, addr, &xlat, &plen, is_write,
				     MEMTXATTRS_UNSPECIFIED);
	if (plen < len || !memory_access_is_direct(mr, is_write))
		return NULL;
	return (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
}

/* Every piece of [@addr, @addr + @len) is RAM (several regions may hold it). */
static bool nvdla_in_ram(NVDLACore *s, uint64_t addr, uint64_t len,
			 bool is_write)
{
	MemoryRegion *mr;
	hwaddr xlat, plen;

	if (addr + len < addr)
		return false;
	RCU_READ_LOCK_GUARD();
	while (len) {
		plen = len;
		mr = address_space_translate(s->as, addr, &xlat, &plen,
					     is_write, MEMTXATTRS_UNSPECIFIED);
		if (!plen || !memory_access_is_direct(mr, is_write))
			return false;
		addr += plen;
		len -= plen;
	}
	return true;
}

static int nvdla_bus_error(NVDLACore *s, const char *what, uint64_t addr,
			   uint64_t len)
{
	s->bus_errors++;
	qemu_log_mask(LOG_GUEST_ERROR,
		      "nvdla@0x%" HWADDR_PRIx ": %s of %" PRIu64 " bytes at 0x%"
		      PRIx64 " outside RAM: bus error\n", s->iomem.addr, what,
		      len, addr);
	return -EFAULT;
}

int nvdla_bus_read(void *opaque, uint64_t addr, void *dst, uint32_t len)
{
	NVDLACore *s = opaque;

	if (!nvdla_in_ram(s, addr, len, false) ||
	    address_space_read(s->as, addr, MEMTXATTRS_UNSPECIFIED, dst,
			       len) != MEMTX_OK)
		return nvdla_bus_error(s, "read", addr, len);
	return 0;
}

int nvdla_bus_write(void *opaque, uint64_t addr, const void *src,
		    uint32_t len)
{
	NVDLACore *s = opaque;

	if (!nvdla_in_ram(s, addr, len, true) ||
	    address_space_write(s->as, addr, MEMTXATTRS_UNSPECIFIED, src,
				len) != MEMTX_OK)
		return nvdla_bus_error(s, "write", addr, len);
	return 0;
}

/*
 * The engines compute on whole cubes in place: the host mapping of RAM.
 * Board RAM is never unplugged, so the pointer outlives the RCU section.
 * A range that is not one piece of RAM behind the IOMMU (pages scattered
 * in guest memory) is seen through the mirror.
 */
void *nvdla_bus_map(void *opaque, uint64_t addr, uint64_t len)
{
	NVDLACore *s = opaque;
	void *p = nvdla_ram(s, addr, len, true);

	if (!p && s->mirror)
		p = nvdla_mirror_map(s, addr, len);

	if (!p)
		nvdla_bus_error(s, "mapping", addr, len);
	return p;
}

/*
 * An engine writes through a mapping: the pages are dirty (migration,
 * VGA), piece by piece where the range is several.
 */
void nvdla_bus_map_write(void *opaque, uint64_t addr, uint64_t len)
{
	NVDLACore *s = opaque;
	MemoryRegion *mr;
	hwaddr xlat, plen;

	if (addr + len < addr)
		return;
	RCU_READ_LOCK_GUARD();
	while (len) {
		plen = len;
		mr = address_space_translate(s->as, addr, &xlat, &plen, true,
					     MEMTXATTRS_UNSPECIFIED);
		if (!plen || !memory_access_is_direct(mr, true))
			return;
		memory_region_set_dirty(mr, xlat, plen);
		addr += plen;
		len -= plen;
	}
}
