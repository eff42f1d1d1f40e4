#!/usr/bin/env python3
"""Writes the seeds of the FDP fuzz targets (tests/fuzz/corpus/nvme_fdp_*):
log pages built field by field from the NVMe Base 2.1 FDP layouts, the same
way tests/firmware/log_page_builder.h builds them for the unit tests.

  tests/fuzz/make_fdp_seeds.py [CORPUS_DIR]   (default: tests/fuzz/corpus)
"""
import struct

from seed_files import write_seeds


def configuration(fdpa, nrg, ruht, maxpids, nnss, runs, erutl, vendor=b""):
    """One FDP Configuration Descriptor: 64 fixed bytes, 4 per handle, VSS."""
    size = 64 + 4 * len(ruht) + len(vendor)
    fixed = struct.pack("<HBBIHHIQI", size, fdpa, len(vendor), nrg, len(ruht), maxpids, nnss, runs, erutl)
    fixed += bytes(64 - len(fixed))
    handles = b"".join(struct.pack("<B3x", t) for t in ruht)
    return fixed + handles + vendor


def configurations_page(descriptors, version=0):
    body = b"".join(descriptors)
    return struct.pack("<HBxI8x", len(descriptors) - 1, version, 16 + len(body)) + body


def ruh_usage_page(ruha):
    return struct.pack("<H6x", len(ruha)) + b"".join(struct.pack("<B7x", a) for a in ruha)


def u128(value):
    return value.to_bytes(16, "little")


def statistics_page(hbmw, mbmw, mbe):
    return u128(hbmw) + u128(mbmw) + u128(mbe) + bytes(16)


def event(etype, flags, pid, timestamp_ms, nsid, rgid, ruhid, nlbam=0, lba=None):
    specific = struct.pack("<BxHQ4x", 1 if lba is not None else 0, nlbam, lba or 0)
    head = struct.pack("<BBH", etype, flags, pid) + timestamp_ms.to_bytes(6, "little") + bytes(2)
    return head + struct.pack("<I", nsid) + specific + struct.pack("<HB5x", rgid, ruhid) + bytes(24)


def events_page(events):
    body = b"".join(events)
    return (struct.pack("<I60x", len(events)) + body).ljust(4096, b"\0")


def main():
    GiB = 1 << 30
    seeds = {
        "nvme_fdp_configs/one_config_one_handle.bin": configurations_page([configuration(0x80, 1, [1], 0, 0, GiB, 0)]),
        "nvme_fdp_configs/two_configs_vendor_bytes.bin": configurations_page(
            [configuration(0x80, 1, [1], 0, 0, 64 << 20, 0),
             configuration(0x91, 2, [1, 1, 2, 2], 3, 15, 16 * GiB, 3600, b"\xaa\xbb\xcc\xdd")], version=1),
        "nvme_fdp_ruh_usage/four_handles.bin": ruh_usage_page([1, 1, 2, 0]),
        "nvme_fdp_ruh_usage/statistics.bin": statistics_page(4 * GiB, 5 * GiB, (1 << 64) + 5),
        "nvme_fdp_events/host_and_realloc.bin": events_page(
            [event(0x00, 0x7, 0x0102, 0x123456789A, 1, 1, 3),
             event(0x80, 0x4, 0, 7, 0, 0, 2, nlbam=16, lba=0xABCDEF)]),
        "nvme_fdp_events/empty.bin": events_page([]),
    }
    write_seeds(seeds)


if __name__ == "__main__":
    main()
