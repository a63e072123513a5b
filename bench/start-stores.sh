# Sourced by bench/cold-start.sh and bench/daemon-start.sh (ROUNDS CHECKOUT... in "$@"): the arguments
# checked, a temporary folder removed at exit, and for each CHECKOUT (a built checkout, run through its own
# `turndiff` launcher) a store of its own in that folder, with one tracked workspace and one finished turn,
# once the launcher's ahead-of-time cache for its jar is trained. Sets rounds, work, ticks and checkouts, and
# the functions now (nanoseconds) and turndiff_in FOLDER CHECKOUT ARGS... (a command on that store, its run
# directory FOLDER/run).
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS CHECKOUT..." >&2
  exit 2
fi
rounds=$1
shift
work=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")
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
