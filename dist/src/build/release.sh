#!/usr/bin/env bash
# The release folder and its tarball (docs/install.md), run by dist/pom.xml in `package` after the
# release's jar and native libraries are in RELEASE_DIR/lib:
#   1. the Java runtime: jlink of RELEASE_MODULES out of the build's JDK, its native libraries stripped;
#   2. bin/turndiff (the release's launcher), bin/turndiff-hook and its client, install.sh, and the `release` file;
#   3. the AOT cache, trained by the release's own runtime on io.turndiff.cli.AotTraining with the options
#      the launcher gives one-shot commands (a JVM uses a cache only with the module options it was trained
#      with), on a store made first by `turndiff du` (Flyway stays out of the cache); that first run also
#      leaves sqlite-jdbc's library in lib/native, where the launcher points it;
#   4. a check that the launcher starts from that cache without a word from the JVM;
#   5. the tarball.
set -euo pipefail
: "${TURNDIFF_JDK:?}" "${RELEASE_DIR:?}" "${RELEASE_VERSION:?}" "${RELEASE_PLATFORM:?}" "${RELEASE_MODULES:?}"
: "${RELEASE_SOURCES:?}" "${HOOK_SCRIPT:?}" "${WORK_DIR:?}" "${TARBALL:?}"
release=$RELEASE_DIR

# 1. Debug attributes, headers and man pages out, the class files compressed: 41 MB of modules become 18.
# No default class-data archives: every command starts from the AOT cache, which holds the JDK's classes
# the product loads as well as its own.
rm -rf "$release/runtime"
"$TURNDIFF_JDK/bin/jlink" --add-modules "$RELEASE_MODULES" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-6 --exclude-files='**/bin/jwebserver,**/bin/keytool' --output "$release/runtime"
# HotSpot's symbol table (.symtab, 5 of libjvm.so's 30 MB) out: the dynamic symbols the JVM and JNI
# resolve stay (.dynsym); a crash report then names libjvm.so's internal frames by offset, not by function.
# jlink's --strip-native-debug-symbols removes only debug sections, which this JDK's libraries do not have.
if command -v strip >/dev/null; then
  find "$release/runtime/lib" -name '*.so' -exec strip --strip-unneeded {} +
else
  echo "release.sh: no strip (binutils): the runtime's native libraries keep their symbol tables" >&2
fi
# The legal notices of each module are symbolic links to java.base's: copies, since npm packs no link.
find "$release/runtime" -type l | while read -r link; do
  cp --remove-destination "$(readlink -f "$link")" "$link"
done

# 2.
mkdir -p "$release/bin"
install -m 0755 "$RELEASE_SOURCES/bin/turndiff" "$release/bin/turndiff"
install -m 0755 "$HOOK_SCRIPT" "$release/bin/turndiff-hook"
# The hook client (hooks/src/main/c), which `hooks install` writes as the hook command: a release carries it, so
# the hooks module must have built it (it needs a C compiler; docs/runtime-hooks.md, "The hook client").
if [ ! -x "$HOOK_CLIENT" ]; then
  echo "release.sh: $HOOK_CLIENT is missing: the hooks module builds it with the machine's C compiler (cc, gcc)" >&2
  exit 1
fi
install -m 0755 "$HOOK_CLIENT" "$release/bin/turndiff-hook-client"
install -m 0755 "$RELEASE_SOURCES/install.sh" "$release/install.sh"
{
  echo "TURNDIFF_VERSION=\"$RELEASE_VERSION\""
  echo "TURNDIFF_PLATFORM=\"$RELEASE_PLATFORM\""
  sed -n 's/^\(JAVA_VERSION=.*\)$/\1/p; s/^MODULES=\(.*\)$/JAVA_MODULES=\1/p' "$release/runtime/release"
} >"$release/release"

# 3. Everything the training writes but the cache and the library goes to a folder of its own; HOME too,
# so that nothing reaches the build user's store or settings. The training's store is made first, by a
# JVM that records nothing: the store a command opens is at the newest migration but on the first call
# after an install or an upgrade, and a store at the newest migration is opened without Flyway, so the
# cache leaves Flyway's ~450 classes (5.5 MB) out.
training=$WORK_DIR/aot-training
rm -rf "$training" "$release/lib/turndiff.aot"
mkdir -p "$training"
env -i PATH="$PATH" HOME="$training" LC_ALL=C.UTF-8 \
  "$release/runtime/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -Dturndiff.sqlite.library="$release/lib/native" -DZstdNativePath="$release/lib/native/libzstd-jni.so" \
  -Djava.io.tmpdir="$training" -cp "$release/lib/turndiff.jar" io.turndiff.cli.Main --db "$training/training.db" du \
  >"$training.log" 2>&1 || { cat "$training.log" >&2; echo "release.sh: the training's store was not made" >&2; exit 1; }
env -i PATH="$PATH" HOME="$training" LC_ALL=C.UTF-8 \
  "$release/runtime/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -Dturndiff.sqlite.library="$release/lib/native" -DZstdNativePath="$release/lib/native/libzstd-jni.so" \
  -Djava.io.tmpdir="$training" -XX:AOTCacheOutput="$release/lib/turndiff.aot" -Xlog:aot=warning \
  -cp "$release/lib/turndiff.jar" io.turndiff.cli.AotTraining "$training/training.db" >"$training.log" 2>&1 ||
  { cat "$training.log" >&2; echo "release.sh: the AOT training failed" >&2; exit 1; }
rm -rf "$training"
[ -f "$release/lib/turndiff.aot" ] || { echo "release.sh: no AOT cache was written" >&2; exit 1; }
# the training made sqlite-jdbc's copy (SqliteLibraryCopy: sqlite-jdbc-<version>/<os.name>-<os.arch>/)
ls "$release"/lib/native/sqlite-jdbc-*/*/libsqlitejdbc.so >/dev/null

# 4.
check=$WORK_DIR/version-check
rm -rf "$check" && mkdir -p "$check"
env -i PATH=/usr/bin:/bin HOME="$check" "$release/bin/turndiff" --version >"$check.out" 2>"$check.err" ||
  { cat "$check.err" >&2; exit 1; }
if ! grep -q '^turndiff ' "$check.out" || [ -s "$check.err" ]; then
  echo "release.sh: the release's launcher did not start cleanly from its cache:" >&2
  cat "$check.out" "$check.err" >&2
  exit 1
fi
rm -rf "$check" "$check.out" "$check.err"

# 5.
tar -C "$(dirname "$release")" --sort=name --owner=0 --group=0 --numeric-owner -czf "$TARBALL" \
  "$(basename "$release")"
echo "release.sh: $TARBALL ($(du -s --apparent-size -B MB "$release" | cut -f1) unpacked, $(du --apparent-size -B MB "$TARBALL" | cut -f1))"
