# lib.sh: what the package tests share.

# copy_checkout SOURCE DEST: the source as a checkout holds it (tracked and
# new files, not build directories or anything .gitignore leaves out), into
# the existing directory DEST.
copy_checkout() {
  local source=$1 dest=$2
  if git -C "$source" rev-parse --git-dir > /dev/null 2>&1; then
    (cd "$source" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | tar -xf - -C "$dest"
  else
    tar -C "$source" --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$dest"
  fi
}

# ccache_counts: the hits and misses since the last `ccache --zero-stats`.
ccache_counts() {
  ccache --print-stats 2> /dev/null |
    awk -F'\t' '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ { printf "%s %s ", $1, $2 }'
}
