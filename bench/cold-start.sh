#!/usr/bin/env bash
# Cold start of the per-user service, alternated between checkouts (docs/service.md, "Cold start").
#
#   bench/cold-start.sh ROUNDS CHECKOUT...   e.g. bench/cold-start.sh 8 /tmp/before .
#
# Each CHECKOUT is a built checkout (its cli/target/turndiff.jar) run through its own `turndiff` launcher,
# on a store of its own in a temporary folder: one tracked workspace, one finished turn. The launcher
# trains its ahead-of-time cache in the background once per jar; this waits for it before timing. Then,
# ROUNDS times, for each checkout in turn, with no service running: `service start` timed whole, the
# time until its discovery file appeared (what a hook waits for), the command's own CPU (its launcher and
# JVM: bash's `time`, user + sys), and the daemon's CPU (utime + stime from /proc/PID/stat) when the
# command returned; then `service stop`. One line per sample, with the load
# average; compare medians of pairs taken in the same round.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS CHECKOUT..." >&2
  exit 2
fi
rounds=$1
shift
work=$(mktemp -d /tmp/cold-start.XXXXXX)
trap 'rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)
now() { date +%s%N; }
checkouts=()
for checkout in "$@"; do
  checkouts+=("$(cd "$checkout" && pwd)")
done
turndiff_in() {
  local folder=$1 checkout=$2
  shift 2
  XDG_RUNTIME_DIR=$folder/run "$checkout/turndiff" --db "$folder/store.db" "$@"
}
for i in "${!checkouts[@]}"; do
  folder=$work/$i checkout=${checkouts[$i]}
  mkdir -p "$folder/workspace" "$folder/run"
  chmod 700 "$folder" "$folder/run"
  echo one >"$folder/workspace/a.txt"
  turndiff_in "$folder" "$checkout" track --workspace "$folder/workspace" >/dev/null
  turn=$(turndiff_in "$folder" "$checkout" turn begin --workspace "$folder/workspace" |
    sed -n 's/.*"turn":"\([^"]*\)".*/\1/p')
  echo two >>"$folder/workspace/a.txt"
  turndiff_in "$folder" "$checkout" turn finish --turn "$turn" >/dev/null
  until [ -f "$checkout/cli/target/turndiff.aot" ]; do sleep 2; done
done
for round in $(seq 1 "$rounds"); do
  for i in "${!checkouts[@]}"; do
    folder=$work/$i checkout=${checkouts[$i]}
    start=$(now)
    (
      until compgen -G "$folder/run/turndiff/*.json" >/dev/null; do sleep 0.005; done
      echo $((($(now) - start) / 1000000)) >"$folder/published"
    ) &
    watcher=$!
    TIMEFORMAT='%U %S'
    { time out=$(turndiff_in "$folder" "$checkout" service start 2>/dev/null); } 2>"$folder/times"
    end=$(now)
    read -r user system <"$folder/times"
    pid=$(printf '%s' "$out" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
    read -r -a stat <"/proc/$pid/stat"
    wait "$watcher"
    echo "round $round $checkout: start_wall_ms=$(((end - start) / 1000000))" \
      "published_ms=$(cat "$folder/published")" \
      "command_cpu_ms=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%d", (u + s) * 1000 }')" \
      "daemon_cpu_ms=$(((stat[13] + stat[14]) * 1000 / ticks))" \
      "load=$(cut -d' ' -f1 /proc/loadavg)"
    turndiff_in "$folder" "$checkout" service stop >/dev/null
  done
done
