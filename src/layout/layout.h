// What is already on a disk, as typed data: the partition table (as written
// on the disk and as the kernel knows it), and what each partition (or the
// whole disk) holds: an md RAID member superblock, an LVM physical volume,
// a filesystem. Every offset is in bytes; `*_disk_offset` fields are
// absolute (from the first byte of the whole disk), the others are relative
// to the layer that contains them, as their on-disk formats define them.
//
// Decoders (md_superblock.h, lvm_label.h, fs_superblock.h,
// partition_table.h) fill these from bytes; layout_reader.h composes them
// into stacks; audit.h judges them against a drive's units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

// The 512-byte sector md superblocks, LVM labels and metadata and DOS boot
// records count in, whatever the disk's logical block.
inline constexpr uint64_t kFormatSectorBytes = 512;

struct PartitionEntry {
  int number = 0;             // as the kernel would number it (1-based; MBR logical from 5)
  uint64_t start_bytes = 0;   // from the start of the disk
  uint64_t size_bytes = 0;
  std::string type;           // GPT type GUID, or MBR type as "0x83"
  std::string name;           // GPT partition name ("" for MBR)
  bool container = false;     // MBR extended partition: holds the logical ones, not data
};

// The most partitions one table is read for. The kernel makes at most 256
// per disk and a GPT has 128 entries unless made larger; past this count a
// table is crafted or broken, and reading on costs time for nothing
// (libblkid's walk of a DOS chain of logical partitions is quadratic: 20,000
// take it half a minute). The audit names a table that lists more.
constexpr size_t kMaxTablePartitions = 4096;

// A table entry that names no place at all: a GPT entry whose last sector
// comes before its first, or whose byte offset does not fit 64 bits. Kept
// as written (in the table's sectors) so the audit can name it.
struct ImpossibleEntry {
  int number = 0;
  uint64_t first_sector = 0;
  uint64_t last_sector = 0;   // inclusive, as written
};

// The table written on the disk, read with libblkid. GPT entries libblkid
// skips (any part outside the header's usable sectors) are listed too, from
// the entry array libblkid checked: the kernel makes partitions of those
// that end on the disk, and the audit names every one (audit.h).
struct PartitionTable {
  std::string scheme;              // "gpt" | "dos"
  uint32_t sector_bytes = 512;     // the unit the table counts in
  std::vector<PartitionEntry> partitions;   // at most kMaxTablePartitions, in table order
  // GPT: the bytes its header lets partitions use, [usable_start, usable_end)
  // from the start of the disk (between the primary and backup tables).
  std::optional<uint64_t> usable_start_bytes;
  std::optional<uint64_t> usable_end_bytes;
  std::vector<ImpossibleEntry> impossible;
  bool past_cap = false;           // it lists more than kMaxTablePartitions: the rest were not read
};

// A partition as the kernel knows it (/sys/block/DISK/PART/start, size,
// alignment_offset): what IO to /dev/DISKn actually addresses.
struct KernelPartition {
  int number = 0;
  std::string name;                 // "nvme0n1p2", "loop0p1"
  uint64_t start_bytes = 0;
  uint64_t size_bytes = 0;
  std::optional<int64_t> alignment_offset;
};

// md RAID member superblock, version 1.x (Linux md-p.h layout).
struct MdSuperblock {
  int minor_version = 0;                // 1.0: near the end, 1.1: at 0, 1.2: at 4 KiB
  uint64_t superblock_offset_bytes = 0; // from the member's start
  uint64_t data_offset_bytes = 0;       // array data start, from the member's start
  uint64_t data_size_bytes = 0;         // member bytes used by the array
  uint64_t chunk_bytes = 0;             // 0 for levels without chunks (raid1)
  int level = 0;                        // 0, 1, 4, 5, 6, 10; -1 linear
  int layout = 0;
  int raid_disks = 0;
  int role = -1;                        // this member's slot in the array; -1 spare/faulty/unknown
  std::string array_uuid;               // 32 hex digits
  std::string name;                     // "host:md0"

  // Members whose chunks hold data in one stripe (raid_disks minus parity;
  // 1 for raid1 and linear).
  int data_disks() const;
};

