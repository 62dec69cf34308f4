#!/usr/bin/env bash
# Plays with set-cli against a throwaway setd on a free port of 127.0.0.1.
#
#   scripts/cli-demo.sh            one player (you) in room "demo"
#   scripts/cli-demo.sh --two      alice and bob side by side in tmux (Ctrl-b o switches, /quit ends)
#   scripts/cli-demo.sh -- ARGS    extra set-cli arguments, e.g. -- --game matchismo --no-color
# SCRATCH=/tmp/dir builds there instead of .build.
set -euo pipefail
cd "$(dirname "$0")/.."

two=false
if [[ "${1:-}" == "--two" ]]; then two=true; shift; fi
if [[ "${1:-}" == "--" ]]; then shift; fi

build=(swift build ${SCRATCH:+--scratch-path "$SCRATCH"})
"${build[@]}" --product setd >&2
"${build[@]}" --product set-cli >&2
bin="$("${build[@]}" --show-bin-path)"

log="$(mktemp)"
"$bin/setd" --host 127.0.0.1 --port 0 >"$log" 2>/dev/null &
setd_pid=$!
trap 'kill "$setd_pid" 2>/dev/null || true; rm -f "$log"' EXIT
port=""
for _ in $(seq 100); do
    port="$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$log" | head -1)"
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "setd did not start" >&2; exit 1; }
echo "setd is on 127.0.0.1:$port (nc 127.0.0.1 $port works too)" >&2

if $two; then
    command -v tmux >/dev/null || { echo "--two needs tmux" >&2; exit 1; }
    session="set-demo-$$"
    tmux new-session -d -s "$session" -x 200 -y 40 \
        "$bin/set-cli --host 127.0.0.1 --port $port --name alice --room demo $*"
    tmux split-window -h -t "$session" "$bin/set-cli --host 127.0.0.1 --port $port --name bob --room demo $*"
    tmux attach -t "$session"
else
    "$bin/set-cli" --host 127.0.0.1 --port "$port" --room demo "$@"
fi
