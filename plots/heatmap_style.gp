# The look of every ssdprobe heatmap (`ssdprobe plot`, the heatmaps inlined
# by `ssdprobe compare --html`): sent to gnuplot after the terminal is chosen
# and before the figure's own ranges, ticks and cells. The build embeds this
# file into the binary (plots/embed_gnuplot), so editing it here restyles
# the pictures without touching C++; what depends on the data (ranges,
# ticks, unit boundaries, titles) stays in src/plot/heatmap_render.cc.

set encoding utf8

# magma-like: dark is low, light is high, readable in grey print too.
set palette defined (0 "#000004", 1 "#3b0f70", 2 "#8c2981", 3 "#de4968", 4 "#fe9f6d", 5 "#fcfdbf")

# Ticks outside, only on the left and bottom axes, no key and no grid lines
# over the cells: the colours carry the data.
set tics out nomirror
set border 3
unset key
unset grid
