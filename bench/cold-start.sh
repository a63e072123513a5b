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
# command returned; then `service stop`. Then the hooks' cold path: a Codex `UserPromptSubmit` through the
# checkout's hook client (bin/turndiff-hook-client when built, else bin/turndiff-hook) with no service
# running, timed from the call to its return with the call delivered (`hook_wall_ms`; `kept` instead when
# the call was left in the spool), the JVMs its start launched (`hook_jvms`: the runs of the launcher it
# was given in TURNDIFF_HOME) and the daemon's CPU when it returned; then `service stop`. One line per
# sample, with the load average; compare medians of pairs taken in the same round.
set -euo pipefail
# shellcheck source=bench/start-stores.sh
. "$(dirname "$0")/start-stores.sh"
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

    hook_client=$checkout/bin/turndiff-hook-client
    [ -x "$hook_client" ] || hook_client=$checkout/bin/turndiff-hook
    printf '{"session_id":"cold-%s","turn_id":"t-%s","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"hi"}' \
      "$round" "$round" "$folder/workspace" >"$folder/payload.json"
    # the launcher the hook starts the service through: the checkout's, behind one that counts its runs (each
    # run is one JVM: `service start` and the `serve` it spawns, or the daemon alone)
    mkdir -p "$folder/home"
    printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\nexec "%s" "$@"\n' "$folder/jvms" "$checkout/turndiff" \
      >"$folder/home/turndiff"
    chmod 700 "$folder/home/turndiff"
    : >"$folder/jvms"
    start=$(now)
    TURNDIFF_HOME=$folder/home TURNDIFF_DB=$folder/store.db XDG_RUNTIME_DIR=$folder/run \
      "$hook_client" codex <"$folder/payload.json" >/dev/null 2>&1
    end=$(now)
    discovery=$(compgen -G "$folder/run/turndiff/*.json" | head -1)
    pid=$(sed -n 's/^ *"pid": *\([0-9]*\).*/\1/p' "$discovery")
    read -r -a stat <"/proc/$pid/stat"
    outcome=hook_wall_ms=$(((end - start) / 1000000))
    if grep -q "this call is kept in the spool" "$folder/run/turndiff/"*.hook.log 2>/dev/null; then
      outcome="kept_after_ms=$(((end - start) / 1000000))"
    fi
    echo "round $round $checkout: $outcome hook_jvms=$(wc -l <"$folder/jvms")" \
      "daemon_cpu_ms=$(((stat[13] + stat[14]) * 1000 / ticks))" \
      "load=$(cut -d' ' -f1 /proc/loadavg)"
    rm -f "$folder/run/turndiff/"*.hook.log
    turndiff_in "$folder" "$checkout" service stop >/dev/null
  done
done
