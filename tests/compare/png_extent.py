# The rightmost column (0-based) holding a pixel that is not near-white, in
# an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes); -1 if none.
# Pure Python (no PIL on the test machines). Usage: png_extent.py SHOT.png
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
bpp = 4 if colour == 6 else 3
stride = width * bpp
prev = bytearray(stride)
right = -1
for y in range(height):
    start = y * (stride + 1)
    f, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
    if f == 1:
        for i in range(bpp, stride): row[i] = (row[i] + row[i - bpp]) & 255
    elif f == 2:
        row = bytearray((a + b) & 255 for a, b in zip(row, prev))
    elif f == 3:
        for i in range(stride): row[i] = (row[i] + ((row[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = row
    # only columns right of what is already found can move the answer
    for x in range(width - 1, right, -1):
        o = x * bpp
        if min(row[o], row[o + 1], row[o + 2]) < 200:
            right = x
            break
print(right)
