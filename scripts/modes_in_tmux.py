#!/usr/bin/env python3
"""set-cli plays every SET mode to the end in tmux, against a live setd.

Usage: modes_in_tmux.py --port PORT [--host 127.0.0.1] [--modes 4set,megaset,...] [--cli PATH] [--out DIR]

For each mode, set-cli (in a tmux pane 100x30, --no-color) makes a room of that mode and starts it; a
spectator socket (WATCH) reads the board and the events, and this script finds a claim by the rules of
protocol.md's "Modes" (written here on its own, from the text, not from SetGame) and types its letters into
set-cli, as a player would, until the room says OVER. Memory's cards lie face down: the script turns three
over, learns them from the WRONG line everyone sees, and claims a set once it knows one. The last screen
of each mode is saved as DIR/<mode>.txt (tmux capture-pane -p).

Exit status: 0 every mode reached OVER; 1 a mode did not (the reason printed); 77 tmux is missing.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from mode_rules import MODES, Watcher, fail, play_to_the_end  # noqa: E402


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def play(mode, args):
    room = ("t" + mode)[:16]
    session = f"modes-{mode}"
    tmux("kill-session", "-t", session)
    # A name of its own per mode: set-cli keeps a token per name and would resume another room's seat.
    name = f"cli-{mode}"[:16]
    cli = f"{args.cli} --host {args.host} --port {args.port} --name {name} --room {room} --option mode={mode} --no-color"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", cli)
    deadline = time.monotonic() + 10
    while "waiting" not in tmux("capture-pane", "-p", "-t", session) and "Deck" not in tmux("capture-pane", "-p", "-t", session):
        if time.monotonic() > deadline:
            fail(f"{mode}: set-cli did not show the room: {tmux('capture-pane', '-p', '-t', session)}")
        time.sleep(0.1)
    watcher = Watcher(args.host, args.port, room)
    tmux("send-keys", "-t", session, "/start", "Enter")
    watcher.pump(5)
    def send(claim):
        tmux("send-keys", "-t", session, " ".join(claim), "Enter")

    def screen():
        return "set-cli shows " + tmux("capture-pane", "-p", "-t", session)

    claims, wrong_claims = play_to_the_end(mode, watcher, send, screen)
    watcher.pump(1)
    screen = tmux("capture-pane", "-p", "-t", session)
    with open(os.path.join(args.out, f"{mode}.txt"), "w") as f:
        f.write(screen)
    tmux("send-keys", "-t", session, "/quit", "Enter")
    time.sleep(0.3)
    tmux("kill-session", "-t", session)
    print(f"{mode}: OVER after {claims} claims ({wrong_claims} wrong), {len(watcher.taken)} taken")
    return screen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--cli", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "set-cli"))
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    if not shutil.which("tmux"):
        print("SKIP: tmux is not installed")
        sys.exit(77)
    os.makedirs(args.out, exist_ok=True)
    for mode in args.modes.split(","):
        play(mode, args)
    print("PASS")


if __name__ == "__main__":
    main()
