// A heatmap folded at a unit: offsets taken modulo the unit, so the cells of
// every unit-sized slot of the window land on top of each other. A read grid
// spans 128 KiB, eight 16 KiB pages: folded at 16 KiB each column pools the
// eight cells at the same phase against the page, and the step where an IO
// starts to straddle the page boundary is seen with all the data behind it
// instead of as eight thin stripes. An IO's cost against a unit depends
// only on its phase (offset mod unit) and its size, so every row folds.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plot/heatmap_matrix.h"

namespace ssdprobe {

struct FoldedMatrix {
  HeatmapMatrix matrix;  // offsets: the distinct phases (offset mod unit), ascending
  size_t pooled = 0;     // the most grid cells behind one folded cell
};

// Each folded cell is the median of the finite cells of its row at the same
// phase: every cell is already the median of its own samples, and the median
// of them keeps one slow cell out of the picture where a mean, even one
// weighted by samples, would carry it. NaN where no cell at that phase has
// samples. Fold the medians (an absolute matrix), then put the result in the
// figure's scale (in_scale): "above the fastest" is then above the fastest
// phase. `unit` must not be 0.
FoldedMatrix fold_matrix(const HeatmapMatrix& absolute, uint64_t unit);

}  // namespace ssdprobe
