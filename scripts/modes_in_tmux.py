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
import itertools
import os
import shutil
import socket
import subprocess
import sys
import time

VALUES = ["123", "RGP", "FHE", "TCS", ["", "W", "O"]]
MODES = ["ultrachain", "ultra9", "megaset", "ghostset", "4set", "4setjr", "puzzle", "shuffle", "memory"]
PER_MODE_SECONDS = 240


def fail(reason):
    print(f"FAIL: {reason}")
    sys.exit(1)


def attributes(code):
    """A card code as (count, colour, fill, shape, border): border '' single, 'W' double, 'O' dotted."""
    return (code[0], code[1], code[2], code[3], code[4:])


def is_set(cards):
    """Three cards: each attribute (the border too) all the same or all different."""
    return all(len({attributes(c)[i] for c in cards}) in (1, 3) for i in range(5))


def third(a, b):
    """The card completing a and b to a set (classic attributes, three values each)."""
    out = ""
    for i in range(4):
        x, y = a[i], b[i]
        out += x if x == y else next(v for v in VALUES[i] if v not in (x, y))
    return out


def is_ultra(cards):
    a, b, c, d = cards
    return any(third(p, q) == third(r, s) for (p, q), (r, s) in
               (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))))


def is_four_set(cards):
    """Each attribute all the same, all different, or two pairs."""
    for i in range(4):
        counts = sorted([c[i] for c in cards].count(v) for v in {c[i] for c in cards})
        if counts not in ([4], [1, 1, 1, 1], [2, 2]):
            return False
    return True


def pairings(six):
    if not six:
        yield []
        return
    first = six[0]
    for j in range(1, len(six)):
        rest = six[1:j] + six[j + 1:]
        for more in pairings(rest):
            yield [(first, six[j])] + more


def is_ghost(cards):
    for pairs in pairings(list(cards)):
        missing = [third(p, q) for p, q in pairs]
        if is_set(missing):
            return True
    return False


def find_claim(mode, board, chain, found):
    """Positions (and chain codes) of a claim on `board` ({pos: code}), or None."""
    positions = sorted(board, key=lambda p: (len(p), p))
    if mode in ("ultra9",) or (mode == "ultrachain" and not chain):
        for combo in itertools.combinations(positions, 4):
            if is_ultra([board[p] for p in combo]):
                return list(combo)
    if mode == "ultrachain" and chain:
        for reused in itertools.combinations(range(len(chain)), 2):
            for combo in itertools.combinations(positions, 2):
                cards = [board[p] for p in combo] + [chain[i] for i in reused]
                if is_ultra(cards):
                    return list(combo) + [str(i + 1) for i in reused]
        return None
    if mode in ("4set", "4setjr"):
        for combo in itertools.combinations(positions, 4):
            if is_four_set([board[p] for p in combo]):
                return list(combo)
    if mode == "ghostset":
        for combo in itertools.combinations(positions, 6):
            if is_ghost([board[p] for p in combo]):
                return list(combo)
    if mode in ("megaset", "puzzle", "shuffle", "memory"):
        for combo in itertools.combinations(positions, 3):
            cards = [board[p] for p in combo]
            if is_set(cards) and sorted(cards) not in found:
                return list(combo)
    return None


class Watcher:
    """A spectator socket: the room's board, chain, found sets, and what its events said."""

    def __init__(self, host, port, room):
        self.sock = socket.create_connection((host, port), timeout=30)
        self.buffer = b""
        self.read_line()  # greeting
        self.sock.sendall(f"WATCH {room}\n".encode())
        self.board, self.rev, self.chain, self.found, self.over, self.wrong, self.taken = {}, 0, [], [], False, [], []
        self.lines = []

    def read_line(self, timeout=None):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, BlockingIOError):
                return None
            if not data:
                fail("the server closed the spectator's connection")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode().rstrip("\r")

    def pump(self, seconds):
        """Reads every line that comes within `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            line = self.read_line(left)
            if line is None:
                return
            self.lines.append(line)
            w = line.split()
            if w[0] == "BOARD":
                self.rev = int(w[1])
                self.board = dict(e.rsplit(":", 1) for e in w[2:])
            elif w[0] == "CHAIN":
                self.chain = [] if w[1] == "-" else w[1:]
            elif w[0] == "FOUND":
                self.found = [sorted(s.split(",")) for s in w[3:]]
            elif w[0] == "OVER":
                self.over = True
            elif w[0] == "WRONG":
                self.wrong.append(w[3:w.index(":")] if ":" in w else w[3:])
            elif w[0] == "SET":
                self.taken.append(w[2:])
            elif w[0] == "NEWGAME":
                self.over = False


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def play(mode, args):
    room = ("t" + mode)[:16]
    session = f"modes-{mode}"
    tmux("kill-session", "-t", session)
    cli = f"{args.cli} --host {args.host} --port {args.port} --name ann --room {room} --option mode={mode} --no-color"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", cli)
    deadline = time.monotonic() + 10
    while "waiting" not in tmux("capture-pane", "-p", "-t", session) and "Deck" not in tmux("capture-pane", "-p", "-t", session):
        if time.monotonic() > deadline:
            fail(f"{mode}: set-cli did not show the room: {tmux('capture-pane', '-p', '-t', session)}")
        time.sleep(0.1)
    watcher = Watcher(args.host, args.port, room)
    tmux("send-keys", "-t", session, "/start", "Enter")
    watcher.pump(5)
    known = {}  # memory: position -> code learnt from WRONG lines
    claims = wrong_claims = 0
    deadline = time.monotonic() + PER_MODE_SECONDS
    while not watcher.over:
        if time.monotonic() > deadline:
            fail(f"{mode}: not over after {PER_MODE_SECONDS} s ({claims} claims); last lines {watcher.lines[-8:]}")
        if mode == "memory":
            board = {p: known[p] for p in watcher.board if p in known}
            claim = find_claim(mode, board, [], [])
            if claim is None:
                unknown = [p for p in sorted(watcher.board, key=lambda p: (len(p), p)) if p not in known]
                if not unknown:  # every card known and no set: the server deals more or ends the game
                    watcher.pump(0.5)
                    continue
                claim = (unknown + [p for p in watcher.board if p in known])[:3]
        else:
            claim = find_claim(mode, watcher.board, watcher.chain, watcher.found)
            if claim is None:
                watcher.pump(0.5)
                continue
        before_rev, before_wrong, before_taken = watcher.rev, len(watcher.wrong), len(watcher.taken)
        tmux("send-keys", "-t", session, " ".join(claim), "Enter")
        claims += 1
        reply_deadline = time.monotonic() + 10
        while (watcher.rev == before_rev and len(watcher.wrong) == before_wrong and len(watcher.taken) == before_taken
               and not watcher.over):
            if time.monotonic() > reply_deadline:
                fail(f"{mode}: claim {claim} had no answer; set-cli shows {tmux('capture-pane', '-p', '-t', session)}")
            watcher.pump(0.2)
        watcher.pump(0.05)
        if len(watcher.wrong) > before_wrong:
            wrong_claims += 1
            if mode != "memory":
                fail(f"{mode}: the claim {claim} was wrong: {watcher.wrong[-1]}; lines {watcher.lines[-6:]}")
            for p, code in zip(claim, watcher.wrong[-1]):
                known[p] = code
        if len(watcher.taken) > before_taken and mode == "memory":
            size = len(watcher.board)
            known = {p: c for p, c in known.items() if p not in claim and p in watcher.board} if size >= 21 else {}
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
