#include "layout/layout.h"

namespace ssdprobe {

int MdSuperblock::data_disks() const {
  switch (level) {
    case 4:
    case 5: return raid_disks > 1 ? raid_disks - 1 : 1;
    case 6: return raid_disks > 2 ? raid_disks - 2 : 1;
    case 0: return raid_disks > 0 ? raid_disks : 1;
    // raid10's near-2 layout (mdadm's default) keeps two copies of each chunk.
    case 10: return raid_disks > 1 ? raid_disks / 2 : 1;
    default: return 1;  // raid1, linear, and levels not striped
  }
}

}  // namespace ssdprobe
