// --max-write-bytes: the restore reserved first, the phases taken in run
// order and left out whole when their bound does not fit, and the bound
// stated in the drive's terms.
#include "run/write_cap.h"

#include <catch2/catch.hpp>

#include "core/error.h"

using namespace ssdprobe;

namespace {
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;
const Region kWindow{8 * kGiB, 256 * kMiB};
}  // namespace

TEST_CASE("the default cap runs every phase of a default run; its bound is 18.25 GiB") {
  const WriteBound bound = write_bound(kWindow, true, 16 * kGiB);
  CHECK(bound.total() == 16 * kGiB + kGiB + 512 * kMiB + 384 * kMiB + 128 * kMiB + 256 * kMiB);
  CHECK(bound.breakdown().find("open-units probe <= 128 MiB") != std::string::npos);
  const WriteCapPlan plan = plan_write_cap(bound, kDefaultMaxWriteBytes);
  CHECK(plan.skipped.empty());
  CHECK(plan.planned.total() == bound.total());
}

TEST_CASE("a phase whose bound does not fit is left out whole, with the reason; later ones still fit") {
  const WriteCapPlan plan = plan_write_cap(write_bound(kWindow, true, 16 * kGiB), 4 * kGiB);
  REQUIRE(skipped_by_cap(plan, "slc_cache"));
  CHECK(*skipped_by_cap(plan, "slc_cache") ==
        "SLC cache probe skipped: its fill needs up to 16 GiB, 3.8 GiB left of --max-write-bytes 4 GiB");
  CHECK(skipped_by_cap(plan, "write_grid_in_cache") == skipped_by_cap(plan, "slc_cache"));
  CHECK_FALSE(skipped_by_cap(plan, "write_grid"));
  CHECK_FALSE(skipped_by_cap(plan, "erase_stream"));
  CHECK(plan.planned.slc_cache == 0);
  CHECK(plan.planned.total() == kGiB + 512 * kMiB + 384 * kMiB + 128 * kMiB + 256 * kMiB);
  CHECK(plan.planned.breakdown().find("SLC cache") == std::string::npos);
  CHECK(plan.planned.total() <= plan.cap);
}

TEST_CASE("the restore is reserved before any phase, and a cap below it is a usage error") {
  // 1.5 GiB: the restore's 256 MiB first, then the 1 GiB grid; the stream's
  // 512 MiB no longer fits, the parallelism probe's 384 MiB does not either,
  // the open-units probe's 128 MiB does.
  const WriteCapPlan plan = plan_write_cap(write_bound(kWindow, true, 0), 1536 * kMiB);
  CHECK_FALSE(skipped_by_cap(plan, "write_grid"));
  CHECK(skipped_by_cap(plan, "erase_stream"));
  CHECK(skipped_by_cap(plan, "write_parallelism"));
  CHECK_FALSE(skipped_by_cap(plan, "open_units"));
  CHECK(plan.planned.total() == kGiB + 128 * kMiB + 256 * kMiB);
  // 1.3 GiB: 51 MiB left after the grid, not enough for the open-units probe.
  const WriteCapPlan tight = plan_write_cap(write_bound(kWindow, true, 0), 1331 * kMiB);
  REQUIRE(skipped_by_cap(tight, "open_units"));
  CHECK(skipped_by_cap(tight, "open_units")->starts_with("open-units probe skipped: its interleaved streams needs up "
                                                         "to 128 MiB, 51 MiB left"));
  try {
    plan_write_cap(write_bound(kWindow, true, 0), 100 * kMiB);
    FAIL("accepted a cap below the restore");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::usage);
    CHECK(std::string(e.what()).find("smaller than the restore of the write window (256 MiB)") != std::string::npos);
  }
}

TEST_CASE("the bound in the drive's terms: its endurance estimate when it reports one, else its capacity") {
  const uint64_t bound = 18 * kGiB + 128 * kMiB;  // 19.46 GB
  CHECK(share_of_drive(bound, 600'000'000'000'000ull, kGiB) ==
        "0.0032 % of the drive's endurance estimate of 600 TB (NVMe Endurance Group Information log)");
  CHECK(share_of_drive(bound, std::nullopt, kGiB) ==
        "18 full-drive writes of this 1 GiB device (the drive reports no endurance estimate)");
  CHECK(share_of_drive(2 * kGiB, std::nullopt, kGiB) ==
        "2.0 full-drive writes of this 1 GiB device (the drive reports no endurance estimate)");
  CHECK(share_of_drive(2 * kGiB, std::nullopt, 64 * kGiB) ==
        "3.1 % of this 64 GiB device's capacity (the drive reports no endurance estimate)");
  CHECK(share_of_drive(2 * kGiB, 0, 64 * kGiB).find("capacity") != std::string::npos);  // 0: not reported
}

