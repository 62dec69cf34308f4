#!/usr/bin/env bash
# The fan-out benchmark of issue 15: setd against a plain C epoll server (scripts/bench/epoll-floor.c,
# "the floor"), measured in the same run, back to back, case by case, so that both see the same machine.
#
#   scripts/fanout-bench.sh [--quick] [--repeat N] [--duration S] [--out FILE] [--no-perf] [--only CASES]
#
# Cases: 1,000 bots in 100 rooms chatting at 2k, 5k and 10k lines a second in all (each line reaches the
# 10 members of its room), and flat out: 100 bots in one room, one sender keeping 64 CHATs in flight
# (setd with --rate-limit 0), and all-senders (issue 28): 1,000 bots in 100 rooms, every one sending flat
# out with 20 CHATs in flight, 20,000 lines in flight in all. --only paced,flat-out,all-senders picks
# cases (default: all). Each line carries its send time, so set-bench measures send → every
# receiver (p50, p99). Server CPU per delivery comes from /proc/<pid>/stat (utime + stime over the bench
# run ÷ CHAT lines delivered); then, unless --no-perf, one shorter run per server of the 10k case under
# `perf stat` counts system calls of each kind and context switches per delivered line.
#
# Prints a Markdown report (to --out, default stdout) and keeps the raw JSON in a scratch directory.
# Needs jq, gcc and (for the syscall counts) perf. Every run is bounded by set-bench's --duration.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=/dev/stdout
REPEAT=1
DURATION=20
PERF=1
ONLY=paced,flat-out,all-senders
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) DURATION=4 ;;
        --repeat) REPEAT=$2; shift ;;
        --duration) DURATION=$2; shift ;;
        --out) OUT=$2; shift ;;
        --no-perf) PERF=0 ;;
        --only) ONLY=$2; shift ;;
        *) echo "usage: scripts/fanout-bench.sh [--quick] [--repeat N] [--duration S] [--out FILE] [--no-perf] [--only CASES]" >&2; exit 2 ;;
    esac
    shift
done
command -v jq >/dev/null || { echo "fanout-bench.sh: needs jq" >&2; exit 2; }
command -v gcc >/dev/null || { echo "fanout-bench.sh: needs gcc" >&2; exit 2; }
if (( PERF )) && ! command -v perf >/dev/null; then
    echo "fanout-bench.sh: no perf; syscall counts skipped" >&2
    PERF=0
fi

# 1,000 bots hold 1,000 descriptors in set-bench and 1,000 in the server, plus a few each.
ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < 1100 )); then
    echo "fanout-bench.sh: ulimit -n is $(ulimit -n); 1,000 clients need more than 1,100" >&2
    exit 2
fi

if [[ -z ${BIN:-} ]]; then
    echo "building release setd and set-bench..." >&2
    swift build -c release --scratch-path "$SCRATCH" --product setd >&2
    swift build -c release --scratch-path "$SCRATCH" --product set-bench >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/setd-fanout.XXXXXX")
gcc -O2 -o "$WORK/epoll-floor" "$ROOT/scripts/bench/epoll-floor.c"

