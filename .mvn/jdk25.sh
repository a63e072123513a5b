# Sourced by ./mvnw, ./turndiff and .ci/run: makes JAVA_HOME name a JDK 25.
# Keeps JAVA_HOME when it already is a JDK 25; otherwise takes the first JDK 25 under /usr/lib/jvm.
# When there is none it leaves JAVA_HOME alone, and the build's enforcer rule (or the launcher) says what to do.
turndiff_is_jdk25() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  # The JDK's release file names its version without starting a JVM (two JVM starts, one here and one
  # in the launcher, cost a one-shot command ~0.4 s); a JDK without one is asked.
  if [ -r "$1/release" ]; then
    case "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release")" in
      25) return 0 ;;
      ?*) return 1 ;;
    esac
  fi
  case "$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')" in
    25) return 0 ;;
    *) return 1 ;;
  esac
}
if [ -z "${JAVA_HOME-}" ] || ! turndiff_is_jdk25 "$JAVA_HOME"; then
  for turndiff_candidate in /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    [ -d "$turndiff_candidate" ] || continue
    if turndiff_is_jdk25 "$turndiff_candidate"; then
      JAVA_HOME="$turndiff_candidate"
      export JAVA_HOME
      break
    fi
  done
  unset turndiff_candidate
fi
