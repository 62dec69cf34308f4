#!/usr/bin/env python3
"""Abuse benchmark for setd (issue 11): what a hostile user staying inside the limits costs.

    scripts/abuse-bench.py [--quick] [--only 1,2,3,4,5] [--no-build] [--output FILE] [per-scenario flags]

Builds `setd` in release (`swift build -c release --product setd`), then starts a fresh
`.build/release/setd --host 127.0.0.1 --port <free> --log-level warn` for each scenario, and stops it
(by PID) at the end of the scenario:

1. lagging spectators: 10 spectators WATCH a busy room with a tiny receive buffer and a slow reader that
   keeps setd's unsent queue for them in the hundreds of KB (below the 1 MiB output cap) while players
   chat within the rate limit; setd's VmRSS every 10 s, and how many spectators were dropped.
2. room-table attack: one address connects, HELLO, JOIN a new room, closes, as fast as it can; then a
   newcomer from another address (127.0.0.2) joins `fun`.
3. ROOMS under load: 5,000 rooms from 250 source addresses (20 each, the default --max-rooms-per-ip),
   then 8 clients send ROOMS as fast as the rate limit allows while a bystander PINGs every 50 ms.
4. archive: bots play junior-mode games to the end and NEW, across many room names; RSS before and after
   and the number of finished games HISTORY shows over all the names (--max-archive 1000 by default).
5. junk churn: processes on 127.0.0.3 connect, write 200 KB of random bytes (0xFF and NUL among them,
   and a run of telnet commands every 4 KB) and close, as fast as they can; a bystander on 127.0.0.2
   connects during the flood (time to its greeting), says HELLO and PINGs every 10 ms. setd's CPU, and
   how many connections it cut with `BYE junk`.

Writes the Markdown report to BENCHMARKS-abuse.md at the repository root (or --output) and prints it.
Everything talks to 127.0.0.0/8 only. Python 3 standard library only.
"""
import argparse
import itertools
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# SETD=path runs another build (a "before" binary) with --no-build.
SETD = os.environ.get("SETD") or os.path.join(ROOT, ".build", "release", "setd")
OUTPUT_CAP = 1 << 20  # protocol.md, Limits: output queue 1 MiB per connection
RATE = 100.0  # protocol.md, Limits: 100 commands/s sustained
# What ROOMS and HISTORY take of the rate limit, in commands (protocol.md, Limits).
ROOMS_COST = 10.0
HISTORY_COST = 5.0


# ----------------------------------------------------------------------------------------------------
# Daemon and client plumbing

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Daemon:
    """A setd of its own on a free port; stopped by PID."""

    def __init__(self, extra=()):
        self.port = free_port()
        self.args = [SETD, "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warn", *extra]
        self.out = tempfile.TemporaryFile()
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(self.args, stdout=self.out, stderr=self.err, cwd=ROOT)
        self.pid = self.proc.pid
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise SystemExit(f"setd exited: {self.stderr_text()}")
                time.sleep(0.05)
        else:
            self.stop()
            raise SystemExit("setd did not start listening within 10 s")

    def command_line(self):
        return " ".join(os.path.relpath(a, ROOT) if a == SETD else a for a in self.args)

    def rss(self):
        return rss_kib(self.pid)

    def cpu(self):
        return cpu_seconds(self.pid)

    def stderr_text(self):
        self.err.seek(0)
        return self.err.read().decode("utf-8", "replace")

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


class Conn:
    """One line-protocol connection, optionally from a chosen 127.x.y.z source address."""

    def __init__(self, port, src=None, rcvbuf=None, timeout=15.0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if src:
            self.sock.bind((src, 0))
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.pos = 0
        self.bytes_read = 0

    def send(self, *lines):
        self.sock.sendall("".join(l + "\n" for l in lines).encode())

    def readline(self):
        while True:
            i = self.buf.find(b"\n", self.pos)
            if i >= 0:
                line = bytes(self.buf[self.pos:i])
                self.pos = i + 1
                if self.pos > 1 << 16:
                    del self.buf[:self.pos]
                    self.pos = 0
                return line.decode("utf-8", "replace")
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("connection closed")
            self.bytes_read += len(chunk)
            self.buf += chunk

    def final(self, verb):
        """Lines up to and including the final line of `verb`'s reply: (final, lines before it)."""
        lines = []
        ok, err = f"OK {verb}", f"ERR {verb} "
        while True:
            line = self.readline()
            if line == ok or line.startswith(ok + " ") or line.startswith(err):
                return line, lines
            lines.append(line)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Pacer:
    """Spaces commands at `rate` per second (under the server's 100/s token bucket)."""

    def __init__(self, rate):
        self.interval = 1.0 / rate
        self.next = time.monotonic()

    def wait(self):
        now = time.monotonic()
        if self.next > now:
            time.sleep(self.next - now)
        self.next = max(self.next + self.interval, time.monotonic() - 0.05)


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100.0 * (len(s) - 1)))))
    return s[k]


def mib(kib):
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


# ----------------------------------------------------------------------------------------------------
# 1. Lagging spectators

def tcp_queues(port):
    """{(local port, remote port): (tx_queue, rx_queue)} for loopback sockets touching `port`."""
    found = {}
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            parts = line.split()
            lport = int(parts[1].split(":")[1], 16)
            rport = int(parts[2].split(":")[1], 16)
            if lport != port and rport != port:
                continue
            tx, rx = (int(x, 16) for x in parts[4].split(":"))
            found[(lport, rport)] = (tx, rx)
    return found


