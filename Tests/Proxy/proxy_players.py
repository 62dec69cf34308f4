#!/usr/bin/env python3
"""Players who reach setd through a TLS proxy, each from its own loopback address (issue 29).

Usage:
  proxy_players.py page    --port P --cafile CERT --source A --origin URL
  proxy_players.py friends --kind ws|line --port P --cafile CERT --sources A,B,C,D [--origin URL]
                           [--spoofer E] [--names PREFIX]
  proxy_players.py direct  --port SETD --source A

`page` fetches the page over https from address A, and again with an Origin of another site (403).
`friends` opens one player per source address, all kept open, over wss (`ws`, through the proxy's page
port) or the line protocol over TLS (`line`, as `openssl s_client -quiet` or `ncat --ssl` does): each
says HELLO and JOINs a room of its own; then the first friend makes a second connection (its second
room is refused) and a third (over --max-per-ip 2); then a player from the first source spoofs its
address: a ws player sends X-Forwarded-For 10.9.9.9, a line player its own PROXY header.
`direct` speaks to setd itself without TLS from an address it does not trust: a PROXY header (closed
without a word) and an X-Forwarded-For (ignored).

Python's standard library only. Prints one JSON object; exit status 0 unless something did not happen
in time (then 1 with the reason). Bounded: every socket operation times out after 10 s.
"""

import argparse
import base64
import json
import os
import socket
import ssl
import sys

TIMEOUT = 10  # seconds for every socket operation; --timeout changes it
SPOOFED = "10.9.9.9"


def fail(reason):
    print(f"FAIL: {reason}")
    sys.exit(1)


def connect(port, source, cafile=None):
    raw = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT, source_address=(source, 0))
    if cafile is None:
        return raw
    context = ssl.create_default_context(cafile=cafile)
    return context.wrap_socket(raw, server_hostname="127.0.0.1")


