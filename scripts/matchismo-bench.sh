#!/usr/bin/env bash
# The CPU of a live Matchismo CHOOSE on the release daemon, once the game already holds N choices
# (issue 28: it used to grow with N; 0.2 ms at 10k, 4.2 ms at 160k).
#
#   scripts/matchismo-bench.sh [--histories 10000,160000] [--choices 4000] [--no-build]
#
# For each N, journal-bench writes a state directory whose Matchismo room holds N choices (card `a`
# turned up and down, as a player flipping one card leaves it), setd restores it (`--state-dir`, the
# journal on, `--rate-limit 0`), and one client resumes the seat and turns card `a` up and down
# --choices times, one request at a time. Reported: setd's CPU (utime + stime from /proc/<pid>/stat over
# the choices) per CHOOSE, and the client's round trip; then the in-process figures of the same
# journal-bench (`--matchismo-choose`, the engine without sockets). Every run is bounded: the client
# stops after its choices and setd is stopped by its PID.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HISTORIES=10000,160000
CHOICES=4000
BUILD=1
while [[ $# -gt 0 ]]; do
    case $1 in
        --histories) HISTORIES=$2; shift ;;
        --choices) CHOICES=$2; shift ;;
        --no-build) BUILD=0 ;;
        *) echo "usage: scripts/matchismo-bench.sh [--histories N,M] [--choices N] [--no-build]" >&2; exit 2 ;;
    esac
    shift
done
cd "$ROOT"
if (( BUILD )); then
    swift build -c release --product setd >&2
    swift build -c release --product journal-bench >&2
fi
BIN=${BIN:-$ROOT/.build/release}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/setd-matchismo.XXXXXX")
SERVER_PID=""
cleanup() {
    if [[ -n $SERVER_PID ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
TICKS=$(getconf CLK_TCK)

echo "uptime: $(uptime)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "| choices in the game | setd CPU µs per CHOOSE | round trip µs (median) | setd RSS KiB after |"
echo "|---|---|---|---|"
for n in ${HISTORIES//,/ }; do
    dir="$WORK/state-$n"
    token=$("$BIN/journal-bench" --matchismo-journal "$n" "$dir")
    "$BIN/setd" --host 127.0.0.1 --port 0 --state-dir "$dir" --rate-limit 0 --log-level warn \
        >"$WORK/setd-$n.out" 2>"$WORK/setd-$n.log" &
    SERVER_PID=$!
    port=""
    for _ in $(seq 600); do
        port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/setd-$n.out" | head -1)
        [[ -n $port ]] && break
        sleep 0.1
    done
    [[ -n $port ]] || { echo "setd did not start; see $WORK/setd-$n.log" >&2; cat "$WORK/setd-$n.log" >&2; exit 1; }
    python3 - "$port" "$token" "$CHOICES" "$SERVER_PID" "$TICKS" "$n" <<'EOF'
import socket, sys, time
port, token, choices, pid, ticks, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])
s = socket.create_connection(("127.0.0.1", int(port)), timeout=30)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
def until_final(verb):
    global buf
    while True:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if line.startswith(b"OK " + verb) or line.startswith(b"ERR "):
                return line
        chunk = s.recv(65536)
        if not chunk: raise SystemExit("setd closed the connection")
        buf += chunk
s.sendall(f"RESUME {token}\n".encode())
line = until_final(b"RESUME")
if not line.startswith(b"OK"): raise SystemExit(f"RESUME: {line!r}")
trips = []
before = cpu()
for _ in range(choices):
    t = time.perf_counter()
    s.sendall(b"CHOOSE a\n")
    line = until_final(b"CHOOSE")
    if not line.startswith(b"OK"): raise SystemExit(f"CHOOSE: {line!r}")
    trips.append(time.perf_counter() - t)
used = cpu() - before
trips.sort()
print(f"| {n} | {used / choices * 1e6:.1f} | {trips[len(trips) // 2] * 1e6:.0f} | {rss()} |")
s.sendall(b"QUIT\n")
s.close()
EOF
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
done
echo
echo "In process (journal-bench --matchismo-choose, the engine without sockets or journal file):"
echo
"$BIN/journal-bench" --matchismo-choose "$HISTORIES" --choices "$CHOICES"
