#!/usr/bin/env python3
"""Watch two players play SET against a live setd, every line going through `nc`.

    scripts/demo.py [--port 7777] [--start] [--sets N] [--delay SECONDS]

With --start it builds and starts its own setd on a free port and stops it at the end. Each player is an
`nc 127.0.0.1 PORT` process; the script reads what the server sends, finds a set on the board and types
the claim, exactly as a person at a terminal would.
"""
import argparse, itertools, os, re, select, shutil, signal, subprocess, sys, time

def is_set(a, b, c):
    return all(len({x, y, z}) != 2 for x, y, z in zip(a, b, c))

def find_set(board):
    for (p, a), (q, b), (r, c) in itertools.combinations(board, 3):
        if is_set(a, b, c):
            return p, q, r
    return None

class Player:
    def __init__(self, name, port, colour):
        self.name, self.colour = name, colour
        self.proc = subprocess.Popen(["nc", "127.0.0.1", str(port)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0)
        self.buffer = b""
        self.board, self.rev, self.over = [], 0, None

    def say(self, line):
        print(f"\033[{self.colour}m{self.name:>6} >\033[0m {line}")
        self.proc.stdin.write((line + "\n").encode())

    def lines(self, timeout=0.2):
        out = []
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if ready:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            self.buffer += chunk
        while b"\n" in self.buffer:
            raw, self.buffer = self.buffer.split(b"\n", 1)
            line = raw.decode("utf-8", "replace")
            out.append(line)
            print(f"\033[{self.colour}m{self.name:>6} <\033[0m {line}")
            if line.startswith("BOARD "):
                parts = line.split()
                self.rev = int(parts[1])
                self.board = [tuple(p.split(":")) for p in parts[2:]]
            if line.startswith("OVER"):
                self.over = line
        return out

    def until(self, prefix, timeout=5):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in self.lines():
                if line.startswith(prefix):
                    return line
        raise SystemExit(f"{self.name}: no '{prefix}' line within {timeout} s")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=7777)
    parser.add_argument("--start", action="store_true", help="build and start a setd of its own")
    parser.add_argument("--sets", type=int, default=1000, help="stop after this many sets")
    parser.add_argument("--delay", type=float, default=0.3, help="seconds between moves")
    args = parser.parse_args()
    if not shutil.which("nc"):
        raise SystemExit("needs nc: apt-get install -y netcat-openbsd")
    daemon = None
    port = args.port
    if args.start:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        subprocess.run(["swift", "build", "--product", "setd"], cwd=root, check=True)
        daemon = subprocess.Popen([os.path.join(root, ".build/debug/setd"), "--host", "127.0.0.1",
                                   "--port", "0", "--seed", "7"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        port = int(re.search(rb"port (\d+)", daemon.stdout.readline()).group(1))
    try:
        alice, bob = Player("alice", port, "35"), Player("bob", port, "36")
        for p in (alice, bob):
            p.until("SETD")
            p.say(f"HELLO {p.name}")
            p.until("OK HELLO")
            p.say("JOIN demo")
            p.until("OK JOIN")
        bob.lines()
        alice.say("CHAT good luck!")
        alice.until("OK CHAT")
        bob.lines()
        sets = 0
        for turn in itertools.cycle([alice, bob]):
            other = bob if turn is alice else alice
            time.sleep(args.delay)
            turn.lines(0.05)
            found = find_set(turn.board)
            if found is None or sets >= args.sets:
                break
            turn.say(f"CHOOSE {' '.join(found)} @{turn.rev}")
            turn.until("OK CHOOSE")
            other.until("PLAYER")
            sets += 1
            if turn.over:
                break
        for p in (alice, bob):
            p.lines(0.3)
            p.say("QUIT")
            p.until("OK QUIT")
        print(f"\n{sets} sets taken; {alice.over or 'game not finished'}")
    finally:
        if daemon:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=5)

if __name__ == "__main__":
    main()
