#!/usr/bin/env bash
# The npm packages (docs/install.md), run by dist/pom.xml in `package` after release.sh: in NPM_OUT,
#   turndiff-<version>.tgz                   the main package: bin/turndiff, which runs the platform package's
#                                           launcher, and one optional dependency per platform;
#   turndiff-<platform>-<version>.tgz       @turndiff/<platform>: the release folder (less install.sh), which
#                                           npm installs only where its "os", "cpu" and "libc" match.
set -euo pipefail
: "${RELEASE_DIR:?}" "${RELEASE_VERSION:?}" "${RELEASE_PLATFORM:?}" "${NPM_SOURCES:?}" "${WORK_DIR:?}" "${NPM_OUT:?}"

case $RELEASE_PLATFORM in
  linux-x64) os=linux cpu=x64 ;;
  *) echo "npm.sh: no npm platform for $RELEASE_PLATFORM" >&2; exit 1 ;;
esac
build=$WORK_DIR/npm
rm -rf "$build" "$NPM_OUT"
mkdir -p "$build/turndiff" "$NPM_OUT"

# hard links: the release's 130 MB are not copied
cp -al "$RELEASE_DIR" "$build/platform"
rm "$build/platform/install.sh"
cat >"$build/platform/package.json" <<EOF
{
  "name": "@turndiff/$RELEASE_PLATFORM",
  "version": "$RELEASE_VERSION",
  "description": "turndiff for $RELEASE_PLATFORM: its Java runtime, jar and launcher (installed by the turndiff package)",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "libc": ["glibc"],
  "preferUnplugged": true
}
EOF
cp "$NPM_SOURCES/README.md" "$build/platform/README.md"

# The main package names every platform turndiff is meant for; npm skips those not published yet.
cp -R "$NPM_SOURCES/turndiff/." "$build/turndiff/"
cp "$NPM_SOURCES/README.md" "$build/turndiff/README.md"
cat >"$build/turndiff/package.json" <<EOF
{
  "name": "turndiff",
  "version": "$RELEASE_VERSION",
  "description": "Per-turn file snapshots, diffs and safe rewinds for AI coding-agent runtimes",
  "bin": { "turndiff": "bin/turndiff" },
  "os": ["linux", "darwin"],
  "optionalDependencies": {
    "@turndiff/linux-x64": "$RELEASE_VERSION",
    "@turndiff/linux-arm64": "$RELEASE_VERSION",
    "@turndiff/darwin-x64": "$RELEASE_VERSION",
    "@turndiff/darwin-arm64": "$RELEASE_VERSION"
  }
}
EOF
chmod 0755 "$build/turndiff/bin/turndiff"

for package in platform turndiff; do
  (cd "$build/$package" && npm pack --ignore-scripts --offline --loglevel=warn --pack-destination "$NPM_OUT" >/dev/null)
done
rm -rf "$build"
ls -l "$NPM_OUT"
