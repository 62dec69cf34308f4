#!/usr/bin/env bash
# Runs the standard set-bench scenarios, each against a fresh release setd on a free port on 127.0.0.1,
# and writes BENCHMARKS.md with the figures and the machine they came from.
#
#   scripts/loadtest.sh [--quick] [--out FILE] [--only N]
#
#   --quick   every scenario for a few seconds, to check the script itself (figures are not comparable)
#   --out     where to write the report (default BENCHMARKS.md at the top of the repository)
#   --only N  run only scenario N (1-4); the report then has only that scenario
#   --fanout  also run scripts/fanout-bench.sh (setd against the C epoll floor, paced and flat-out chat
#             fan-out) and write its report to BENCHMARKS-fanout-run.md
#
# Needs jq. Every run is bounded: set-bench stops by itself, and setd is stopped after each scenario.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=$ROOT/BENCHMARKS.md
QUICK=0
ONLY=""
FANOUT=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) QUICK=1 ;;
        --out) OUT=$2; shift ;;
        --only) ONLY=$2; shift ;;
        --fanout) FANOUT=1 ;;
        *) echo "usage: scripts/loadtest.sh [--quick] [--out FILE] [--only N] [--fanout]" >&2; exit 2 ;;
    esac
    shift
done
command -v jq >/dev/null || { echo "loadtest.sh: needs jq" >&2; exit 2; }

# 10,000 connections need 10,000 descriptors in each process, plus a few.
ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < 10100 )); then
    echo "loadtest.sh: ulimit -n is $(ulimit -n); scenario 3 needs more than 10,100" >&2
fi

echo "building release setd and set-bench..." >&2
swift build -c release --scratch-path "$SCRATCH" --product setd >&2
swift build -c release --scratch-path "$SCRATCH" --product set-bench >&2
BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/setd-loadtest.XXXXXX")
SETD_PID=""
cleanup() {
    if [[ -n $SETD_PID ]]; then kill "$SETD_PID" 2>/dev/null || true; wait "$SETD_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT
TICKS=$(getconf CLK_TCK)

# Percent of CPU time idle over one second, from /proc/stat.
idle_percent() {
    local a b
    read -r -a a < <(head -1 /proc/stat)
    sleep 1
    read -r -a b < <(head -1 /proc/stat)
    local total=0 i
    for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
    echo $(( total > 0 ? 100 * (b[4] - a[4]) / total : 0 ))
}

# Waits up to a minute for the machine to be quiet, so other work does not skew the figures; prints
# the idle percentage it settled for.
wait_for_quiet() {
    local idle
    for _ in $(seq 30); do
        idle=$(idle_percent)
        (( idle >= 90 )) && break
        sleep 1
    done
    echo "$idle"
}

# The busiest other processes right now (a one-second top sample), for the report.
busy_processes() {
    top -b -n 2 -d 1 -w 200 | awk '/^top -/{n++} n==2 && $1 ~ /^[0-9]+$/ && $9+0 >= 5 {print $12 " " $9 "%"}' \
        | head -5 | paste -sd, - | sed 's/,/, /g'
}

start_setd() {
    "$BIN/setd" --port 0 --seed 1 >"$WORK/$1.setd.out" 2>"$WORK/$1.setd.log" &
    SETD_PID=$!
    PORT=""
    for _ in $(seq 100); do
        PORT=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/$1.setd.out" | head -1)
        [[ -n $PORT ]] && return 0
        sleep 0.1
    done
    echo "loadtest.sh: setd did not start; see $WORK/$1.setd.log" >&2
    exit 1
}

stop_setd() {
    kill -TERM "$SETD_PID" 2>/dev/null || true
    wait "$SETD_PID" 2>/dev/null || true
    SETD_PID=""
}

cpu_seconds() { awk -v t="$TICKS" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
descriptors() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 | wc -l; }
rss_kib() { awk '/^VmRSS:/{print $2}' "/proc/$1/status"; }

# run NUMBER TITLE -- set-bench arguments...
run() {
    local number=$1 title=$2
    shift 3
    if [[ -n $ONLY && $ONLY != "$number" ]]; then return 0; fi
    echo "scenario $number: $title" >&2
    local idle busy
    idle=$(wait_for_quiet)
    busy=$(busy_processes)
    start_setd "s$number"
    local fds_before cpu_before status=0
    fds_before=$(descriptors "$SETD_PID")
    cpu_before=$(cpu_seconds "$SETD_PID")
    local started=$SECONDS
    "$BIN/set-bench" --port "$PORT" --server-pid "$SETD_PID" --seed "$number" --json "$@" \
        >"$WORK/s$number.bench.json" 2>"$WORK/s$number.progress" || status=$?
    local wall=$((SECONDS - started))
    sleep 1  # Let the server notice the last closes.
    local cpu_after fds_after rss_after
    cpu_after=$(cpu_seconds "$SETD_PID")
    fds_after=$(descriptors "$SETD_PID")
    rss_after=$(rss_kib "$SETD_PID")
    stop_setd
    if ! jq -e . "$WORK/s$number.bench.json" >/dev/null 2>&1; then
        echo "loadtest.sh: set-bench failed (status $status); see $WORK/s$number.progress" >&2
        cat "$WORK/s$number.bench.json" "$WORK/s$number.progress" >&2
        exit 1
    fi
    jq --arg title "$title" --arg args "set-bench $*" --argjson number "$number" --argjson status "$status" \
        --argjson cpu "$(awk -v a="$cpu_before" -v b="$cpu_after" 'BEGIN{printf "%.2f", b - a}')" \
        --argjson fds_before "$fds_before" --argjson fds_after "$fds_after" --argjson rss_after "$rss_after" \
        --argjson idle "$idle" --arg busy "$busy" --argjson wall "$wall" \
        '. + {number: $number, title: $title, args: $args, exit_status: $status, setd_cpu_s: $cpu,
              setd_fds_before: $fds_before, setd_fds_after: $fds_after, setd_rss_after_kib: $rss_after,
              idle_before_pct: $idle, busy_before: $busy, wall_s: $wall}' \
        "$WORK/s$number.bench.json" >"$WORK/s$number.json"
    jq -c '{number, sets, events_per_s, claim_ms, fanout_ms, errors, protocol_errors, clean}' "$WORK/s$number.json" >&2
}

