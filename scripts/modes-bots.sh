#!/usr/bin/env bash
# Bots play every SET mode against a live release setd on 127.0.0.1: for each mode, a fresh daemon and a
# set-bench run until GAMES games have finished, then a table row per mode (games finished, protocol
# errors, WRONG/NOTSET answers, STALE answers, claims, seconds). Memory's bots turn face-down cards over
# to learn them, so most of memory's NOTSETs are those looks, not mistakes.
#
#   scripts/modes-bots.sh [--games N] [--bots N] [--rooms N] [--limit S] [--mode M ...]
#
#   --games N   games to finish per mode (default 1000)
#   --bots N    bots per mode (default 40), spread over --rooms rooms (default 20)
#   --limit S   most seconds a mode may run (default 300): set-bench stops there, finished or not
#   --mode M    only this mode (may be repeated)
#
# Needs jq. Every run is bounded by --limit, and setd is stopped after each mode. Prints the table
# (markdown) on stdout; progress and the JSON reports go to a scratch directory named on stderr.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GAMES=1000
BOTS=40
ROOMS=20
LIMIT=300
MODES=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --games) GAMES=$2; shift ;;
        --bots) BOTS=$2; shift ;;
        --rooms) ROOMS=$2; shift ;;
        --limit) LIMIT=$2; shift ;;
        --mode) MODES+=("$2"); shift ;;
        *) echo "usage: scripts/modes-bots.sh [--games N] [--bots N] [--rooms N] [--limit S] [--mode M ...]" >&2
           exit 2 ;;
    esac
    shift
done
if (( ${#MODES[@]} == 0 )); then
    MODES=(normal junior chain ultra ultrachain ultra9 megaset ghostset 4set 4setjr puzzle shuffle memory)
fi
command -v jq >/dev/null || { echo "modes-bots.sh: needs jq" >&2; exit 2; }

cd "$ROOT"
echo "building release setd and set-bench..." >&2
swift build -c release --product setd >&2
swift build -c release --product set-bench >&2
BIN=$(swift build -c release --show-bin-path)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/setd-modes.XXXXXX")
echo "scratch: $WORK" >&2
SETD_PID=""
cleanup() {
    if [[ -n $SETD_PID ]]; then kill "$SETD_PID" 2>/dev/null || true; wait "$SETD_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

start_setd() {
    # No input rate limit: flat-out bots are a benchmark, not a flood.
    "$BIN/setd" --host 127.0.0.1 --port 0 --seed 1 --rate-limit 0 >"$WORK/$1.setd.out" 2>"$WORK/$1.setd.log" &
    SETD_PID=$!
    PORT=""
    for _ in $(seq 100); do
        PORT=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/$1.setd.out" "$WORK/$1.setd.log" | head -1)
        [[ -n $PORT ]] && return 0
        sleep 0.1
    done
    echo "modes-bots.sh: setd did not start; see $WORK/$1.setd.log" >&2
    exit 1
}

stop_setd() {
    kill -TERM "$SETD_PID" 2>/dev/null || true
    wait "$SETD_PID" 2>/dev/null || true
    SETD_PID=""
}

echo "| mode | games finished | protocol errors | unexpected errors | WRONG/NOTSET | STALE | claims | sets | seconds | clean |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for mode in "${MODES[@]}"; do
    echo "mode $mode..." >&2
    start_setd "$mode"
    status=0
    "$BIN/set-bench" --host 127.0.0.1 --port "$PORT" --bots "$BOTS" --rooms "$ROOMS" --mode "$mode" \
        --games "$GAMES" --time-limit "$LIMIT" --think 0 --mistakes 0.02 --resume-every 0 --chat-every 0 \
        --seed 1 --json --quiet >"$WORK/$mode.json" 2>"$WORK/$mode.progress" || status=$?
    stop_setd
    jq -r --arg mode "$mode" '"| \($mode) | \(.games) | \(.protocol_errors) | \(.unexpected_errors) | \(.errors.NOTSET // 0) | \(.errors.STALE // 0) | \(.claims) | \(.sets) | \(.seconds) | \(.clean) |"' \
        "$WORK/$mode.json" || echo "| $mode | set-bench failed (status $status), see $WORK/$mode.progress |"
done
