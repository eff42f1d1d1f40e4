# Offset x size latency heatmap of one grid of an ssdprobe result document.
# Called by plots/heatmap with:
#   datafile  matrix file: first line "size offset0 offset1 ...", then one row
#             per request size: "SIZE median0 median1 ..." (microseconds)
#   output    PNG to write
#   title     plot title
# The colour scale starts at zero: a latency step is shown at its true size
# relative to the whole latency, never stretched by a cut-off origin.
set terminal pngcairo size 1000,700 font ",10"
set output output
set title title noenhanced
set xlabel "offset inside the slot (bytes; unit boundaries sit at multiples of the unit)"
set ylabel "request size"
set cblabel "median latency (us)"
set cbrange [0:*]
set palette defined (0 "#000004", 1 "#3b0f70", 2 "#8c2981", 3 "#de4968", 4 "#fe9f6d", 5 "#fcfdbf")
set tics out
unset key
plot datafile matrix rowheaders columnheaders with image pixels