class Stream:
    """Lines or WebSocket text frames from one socket, and the end of the stream."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def fill(self):
        try:
            chunk = self.sock.recv(65536)
        except (ConnectionResetError, ssl.SSLError):
            chunk = b""
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def read_exactly(self, count):
        while len(self.buffer) < count:
            self.fill()
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def read_line(self):
        while b"\n" not in self.buffer:
            self.fill()
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.rstrip(b"\r").decode()

    def at_eof(self):
        """Whether the stream ends with nothing more (what a refused connection gets)."""
        try:
            while True:
                self.fill()
        except EOFError:
            return self.buffer == b""
        except socket.timeout:
            return False


class LinePlayer:
    def __init__(self, sock):
        self.stream = Stream(sock)
        self.sock = sock

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def read(self):
        return self.stream.read_line()


class WebSocketPlayer:
    def __init__(self, sock, origin, fields=()):
        self.sock = sock
        self.stream = Stream(sock)
        key = base64.b64encode(os.urandom(16)).decode()
        head = [
            "GET /ws HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
        ]
        if origin:
            head.append(f"Origin: {origin}")
        head += list(fields)
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        self.status = self.stream.read_line()
        while self.stream.read_line() != "":
            pass

    def send(self, line):
        payload = line.encode()
        mask = os.urandom(4)
        assert len(payload) < 126
        frame = bytes([0x81, 0x80 | len(payload)]) + mask
        frame += bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(frame)

    def read(self):
        while True:
            first, second = self.stream.read_exactly(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(self.stream.read_exactly(2), "big")
            elif length == 127:
                length = int.from_bytes(self.stream.read_exactly(8), "big")
            payload = self.stream.read_exactly(length)
            opcode = first & 0x0F
            if opcode == 1:
                return payload.decode()
            if opcode == 8:
                raise EOFError


def final(player, command):
    """Sends a command and returns its final line (OK or ERR), skipping events and data lines."""
    player.send(command)
    while True:
        line = player.read()
        if line.startswith("OK ") or line.startswith("ERR "):
            return line


def player(kind, port, cafile, source, origin, fields=()):
    sock = connect(port, source, cafile)
    if kind == "ws":
        ws = WebSocketPlayer(sock, origin, fields)
        if not ws.status.startswith("HTTP/1.1 101"):
            return ws, ws.status
        return ws, ws.read()
    line = LinePlayer(sock)
    return line, line.read()


def friends(args):
    sources = args.sources.split(",")
    result = {"greetings": [], "joins": []}
    kept = []
    for index, source in enumerate(sources, start=1):
        friend, greeting = player(args.kind, args.port, args.cafile, source, args.origin)
        result["greetings"].append(greeting)
        final(friend, f"HELLO {args.names}{index}")
        result["joins"].append(final(friend, f"JOIN {args.names}room{index}"))
        kept.append(friend)
    # The first friend again: a second room is over --max-rooms-per-ip 1, a third connection over
    # --max-per-ip 2.
    second, _ = player(args.kind, args.port, args.cafile, sources[0], args.origin)
    final(second, f"HELLO {args.names}1b")
    result["second_room"] = final(second, f"JOIN {args.names}another")
    try:
        _, third = player(args.kind, args.port, args.cafile, sources[0], args.origin)
    except EOFError:
        third = "EOF"
    result["third_connection"] = third
    second.sock.close()
    # A spoofer from a fresh address.
    spoofer_source = args.spoofer
    if args.kind == "ws":
        spoofer, greeting = player(
            "ws", args.port, args.cafile, spoofer_source, args.origin, [f"X-Forwarded-For: {SPOOFED}"])
        final(spoofer, f"HELLO {args.names}spoofer")
        result["spoofer"] = final(spoofer, f"JOIN {args.names}spoofed")
    else:
        sock = connect(args.port, spoofer_source, args.cafile)
        sock.sendall(f"PROXY TCP4 {SPOOFED} 127.0.0.1 1234 7777\r\nHELLO spoofer\n".encode())
        result["spoofer"] = "closed" if Stream(sock).at_eof() else "answered"
    result["still_playing"] = final(kept[-1], "PING")
    print(json.dumps(result))


def page(args):
    out = {}
    for name, origin in [("own", args.origin), ("other", "https://evil.example")]:
        sock = connect(args.port, args.source, args.cafile)
        sock.sendall(
            f"GET /?room=fun HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: {origin}\r\nConnection: close\r\n\r\n".encode())
        body = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                body += chunk
        except (ssl.SSLError, ConnectionResetError):
            pass
        status = body.split(b"\r\n", 1)[0].decode()
        out[name] = {"status": status, "isPage": b"<!doctype html>" in body}
    print(json.dumps(out))


def direct(args):
    out = {}
    sock = connect(args.port, args.source)
    sock.sendall(f"PROXY TCP4 {SPOOFED} 127.0.0.1 1234 7777\r\nHELLO spoofer\n".encode())
    out["proxy_header"] = "closed" if Stream(sock).at_eof() else "answered"
    sock = connect(args.port, args.source)
    sock.sendall(
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {SPOOFED}\r\nConnection: close\r\n\r\n".encode())
    out["forwarded_status"] = Stream(sock).read_line()
    print(json.dumps(out))


def main():
    global TIMEOUT
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["page", "friends", "direct"])
    parser.add_argument("--kind", choices=["ws", "line"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cafile")
    parser.add_argument("--source", default="127.0.0.1")
    parser.add_argument("--sources")
    parser.add_argument("--spoofer", default="127.0.0.20")
    parser.add_argument("--origin")
    parser.add_argument("--names", default="friend", help="the players' names and rooms start with this")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    args = parser.parse_args()
    TIMEOUT = args.timeout
    try:
        {"page": page, "friends": friends, "direct": direct}[args.scenario](args)
    except (OSError, EOFError) as error:
        fail(f"{args.scenario}: {type(error).__name__} {error}")


if __name__ == "__main__":
    main()
