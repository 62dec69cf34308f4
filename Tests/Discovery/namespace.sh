#!/bin/sh
# Discovery end to end, run by DiscoveryNamespaceTests inside a network namespace of its own:
#   unshare -n sh Tests/Discovery/namespace.sh SCENARIO SETD SET-CLI
# The namespace has only `lo`; multicast is turned on there and routed through it, so every packet stays
# inside the namespace and never reaches the machine's real interfaces. Prints what it saw for the test
# to check; every step has a time limit, and every process it started is stopped on the way out.
set -u
scenario=$1
setd=$2
cli=$3
here=$(dirname "$0")
query="python3 $here/mdns_query.py"

# Refuse to run anywhere but a fresh namespace: one whose only interface is lo.
links=$(ip -o link show | awk -F': ' '{print $2}' | tr '\n' ' ')
if [ "$links" != "lo " ]; then
    echo "NOT-ISOLATED: this namespace has other interfaces than lo: $links"
    exit 3
fi
ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo
ip -6 route add ff00::/8 dev lo table local 2>/dev/null

# Under ThreadSanitizer (SETD_TEST_TIME_SCALE) the binaries start slower; mDNS's own timings do not
# change, so the waits grow at most twofold.
scale=${SETD_TEST_TIME_SCALE:-1}
[ "$scale" -gt 2 ] 2>/dev/null && scale=2
pause() { sleep "$(awk "BEGIN { print $1 * $scale }")"; }

work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
    sleep 0.2
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# listening: waits (up to 10 s) until the listener has joined the group, so it hears setd's first probe
# however slowly a loaded machine starts python.
listening() {
    for _ in $(seq 100); do
        grep -q '"listening": true' "$work/listen.out" 2>/dev/null && return
        sleep 0.1
    done
}

# start NAME ARGS...: starts setd with ARGS, waits for its banner, prints "PORT NAME <port>".
start() {
    name=$1
    shift
    "$setd" --port 0 --no-qr "$@" >"$work/$name.out" 2>"$work/$name.err" &
    eval "pid_$name=$!"
    pids="$pids $!"
    for _ in $(seq 50); do
        port=$(sed -n 's/^setd listening on port \([0-9]*\);.*/\1/p' "$work/$name.out")
        [ -n "$port" ] && break
        sleep 0.1
    done
    echo "PORT $name $port"
}

case $scenario in
query)
    $query --listen --wait 30 >"$work/listen.out" &
    pids="$pids $!"
    listening
    start one --announce --log-level debug
    pause 1.5
    echo "QUERY-EMPTY $($query)"
    # A player joins a room through --find, and stays until the counts have been read.
    (for _ in $(seq 150); do [ -e "$work/done" ] && break; sleep 0.1; done; echo /quit) |
        timeout 20 "$cli" --find --plain --name bob --room fun >"$work/cli.out" 2>&1 &
    cli_pid=$!
    # The counts reach the records within a second of the join (the server's tick); a loaded machine
    # may take longer to get bob there.
    for _ in $(seq 10); do
        playing=$($query --wait 1)
        case $playing in *'"rooms": "1"'*) break ;; esac
    done
    echo "QUERY-PLAYING $playing"
    touch "$work/done"
    wait $cli_pid
    echo "CLI-STATUS $?"
    sed 's/^/CLI /' "$work/cli.out"
    kill -TERM "$pid_one"
    wait "$pid_one"
    echo "SETD-STATUS $?"
    pause 0.3
    sed 's/^/HEARD /' "$work/listen.out"
    sed 's/^/LOG /' "$work/one.err"
    ;;
two)
    start one --announce
    pause 1.5
    start two --announce --log-level debug
    pause 2
    $query | sed 's/^/FOUND /'
    echo 2 | timeout 10 "$cli" --find --plain --name carol --room fun >"$work/cli.out" 2>&1
    echo "CLI-STATUS $?"
    sed 's/^/CLI /' "$work/cli.out"
    sed 's/^/LOG /' "$work/two.err"
    ;;
silent)
    # The listener hears from before setd starts until a moment after set-cli has quit, however slow
    # the machine: a fixed 3-s window closed before the query under load, and the test heard nothing.
    $query --listen --wait 60 >"$work/listen.out" &
    listener=$!
    pids="$pids $listener"
    listening
    start one
    pause 1
    echo "QUERY $($query --wait 1)"
    echo /quit | timeout 10 "$cli" --plain --host 127.0.0.1 --port "$port" --name dave --room fun >/dev/null 2>&1
    echo "CLI-STATUS $?"
    pause 1
    kill -TERM $listener 2>/dev/null
    wait $listener 2>/dev/null
    sed 's/^/HEARD /' "$work/listen.out"
    ;;
*)
    echo "unknown scenario $scenario"
    exit 2
    ;;
esac
