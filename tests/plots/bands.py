#!/usr/bin/env python3
"""bands.py DAT PAGE_BYTES [PANEL]: does the heatmap whose matrix is DAT (the
.dat `ssdprobe plot` writes next to the image) show a PAGE_BYTES read page?

It checks the picture, not the document: each cell's colour is its place in
the colour range the plot drew with (the .dat's `# colour_range MIN MAX`
line), 0 the bottom colour, 1 the top, cells outside the range clamped as
they are drawn. A cell straddles when its IO touches one page more than its
size needs (a 4 KiB read across a 16 KiB boundary: 2 pages instead of 1), and
is aligned otherwise. The measure, in every request-size row that has cells
of both kinds (a row of IOs that never straddle has nothing to show):
  - the medians of the two kinds differ by at least MIN_GAP (0.15) of the
    colour range: about one of the palette's five colour steps, a difference
    the eye sees at once; and
  - their interquartile ranges do not overlap: the two kinds are two bands,
    not two shades of one.
A colour range set by one slow cell (the bug this guards against) squeezes
every other cell into the darkest colours: the bands' distance shrinks to a
few hundredths while their order (and so the interquartile test) survives,
which is why the distance is measured on the drawn range.

A folded matrix (columns are offsets modulo the page) is checked the same way:
whether an IO straddles depends only on its offset modulo the page.

Documents from before the colour range was written carry no such line; they
were drawn from zero to the largest cell, and that range is used for them
(so the check can be run against an older binary's pictures).
Exit 0: every such row shows the bands; 1: one does not (each row is printed).
"""
import math
import statistics
import sys

MIN_GAP = 0.15


def read_dat(path):
    colour_range, panels, current = None, [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("# colour_range "):
            low, high = line.split()[2:4]
            colour_range = (float(low), float(high))
        elif line.startswith("# panel"):
            current = []
            panels.append(current)
        elif current is not None and line.strip() and not line.startswith("#"):
            current.append(line.split())
    matrices = []
    for rows in panels:
        offsets = [int(x) for x in rows[0][1:]]
        cells = {int(r[0]): [float(v) for v in r[1:]] for r in rows[1:]}
        matrices.append((offsets, cells))
    if colour_range is None:  # an older binary: zero to the largest cell
        finite = [v for _, cells in matrices for row in cells.values() for v in row if math.isfinite(v)]
        colour_range = (0.0, max(finite))
    return colour_range, matrices


def pages_touched(offset, size, page):
    return (offset + size - 1) // page - offset // page + 1


def quartiles(values):
    if len(values) == 1:  # a folded row of 4 KiB columns has one cell of a kind
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def main():
    dat, page = sys.argv[1], int(sys.argv[2])
    panel = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    (low, high), matrices = read_dat(dat)
    offsets, cells = matrices[panel - 1]
    position = lambda v: min(1.0, max(0.0, (v - low) / (high - low)))
    checked, failed = 0, 0
    print(f"{dat}: colour range [{low:g}, {high:g}], page {page} B, panel {panel}")
    for size, row in sorted(cells.items()):
        need = -(-size // page)
        straddle = [position(v) for o, v in zip(offsets, row) if math.isfinite(v) and pages_touched(o, size, page) > need]
        aligned = [position(v) for o, v in zip(offsets, row) if math.isfinite(v) and pages_touched(o, size, page) == need]
        if not straddle or not aligned:
            continue
        checked += 1
        gap = statistics.median(straddle) - statistics.median(aligned)
        s25, s75 = quartiles(straddle)
        a25, a75 = quartiles(aligned)
        apart = s25 > a75 if gap > 0 else a25 > s75
        ok = abs(gap) >= MIN_GAP and apart
        failed += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} size {size}: straddling median {statistics.median(straddle):.3f} "
              f"(IQR {s25:.3f}-{s75:.3f}, {len(straddle)} cells), aligned {statistics.median(aligned):.3f} "
              f"(IQR {a25:.3f}-{a75:.3f}, {len(aligned)} cells): distance {abs(gap):.3f} (need {MIN_GAP}), "
              f"IQRs {'apart' if apart else 'overlap'}")
    if checked == 0:
        print("  FAIL: no row has both straddling and aligned cells")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
