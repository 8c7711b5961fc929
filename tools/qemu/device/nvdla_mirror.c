// SPDX-License-Identifier: GPL-2.0-or-later
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Behind an IOMMU, a buffer the guest maps at one device address range is
 * made of pages scattered in guest RAM, while the engines compute on a
 * range through one host pointer (nvdla_bus_map()). The mirror is a host
 * range as large as the device's address space, reserved inaccessible;
 * mapping a device range places there, at the range's own offset, the
 * guest's RAM pages the IOMMU translates it to, mapped a second time from
 * the file descriptor behind guest RAM. The engines then read and write
 * the guest's pages themselves, as a device behind an IOMMU does.
 *
 * That needs guest RAM shared through a file descriptor: the board runs
 * with "-object memory-backend-memfd,share=on" as its RAM. A page the
 * IOMMU does not translate (unmapped, or a fault the guest sees in its
 * event queue) fails the mapping, and the engine reports a bus error.
 *
 * Each mapping translates its pages anew, so a device address the guest
 * maps to other pages later is seen at its new pages. The mirror keeps
 * the last pages each address was mapped to until the device goes away.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/rcu.h"
#include "exec/address-spaces.h"
#include "exec/memory.h"

#include <sys/mman.h>

#include "nvdla.h"

/* The device addresses the mirror covers: the driver's 40-bit DMA mask. */
#define NVDLA_MIRROR_SIZE (1ull << 40)

bool nvdla_mirror_init(NVDLACore *s, Error **errp)
{
	void *p;

	/* On the system bus, device addresses are the SoC's own. */
	if (s->as == &address_space_memory)
		return true;
	p = mmap(NULL, NVDLA_MIRROR_SIZE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		error_setg_errno(errp, errno,
				 "nvdla: cannot reserve the IOMMU mirror");
		return false;
	}
	s->mirror = p;
	return true;
}

void nvdla_mirror_fini(NVDLACore *s)
{
	if (s->mirror)
		munmap(s->mirror, NVDLA_MIRROR_SIZE);
	s->mirror = NULL;
}

static void *nvdla_mirror_refuse(NVDLACore *s, const char *why, uint64_t addr)
{
	qemu_log_mask(LOG_GUEST_ERROR,
		      "nvdla@0x%" HWADDR_PRIx ": device address 0x%" PRIx64
		      " %s\n", s->iomem.addr, addr, why);
	return NULL;
}

/*
 * Place the RAM behind [@addr, @addr + @len) in the mirror, piece by
 * piece as the IOMMU translates it; the mirror's address of @addr, or
 * NULL when a piece is not RAM shared through a file descriptor.
 */
void *nvdla_mirror_map(NVDLACore *s, uint64_t addr, uint64_t len)
{
	uint64_t page = qemu_real_host_page_size();
	uint64_t start = addr & ~(page - 1);
	uint64_t end = ROUND_UP(addr + len, page);
	uint64_t at;
	MemoryRegion *mr;
	hwaddr xlat, plen;
	uint8_t *host;
	int fd;

	if (!len || addr + len < addr || end > NVDLA_MIRROR_SIZE)
		return nvdla_mirror_refuse(s, "beyond the mirror", addr);
	RCU_READ_LOCK_GUARD();
	for (at = start; at < end; at += plen) {
		plen = end - at;
		mr = address_space_translate(s->as, at, &xlat, &plen, true,
					     MEMTXATTRS_UNSPECIFIED);
		if (!plen || !memory_access_is_direct(mr, true))
			return NULL;	/* the caller reports the bus error */
		fd = memory_region_get_fd(mr);
		host = (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
		if (fd < 0)
			return nvdla_mirror_refuse(s,
				"is behind the IOMMU, but guest RAM has no file descriptor (use a shared memory backend)",
				at);
		xlat = qemu_ram_block_host_offset(mr->ram_block, host);
		plen = MIN(plen, end - at) & ~(page - 1);
		if (!plen || (xlat & (page - 1)))
			return nvdla_mirror_refuse(s,
				"translates to less than a host page", at);
		if (mmap(s->mirror + at, plen, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, xlat) == MAP_FAILED)
			return nvdla_mirror_refuse(s,
				"cannot be mapped into the mirror", at);
	}
	return s->mirror + addr;
}
