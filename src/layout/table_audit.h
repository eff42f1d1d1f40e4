// What is wrong with a partition table as a table, whatever the drive's
// units: partitions that share sectors, entries that run past the disk's
// end or over the table's own sectors, entries that name no place, a table
// that goes on past kMaxTablePartitions, and a table that is there
// but could not be read (a protective MBR without a readable GPT, or a
// scheme other than gpt and dos: DiskLayout::unread_table). Each is a finding
// naming the partitions and sectors involved (an error, but for a scheme
// that is only not read: a warning). The partitions involved get
// no fix that writes (AuditLine::fix_withheld): which entry is wrong, and
// whose data is real, is for a person to decide; a move or mkfs chosen by
// the audit could write over another partition's data.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "layout/audit.h"

namespace ssdprobe {

struct TableFindings {
  std::map<int, std::vector<AuditLine>> of_partition;  // overlap and range findings, by partition number
  std::vector<AuditLine> of_table;                     // entries that name no place; a table past the cap or unread
  std::map<int, std::string> withheld;                 // why a partition's findings get no fix, in words
  std::string withheld_for_all;                        // not "" when the table goes on past what was read, or was not read
  // The words for partition `number`'s findings, or "" when its fixes stand.
  std::string withheld_for(int number) const;
};

TableFindings table_findings(const DiskLayout& layout);

}  // namespace ssdprobe