if (( QUICK )); then
    D1=5 D2=5 D3=12 D4=6
else
    D1=60 D2=30 D3=25 D4=30
fi

run 1 "1,000 bots in 100 rooms, human think times" -- \
    --bots 1000 --rooms 100 --duration "$D1" --think 2000-8000 --mistakes 0.02
run 2 "100 bots in 1 room, flat out (worst fan-out)" -- \
    --bots 100 --rooms 1 --duration "$D2" --think 0 --mistakes 0.02 --resume-every 0 --chat-every 0
run 3 "10,000 idle connections in 1,000 rooms" -- \
    --bots 10000 --rooms 1000 --duration "$D3" --idle --connect-rate 2000
run 4 "connect/disconnect churn: 2,000 bots in 200 rooms, each dropping about once a second" -- \
    --bots 2000 --rooms 200 --duration "$D4" --think 1000-4000 --resume-every 1 --mistakes 0.02

# ---- The report ---------------------------------------------------------------------------------------

shopt -s nullglob
results=("$WORK"/s[0-9].json)
(( ${#results[@]} > 0 )) || { echo "loadtest.sh: no scenario ran" >&2; exit 1; }
jq -s 'sort_by(.number)' "${results[@]}" >"$WORK/all.json"

cpu_model=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)
cores=$(nproc)
memory=$(awk '/^MemTotal:/{printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
kernel=$(uname -sr)
swift_version=$(swift --version 2>/dev/null | head -1)
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git -C "$ROOT" status --porcelain 2>/dev/null) ]]; then commit="$commit (with uncommitted changes)"; fi

goal() {  # scenario-number jq-condition description
    local value
    value=$(jq -r --argjson n "$1" "map(select(.number == \$n)) | if length == 0 then \"not run\"
        elif (.[0] | $2) then \"met\" else \"MISSED\" end" "$WORK/all.json")
    echo "| $3 | $value |"
}

