#!/bin/sh
# hook-client.sh SOURCE OUTPUT
#
# Builds the hook client (SOURCE: hooks/src/main/c/turndiff-hook-client.c) into OUTPUT with the machine's C
# compiler: static when the C library's static archive is there (libc6-dev has it on Debian: no dynamic loader
# at each start), else linked to libc alone. OUTPUT appears whole, by a rename: a hook running it meanwhile runs
# the old one. With no compiler (cc, gcc), or on another system than Linux, nothing is built and the build goes on:
# `turndiff hooks install` then writes the script, bin/turndiff-hook, as the hook command (docs/runtime-hooks.md,
# "The hook client"). A compiler's error fails the build.
set -eu
source=$1
output=$2
if [ "$(uname -s)" != Linux ]; then
  # it reads /proc (the runtime's process, its own path) and keeps a payload in a memfd
  echo "hook-client.sh: the hook client is for Linux: not built here; the hooks run bin/turndiff-hook" >&2
  exit 0
fi
compiler=
for candidate in "${CC-}" cc gcc; do
  if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
    compiler=$candidate
    break
  fi
done
if [ -z "$compiler" ]; then
  echo "hook-client.sh: no C compiler (cc, gcc): the hook client is not built; the hooks run bin/turndiff-hook" >&2
  exit 0
fi
partial=$(dirname "$output")/.$(basename "$output").$$
trap 'rm -f "$partial" "$partial.c"' EXIT
# A compiler without the C library's headers (gcc without libc6-dev) is no toolchain: said, and the build goes on.
printf '#include <stdlib.h>\nint main(void) { return EXIT_SUCCESS; }\n' >"$partial.c"
if ! "$compiler" -o "$partial" "$partial.c" >/dev/null 2>&1; then
  echo "hook-client.sh: $compiler cannot build a C program here (the C library's headers: libc6-dev):" \
    "the hook client is not built; the hooks run bin/turndiff-hook" >&2
  exit 0
fi
flags="-std=c11 -O2 -Wall -Wextra -Werror"
# shellcheck disable=SC2086 # the flags are words
if ! "$compiler" $flags -static -o "$partial" "$source" 2>/dev/null; then
  "$compiler" $flags -o "$partial" "$source"
fi
chmod 0755 "$partial"
mv -f "$partial" "$output"
