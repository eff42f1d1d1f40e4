// Builds the verdict (report/verdict.h) from a finished document: the units'
// answers, where the kernel under-reports, the audit's findings ranked worst
// first with their measured cost and first fix, and the one-line summary
// that leads with the worst finding. Reads only the document, so the verdict
// cannot contradict what is below it.
#pragma once

#include "report/result.h"
#include "report/verdict.h"
#include "run/unit_answers.h"

namespace ssdprobe {

Verdict build_verdict(ResultDocument& doc, const RunFacts& facts);

// The audit's lines on the disk's layout that are not OK (not --at's
// what-ifs), worst first: by severity, then by the largest significant
// measured cost.
std::vector<VerdictFinding> ranked_findings(const ResultDocument& doc);

}  // namespace ssdprobe
