#!/bin/bash
# The Debian package, built from the tree as a user would build it
# (dpkg-buildpackage -us -uc -b on a copy of the source), then checked:
#  - it holds the program, the man page, the bash completion and the
#    systemd units where Debian expects them;
#  - its runtime dependencies are declared (libnvme, liburing, fmt;
#    smartmontools recommended, gnuplot suggested);
#  - unpacked into a scratch root, the packaged program runs: --version,
#    `info` on a sim, a run and its `plot`;
#  - lintian reports no error.
# The package build is made cheap (a whole compile of the program would be
# the slowest test there is): it compiles with the flags of the tree's own
# build (scripts/build: -O2, no debug information; FLAGS to change them) instead of
# dpkg-buildflags' hardening set, in a copy of the tree inside it, so that
# with ccache (scripts/test sets CCACHE_BASEDIR to the tree) every object
# the suite's build already compiled is a cache hit. What is packaged is the
# same program; only lintian's hardening notes can differ.
# Skips (77) without dpkg-buildpackage, debhelper or lintian.
#
# Usage: debian_package.sh SOURCE_DIR
set -u
SOURCE=$(realpath "${1:-}")
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ -f "$SOURCE/debian/control" ] || fail "usage: $0 SOURCE_DIR (with debian/)"
for tool in dpkg-buildpackage dh lintian dpkg-deb; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (scripts/install-deps --tests installs it)"
done
# Inside the tree (build*/ is ignored by git), so relative to
# CCACHE_BASEDIR its sources are where the suite's build found them.
work=$(mktemp -d "$SOURCE/build-package.XXXXXX" 2> /dev/null) || work=$(mktemp -d /var/tmp/ssdprobe-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir "$work/ssdprobe"
copy_checkout "$SOURCE" "$work/ssdprobe" || fail "copying the source failed"

start=$(date +%s)
if command -v ccache > /dev/null; then
  # debhelper gives the build a HOME of its own: name the real cache.
  CCACHE_DIR=$(ccache --get-config cache_dir)
  export CCACHE_DIR
  ccache --zero-stats > /dev/null 2>&1
fi
(cd "$work/ssdprobe" &&
  DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" DEB_CXXFLAGS_SET="${FLAGS:--O2}" DEB_CPPFLAGS_SET="" \
  dpkg-buildpackage -us -uc -b > "$work/build.log" 2>&1) ||
  fail "dpkg-buildpackage failed: $(tail -n 40 "$work/build.log")"
echo "# dpkg-buildpackage: $(( $(date +%s) - start )) s"
command -v ccache > /dev/null && echo "# ccache: $(ccache_counts)"
deb=$(ls "$work"/ssdprobe_*.deb 2> /dev/null | head -n 1)
[ -n "$deb" ] || fail "no ssdprobe_*.deb: $(ls "$work")"

# What it holds, and where.
contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for path in ./usr/bin/ssdprobe ./usr/share/man/man1/ssdprobe.1.gz \
    ./usr/share/bash-completion/completions/ssdprobe \
    ./usr/lib/systemd/system/ssdprobe-audit.service ./usr/lib/systemd/system/ssdprobe-audit.timer; do
  grep -qx "$path" <<< "$contents" || fail "the package has no $path: $contents"
done
grep -q '^ExecStart=/usr/bin/ssdprobe audit --all-disks' <(dpkg-deb --fsys-tarfile "$deb" |
  tar -xOf - ./usr/lib/systemd/system/ssdprobe-audit.service) || fail "the service does not run /usr/bin/ssdprobe"

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libnvme liburing libfmt; do
  grep -q "$lib" <<< "$depends" || fail "Depends lacks $lib: $depends"
done
grep -q smartmontools <<< "$(dpkg-deb -f "$deb" Recommends)" || fail "smartmontools is not recommended"
grep -q gnuplot <<< "$(dpkg-deb -f "$deb" Suggests)" || fail "gnuplot is not suggested"

# The packaged program runs from a scratch root.
root="$work/root"
dpkg-deb -x "$deb" "$root"
program="$root/usr/bin/ssdprobe"
version=$("$program" --version) || fail "--version failed"
grep -q "$(dpkg-deb -f "$deb" Version)" <<< "$version" || fail "--version ($version) is not the package's version"
"$program" info sim:nvme-tlc-16k --json "$work/info.json" -q > /dev/null || fail "info on a sim failed"
[ "$(jq -r .target.path "$work/info.json")" = sim:nvme-tlc-16k ] || fail "info's document names another target"
"$program" sim:nvme-tlc-16k --budget 2 -q --json "$work/run.json" > /dev/null || fail "a sim run failed"
if command -v gnuplot > /dev/null; then
  "$program" plot "$work/run.json" -o "$work/grid.png" -q || fail "plot failed"
  [ -s "$work/grid.png" ] || fail "plot wrote no picture"
else
  echo "# gnuplot is not installed: plot not checked"
fi

# lintian: no error (warnings and notes are listed, not fatal).
lintian --fail-on error "$work"/ssdprobe_*.changes > "$work/lintian.log" 2>&1 ||
  fail "lintian reports errors: $(cat "$work/lintian.log")"
echo "# lintian: $(grep -c '^W:' "$work/lintian.log") warnings, $(grep -c '^I:' "$work/lintian.log") notes"
sed 's/^/#   /' "$work/lintian.log"
echo "PASS: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
