#!/usr/bin/env bash
# The Debian package (docs/install.md), run by dist/pom.xml in `package` after release.sh: the release
# folder (less install.sh) as /usr/lib/turndiff, /usr/bin/turndiff a link to its launcher, built with
# dpkg-deb (files owned by root without fakeroot). /usr/lib/turndiff is the same path in every version, so
# the hooks' command survives an upgrade.
set -euo pipefail
: "${RELEASE_DIR:?}" "${RELEASE_VERSION:?}" "${DEB_SOURCES:?}" "${WORK_DIR:?}" "${DEB_OUT:?}"

# 0.1.0-SNAPSHOT -> 0.1.0~SNAPSHOT, which Debian sorts before 0.1.0
version=${RELEASE_VERSION//-/\~}
root=$WORK_DIR/deb/turndiff
rm -rf "$WORK_DIR/deb"
mkdir -p "$root/DEBIAN" "$root/usr/lib" "$root/usr/bin"
cp -al "$RELEASE_DIR" "$root/usr/lib/turndiff"
rm "$root/usr/lib/turndiff/install.sh"
ln -s ../lib/turndiff/bin/turndiff "$root/usr/bin/turndiff"
size=$(du -sk "$root/usr" | cut -f1)
sed "s/@VERSION@/$version/; s/@INSTALLED_SIZE@/$size/" "$DEB_SOURCES/control" >"$root/DEBIAN/control"

deb=$DEB_OUT/turndiff_${version}_amd64.deb
rm -f "$DEB_OUT"/turndiff_*_amd64.deb
dpkg-deb --root-owner-group -Zgzip -z6 --build "$root" "$deb"
rm -rf "$WORK_DIR/deb"
