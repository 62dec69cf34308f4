"""The rules of every SET mode and a spectator of a room, for the scripts that play the modes from a
client (Tests/Browser/modes_in_browser.py, scripts/modes_in_tmux.py): written from protocol.md's "Modes"
on their own, not from SetGame, so a client that draws or sends something wrong cannot agree with itself.
"""

import itertools
import socket
import sys
import time


def fail(reason):
    print(f"FAIL: {reason}")
    sys.exit(1)


VALUES = ["123", "RGP", "FHE", "TCS", ["", "W", "O"]]
MODES = ["ultrachain", "ultra9", "megaset", "ghostset", "4set", "4setjr", "puzzle", "shuffle", "memory"]
PER_MODE_SECONDS = 240


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


def play_to_the_end(mode, watcher, send, screen):
    """Claims until the room says OVER: `send(claim)` makes the client claim (positions, and chain
    numbers 1–4), `screen()` says what the client shows, for a failure. A claim by the rules that the
    room calls wrong fails, but in memory, where three cards are turned over to learn them (from the
    WRONG line everyone sees) before a known set is claimed. Returns (claims, wrong claims)."""
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
        send(claim)
        claims += 1
        reply_deadline = time.monotonic() + 10
        while (watcher.rev == before_rev and len(watcher.wrong) == before_wrong and len(watcher.taken) == before_taken
               and not watcher.over):
            if time.monotonic() > reply_deadline:
                fail(f"{mode}: claim {claim} had no answer; {screen()}")
            watcher.pump(0.2)
        watcher.pump(0.05)
        if len(watcher.wrong) > before_wrong:
            wrong_claims += 1
            if mode != "memory":
                fail(f"{mode}: the claim {claim} was wrong: {watcher.wrong[-1]}; lines {watcher.lines[-6:]}; {screen()}")
            for p, code in zip(claim, watcher.wrong[-1]):
                known[p] = code
        if len(watcher.taken) > before_taken and mode == "memory":
            size = len(watcher.board)
            known = {p: c for p, c in known.items() if p not in claim and p in watcher.board} if size >= 21 else {}
    return claims, wrong_claims