// A segment of a logical volume that lies on this physical volume.
struct LvmSegment {
  std::string lv_name;
  uint64_t lv_start_extent = 0;   // where the segment starts inside the LV
  uint64_t pv_start_extent = 0;   // where it starts on this PV's data area
  uint64_t extent_count = 0;      // extents on this PV
  uint32_t stripes = 1;           // number of PVs the segment stripes over
  uint64_t stripe_bytes = 0;      // 0 unless striped
};

// LVM2 physical volume: label, PV header and (when the metadata area could
// be read) the VG metadata's view of this PV.
struct LvmPhysicalVolume {
  uint64_t label_offset_bytes = 0;    // sector of "LABELONE" * 512
  std::string pv_uuid;                // 32 characters, as stored
  uint64_t pe_start_bytes = 0;        // data area start, from the PV's start
  std::optional<uint64_t> extent_bytes;  // from the VG metadata
  std::string vg_name;                // "" when no metadata was found
  uint32_t vg_pv_count = 0;           // the PVs the VG metadata lists, this one included (0: none found)
  std::vector<LvmSegment> segments;   // segments on this PV, in PV order
};

struct FilesystemInfo {
  std::string type;                   // libblkid's name: xfs, ext4, f2fs, btrfs, swap, vfat…
  uint32_t block_bytes = 0;           // 0 when the type is not decoded
  std::optional<uint64_t> stripe_unit_bytes;   // xfs sunit, ext4 s_raid_stride (× block)
  std::optional<uint64_t> stripe_width_bytes;  // xfs swidth, ext4 s_raid_stripe_width (× block)
  std::optional<uint64_t> segment_bytes;       // f2fs
  std::optional<uint64_t> section_bytes;       // f2fs segments per section × segment
  std::optional<uint32_t> node_bytes;          // btrfs
  std::optional<uint32_t> sector_bytes;        // btrfs sectorsize, xfs sectsize
  std::optional<uint32_t> flex_bg_groups;      // ext4 flex_bg group count
  std::string label;
  // After the label, so the positional initializers in tests stay valid.
  std::optional<uint64_t> cluster_bytes;       // ext4 bigalloc: the allocation cluster
  std::optional<uint64_t> allocation_group_bytes;  // xfs sb_agblocks × block: a stripe unit must divide it
};

// What lives at one place on the disk, outermost first. Absolute offsets are
// computed by layout_reader: partition start + md data offset + LVM pe_start
// (+ the LV's first extent) reaches the filesystem.
struct LayoutStack {
  std::optional<PartitionEntry> partition;   // none: the whole disk is the container
  std::string node;                          // /dev node of the partition when the kernel has one
  uint64_t start_disk_offset = 0;            // partition start (0 for the whole disk)
  uint64_t size_bytes = 0;
  std::optional<MdSuperblock> md;
  std::optional<LvmPhysicalVolume> lvm;
  std::optional<FilesystemInfo> filesystem;
  uint64_t filesystem_disk_offset = 0;       // where the filesystem's byte 0 is on this disk
  std::string filesystem_container;          // "partition", "md", "lvm:LVNAME"
  std::vector<std::string> notes;            // what could not be followed, and why
};

// A partition table libblkid named but that could not be read: a protective
// MBR whose GPT is damaged or was written for another sector size, or a
// scheme other than gpt and dos. The audit names it (table_audit.h): the
// disk's partitions, whatever they are, were not audited.
struct UnreadTable {
  std::string type;                          // libblkid's PTTYPE: "PMBR", "mac", "sun", ...
  std::optional<uint32_t> gpt_sector_bytes;  // PMBR: a GPT signature sits at LBA 1 of sectors this size, not the disk's
};

struct DiskLayout {
  std::string disk_path;                          // whole-disk node or image file read
  bool image_file = false;                        // disk_path is a regular file, not a block device
  uint64_t disk_size_bytes = 0;
  uint32_t logical_block = 512;
  std::optional<PartitionTable> table;            // as written on the disk
  std::optional<UnreadTable> unread_table;        // a table named but not read (no `table` then)
  std::vector<KernelPartition> kernel_partitions; // as the kernel knows them
  std::vector<LayoutStack> stacks;                // one per partition, or one for the whole disk
  std::vector<std::string> notes;
};

}  // namespace ssdprobe
