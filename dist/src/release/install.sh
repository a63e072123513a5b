#!/bin/sh
# install.sh [--prefix DIR]: installs this turndiff release under DIR (default ~/.local), without root
# (docs/install.md):
#
#   DIR/lib/turndiff/<version>/    this release, as unpacked
#   DIR/lib/turndiff/current       -> <version>: the stable name the hooks and the service use
#   DIR/bin/turndiff               -> DIR/lib/turndiff/current/bin/turndiff
#
# Over an older version it is an upgrade: the new version gets a folder of its own and `current` is moved
# to it in one rename, so a hook running meanwhile finds one version or the other, whole; the store, the
# hooks (their command names `current`) and the service are kept, and a service of the default store that
# runs is restarted on the new version with `turndiff service start`. The version it replaced stays until
# the next install (a service of another store may still run from it); older ones are removed.
# `turndiff uninstall` undoes it all.
set -eu

usage() {
  echo "usage: install.sh [--prefix DIR]   (default DIR: ~/.local)"
}

prefix=
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  [ -n "${HOME-}" ] || { echo "install.sh: HOME is not set; give --prefix DIR" >&2; exit 2; }
  prefix=$HOME/.local
fi

here=$(cd "$(dirname "$0")" && pwd -P)
release=$here/release
[ -f "$release" ] || { echo "install.sh: $release is missing: run the install.sh of an unpacked release" >&2; exit 1; }
version=$(sed -n 's/^TURNDIFF_VERSION="\(.*\)"$/\1/p' "$release")
platform=$(sed -n 's/^TURNDIFF_PLATFORM="\(.*\)"$/\1/p' "$release")
case $version in
  '' | */* | .*) echo "install.sh: $release names no version" >&2; exit 1 ;;
esac
case "$platform $(uname -s) $(uname -m)" in
  "linux-x64 Linux x86_64") ;;
  *) echo "install.sh: this release is for $platform; this machine is $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac

mkdir -p "$prefix/bin" "$prefix/lib/turndiff"
prefix=$(cd "$prefix" && pwd -P)
lib=$prefix/lib/turndiff
link=$prefix/bin/turndiff
if [ -e "$link" ] || [ -L "$link" ]; then
  if [ "$(readlink "$link" 2>/dev/null)" != "$lib/current/bin/turndiff" ]; then
    echo "install.sh: $link exists and is not turndiff's link to $lib/current; move it away first" >&2
    exit 1
  fi
fi
previous=
if [ -L "$lib/current" ]; then
  previous=$(readlink "$lib/current")
fi

# The release, copied whole under a temporary name, then renamed into place.
staging=$lib/.$version.new.$$
trap 'rm -rf "$staging" "$lib/.current.$$"' EXIT
cp -R -p "$here/." "$staging"
if [ -e "$lib/$version" ]; then
  # the same version again: the old copy goes, whatever still runs from it keeps its open files
  mv "$lib/$version" "$lib/.$version.old.$$"
  rm -rf "$lib/.$version.old.$$"
fi
mv "$staging" "$lib/$version"
ln -s "$version" "$lib/.current.$$"
mv -T "$lib/.current.$$" "$lib/current"
ln -sfn "$lib/current/bin/turndiff" "$link"
trap - EXIT

# Versions neither current nor the one just replaced.
for old in "$lib"/*; do
  name=${old##*/}
  if [ -d "$old" ] && [ ! -L "$old" ] && [ "$name" != "$version" ] && [ "$name" != "$previous" ]; then
    rm -rf "$old"
  fi
done

if [ -n "$previous" ] && [ "$previous" != "$version" ]; then
  echo "turndiff $version installed in $lib/$version (was $previous); $link runs it"
else
  echo "turndiff $version installed in $lib/$version; $link runs it"
fi

# A service of the default store that runs the replaced version: restarted on this one.
if [ -n "$previous" ] && "$link" service status --json >/dev/null 2>&1; then
  echo "restarting the service of the default store on $version: turndiff service start"
  "$link" service start || echo "install.sh: the service was not restarted; run: turndiff service start" >&2
fi
if [ -n "$previous" ]; then
  echo "a service of another store (TURNDIFF_DB) restarts on $version with: turndiff --db STORE service start"
fi

case ":${PATH-}:" in
  *":$prefix/bin:"*) ;;
  *)
    echo
    echo "$prefix/bin is not on your PATH. Add it, e.g. for bash:"
    echo "  echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc && . ~/.bashrc"
    ;;
esac