// Issue 38: a default --write run on a 1 GiB device wrote 13.7 GiB, nearly
// all of it the SLC cache probe rewriting the window. A cache holds at most
// the drive's capacity, so the fill stops where a cache that large would
// have been confirmed; partitions and files keep --cache-bytes (their drive
// may be larger than they are).
TEST_CASE("the SLC cache probe writes no more than confirms a cache as large as the whole drive") {
  CHECK(slc_fill_cap(16 * kGiB, kGiB) == kGiB + 1 * kGiB / 5);
  CHECK(slc_fill_cap(16 * kGiB, 100 * kMiB) == 132 * kMiB);  // a fifth is below the drop's 32 writes of 1 MiB
  CHECK(slc_fill_cap(16 * kGiB, 64 * kGiB) == 16 * kGiB);
  CHECK(slc_fill_cap(16 * kGiB, std::nullopt) == 16 * kGiB);
  CHECK(slc_fill_cap(0, kGiB) == 0);
  // A flat fill ends where a cache of a third of the drive would have shown.
  CHECK(slc_flat_stop(16 * kGiB, 3 * kGiB) == kGiB + kGiB / 5);
  CHECK(slc_flat_stop(16 * kGiB, 300 * kMiB) == 100 * kMiB + 32 * kMiB);
  CHECK(slc_flat_stop(16 * kGiB, std::nullopt) == 0);
  CHECK(slc_flat_stop(16 * kGiB, 41 * kGiB) == 0);           // 16.4 GiB: not below the cap, no flat end
  CHECK(slc_flat_stop(16 * kGiB, 39 * kGiB) == 13 * kGiB + 13 * kGiB / 5);
  CHECK(slc_flat_stop(kGiB, 3 * kGiB) == 0);                 // --cache-bytes 1G ends it sooner
  // The --write question names the flat end beside the cap.
  const WriteBound small = write_bound(kWindow, true, slc_fill_cap(16 * kGiB, kGiB), slc_flat_stop(16 * kGiB, kGiB));
  CHECK(small.breakdown().find("<= 1.2 GiB (the window rewritten; a fill at a flat speed stops at about 409.6 MiB)") !=
        std::string::npos);
  CHECK(small.total() == write_bound(kWindow, true, slc_fill_cap(16 * kGiB, kGiB)).total());
  const WriteBound bound = write_bound(kWindow, true, slc_fill_cap(16 * kGiB, 12 * kGiB));
  CHECK(bound.slc_cache == 12 * kGiB + 12 * kGiB / 5);
}

// The cap is the drive's only where the drive is known: a loop device over a
// file on an SSD, a virtio disk or an LV says nothing of the cache of the
// SSD under it; a partition or a file of a drive is on that drive.
TEST_CASE("an NVMe, SATA, SAS, USB or SD drive, or a sim, caps the SLC fill by its size, also under a partition") {
  const auto bytes_of = [](TargetKind kind, const char* transport) {
    Target t;
    t.kind = kind;
    t.topology.transport = transport;
    t.topology.size_bytes = 10 * kGiB;
    return whole_drive_bytes(t);
  };
  for (const char* transport : {"nvme", "sata", "sas", "usb", "mmc"}) {
    CHECK(bytes_of(TargetKind::block, transport) == 10 * kGiB);
  }
  CHECK(bytes_of(TargetKind::sim, "sim") == 10 * kGiB);
  // A plain SCSI disk is a virtual disk (virtio-scsi, VMware, Hyper-V,
  // iSCSI) or an array's LUN, not a drive.
  for (const char* transport : {"loop", "virtio", "scsi", "unknown"}) {
    CHECK_FALSE(bytes_of(TargetKind::block, transport));
  }
  CHECK_FALSE(bytes_of(TargetKind::file, "file"));
  // A partition of a drive fills the whole drive's cache: its disk's size
  // caps the fill, never its own (a 10 GiB partition of a 32 GiB SD card).
  // Not known (0), or on a loop or virtio disk: no cap. A file's drive is
  // not looked up, whatever its filesystem is on.
  const auto part_of = [](TargetKind kind, const char* transport, uint64_t disk) {
    Target t;
    t.kind = kind;
    t.topology.transport = transport;
    t.topology.size_bytes = 10 * kGiB;
    t.topology.disk_size_bytes = disk;
    return whole_drive_bytes(t);
  };
  CHECK(part_of(TargetKind::partition, "mmc", 32 * kGiB) == 32 * kGiB);
  CHECK(part_of(TargetKind::partition, "nvme", 32 * kGiB) == 32 * kGiB);
  CHECK_FALSE(part_of(TargetKind::partition, "mmc", 0));
  CHECK_FALSE(part_of(TargetKind::partition, "loop", 32 * kGiB));
  CHECK_FALSE(part_of(TargetKind::partition, "virtio", 32 * kGiB));
  CHECK_FALSE(part_of(TargetKind::file, "nvme", 32 * kGiB));
  CHECK(part_of(TargetKind::block, "mmc", 32 * kGiB) == 10 * kGiB);  // a disk is its own size
}