SERVER_PID=""
PERF_PID=""
cleanup() {
    if [[ -n $SERVER_PID ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    if [[ -n $PERF_PID ]]; then wait "$PERF_PID" 2>/dev/null || true; fi
    if [[ -n $SERVER_PID ]]; then wait "$SERVER_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT
TICKS=$(getconf CLK_TCK)

# start_server KIND NAME [perf]: starts setd or the floor on a free port; sets SERVER_PID and PORT.
start_server() {
    local kind=$1 name=$2 perf=${3:-}
    local command
    if [[ $kind == setd ]]; then
        command=("$BIN/setd" --host 127.0.0.1 --port 0 --seed 1 --log-level warn --rate-limit 0
            --max-rooms-per-ip 0)
    else
        command=("$WORK/epoll-floor" 0)
    fi
    if [[ -n $perf ]]; then
        local events="task-clock,context-switches,cpu-migrations"
        local call
        for call in read write sendto recvfrom sendmsg recvmsg readv writev epoll_wait epoll_pwait \
            epoll_ctl futex accept accept4 close; do
            events+=",syscalls:sys_enter_$call"
        done
        perf stat -x, -o "$WORK/$name.perf" -e "$events" -- "${command[@]}" \
            >"$WORK/$name.out" 2>"$WORK/$name.log" &
        PERF_PID=$!
    else
        "${command[@]}" >"$WORK/$name.out" 2>"$WORK/$name.log" &
        SERVER_PID=$!
    fi
    PORT=""
    for _ in $(seq 100); do
        # The file may not exist yet: the server's redirection is made in the background.
        PORT=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/$name.out" 2>/dev/null | head -1 || true)
        [[ -n $PORT ]] && break
        sleep 0.1
    done
    [[ -n $PORT ]] || { echo "fanout-bench.sh: $kind did not start; see $WORK/$name.log" >&2; exit 1; }
    # Under perf the server is perf's child.
    if [[ -n $perf ]]; then SERVER_PID=$(pgrep -P "$PERF_PID" | head -1); fi
}

stop_server() {
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    if [[ -n $PERF_PID ]]; then wait "$PERF_PID" 2>/dev/null || true; PERF_PID=""; fi
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Context switches of every thread of a process, voluntary and not.
ctxt_switches() {
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/{v+=$2} /^nonvoluntary_ctxt_switches/{n+=$2} END{print v + 0, n + 0}'
}

# measure CASE KIND RUN [perf] -- set-bench arguments...
measure() {
    local case=$1 kind=$2 run=$3 perf=""
    shift 3
    if [[ $1 == perf ]]; then perf=perf; shift; fi
    shift  # --
    local name="$case.$kind.$run${perf:+.perf}"
    echo "  $name" >&2
    start_server "$kind" "$name" "$perf"
    local before after sw_before sw_after status=0
    before=$(cpu_ticks "$SERVER_PID")
    sw_before=$(ctxt_switches "$SERVER_PID")
    "$BIN/set-bench" --port "$PORT" --json --quiet --seed "$run" --resume-every 0 "$@" \
        >"$WORK/$name.bench.json" 2>"$WORK/$name.progress" || status=$?
    after=$(cpu_ticks "$SERVER_PID")
    sw_after=$(ctxt_switches "$SERVER_PID")
    stop_server
    jq -e . "$WORK/$name.bench.json" >/dev/null 2>&1 || {
        echo "fanout-bench.sh: set-bench failed (status $status); see $WORK/$name.progress" >&2
        cat "$WORK/$name.progress" >&2
        exit 1
    }
    local perf_json='{}'
    if [[ -n $perf ]]; then
        # perf -x, lines: value,unit,event,...; task-clock is in milliseconds.
        perf_json=$(awk -F, '$3 != "" && $1 ~ /^[0-9.]+$/ {sub(/^syscalls:sys_enter_/, "", $3); printf "%s\"%s\":%s", (n++ ? "," : "{"), $3, $1} END{print n ? "}" : "{}"}' "$WORK/$name.perf")
    fi
    jq --arg case "$case" --arg kind "$kind" --argjson run "$run" --argjson status "$status" \
        --argjson cpu_ticks "$((after - before))" --argjson ticks "$TICKS" \
        --arg sw_before "$sw_before" --arg sw_after "$sw_after" --argjson perf "$perf_json" \
        --arg args "set-bench $*" \
        '. + {case: $case, kind: $kind, run: $run, exit_status: $status, args: $args,
              server_cpu_s: ($cpu_ticks / $ticks),
              cpu_us_per_delivery: (if .chat_deliveries > 0 then $cpu_ticks / $ticks * 1e6 / .chat_deliveries else null end),
              voluntary_switches: (($sw_after | split(" ")[0] | tonumber) - ($sw_before | split(" ")[0] | tonumber)),
              nonvoluntary_switches: (($sw_after | split(" ")[1] | tonumber) - ($sw_before | split(" ")[1] | tonumber)),
              perf: $perf}' \
        "$WORK/$name.bench.json" >"$WORK/$name.json"
    jq -c '{case, kind, run, chat_deliveries_per_s, p50: .chat_ms.p50, p99: .chat_ms.p99, cpu_us_per_delivery, protocol_errors, unexpected_errors}' "$WORK/$name.json" >&2
}

paced() {  # RATE RUN
    local rate=$1 run=$2
    for kind in setd floor; do
        measure "paced-$rate" "$kind" "$run" -- --bots 1000 --rooms 100 --chat-rate "$rate" --duration "$DURATION"
    done
}

wants() { [[ ",$ONLY," == *",$1,"* ]]; }
for run in $(seq "$REPEAT"); do
    echo "run $run of $REPEAT" >&2
    if wants paced; then
        for rate in 2000 5000 10000; do paced "$rate" "$run"; done
    fi
    if wants flat-out; then
        for kind in setd floor; do
            measure flat-out "$kind" "$run" -- --bots 100 --rooms 1 --chat-rate 10000000 --chat-senders 1 \
                --chat-window 64 --duration "$DURATION"
        done
    fi
    if wants all-senders; then
        # Every bot sends as fast as its window lets it: 1,000 x 20 = 20,000 lines in flight.
        for kind in setd floor; do
            measure all-senders "$kind" "$run" -- --bots 1000 --rooms 100 --chat-rate 10000000 \
                --chat-window 20 --duration "$DURATION"
        done
    fi
done
if ! wants paced; then PERF=0; fi
if (( PERF )); then
    echo "syscall counts (10k lines/s under perf stat)" >&2
    for kind in setd floor; do
        measure paced-10000 "$kind" 0 perf -- --bots 1000 --rooms 100 --chat-rate 10000 \
            --duration "$(( DURATION / 2 > 3 ? DURATION / 2 : 3 ))"
    done
fi

# ---- The report ---------------------------------------------------------------------------------------

jq -s '.' $(ls "$WORK"/*.json | grep -v all.json) >"$WORK/all.json"
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git -C "$ROOT" status --porcelain 2>/dev/null) ]]; then commit="$commit (with uncommitted changes)"; fi
{
    echo "Measured by \`scripts/fanout-bench.sh --repeat $REPEAT --duration $DURATION\` on $(date -u '+%Y-%m-%d %H:%M UTC'),"
    echo "commit $commit, $(nproc) cores ($(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)), raw figures in $WORK."
    echo "Medians over $REPEAT run(s); setd and the floor alternate case by case within each run."
    echo
    echo "| case | server | deliveries/s | p50 ms | p99 ms | CPU µs/delivery | ctx switches/delivery | protocol errors |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    jq -r '
        def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
        def r(d): if . == null then "–" else (. * pow(10; d) | round) / pow(10; d) | tostring end;
        map(select(.run > 0)) | group_by(.case) | sort_by(.[0].case | if . == "flat-out" then 99999998 elif . == "all-senders" then 99999999 else (ltrimstr("paced-") | tonumber) end)[] |
        group_by(.kind) | sort_by(.[0].kind == "floor")[] |
        "| \(.[0].case) | \(.[0].kind) | \(map(.chat_deliveries_per_s) | median | r(0)) | \(map(.chat_ms.p50) | median | r(3)) | \(map(.chat_ms.p99) | median | r(3)) | \(map(.cpu_us_per_delivery) | median | r(2)) | \(map((.voluntary_switches + .nonvoluntary_switches) / .chat_deliveries) | median | r(4)) | \(map(.protocol_errors) | add) |"
    ' "$WORK/all.json"
    if (( PERF )); then
        echo
        echo "System calls and context switches per delivered line, 10k lines/s in 100 rooms under \`perf stat\`"
        echo "(all threads; the run is shorter and perf's tracepoints slow system calls, so its CPU is not the table's):"
        echo
        echo "| server | deliveries | task-clock ms | context switches | read | write | sendto | recvfrom | epoll_wait | epoll_pwait | epoll_ctl | futex |"
        echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        jq -r '
            map(select(.run == 0))[] | .chat_deliveries as $d |
            def per(k): if (.perf[k] // 0) == 0 then "0" else "\(.perf[k]) (\((.perf[k] / $d * 10000 | round) / 10000))" end;
            "| \(.kind) | \($d) | \(.perf["task-clock"] | round) | \(per("context-switches")) | \(per("read")) | \(per("write")) | \(per("sendto")) | \(per("recvfrom")) | \(per("epoll_wait")) | \(per("epoll_pwait")) | \(per("epoll_ctl")) | \(per("futex")) |"
        ' "$WORK/all.json"
        echo
        echo "Each cell: the count over the run (per delivered line)."
    fi
} >"$OUT"
echo "raw output in $WORK" >&2
