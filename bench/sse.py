"""SSE fan-out benchmark against the production server (gunicorn, one gevent worker).

Run: ``.venv/bin/python -m bench.sse [--clients 300] [--events 30] [--interval 0.5]``.

Starts ``yut-cam serve`` on a free loopback port with a temporary database (the same
launcher as the tests' ``live_server``), creates a match, opens N SSE streams
(``/stream/<id>``, asyncio sockets in this process), then posts events as the referee
(``stoppage`` / ``resume`` alternately, each a durable fsync'ed append) and records, for
every client and event, the time from just before the POST to the moment the client has
the ``state`` message carrying that event's seq.  Also measured: time to the first
``state`` on connect, an ordinary GET while all streams are open, and the server's RSS.
Bounded: at most ``--timeout`` seconds in all.  The clients run on the same (shared)
machine as the server, so the numbers are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.web_live import LiveServer, start_live_server, stop_live_server

SEQ = re.compile(rb'"seq":(\d+)')


@dataclass
class Client:
    opened: float = 0.0
    first_state: float | None = None
    seen: dict[int, float] = field(default_factory=dict)
    error: str | None = None


async def sse_client(host: str, port: int, match_id: int, client: Client, stop: asyncio.Event) -> None:
    client.opened = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        client.error = str(exc)
        return
    writer.write(f"GET /stream/{match_id} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    buffer = b""
    try:
        while not stop.is_set():
            try:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            if not chunk:
                client.error = client.error or "closed by server"
                break
            now = time.perf_counter()
            buffer += chunk
            while True:
                at = buffer.find(b"event: state\ndata: ")
                end = buffer.find(b"\n\n", at) if at >= 0 else -1
                if end < 0:
                    buffer = buffer[at:] if at >= 0 else buffer[-64:]
                    break
                match = SEQ.search(buffer, at, end)
                if match is not None:
                    seq = int(match.group(1))
                    if client.first_state is None:
                        client.first_state = now
                    client.seen.setdefault(seq, now)
                buffer = buffer[end + 2:]
    except (OSError, asyncio.IncompleteReadError) as exc:
        client.error = str(exc)
    finally:
        writer.close()


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children (the gunicorn master + its worker)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def worker_rss_kib(pid: int) -> int:
    try:
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return 0
    return sum(rss_kib(c) for c in children[:1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def run(server: LiveServer, clients: int, events: int, interval: float, timeout: float) -> dict[str, object]:
    host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
    match_id = server.create_match()
    ref = server.referee()
    loop = asyncio.get_running_loop()
    deadline = time.perf_counter() + timeout
    rss_idle = worker_rss_kib(server.process.pid)
    stop = asyncio.Event()
    states = [Client() for _ in range(clients)]
    tasks = []
    for c in states:
        tasks.append(asyncio.create_task(sse_client(host, port, match_id, c, stop)))
        await asyncio.sleep(0)  # open them in a burst, as a page reload wave would
    while time.perf_counter() < deadline and sum(c.first_state is not None for c in states) < clients:
        if all(c.error for c in states if c.first_state is None) and any(c.error for c in states):
            break
        await asyncio.sleep(0.05)
    connected = sum(c.first_state is not None for c in states)
    t0 = time.perf_counter()
    await loop.run_in_executor(None, lambda: urllib.request.urlopen(f"{server.url}/api/matches/{match_id}",
                                                                    timeout=10).read())
    side_request = time.perf_counter() - t0
    posted: dict[int, float] = {}
    post_rtt: list[float] = []
    for k in range(events):
        if time.perf_counter() > deadline:
            break
        event = {"type": "stoppage", "reason": "bench"} if k % 2 == 0 else {"type": "resume"}
        sent = time.perf_counter()
        path = f"/api/matches/{match_id}/events"
        status, body = await loop.run_in_executor(None, ref.post, path, {"event": event})
        post_rtt.append(time.perf_counter() - sent)
        if status != 200:
            raise RuntimeError(f"POST refused: {status} {body}")
        posted[int(body["seq"])] = sent
        await asyncio.sleep(interval)
    last = max(posted) if posted else 0
    while time.perf_counter() < deadline and any(last not in c.seen for c in states if c.first_state):
        await asyncio.sleep(0.05)
    rss_busy = worker_rss_kib(server.process.pid)
    rss_total = rss_kib(server.process.pid)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [c.seen[s] - t for c in states for s, t in posted.items() if s in c.seen]
    missing = sum(1 for c in states if c.first_state for s in posted if s not in c.seen)
    first = [c.first_state - c.opened for c in states if c.first_state is not None]
    last_client = [max(c.seen[s] for c in states if s in c.seen) - t for s, t in posted.items()]
    return {
        "clients": clients, "connected": connected, "events": len(posted), "deliveries": len(latencies),
        "missing": missing, "errors": sum(1 for c in states if c.error),
        "latency_median_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "latency_p99_ms": pct(latencies, 0.99) * 1000, "latency_max_ms": max(latencies, default=0) * 1000,
        "last_client_median_ms": statistics.median(last_client) * 1000 if last_client else float("nan"),
        "last_client_max_ms": max(last_client, default=0) * 1000,
        "first_state_median_ms": statistics.median(first) * 1000 if first else float("nan"),
        "first_state_p99_ms": pct(first, 0.99) * 1000,
        "post_rtt_median_ms": statistics.median(post_rtt) * 1000 if post_rtt else float("nan"),
        "get_during_streams_ms": side_request * 1000,
        "worker_rss_idle_mib": rss_idle / 1024, "worker_rss_mib": rss_busy / 1024, "server_rss_mib": rss_total / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between events")
    parser.add_argument("--timeout", type=float, default=120.0, help="bound on the whole run (s)")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 2000 or not 1 <= args.events <= 1000:
        parser.error("--clients must be 1..2000 and --events 1..1000")
    with tempfile.TemporaryDirectory(prefix="bench-sse-") as tmp:
        server = start_live_server(Path(tmp))
        try:
            result = asyncio.run(run(server, args.clients, args.events, args.interval, args.timeout))
        finally:
            stop_live_server(server)
    print(f"SSE fan-out: gunicorn + 1 gevent worker, loopback, {args.clients} clients, {args.events} events")
    width = max(len(k) for k in result)
    for key, value in result.items():
        shown = f"{value:10.1f}" if isinstance(value, float) else f"{value:>10}"
        print(f"  {key:<{width}}  {shown}")
    return 0 if result["connected"] == args.clients and result["missing"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
