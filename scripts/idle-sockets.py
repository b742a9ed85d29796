#!/usr/bin/env python3
"""Server memory per idle socket: opens N WebSockets that said hello and then wait, and reports
how much the server's resident memory grew per socket.

    ./scripts/idle-sockets.py [--bin target/release/prophecy] [-n 2000]

It starts `prophecy serve` on a free port with a fresh database (per-address limits lifted:
every socket comes from 127.0.0.1), creates tables of four seats, opens one socket per seat,
sends `hello`, reads the `sync`, and measures the server's RSS (VmRSS in /proc) before the
sockets and after all of them are idle. Standard library only.
"""

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def request(port, method, path, body=None, cookie=None):
    """One HTTP/1.1 exchange: (status, headers, body)."""
    data = json.dumps(body).encode() if body is not None else b""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"Accept: application/json\r\nOrigin: http://127.0.0.1:{port}\r\n"
    )
    if data:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(head.encode() + b"\r\n" + data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    return int(lines[0].split()[1]), lines[1:], rest.decode()


def seat_cookie(headers):
    for line in headers:
        if line.lower().startswith("set-cookie: seat="):
            return line.split(": ", 1)[1].split(";")[0]
    raise RuntimeError("no seat cookie")


def frame(text):
    """A masked WebSocket text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    if n < 126:
        header = bytes([0x81, 0x80 | n])
    else:
        header = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return header + mask + masked


def open_socket(port, token, cookie):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /t/{token}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(4096)
    if not answer.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(answer.split(b"\r\n")[0].decode())
    s.sendall(frame('{"type":"hello","since":0}'))
    # Read the sync (and anything else) until the server has nothing more to say.
    s.settimeout(2)
    got = len(answer.partition(b"\r\n\r\n")[2])
    while got < 200:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("closed")
        got += len(chunk)
    s.setblocking(False)
    try:
        while s.recv(65536):
            pass
    except BlockingIOError:
        pass
    return s


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default="target/release/prophecy")
    parser.add_argument("-n", type=int, default=2000, help="sockets (a multiple of 4)")
    parser.add_argument("--limits", action="store_true",
                        help="pass --tables-per-minute/--joins-per-minute/--connections-per-address"
                             " (servers that have them)")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tempfile.mkdtemp()
    command = [args.bin, "serve", "--addr", f"127.0.0.1:{port}", "--db", f"{folder}/t.db"]
    if args.limits:
        command += ["--tables-per-minute", "10000", "--joins-per-minute", "10000",
                    "--connections-per-address", "1000000"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.1)
        seats = []
        for t in range(args.n // 4):
            status, headers, body = request(port, "POST", "/tables", {"name": "Ada", "ruleset": "1.0"})
            if status != 200:
                sys.exit(f"POST /tables: {status} {body}")
            table = json.loads(body)
            seats.append((table["token"], seat_cookie(headers)))
            for name in ["Bo", "Cy", "Di"]:
                status, headers, body = request(
                    port, "POST", f"/t/{table['token']}/join", {"name": name, "join": table["join"]})
                if status != 200:
                    sys.exit(f"POST join: {status} {body}")
                seats.append((table["token"], seat_cookie(headers)))
        # Rooms are loaded by a first socket; measure the sockets, not the rooms.
        warm = [open_socket(port, token, cookie) for token, cookie in seats[::4]]
        for s in warm:
            s.close()
        time.sleep(1)
        before = rss_kib(server.pid)
        sockets = [open_socket(port, token, cookie) for token, cookie in seats]
        time.sleep(2)
        after = rss_kib(server.pid)
        per = (after - before) / len(sockets)
        print(f"{len(sockets)} idle sockets at {len(seats) // 4} tables: server RSS "
              f"{before / 1024:.1f} MiB → {after / 1024:.1f} MiB, {per:.1f} KiB per socket")
        for s in sockets:
            s.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
