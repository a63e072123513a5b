#!/usr/bin/env bash
# The per-user service's own start, alternated between checkouts (docs/service.md, "Cold start").
#
#   bench/daemon-start.sh ROUNDS CHECKOUT...   e.g. bench/daemon-start.sh 8 /tmp/before .
#
# Each CHECKOUT is a built checkout (its cli/target/turndiff.jar) run through its own `turndiff` launcher,
# on a store of its own in a temporary folder: one tracked workspace, one finished turn. The launcher
# trains its ahead-of-time cache in the background once per jar; this waits for it before timing. Then,
# ROUNDS times, for each checkout in turn: `serve --daemon` alone (what `service start` spawns: a
# discovery file and a socket in a 0700 run directory, port 0), timed from its launch until its discovery
# file appeared, its CPU (utime + stime from /proc/PID/stat, the launcher's shell and the JVM: the
# launcher execs java) read then; then SIGTERM and wait. One line per sample, with the load average;
# compare medians of pairs taken in the same round. TURNDIFF_BENCH_JAVA_OPTIONS, when set, is given to
# every JVM as JDK_JAVA_OPTIONS (to try flags).
set -euo pipefail
# shellcheck source=bench/start-stores.sh
. "$(dirname "$0")/start-stores.sh"
for round in $(seq 1 "$rounds"); do
  for i in "${!checkouts[@]}"; do
    folder=$work/$i checkout=${checkouts[$i]}
    rm -f "$folder/run/daemon.json"
    start=$(now)
    # exec, so that $! is the launcher's process, which execs java
    (
      export XDG_RUNTIME_DIR=$folder/run JDK_JAVA_OPTIONS=${TURNDIFF_BENCH_JAVA_OPTIONS-}
      exec "$checkout/turndiff" --db "$folder/store.db" serve --daemon --port 0 \
        --discovery "$folder/run/daemon.json" --socket "$folder/run/daemon.sock" >/dev/null 2>"$folder/log"
    ) &
    pid=$!
    until [ -f "$folder/run/daemon.json" ] || ! kill -0 "$pid" 2>/dev/null; do sleep 0.005; done
    end=$(now)
    read -r -a stat <"/proc/$pid/stat"
    echo "round $round $checkout: published_ms=$(((end - start) / 1000000))" \
      "daemon_cpu_ms=$(((stat[13] + stat[14]) * 1000 / ticks))" \
      "load=$(cut -d' ' -f1 /proc/loadavg)"
    kill -TERM "$pid"
    wait "$pid" || true
  done
done
