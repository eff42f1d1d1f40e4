#!/usr/bin/env python3
"""Writes the seeds of the nvme_zns fuzz target (tests/fuzz/corpus/nvme_zns):
Identify pages built field by field from the NVMe Zoned Namespace Command Set
1.1 layouts. The target decodes one buffer as the ZNS namespace page, the ZNS
controller page and the NVM namespace page at once, so a seed sets the
fields of each where they do not overlap.

  tests/fuzz/make_zns_seeds.py [CORPUS_DIR]   (default: tests/fuzz/corpus)
"""
import struct

from seed_files import write_seeds

IDENTIFY_BYTES = 4096
LBAFE_OFFSET = 2816  # LBA Format Extension list, 16 bytes an entry


def zns_page(zoc, ozcs, mar, mor, zsze, zdes=0, zasl=0, lbads=12, zrwa=None):
    page = bytearray(IDENTIFY_BYTES)
    # ZNS Identify Namespace: ZOC, OZCS, MAR, MOR (0's based), RRL, FRL
    struct.pack_into("<HHIIII", page, 0, zoc, ozcs, mar, mor, 0, 0)
    if zrwa is not None:  # NUMZRWA, ZRWAFG, ZRWASZ, ZRWACAP
        struct.pack_into("<IHHB", page, 44, *zrwa)
    struct.pack_into("<QB", page, LBAFE_OFFSET, zsze, zdes)
    # ZNS Identify Controller: ZASL is byte 0, which is ZOC's low byte here;
    # the NVM Identify Namespace's FLBAS (26) and LBA format 0 (128) give the
    # LBA size the zone size is counted in.
    page[0] = zasl if zasl else page[0]
    struct.pack_into("<HBB", page, 128, 0, lbads, 0)
    return bytes(page)


def main():
    no_limit = 0xFFFFFFFF
    seeds = {
        # QEMU's defaults for a zoned namespace: 128 MiB zones of 4 KiB blocks, no limits
        "nvme_zns/no_limits_4k.bin": zns_page(0, 0, no_limit, no_limit, 32768),
        # limits and a zone append size, 512 B blocks, a descriptor extension
        "nvme_zns/limits_512.bin": zns_page(0x3, 0x1, 13, 11, 131072, zdes=2, zasl=5, lbads=9),
        # a zone random write area
        "nvme_zns/zrwa.bin": zns_page(0, 0x2, 7, 7, 16384, zrwa=(3, 16, 256, 1)),
        "nvme_zns/huge_zone.bin": zns_page(0, 0, 0, 0, (1 << 64) - 1, lbads=63),
    }
    write_seeds(seeds)


if __name__ == "__main__":
    main()