def scenario_spectators(args):
    d = Daemon()
    report = {"cmd": d.command_line()}
    stop = threading.Event()
    lock = threading.Lock()
    broadcast = [0]  # bytes of CHAT lines every room member was sent, as seen by a fast reader
    text_len = args.chat_bytes
    chatters, spectators, threads = [], [], []
    try:
        rss_start = d.rss()
        for i in range(args.chatters):
            c = Conn(d.port)
            c.send(f"HELLO chatter{i}", "JOIN busy")
            c.final("HELLO")
            c.final("JOIN")
            c.stats = {"sent": 0, "ok": 0, "slow": 0, "lines": 0}
            chatters.append(c)
        for i in range(args.spectators):
            s = Conn(d.port, rcvbuf=args.rcvbuf)
            s.send("WATCH busy")
            s.final("WATCH")
            # Whatever came with the snapshot beyond OK WATCH is chat already; counted as read.
            s.after_watch = s.bytes_read - s.pos
            s.sport = s.sock.getsockname()[1]
            s.read = len(s.buf) - s.pos
            s.dropped = None
            s.est = 0
            s.kernel = 0
            s.max_est = 0
            s.est_samples = []
            s.kernel_samples = []
            s.sock.settimeout(0.5)
            spectators.append(s)
        rss_ready = d.rss()

        def chat_reader(c, counts_broadcast):
            while not stop.is_set():
                try:
                    line = c.readline()
                except (socket.timeout, TimeoutError):
                    continue
                except (EOFError, OSError):
                    return
                c.stats["lines"] += 1
                if line.startswith("CHAT "):
                    if counts_broadcast:
                        with lock:
                            broadcast[0] += len(line) + 1
                elif line == "OK CHAT":
                    c.stats["ok"] += 1
                elif line.startswith("ERR CHAT SLOWDOWN"):
                    c.stats["slow"] += 1

        def chat_writer(c, index):
            pacer = Pacer(args.chat_rate)
            filler = (f"chatter{index} says " + "lorem ipsum dolor sit amet " * 40)[:text_len]
            n = 0
            while not stop.is_set():
                pacer.wait()
                try:
                    c.sock.sendall(f"CHAT {n:07d} {filler}\n".encode())
                except OSError:
                    return
                c.stats["sent"] += 1
                n += 1

        def take(s, want):
            """Reads up to `want` bytes for spectator `s`: the count (0 on a timeout), or None once the
            connection is gone (recorded in `s.dropped`)."""
            try:
                chunk = s.sock.recv(want)
            except (socket.timeout, TimeoutError):
                return 0
            except OSError as e:
                s.dropped = f"{type(e).__name__}"
                return None
            if not chunk:
                s.dropped = "EOF"
                return None
            with lock:
                s.read += len(chunk)
                s.est = broadcast[0] - s.read - s.kernel
            return len(chunk)

        def spectator_reader(s):
            # A trickle of `trickle` bytes every 0.5 s; when setd's queue for us passes `high`, read
            # quickly until it is under `mid`: the queue stays in the hundreds of KB, below the cap.
            last_trickle = 0.0
            while not stop.is_set():
                if s.est > args.high:
                    want = 1 << 16
                elif time.monotonic() - last_trickle >= 0.5:
                    want = args.trickle
                    last_trickle = time.monotonic()
                else:
                    time.sleep(0.02)
                    continue
                got = take(s, want)
                if got is None:
                    return
                if got == 0:
                    continue
                if s.est > args.high:
                    # keep reading fast until under mid
                    while s.est > args.mid and not stop.is_set():
                        got = take(s, 1 << 16)
                        if got is None:
                            return
                        if got == 0:
                            break

        def monitor():
            # setd's own queue for a spectator ~= bytes it was sent - bytes it read - bytes in the two
            # kernel buffers (setd's send queue and the spectator's receive queue, from /proc/net/tcp).
            while not stop.is_set():
                q = tcp_queues(d.port)
                with lock:
                    for s in spectators:
                        if s.dropped:
                            continue
                        srv = q.get((d.port, s.sport), (0, 0))[0]
                        cli = q.get((s.sport, d.port), (0, 0))[1]
                        s.kernel = srv + cli
                        s.est = broadcast[0] - s.read - s.kernel
                        s.max_est = max(s.max_est, s.est)
                        s.est_samples.append(s.est)
                        s.kernel_samples.append(s.kernel)
                stop.wait(0.1)

        for i, c in enumerate(chatters):
            threads.append(threading.Thread(target=chat_reader, args=(c, i == 0), daemon=True))
            threads.append(threading.Thread(target=chat_writer, args=(c, i), daemon=True))
        for s in spectators:
            threads.append(threading.Thread(target=spectator_reader, args=(s,), daemon=True))
        threads.append(threading.Thread(target=monitor, daemon=True))
        t0 = time.monotonic()
        for t in threads:
            t.start()
        samples = [(0, rss_ready, 0, len(spectators))]
        next_sample = 10
        while True:
            elapsed = time.monotonic() - t0
            if elapsed >= args.spectate_seconds:
                break
            wait = min(next_sample, args.spectate_seconds) - elapsed
            time.sleep(max(0.0, wait))
            elapsed = time.monotonic() - t0
            if elapsed >= next_sample - 0.01 and next_sample < args.spectate_seconds:
                alive = sum(1 for s in spectators if not s.dropped)
                samples.append((next_sample, d.rss(), broadcast[0], alive))
                next_sample += 10
        elapsed = time.monotonic() - t0
        alive = sum(1 for s in spectators if not s.dropped)
        samples.append((round(elapsed), d.rss(), broadcast[0], alive))
        stop.set()
        for t in threads:
            t.join(timeout=5)
        steady = [v for s in spectators for v in s.est_samples[len(s.est_samples) // 2:]]
        kernel = [v for s in spectators for v in s.kernel_samples[len(s.kernel_samples) // 2:]]
        report.update(
            rss_start=rss_start, samples=samples, seconds=elapsed,
            dropped=sum(1 for s in spectators if s.dropped),
            drop_logs=d.stderr_text().count("output queue full"),
            spectators=len(spectators), chatters=len(chatters),
            chat_sent=sum(c.stats["sent"] for c in chatters),
            chat_ok=sum(c.stats["ok"] for c in chatters),
            chat_slow=sum(c.stats["slow"] for c in chatters),
            broadcast=broadcast[0],
            read_each=[s.read for s in spectators],
            max_est=max(s.max_est for s in spectators),
            p50_est=pct(steady, 50), min_est=min(steady) if steady else 0,
            p50_kernel=pct(kernel, 50), max_kernel=max(kernel) if kernel else 0,
            rss_end=d.rss(),
        )
    finally:
        stop.set()
        for c in chatters + spectators:
            c.close()
        d.stop()
    return report


# ----------------------------------------------------------------------------------------------------
# 2. Room-table attack

def scenario_attack(args):
    d = Daemon()
    report = {"cmd": d.command_line()}
    try:
        ok = refused = other = 0
        t0 = time.monotonic()
        n = 0
        while n < args.attack_rounds and time.monotonic() - t0 < args.attack_seconds:
            c = Conn(d.port)
            c.send(f"HELLO x{n}", f"JOIN junk{n}")
            try:
                c.final("HELLO")
                final, _ = c.final("JOIN")
            finally:
                c.close()
            if final.startswith("OK JOIN"):
                ok += 1
            elif "TOOMANYROOMS" in final:
                refused += 1
            else:
                other += 1
            n += 1
        attack_seconds = time.monotonic() - t0
        rooms = Conn(d.port)
        rooms.send("ROOMS")
        rooms_final, _ = rooms.final("ROOMS")
        rooms.close()

        def newcomer(src, name, room):
            c = Conn(d.port, src=src)
            c.send(f"HELLO {name}")
            c.final("HELLO")
            t = time.perf_counter()
            c.send(f"JOIN {room}")
            final, _ = c.final("JOIN")
            rtt = (time.perf_counter() - t) * 1000
            return c, final, rtt

        fresh, fresh_final, fresh_rtt = newcomer("127.0.0.2", "newcomer", "fun")
        same, same_final, same_rtt = newcomer("127.0.0.1", "neighbour", "fun2")
        existing, existing_final, existing_rtt = newcomer("127.0.0.1", "neighbour2", "fun")
        for c in (fresh, same, existing):
            c.close()
        report.update(rounds=n, seconds=attack_seconds, ok=ok, refused=refused, other=other,
                      rooms_after=rooms_final, fresh=(fresh_final, fresh_rtt),
                      same=(same_final, same_rtt), existing=(existing_final, existing_rtt),
                      rss=d.rss())
    finally:
        d.stop()
    return report


# ----------------------------------------------------------------------------------------------------
# 5. Junk churn

def junk_worker(port, seconds, results):
    """Connects from 127.0.0.3, writes junk, closes; again until `seconds` pass. A process of its own."""
    # The attacker is another machine on the LAN: its CPU is not setd's. On this one, the flood runs at
    # the lowest priority, so that what the bystander sees is setd's doing, not the scheduler's.
    os.nice(19)
    made = reset = 0
    sent = 0
    chunk = os.urandom(4096) + b"\xff\xfe\x00" * 100
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            s = socket.socket()
            s.bind(("127.0.0.3", 0))
            s.connect(("127.0.0.1", port))
            for _ in range(50):
                s.sendall(chunk)
                sent += len(chunk)
            made += 1
        except OSError:
            reset += 1  # setd cut it (BYE junk) while it was still writing
        finally:
            s.close()
    results.put(("junk", made, reset, sent))


def scenario_junk(args):
    d = Daemon()
    report = {"cmd": d.command_line(), "workers": args.junk_workers}
    results = multiprocessing.Queue()
    procs = []
    try:
        def pings(c, seconds):
            rtts = []
            t0 = time.monotonic()
            while time.monotonic() - t0 < seconds:
                t = time.perf_counter()
                c.send("PING")
                c.final("PING")
                rtts.append((time.perf_counter() - t) * 1000)
                time.sleep(0.01)
            return rtts

        calm = Conn(d.port, src="127.0.0.2", timeout=30)
        calm.readline()
        calm.send("HELLO calm")
        calm.final("HELLO")
        report["baseline"] = pings(calm, args.junk_baseline_seconds)
        calm.close()
        cpu0 = d.cpu()
        t0 = time.monotonic()
        for _ in range(args.junk_workers):
            p = multiprocessing.Process(target=junk_worker, args=(d.port, args.junk_seconds, results))
            p.start()
            procs.append(p)
        time.sleep(min(2.0, args.junk_seconds / 4))  # the flood is under way
        c = Conn(d.port, src="127.0.0.2", timeout=60)
        t = time.perf_counter()
        c.readline()
        report["greeting_ms"] = (time.perf_counter() - t) * 1000
        c.send("HELLO bystander")
        c.final("HELLO")
        report["pings"] = pings(c, max(1.0, args.junk_seconds - (time.monotonic() - t0) - 0.5))
        c.close()
        made = reset = sent = 0
        for _ in procs:
            _, m, r, b = results.get(timeout=args.junk_seconds + 30)
            made, reset, sent = made + m, reset + r, sent + b
        seconds = time.monotonic() - t0
        report.update(made=made, reset=reset, sent=sent, seconds=seconds, cpu=d.cpu() - cpu0,
                      cut=d.stderr_text().count(" warn junk "), rss=d.rss())
    finally:
        for p in procs:
            p.join(timeout=10)
        d.stop()
    return report


# ----------------------------------------------------------------------------------------------------
# 3. ROOMS under load

def rooms_worker(port, seconds, index, results):
    """One ROOMS client in a process of its own: closed loop, paced under the rate limit."""
    try:
        c = Conn(port, timeout=30)
        c.send(f"HELLO lister{index}")
        c.final("HELLO")
        pacer = Pacer(RATE / ROOMS_COST * 0.98)
        replies = slow = 0
        bytes_in = 0
        lat = []
        t0 = time.monotonic()
        sock = c.sock
        while time.monotonic() - t0 < seconds:
            pacer.wait()
            t = time.perf_counter()
            sock.sendall(b"ROOMS\n")
            tail = b""
            while True:
                chunk = sock.recv(1 << 18)
                if not chunk:
                    raise EOFError("closed")
                bytes_in += len(chunk)
                window = tail + chunk
                k = window.rfind(b"OK ROOMS ")
                if k >= 0 and window.find(b"\n", k) >= 0:
                    break
                if window.startswith(b"ERR ROOMS") or b"\nERR ROOMS" in window:
                    slow += 1
                    break
                tail = window[-32:]
            lat.append((time.perf_counter() - t) * 1000)
            replies += 1
        c.close()
        results.put(("rooms", index, replies, slow, bytes_in, lat, time.monotonic() - t0))
    except Exception as e:  # reported, not hidden
        results.put(("rooms-error", index, repr(e)))


def bystander_worker(port, seconds, interval, name, results):
    try:
        c = Conn(port, timeout=30)
        c.send(f"HELLO {name}")
        c.final("HELLO")
        rtts = []
        t0 = time.monotonic()
        nxt = t0
        while time.monotonic() - t0 < seconds:
            now = time.monotonic()
            if nxt > now:
                time.sleep(nxt - now)
            nxt += interval
            t = time.perf_counter()
            c.send("PING")
            c.final("PING")
            rtts.append((time.perf_counter() - t) * 1000)
            nxt = max(nxt, time.monotonic())
        c.close()
        results.put(("ping", name, rtts))
    except Exception as e:
        results.put(("ping-error", name, repr(e)))


def scenario_rooms(args):
    per_ip = 20
    extra = ["--max-rooms", str(args.max_rooms), "--grace", str(args.rooms_grace)]
    d = Daemon(extra)
    report = {"cmd": d.command_line(), "per_ip": per_ip}
    procs = []
    try:
        rss_start = d.rss()
        total = args.rooms
        addresses = [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range((total + per_ip - 1) // per_ip)]
        jobs = [(addresses[i // per_ip], i) for i in range(total)]
        created = [0]
        refused = [0]
        lock = threading.Lock()

        def creator(part):
            for src, i in part:
                c = Conn(d.port, src=src)
                c.send(f"HELLO r{i}", f"JOIN room{i}")
                c.final("HELLO")
                final, _ = c.final("JOIN")
                c.close()  # the player drops: seat kept for the grace, the room stays open
                with lock:
                    if final.startswith("OK JOIN"):
                        created[0] += 1
                    else:
                        refused[0] += 1

        t0 = time.monotonic()
        nthreads = 8
        ts = [threading.Thread(target=creator, args=(jobs[k::nthreads],)) for k in range(nthreads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        create_seconds = time.monotonic() - t0
        probe = Conn(d.port, timeout=30)
        probe.send("HELLO probe")
        probe.final("HELLO")
        idle_rooms = []
        for _ in range(5):
            t = time.perf_counter()
            probe.send("ROOMS")
            final, lines = probe.final("ROOMS")
            idle_rooms.append((time.perf_counter() - t) * 1000)
        listed = final
        listing_bytes = sum(len(l) + 1 for l in lines) + len(final) + 1
        probe.close()
        rss_rooms = d.rss()

        ctx = multiprocessing.get_context("fork")
        results = ctx.Queue()
        # Baseline: the bystander alone, with the rooms open.
        p = ctx.Process(target=bystander_worker, args=(d.port, args.baseline_seconds, 0.05, "calm", results))
        p.start()
        procs.append(p)
        baseline = results.get(timeout=args.baseline_seconds + 60)
        p.join(timeout=10)

        cpu0 = d.cpu()
        t0 = time.monotonic()
        workers = [ctx.Process(target=rooms_worker, args=(d.port, args.rooms_seconds, k, results))
                   for k in range(args.listers)]
        by = ctx.Process(target=bystander_worker, args=(d.port, args.rooms_seconds, 0.05, "bystander", results))
        for w in workers:
            w.start()
            procs.append(w)
        by.start()
        procs.append(by)
        got = [results.get(timeout=args.rooms_seconds + 120) for _ in range(args.listers + 1)]
        load_seconds = time.monotonic() - t0
        cpu1 = d.cpu()
        for w in procs:
            w.join(timeout=10)
        pings = [g for g in got if g[0] == "ping"]
        listers = [g for g in got if g[0] == "rooms"]
        errors = [g for g in got if g[0].endswith("error")] + ([baseline] if baseline[0] != "ping" else [])
        replies = sum(g[2] for g in listers)
        lat = [x for g in listers for x in g[5]]
        report.update(
            rss_start=rss_start, rss_rooms=rss_rooms, rss_end=d.rss(), created=created[0],
            refused=refused[0], addresses=len(addresses), create_seconds=create_seconds,
            listed=listed, listing_bytes=listing_bytes, idle_rooms=idle_rooms,
            baseline=baseline[2] if baseline[0] == "ping" else [],
            pings=pings[0][2] if pings else [], replies=replies,
            replies_per_s=replies / max(g[6] for g in listers) if listers else 0,
            rooms_err=sum(g[3] for g in listers), rooms_lat=lat, rooms_mb=sum(g[4] for g in listers) / 1e6,
            listers=len(listers), errors=errors, load_seconds=load_seconds,
            cpu=cpu1 - cpu0,
        )
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
        d.stop()
    return report


# ----------------------------------------------------------------------------------------------------
# 4. Archive

def find_set(board):
    for (p, a), (q, b), (r, c) in itertools.combinations(board, 3):
        if all(len({x, y, z}) != 2 for x, y, z in zip(a, b, c)):
            return p, q, r
    return None


def parse_board(lines, state):
    for line in lines:
        if line.startswith("BOARD "):
            parts = line.split()
            state["rev"] = int(parts[1])
            state["board"] = [tuple(x.split(":")) for x in parts[2:]]
        elif line.startswith("OVER"):
            state["over"] = True
        elif line.startswith("NEWGAME") or line.startswith("ROOM "):
            if line.startswith("ROOM ") and line.endswith(" playing"):
                state["over"] = False


def scenario_archive(args):
    d = Daemon()
    report = {"cmd": d.command_line()}
    stop = threading.Event()
    lock = threading.Lock()
    done = [0]
    names = []  # every room name a bot played in
    bots_stats = []
    conns = []
    try:
        rss_start = d.rss()
        samples = [(0, rss_start, 0)]

        def bot(index):
            st = {"claims": 0, "stale": 0, "slow": 0, "stuck": 0, "games": 0, "error": None}
            bots_stats.append(st)
            try:
                c = Conn(d.port, timeout=30)
                conns.append(c)
                pacer = Pacer(RATE * 0.95)
                c.send(f"HELLO arc{index}")
                c.final("HELLO")
                k = 0
                in_room = 0

                def join():
                    nonlocal k, in_room
                    name = f"a{index}n{k}"
                    k += 1
                    in_room = 0
                    with lock:
                        names.append(name)
                    pacer.wait()
                    c.send(f"JOIN {name} mode=junior")
                    final, lines = c.final("JOIN")
                    if not final.startswith("OK"):
                        raise RuntimeError(final)
                    state = {"over": False}
                    parse_board(lines, state)
                    return state

                state = join()
                while not stop.is_set():
                    if state["over"]:
                        st["games"] += 1
                        in_room += 1
                        with lock:
                            done[0] += 1
                            if done[0] >= args.archive_games:
                                stop.set()
                        if stop.is_set():
                            break
                        if in_room >= 20:  # the archive keeps 20 games per room name: move on
                            state = join()
                            continue
                        pacer.wait()
                        c.send("NEW")
                        final, lines = c.final("NEW")
                        if final.startswith("ERR NEW SLOWDOWN"):
                            st["slow"] += 1
                            time.sleep(0.2)
                            continue
                        state["over"] = False
                        parse_board(lines, state)
                        continue
                    picks = find_set(state.get("board", []))
                    pacer.wait()
                    if picks is None:
                        st["stuck"] += 1
                        c.send("STATE")
                        final, lines = c.final("STATE")
                        parse_board(lines, state)
                        time.sleep(0.01)
                        continue
                    c.send(f"CHOOSE {' '.join(picks)} @{state['rev']}")
                    final, lines = c.final("CHOOSE")
                    parse_board(lines, state)
                    if final.startswith("OK CHOOSE"):
                        st["claims"] += 1
                    elif "SLOWDOWN" in final:
                        st["slow"] += 1
                        time.sleep(0.2)
                    elif "STALE" in final or "OVER" in final:
                        st["stale"] += 1
                        pacer.wait()
                        c.send("STATE")
                        final, lines = c.final("STATE")
                        parse_board(lines, state)
                    else:
                        raise RuntimeError(final)
            except Exception as e:
                st["error"] = repr(e)

        threads = [threading.Thread(target=bot, args=(i,), daemon=True) for i in range(args.bots)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        next_sample = 30
        while any(t.is_alive() for t in threads):
            elapsed = time.monotonic() - t0
            if elapsed >= args.archive_seconds:
                stop.set()
                break
            if elapsed >= next_sample:
                samples.append((next_sample, d.rss(), done[0]))
                next_sample += 30
            time.sleep(0.2)
        for t in threads:
            t.join(timeout=30)
        play_seconds = time.monotonic() - t0
        rss_after = d.rss()
        samples.append((round(play_seconds), rss_after, done[0]))

        # Count what HISTORY shows over every room name played, from a few fresh readers.
        shown = [0]
        lines_total = [0]
        per_name_max = [0]
        names_with_games = [0]
        hist_errors = []

        def reader(part, index):
            c = Conn(d.port, timeout=30)
            c.send(f"HELLO reader{index}")
            c.final("HELLO")
            pacer = Pacer(RATE / HISTORY_COST * 0.95)
            for name in part:
                pacer.wait()
                c.send(f"HISTORY {name}")
                final, lines = c.final("HISTORY")
                if final.startswith("ERR"):
                    if "NOSUCHROOM" not in final:
                        hist_errors.append(final)
                    continue
                games = sum(1 for l in lines
                            if l.startswith("HISTORY GAME ") and len(l.split()) > 4 and "T" in l.split()[3])
                with lock:
                    shown[0] += games
                    lines_total[0] += len(lines)
                    per_name_max[0] = max(per_name_max[0], games)
                    names_with_games[0] += 1 if games else 0
            c.close()

        t1 = time.monotonic()
        nreaders = 8
        rs = [threading.Thread(target=reader, args=(names[k::nreaders], k)) for k in range(nreaders)]
        for t in rs:
            t.start()
        for t in rs:
            t.join(timeout=300)
        history_seconds = time.monotonic() - t1
        for c in conns:
            c.close()
        time.sleep(0.5)
        rss_closed = d.rss()
        report.update(
            rss_start=rss_start, rss_after=rss_after, rss_closed=rss_closed, samples=samples,
            games=done[0], seconds=play_seconds, bots=args.bots, names=len(names),
            claims=sum(s["claims"] for s in bots_stats), stale=sum(s["stale"] for s in bots_stats),
            slow=sum(s["slow"] for s in bots_stats), stuck=sum(s["stuck"] for s in bots_stats),
            errors=[s["error"] for s in bots_stats if s["error"]] + hist_errors[:5],
            shown=shown[0], history_lines=lines_total[0], per_name_max=per_name_max[0],
            names_with_games=names_with_games[0], history_seconds=history_seconds,
        )
    finally:
        stop.set()
        for c in conns:
            c.close()
        d.stop()
    return report


# ----------------------------------------------------------------------------------------------------
# Report

def render(args, results, meta):
    out = []
    w = out.append
    w("# Abuse benchmark (issue 11)")
    w("")
    w(f"Measured by `scripts/abuse-bench.py{' ' + ' '.join(meta['argv']) if meta['argv'] else ''}` on "
      f"{meta['date']}, commit {meta['commit']}{meta['dirty']}, on {meta['cores']} cores "
      f"({meta['python']}). Each scenario runs a fresh `setd` built with "
      f"`swift build -c release --product setd`; all traffic is loopback (127.0.0.0/8). RSS is `VmRSS` "
      f"from `/proc/<pid>/status` of setd. Total run time {meta['total']:.0f} s.")
    w("")
    r = results.get("spectators")
    if r:
        w("## 1. Lagging spectators")
        w("")
        w(f"`{r['cmd']}`. {r['chatters']} players in room `busy` each send `CHAT` with a "
          f"{args.chat_bytes}-byte text at {args.chat_rate:g}/s (under the 100/s limit); {r['spectators']} "
          f"spectators `WATCH busy` with `SO_RCVBUF` {args.rcvbuf} and read {args.trickle} bytes every 0.5 s, "
          f"reading faster only when setd's own queue for them (estimated as bytes broadcast − bytes read "
          f"− the two kernel socket queues from `/proc/net/tcp`) passes {args.high // 1024} KiB, down to "
          f"{args.mid // 1024} KiB — so each keeps hundreds of KB unsent in setd, under the 1 MiB cap, for "
          f"{r['seconds']:.0f} s.")
        w("")
        w("| time | setd RSS | bytes broadcast to each member | spectators connected |")
        w("|---|---|---|---|")
        w(f"| before players and spectators | {mib(r['rss_start'])} | – | – |")
        for t, rss, b, alive in r["samples"]:
            w(f"| {t} s | {mib(rss)} | {b / 1e6:.1f} MB | {alive} |")
        w("")
        avg_read = statistics.mean(r["read_each"]) / r["seconds"] / 1024
        w(f"- Spectators dropped: **{r['dropped']}** of {r['spectators']} "
          f"(setd logged {r['drop_logs']} `output queue full` drops).")
        w(f"- setd's own queue per spectator (estimate, sampled every 0.1 s, second half of the run): median "
          f"{r['p50_est'] / 1024:.0f} KiB, min {r['min_est'] / 1024:.0f} KiB; max over the run "
          f"{r['max_est'] / 1024:.0f} KiB. The kernel held a further {r['p50_kernel'] / 1024:.0f} KiB "
          f"(median; max {r['max_kernel'] / 1024:.0f} KiB) per spectator in the two socket buffers "
          f"(setd's send queue grows by autotuning up to `tcp_wmem`'s maximum, whatever the reader's "
          f"`SO_RCVBUF`), so until that is full setd itself queues nothing.")
        w(f"- Each spectator read {avg_read:.0f} KiB/s on average ({min(r['read_each']) / 1e6:.1f}–"
          f"{max(r['read_each']) / 1e6:.1f} MB in all); {r['broadcast'] / 1e6:.1f} MB was broadcast to each "
          f"room member.")
        w(f"- Chat commands sent {r['chat_sent']}, `OK CHAT` {r['chat_ok']}, `SLOWDOWN` {r['chat_slow']}.")
        grow = (r["samples"][-1][1] or 0) - (r["samples"][0][1] or 0)
        w(f"- RSS change from the start of the chat to its end: {grow / 1024:+.1f} MiB "
          f"({grow / max(1, r['spectators']) / 1024:+.1f} MiB per spectator; the cap is 1 MiB of queue).")
        w("")
    r = results.get("attack")
    if r:
        w("## 2. Room-table attack")
        w("")
        w(f"`{r['cmd']}` (default `--max-rooms 5000`, `--max-rooms-per-ip 20`, `--grace 120`). One address "
          f"(127.0.0.1) connects, sends `HELLO x<n>` and `JOIN junk<n>`, waits for the JOIN reply and "
          f"closes, {r['rounds']} times in {r['seconds']:.1f} s ({r['rounds'] / r['seconds']:.0f} rounds/s). "
          f"Then newcomers connect; JOIN round trip = from sending `JOIN` to its final line.")
        w("")
        w("| attacker JOINs | OK JOIN | ERR JOIN TOOMANYROOMS | other |")
        w("|---|---|---|---|")
        w(f"| {r['rounds']} | {r['ok']} | {r['refused']} | {r['other']} |")
        w("")
        w("| newcomer | reply | JOIN round trip |")
        w("|---|---|---|")
        w(f"| from 127.0.0.2, `JOIN fun` (new room) | `{r['fresh'][0]}` | {r['fresh'][1]:.2f} ms |")
        w(f"| from 127.0.0.1 (the attacker's address), `JOIN fun2` (new room) | `{r['same'][0]}` | "
          f"{r['same'][1]:.2f} ms |")
        w(f"| from 127.0.0.1, `JOIN fun` (existing room) | `{r['existing'][0]}` | {r['existing'][1]:.2f} ms |")
        w("")
        w(f"`ROOMS` after the attack: `{r['rooms_after']}`; setd RSS {mib(r['rss'])}.")
        w("")
    r = results.get("rooms")
    if r:
        w("## 3. ROOMS under load")
        w("")
        w(f"`{r['cmd']}`. {r['created']} rooms were created (refused: {r['refused']}) from "
          f"{r['addresses']} source addresses 127.0.x.y bound before connect, {r['per_ip']} rooms each, so "
          f"the default `--max-rooms-per-ip 20` stays on; each creator said HELLO + JOIN and closed, so the "
          f"rooms stay open with their player away in the grace period (raised to {args.rooms_grace} s so "
          f"they outlast the run). Creation took {r['create_seconds']:.1f} s. An idle `ROOMS` reply "
          f"(`{r['listed']}`, {r['listing_bytes'] / 1e3:.0f} kB) took {statistics.median(r['idle_rooms']):.1f} ms "
          f"(median of 5 round trips). Then {r['listers']} clients, each in its own process, send `ROOMS`, "
          f"wait for the whole reply and send the next, paced at {RATE / ROOMS_COST * 0.98:g}/s (the rate limit: ROOMS costs {ROOMS_COST:g} commands) for "
          f"{args.rooms_seconds:g} s, while a bystander process sends `PING` every 50 ms (the next PING "
          f"at once if a reply is later than that) and times each round trip.")
        w("")
        w("| bystander PING | samples | p50 | p99 | max |")
        w("|---|---|---|---|---|")
        for label, v in ((f"alone, {r['created']} rooms open", r["baseline"]),
                         (f"with {r['listers']} ROOMS clients", r["pings"])):
            if v:
                w(f"| {label} | {len(v)} | {pct(v, 50):.2f} ms | {pct(v, 99):.2f} ms | {max(v):.2f} ms |")
            else:
                w(f"| {label} | 0 | – | – | – |")
        w("")
        w(f"- ROOMS replies: {r['replies']} in {args.rooms_seconds:g} s = **{r['replies_per_s']:.0f}/s** over "
          f"{r['listers']} clients (the rate limit would allow {r['listers'] * RATE / ROOMS_COST:g}/s); `ERR ROOMS` replies "
          f"{r['rooms_err']}; {r['rooms_mb']:.0f} MB received. ROOMS round trip under load: p50 "
          f"{pct(r['rooms_lat'], 50):.1f} ms, p99 {pct(r['rooms_lat'], 99):.1f} ms.")
        if r["replies"]:
            w(f"- setd CPU during the load: {r['cpu']:.1f} s in {r['load_seconds']:.1f} s "
              f"({r['cpu'] * 1000 / r['replies']:.2f} ms per ROOMS reply, PINGs included).")
        w(f"- setd RSS: {mib(r['rss_start'])} empty, {mib(r['rss_rooms'])} with the rooms, "
          f"{mib(r['rss_end'])} after the load.")
        if r["errors"]:
            w(f"- Client errors: {r['errors']}")
        w("")
    r = results.get("archive")
    if r:
        w("## 4. Archive")
        w("")
        w(f"`{r['cmd']}` (default `--max-archive 1000`, no `--state-dir`: the archive is in memory only). "
          f"{r['bots']} bot connections each play `mode=junior` rooms alone: parse the `BOARD` lines, claim "
          f"the first set found with `CHOOSE <p> <q> <r> @<rev>` (paced at 95 commands/s), `NEW` when the "
          f"game is over, and after 20 finished games (the per-name archive bound) `JOIN` a new room name. "
          f"Target {args.archive_games} games or {args.archive_seconds:g} s, whichever comes first. Then 8 "
          f"readers send `HISTORY <name>` for each of the {r['names']} names played and count the "
          f"`HISTORY GAME <k> <start> <end> ...` headers.")
        w("")
        w("| time | finished games | setd RSS |")
        w("|---|---|---|")
        for t, rss, g in r["samples"]:
            w(f"| {t} s | {g} | {mib(rss)} |")
        w(f"| after the bots closed | {r['games']} | {mib(r['rss_closed'])} |")
        w("")
        reached = "reached" if r["games"] >= args.archive_games else "**not reached** in the time allowed"
        w(f"- Finished games: **{r['games']}** in {r['seconds']:.0f} s ({r['games'] / r['seconds']:.1f}/s; "
          f"target {args.archive_games} {reached}); {r['claims']} sets claimed, {r['stale']} stale/over, "
          f"{r['slow']} SLOWDOWN, {r['stuck']} boards without a set seen.")
        w(f"- `HISTORY` shows **{r['shown']}** finished games over all {r['names']} names "
          f"({r['names_with_games']} names with any, at most {r['per_name_max']} per name, "
          f"{r['history_lines']} data lines; read in {r['history_seconds']:.1f} s).")
        w(f"- setd RSS: {mib(r['rss_start'])} before, {mib(r['rss_after'])} after the games, "
          f"{mib(r['rss_closed'])} once the bots closed.")
        if r["errors"]:
            w(f"- Errors: {r['errors']}")
        w("")
    r = results.get("junk")
    if r:
        w("## 5. Junk churn")
        w("")
        w(f"`{r['cmd']}`. {r['workers']} processes on 127.0.0.3 each connect, write 50 × (4,096 random bytes "
          f"and 100 × `IAC DONT 0`) = 220 KB and close, for {args.junk_seconds:g} s (at `nice 19`: the attacker "
          f"stands for another machine, whose CPU is not setd's); a bystander on 127.0.0.2 "
          f"connects once the flood is under way, says `HELLO` and sends `PING` every 10 ms.")
        w("")
        w("| bystander PING | samples | p50 | p99 | max |")
        w("|---|---|---|---|---|")
        for label, v in (("alone", r["baseline"]), ("during the flood", r["pings"])):
            w(f"| {label} | {len(v)} | {pct(v, 50):.2f} ms | {pct(v, 99):.2f} ms | {max(v):.2f} ms |")
        w("")
        total = r["made"] + r["reset"]
        w(f"- The bystander's greeting came {r['greeting_ms']:.0f} ms after its connect.")
        w(f"- Junk connections: {total} in {r['seconds']:.1f} s ({total / r['seconds']:.0f}/s), "
          f"{r['sent'] / 1e6:.0f} MB written by the flood; setd cut {r['cut']} with `BYE junk` "
          f"({r['reset']} were cut while still writing).")
        w(f"- setd CPU during the flood: {r['cpu']:.1f} s in {r['seconds']:.1f} s "
          f"({100 * r['cpu'] / r['seconds']:.0f} % of a core); RSS after {mib(r['rss'])}.")
        w("")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short versions of every scenario (~2 min)")
    ap.add_argument("--only", default="1,2,3,4,5", help="comma-separated scenarios to run")
    ap.add_argument("--no-build", action="store_true", help="use the existing .build/release/setd")
    ap.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS-abuse.md"))
    g = ap.add_argument_group("1. lagging spectators")
    g.add_argument("--spectate-seconds", type=float, default=60)
    g.add_argument("--spectators", type=int, default=10)
    g.add_argument("--chatters", type=int, default=3)
    g.add_argument("--chat-rate", type=float, default=90, help="CHATs per second per player")
    g.add_argument("--chat-bytes", type=int, default=900, help="length of a chat text")
    g.add_argument("--rcvbuf", type=int, default=4096)
    g.add_argument("--trickle", type=int, default=2048, help="bytes a spectator reads every 0.5 s")
    g.add_argument("--high", type=int, default=640 * 1024)
    g.add_argument("--mid", type=int, default=384 * 1024)
    g = ap.add_argument_group("2. room-table attack")
    g.add_argument("--attack-rounds", type=int, default=5000)
    g.add_argument("--attack-seconds", type=float, default=20)
    g = ap.add_argument_group("3. ROOMS under load")
    g.add_argument("--rooms", type=int, default=5000)
    g.add_argument("--max-rooms", type=int, default=6000)
    g.add_argument("--rooms-grace", type=int, default=600)
    g.add_argument("--rooms-seconds", type=float, default=20)
    g.add_argument("--baseline-seconds", type=float, default=5)
    g.add_argument("--listers", type=int, default=8)
    g = ap.add_argument_group("4. archive")
    g.add_argument("--archive-games", type=int, default=10000)
    g.add_argument("--archive-seconds", type=float, default=180)
    g.add_argument("--bots", type=int, default=12)
    g = ap.add_argument_group("5. junk churn")
    g.add_argument("--junk-seconds", type=float, default=15)
    g.add_argument("--junk-baseline-seconds", type=float, default=3)
    g.add_argument("--junk-workers", type=int, default=3)
    args = ap.parse_args()
    if args.quick:
        args.spectate_seconds = min(args.spectate_seconds, 20)
        args.attack_rounds, args.attack_seconds = min(args.attack_rounds, 1000), min(args.attack_seconds, 5)
        args.rooms, args.rooms_seconds = min(args.rooms, 1000), min(args.rooms_seconds, 5)
        args.baseline_seconds = min(args.baseline_seconds, 2)
        args.archive_games, args.archive_seconds = min(args.archive_games, 1500), min(args.archive_seconds, 30)
        args.junk_seconds = min(args.junk_seconds, 6)
    started = time.monotonic()
    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "setd"], cwd=ROOT, check=True)
    if not os.access(SETD, os.X_OK):
        raise SystemExit(f"no {SETD}; build it or drop --no-build")

    def git(*a):
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""

    meta = {
        "argv": sys.argv[1:],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": git("rev-parse", "--short", "HEAD") or "unknown",
        "dirty": " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else "",
        "cores": os.cpu_count(),
        "python": f"Python {sys.version.split()[0]}",
    }
    chosen = {s.strip() for s in args.only.split(",")}
    results = {}
    for key, name, fn in (("1", "spectators", scenario_spectators), ("2", "attack", scenario_attack),
                          ("3", "rooms", scenario_rooms), ("4", "archive", scenario_archive),
                          ("5", "junk", scenario_junk)):
        if key in chosen:
            t = time.monotonic()
            print(f"scenario {key} ({name}) ...", file=sys.stderr, flush=True)
            results[name] = fn(args)
            print(f"scenario {key} done in {time.monotonic() - t:.0f} s", file=sys.stderr, flush=True)
    meta["total"] = time.monotonic() - started
    text = render(args, results, meta)
    with open(args.output, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
