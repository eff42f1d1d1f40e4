# Sourced by the plots tests. check_png FILE MIN_WIDTH MIN_HEIGHT: a real
# PNG (its magic), at least that many pixels, and not a near-empty image;
# calls the test's fail() otherwise.
check_png() {  # FILE MIN_WIDTH MIN_HEIGHT
  python3 - "$@" <<'PY' || fail "$1: not a proper PNG"
import struct, sys
f, w_min, h_min = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(f, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "PNG magic"
w, h = struct.unpack(">II", data[16:24])
assert w >= w_min and h >= h_min, f"{w}x{h} smaller than {w_min}x{h_min}"
assert len(data) > 15000, f"only {len(data)} bytes"
PY
}
