// Ties detected.write_stripe to the parallelism probe, once both ran: a
// stripe of U program units is a round over U parallel units, so the probe's
// unit count (from write pairs when it found one: a stripe is a thing of
// writes; from read pairs otherwise) should be U. Whether it is goes into
// write_stripe_detail and a sentence of the stripe's evidence. Nothing is
// decided from it: a probe that finds more units than the stripe spans
// (channels beyond the dies a stripe uses) is possible on a real drive.
#pragma once

#include "report/result.h"

namespace ssdprobe {

void tie_stripe_to_parallelism(ResultDocument& doc);

}  // namespace ssdprobe