{
    echo "# setd benchmarks"
    echo
    echo "Measured by \`scripts/loadtest.sh\`$( (( QUICK )) && echo ' --quick (short runs: a smoke test, not comparable)')"
    echo "on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit. Each scenario runs against a fresh release"
    echo "\`setd --port 0 --seed 1\` on 127.0.0.1; \`set-bench\` runs on the same machine, so the two share its"
    echo "cores and every latency includes the bench's own queueing."
    echo
    echo "Fan-out against a plain C epoll server (issue 15): [BENCHMARKS-fanout.md](BENCHMARKS-fanout.md)."
    echo "The transport holes replayed against the release binary (issue 21, \`scripts/transport-bench.py\`):"
    echo "[BENCHMARKS-transport.md](BENCHMARKS-transport.md)."
    echo "How often each SET mode deals a board with no claim, and how long its games last:"
    echo "[BENCHMARKS-modes.md](BENCHMARKS-modes.md). The deterministic simulation's speed and its runs:"
    echo "[BENCHMARKS-simulation.md](BENCHMARKS-simulation.md)."
    echo
    echo "| machine | |"
    echo "| --- | --- |"
    echo "| CPU | $cpu_model, $cores cores |"
    echo "| memory | $memory |"
    echo "| kernel | $kernel |"
    echo "| toolchain | $swift_version |"
    echo "| descriptors | ulimit -n $(ulimit -n) |"
    echo
    echo "## Goals"
    echo
    echo "| goal | result |"
    echo "| --- | --- |"
    goal 3 '.connections_held >= 10000 and .server_rss.bytes_per_connection < 16384' \
        "10,000 concurrent players held, < 16 KiB RSS each (scenario 3)"
    goal 1 '.fanout_ms.p99 < 5 and .protocol_errors == 0 and .unexpected_errors == 0' \
        "scenario 1: fan-out p99 < 5 ms and zero errors"
    goal 2 '.events_per_s > 100000' "scenario 2: over 100,000 events delivered per second"
    echo
    echo "## How to read these figures"
    echo
    echo "- **events** are every line a bot received that was not a reply's final line: the SET, BOARD,"
    echo "  DECK and PLAYER lines of each set, chat, presence, and the snapshot after each NEWGAME (in a"
    echo "  full room its PLAYER lines outnumber everything else; *events by kind* shows the split)."
    echo "- **claim → reply** is timed on the claimer, from handing \`CHOOSE … @rev\` to the socket to reading"
    echo "  its OK/ERR; **claim → SET at the others** from the same moment to each other bot of the room"
    echo "  reading the SET line. Both include set-bench's own queueing: in the flat-out room its queues are"
    echo "  saturated, so those latencies measure the bench's backlog more than the server."
    echo "- **bytes per connection** is (setd RSS with every bot connected − RSS before the first) ÷"
    echo "  connections, so it includes each player's share of rooms and sessions."
    echo "- **machine before the run** is the idle share of the CPU just before the scenario started and"
    echo "  any other process using it; figures taken on a busy machine are pessimistic."
    echo "- **error replies** include the deliberate mistakes (\`--mistakes\`: NOTSET and STALE) and lost"
    echo "  races (STALE, OVER); **unexpected** and **protocol errors** are the ones a clean run has none of."
    echo
    echo "## Results"
    echo
    jq -r '
        def ms(h): "\(h.p50) / \(h.p90) / \(h.p99) / \(h.max)";
        def count(o): if (o | length) == 0 then "none" else (o | to_entries | map("\(.key) \(.value)") | join(", ")) end;
        .[] |
        "### \(.number). \(.title)\n",
        "`\(.args)`\n",
        "| figure | value |",
        "| --- | --- |",
        "| connections held | \(.connections_held) (\(.connects) connects, \(.resumes) resumes) |",
        "| games finished | \(.games) |",
        "| sets taken | \(.sets) (\(.sets_per_s) /s) |",
        "| claims | \(.claims) (\(.claims_per_s) /s, \(.mistakes) deliberate mistakes) |",
        "| events delivered | \(.events) (\(.events_per_s) /s) |",
        "| events by kind | \(count(.events_by_kind)) |",
        "| claim → reply, ms p50 / p90 / p99 / max | \(ms(.claim_ms)) (\(.claim_ms.count) samples) |",
        "| claim → SET at the others, ms p50 / p90 / p99 / max | \(ms(.fanout_ms)) (\(.fanout_ms.count) samples) |",
        "| connect → seated, ms p50 / p90 / p99 / max | \(ms(.seat_ms)) |",
        "| error replies | \(count(.errors)) |",
        "| unexpected errors / disconnects / failed connects | \(.unexpected_errors) / \(.disconnects) / \(.connect_failures) |",
        "| protocol errors | \(.protocol_errors) |",
        "| setd RSS | \(.server_rss.baseline_kib) KiB idle, \(.server_rss.at_peak_connections_kib) KiB with \(.server_rss.connections_at_peak) connections = \(.server_rss.bytes_per_connection) bytes per connection; peak \(.server_rss.peak_kib) KiB, \(.setd_rss_after_kib) KiB after |",
        "| setd CPU | \(.setd_cpu_s) s in \(.seconds) s (\((.setd_cpu_s / .seconds * 100) | floor) % of one core) |",
        "| setd descriptors | \(.setd_fds_before) before, \(.setd_fds_after) after the bots left |",
        "| set-bench peak RSS | \(.bench_peak_rss_kib) KiB |",
        "| machine before the run | \(.idle_before_pct) % idle\(if .busy_before != "" then "; busy: " + .busy_before else "" end) |",
        (if (.protocol_error_samples | length) > 0 then "\nProtocol errors seen:\n\n" + (.protocol_error_samples | map("- " + .[0:300]) | join("\n")) else empty end),
        (if (.incident_samples | length) > 0 then "\nIncidents:\n\n" + (.incident_samples | map("- " + .[0:300]) | join("\n")) else empty end),
        ""
    ' "$WORK/all.json"
    echo "## Raw figures"
    echo
    echo '```json'
    jq -c '.[] | del(.protocol_error_samples, .incident_samples)' "$WORK/all.json"
    echo '```'
} >"$OUT"
echo "wrote $OUT (raw output in $WORK)" >&2
if (( FANOUT )); then
    echo "fan-out against the C floor (scripts/fanout-bench.sh)..." >&2
    BIN=$BIN "$ROOT/scripts/fanout-bench.sh" $( (( QUICK )) && echo --quick) --out "$ROOT/BENCHMARKS-fanout-run.md"
fi
