#!/usr/bin/env python3
"""An mDNS / DNS-SD one-shot query, written from RFC 1035, RFC 6762 and RFC 6763 with the standard
library only, so it checks setd's responder against a reader that shares no code with it.

Sends a PTR query for a service type (default _setd._tcp.local) from an ordinary port to 224.0.0.251:5353
(a "legacy" query, RFC 6762 section 6.7: responders answer by unicast, straight back), collects answers
for --wait seconds, follows PTR -> SRV/TXT -> A/AAAA, and prints one JSON object per instance found:

    {"instance": "setd", "host": "setd-box.local", "port": 7777, "txt": {"rooms": "0", ...},
     "addresses": ["127.0.0.1"], "ttls": {...}, "id_echoed": true, "from": "127.0.0.1"}

Exit status 0 if at least one instance was found, 1 otherwise. Only for networks you run yourself: the
tests run it inside a network namespace of their own.
"""

import argparse
import json
import random
import socket
import struct
import sys
import time


def encode_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        raw = label.encode()
        out += bytes([len(raw)]) + raw
    return out + b"\x00"


def read_name(data, offset):
    """Returns (name, offset after the name in place). Follows compression pointers, which must
    point backwards (so a loop cannot hang us)."""
    labels = []
    position = offset
    end = None
    limit = offset
    while True:
        length = data[position]
        if length & 0xC0 == 0xC0:
            target = ((length & 0x3F) << 8) | data[position + 1]
            if target >= limit:
                raise ValueError("compression pointer does not point back")
            if end is None:
                end = position + 2
            limit = target
            position = target
        elif length == 0:
            if end is None:
                end = position + 1
            return ".".join(labels), end
        else:
            labels.append(data[position + 1:position + 1 + length].decode("utf-8", "replace"))
            position += 1 + length


def parse(data):
    msg_id, flags, qd, an, ns, ar = struct.unpack("!HHHHHH", data[:12])
    offset = 12
    for _ in range(qd):
        _, offset = read_name(data, offset)
        offset += 4
    records = []
    for _ in range(an + ns + ar):
        name, offset = read_name(data, offset)
        rtype, rclass, ttl, rdlength = struct.unpack("!HHIH", data[offset:offset + 10])
        offset += 10
        rdata_at = offset
        rdata = data[offset:offset + rdlength]
        offset += rdlength
        record = {"name": name.lower(), "type": rtype, "ttl": ttl, "flush": bool(rclass & 0x8000)}
        if rtype == 12:  # PTR
            record["target"], _ = read_name(data, rdata_at)
        elif rtype == 33:  # SRV
            record["priority"], record["weight"], record["port"] = struct.unpack("!HHH", rdata[:6])
            record["target"], _ = read_name(data, rdata_at + 6)
        elif rtype == 16:  # TXT
            strings, i = [], 0
            while i < len(rdata):
                n = rdata[i]
                strings.append(rdata[i + 1:i + 1 + n].decode("utf-8", "replace"))
                i += 1 + n
            record["strings"] = strings
        elif rtype == 1:
            record["address"] = socket.inet_ntop(socket.AF_INET, rdata)
        elif rtype == 28:
            record["address"] = socket.inet_ntop(socket.AF_INET6, rdata)
        records.append(record)
    return msg_id, flags, records


def listen(seconds):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("0.0.0.0", 5353))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                    socket.inet_aton("224.0.0.251") + socket.inet_aton("0.0.0.0"))
    print(json.dumps({"listening": True}), flush=True)
    deadline = time.monotonic() + seconds
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return 0
        sock.settimeout(remaining)
        try:
            data, sender = sock.recvfrom(9000)
        except socket.timeout:
            return 0
        try:
            _, flags, records = parse(data)
        except (ValueError, IndexError, struct.error):
            continue
        print(json.dumps({
            "from": sender[0], "response": bool(flags & 0x8000),
            "records": [{"name": r["name"], "type": r["type"], "ttl": r["ttl"]} for r in records],
        }, sort_keys=True), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--service", default="_setd._tcp.local")
    parser.add_argument("--wait", type=float, default=1.5)
    parser.add_argument("--ipv6", action="store_true", help="ask on ff02::fb over loopback instead")
    parser.add_argument("--listen", action="store_true",
                        help="send nothing: join 224.0.0.251:5353 and print every mDNS packet heard in --wait "
                             "seconds, one JSON line each (announcements, goodbyes, queries)")
    args = parser.parse_args()
    if args.listen:
        return listen(args.wait)

    query_id = random.randrange(1, 0xFFFF)
    query = struct.pack("!HHHHHH", query_id, 0, 1, 0, 0, 0) + encode_name(args.service) + struct.pack("!HH", 12, 1)
    if args.ipv6:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        sock.bind(("::", 0))
        destination = ("ff02::fb", 5353, 0, socket.if_nametoindex("lo"))
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
        sock.bind(("0.0.0.0", 0))
        destination = ("224.0.0.251", 5353)
    sock.sendto(query, destination)

    records, echoed, sources = [], [], []
    deadline = time.monotonic() + args.wait
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        sock.settimeout(remaining)
        try:
            data, sender = sock.recvfrom(9000)
        except socket.timeout:
            break
        try:
            msg_id, flags, found = parse(data)
        except (ValueError, IndexError, struct.error) as error:
            print(f"unreadable packet from {sender[0]}: {error}", file=sys.stderr)
            continue
        if not flags & 0x8000:
            continue
        echoed.append(msg_id == query_id)
        sources.append(sender[0])
        records += found

    service = args.service.lower()
    instances = []
    for ptr in (r for r in records if r["type"] == 12 and r["name"] == service):
        name = ptr["target"].lower()
        srv = next((r for r in records if r["type"] == 33 and r["name"] == name), None)
        txt = next((r for r in records if r["type"] == 16 and r["name"] == name), None)
        if srv is None:
            continue
        host = srv["target"].lower()
        addresses = sorted({r["address"] for r in records if r["type"] in (1, 28) and r["name"] == host})
        instances.append({
            "instance": ptr["target"].split(".")[0],
            "host": host,
            "port": srv["port"],
            "txt": dict(s.split("=", 1) if "=" in s else (s, "") for s in (txt["strings"] if txt else [])),
            "addresses": addresses,
            "ttls": {"ptr": ptr["ttl"], "srv": srv["ttl"]},
            "flush_bits": any(r["flush"] for r in records),
            "id_echoed": all(echoed),
            "from": sources[0] if sources else None,
        })
    for instance in instances:
        print(json.dumps(instance, sort_keys=True))
    return 0 if instances else 1


if __name__ == "__main__":
    sys.exit(main())
