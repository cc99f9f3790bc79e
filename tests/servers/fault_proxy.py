#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 proxy for the remote-source tests and benchmarks.

Sits between the client and a real server (nginx, s3rver) on 127.0.0.1 and
forwards every request, adding what object stores do to clients: latency and
jitter per request, a bandwidth cap, connection resets after N body bytes,
bursts of 503 SlowDown, truncated and overlong bodies, stalls, and an object
replaced mid-read (the ETag changes; If-Match then fails with 412).

Usage: fault_proxy.py --upstream HOST:PORT [--port N] [--latency-ms N] ...
Prints "PORT <n>" once listening. The faults can be changed while running with
GET /__fault/set?name=value&... ; GET /__fault/stats returns the counters as
JSON; GET /__fault/reset clears faults and counters.

Counted faults (status503, reset, truncate, long, stall, wrong_range) apply
to that many of the next data requests (GET/HEAD of objects), then stop.
"""
import argparse
import json
import random
import socket
import sys
import threading
import time
import urllib.parse

LOCK = threading.Lock()
CONFIG = {}
STATS = {}
COUNTED = ("status503", "reset", "truncate", "long", "stall", "wrong_range")


def reset_state(base):
    with LOCK:
        CONFIG.clear()
        CONFIG.update(base)
        for name in COUNTED:
            CONFIG.setdefault(name, 0)
        CONFIG.setdefault("replaced", 0)
        STATS.clear()
        STATS.update({"requests": 0, "gets": 0, "heads": 0, "lists": 0, "faults": 0, "bytes": 0})


def read_head(conn, buffer):
    """Reads up to the end of a request/response head; returns (head, rest)."""
    while b"\r\n\r\n" not in buffer:
        chunk = conn.recv(65536)
        if not chunk:
            return None, buffer
        buffer += chunk
        if len(buffer) > 1 << 20:
            return None, b""
    head, rest = buffer.split(b"\r\n\r\n", 1)
    return head.decode("latin-1"), rest


def parse_headers(lines):
    headers = []
    for line in lines:
        if ":" in line:
            name, value = line.split(":", 1)
            headers.append((name.strip(), value.strip()))
    return headers


def header(headers, name):
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def open_upstream(upstream, method, target, headers):
    """Sends one request upstream on a fresh connection and reads the response
    head; returns (socket, status line, headers, body bytes read so far). The
    caller closes the socket."""
    host, port = upstream
    sock = socket.create_connection((host, port), timeout=30)
    try:
        lines = [f"{method} {target} HTTP/1.1"]
        for name, value in headers:
            if name.lower() in ("connection", "keep-alive", "proxy-connection"):
                continue
            lines.append(f"{name}: {value}")
        lines.append("Connection: close")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head, rest = read_head(sock, b"")
        if head is None:
            raise OSError("upstream closed before a response")
        status_line, *header_lines = head.split("\r\n")
        return sock, status_line, parse_headers(header_lines), rest
    except BaseException:
        sock.close()
        raise


def fetch_upstream(upstream, method, target, headers):
    """One request upstream on a fresh connection; returns (status line, headers, body)."""
    sock, status_line, response_headers, rest = open_upstream(upstream, method, target, headers)
    try:
        body = bytearray(rest)
        if method != "HEAD":
            while True:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    break
                body += chunk
        body = bytes(body)
        if (header(response_headers, "transfer-encoding") or "").lower() == "chunked":
            body = dechunk(body)
            response_headers = [(k, v) for k, v in response_headers if k.lower() != "transfer-encoding"]
            response_headers.append(("Content-Length", str(len(body))))
        return status_line, response_headers, body
    finally:
        sock.close()


def relay_upstream(conn, upstream, method, target, headers):
    """A GET without faults: the upstream response is passed on as it arrives
    (no buffering of the whole body), so the proxy adds its latency and little
    else. Returns False, having sent nothing, when the response needs the
    buffering path (a chunked body); raises OSError on a broken upstream."""
    sock, status_line, response_headers, rest = open_upstream(upstream, method, target, headers)
    try:
        length = header(response_headers, "content-length")
        if length is None or (header(response_headers, "transfer-encoding") or "").lower() == "chunked":
            return False
        remaining = int(length)
        response_headers = [(k, v) for k, v in response_headers if k.lower() not in ("connection", "keep-alive")]
        response_headers.append(("Connection", "keep-alive"))
        respond(conn, status_line, response_headers, b"", head_only=True)
        sent = 0
        piece = rest[:remaining]
        while True:
            if piece:
                conn.sendall(piece)
                sent += len(piece)
            if sent >= remaining:
                break
            piece = sock.recv(min(1 << 20, remaining - sent))
            if not piece:
                raise OSError("upstream closed mid-body")
        with LOCK:
            STATS["bytes"] += sent
        return True
    finally:
        sock.close()


def dechunk(data):
    out = bytearray()
    pos = 0
    while True:
        end = data.index(b"\r\n", pos)
        size = int(data[pos:end].split(b";")[0], 16)
        pos = end + 2
        if size == 0:
            return bytes(out)
        out += data[pos:pos + size]
        pos += size + 2


def take_fault():
    """Picks the counted fault this request gets (decrementing its count)."""
    with LOCK:
        for name in COUNTED:
            if CONFIG.get(name, 0) > 0:
                CONFIG[name] -= 1
                STATS["faults"] += 1
                return name
    return None


def send_paced(conn, data, rate):
    """Sends `data`, at most `rate` bytes per second when rate > 0."""
    if rate <= 0:
        conn.sendall(data)
        return
    step = max(1024, rate // 50)
    start = time.monotonic()
    sent = 0
    while sent < len(data):
        conn.sendall(data[sent:sent + step])
        sent += min(step, len(data) - sent)
        ahead = sent / rate - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)


def control(path, query):
    params = urllib.parse.parse_qs(query)
    if path == "/__fault/set":
        with LOCK:
            for name, values in params.items():
                CONFIG[name] = int(values[0])
    elif path == "/__fault/reset":
        reset_state(BASE)
    with LOCK:
        return json.dumps({"config": CONFIG, "stats": STATS}).encode()


def respond(conn, status, headers, body, head_only=False):
    lines = [status] + [f"{k}: {v}" for k, v in headers]
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    if not head_only:
        conn.sendall(body)


def serve(conn, upstream):
    buffer = b""
    try:
        while True:
            head, buffer = read_head(conn, buffer)
            if head is None:
                return
            request_line, *header_lines = head.split("\r\n")
            method, target, _ = request_line.split(" ", 2)
            headers = parse_headers(header_lines)
            length = int(header(headers, "content-length") or 0)
            while len(buffer) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buffer += chunk
            request_body, buffer = buffer[:length], buffer[length:]
            path, _, query = target.partition("?")
            if path.startswith("/__fault/"):
                body = control(path, query)
                respond(conn, "HTTP/1.1 200 OK", [("Content-Type", "application/json"),
                                                  ("Content-Length", str(len(body)))], body)
                continue
            data_request = method in ("GET", "HEAD") and "list-type" not in query
            with LOCK:
                STATS["requests"] += 1
                if method == "HEAD":
                    STATS["heads"] += 1
                elif data_request:
                    STATS["gets"] += 1
                else:
                    STATS["lists"] += 1
                latency = CONFIG.get("latency_ms", 0)
                jitter = CONFIG.get("jitter_ms", 0)
                rate = CONFIG.get("bandwidth", 0)
                replaced = CONFIG.get("replaced", 0)
                reset_after = CONFIG.get("reset_after", 0)
                stall_ms = CONFIG.get("stall_ms", 0)
            delay = latency + (random.uniform(0, jitter) if jitter > 0 else 0)
            if delay > 0:
                time.sleep(delay / 1000.0)
            fault = take_fault() if data_request else None
            if fault == "status503":
                body = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code>'
                        b"<Message>Please reduce your request rate.</Message></Error>")
                respond(conn, "HTTP/1.1 503 Slow Down", [("Content-Type", "application/xml"),
                                                        ("Content-Length", str(len(body)))], body)
                continue
            if replaced and data_request and header(headers, "if-match") is not None:
                body = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code>'
                        b"</Error>")
                respond(conn, "HTTP/1.1 412 Precondition Failed",
                        [("Content-Type", "application/xml"), ("Content-Length", str(len(body)))], body)
                continue
            forward = [(k, v) for k, v in headers if k.lower() != "content-length"]
            if request_body:
                forward.append(("Content-Length", str(len(request_body))))
            if (method == "GET" and data_request and fault is None and not replaced and rate <= 0
                    and relay_upstream(conn, upstream, method, target, forward)):
                continue
            status, response_headers, body = fetch_upstream(upstream, method, target, forward)
            response_headers = [(k, v) for k, v in response_headers
                                if k.lower() not in ("connection", "keep-alive")]
            if replaced:
                response_headers = [(k, '"replaced-0000"' if k.lower() == "etag" else v)
                                    for k, v in response_headers]
            response_headers.append(("Connection", "keep-alive"))
            head_only = method == "HEAD"
            if fault == "wrong_range":
                # Content-Range for other bytes than asked: a server or cache bug
                # the client must catch rather than use the body.
                def shifted(value):
                    unit, _, spec = value.partition(" ")
                    span, _, total = spec.partition("/")
                    first, _, last = span.partition("-")
                    return f"{unit} {int(first) + 1}-{int(last) + 1}/{total}"
                response_headers = [(k, shifted(v) if k.lower() == "content-range" else v)
                                    for k, v in response_headers]
            if fault == "long" and body:
                body = body + b"EXTRA-BYTES-THE-CLIENT-MUST-REFUSE"
                response_headers = [(k, str(len(body)) if k.lower() == "content-length" else v)
                                    for k, v in response_headers]
            with LOCK:
                STATS["bytes"] += len(body)
            if fault in ("reset", "truncate") and not head_only:
                cut = min(len(body), reset_after if fault == "reset" and reset_after > 0 else len(body) // 2)
                respond(conn, status, response_headers, body[:cut])
                if fault == "reset":
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                return
            if fault == "stall" and not head_only:
                half = len(body) // 2
                respond(conn, status, response_headers, body[:half])
                time.sleep(max(stall_ms, 1) / 1000.0)
                send_paced(conn, body[half:], rate)
                continue
            respond(conn, status, response_headers, b"", head_only=True)
            if not head_only:
                send_paced(conn, body, rate)
    except (OSError, ValueError):
        return
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    global BASE
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=int, default=0)
    parser.add_argument("--jitter-ms", type=int, default=0)
    parser.add_argument("--bandwidth", type=int, default=0, help="bytes per second, 0 = unlimited")
    args = parser.parse_args()
    host, port = args.upstream.rsplit(":", 1)
    upstream = (host, int(port))
    BASE = {"latency_ms": args.latency_ms, "jitter_ms": args.jitter_ms, "bandwidth": args.bandwidth}
    reset_state(BASE)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    while True:
        conn, _ = listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(conn, upstream), daemon=True).start()


BASE = {}
if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
