#!/usr/bin/env bash
# The npm packages (npm.sh) and the Debian package (deb.sh), made side by side after release.sh: each
# compresses the release once, and they share nothing but the release folder they read.
set -euo pipefail
here=$(dirname "$0")
bash "$here/npm.sh" &
npm=$!
bash "$here/deb.sh" &
deb=$!
status=0
wait "$npm" || status=$?
wait "$deb" || status=$?
exit "$status"
