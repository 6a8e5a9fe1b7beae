"""Soak: ``simulator serve`` at a steady request rate for minutes — memory flat, zero errors.

The server runs as a real subprocess on loopback (``python -m simulator serve`` over the
shipped cassettes, its own index cache). The request mix is every collection's first-page
example from ``/_sim/collections`` plus other pages and page sizes of the same collections,
``/_sim/health`` and a strict miss (a documented 404), each checked once before the soak.
One keep-alive client sends them round-robin at ``--rate`` requests per second (paced on a
fixed schedule, so a slow answer does not lower the offered load) for ``--duration`` seconds,
while the server's resident set (``VmRSS`` of every server process) is sampled every second.

Reported: requests, errors (a transport error or an answer other than the expected status),
latency p50/p99/max, achieved rate, RSS at start/end/peak, and the least-squares RSS slope
over the second half of the run in MiB per minute (≈ 0 when memory is flat; the first half
holds the warm-up: caches filling, the index pages mapped).

Run it (writes ``results/soak.json`` and the soak section of ``RESULTS.md``)::

    python -m perf.soak              # full run: 180 s at 50 req/s
    python -m perf.soak --quick      # 10 s smoke run
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from perf._common import base_parser, machine, now_utc, percentile, pid_memory_mb, print_targets, stop_server, write_results

__all__ = ["FULL", "QUICK", "Config", "main", "render_markdown", "rss_slope", "run"]

NAME = "soak"
ROOT = Path(__file__).resolve().parents[1]
#: Memory is called flat when the second half's RSS slope is under this (MiB per minute).
FLAT_MB_PER_MIN = 1.0


@dataclass(frozen=True)
class Config:
    """One soak's shape: ``duration_s`` seconds at ``rate`` requests per second, RSS sampled
    every ``sample_s`` seconds, over ``cassettes`` (default: the project's)."""

    mode: str
    duration_s: float = 180.0
    rate: float = 50.0
    sample_s: float = 1.0
    cassettes: str | None = None


FULL = Config(mode="full")
QUICK = Config(mode="quick", duration_s=10.0, rate=40.0, sample_s=0.5)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tree(root_pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def server_rss_mb(root_pid: int) -> float:
    """Resident set of the server process and its children, in MiB."""
    total = 0.0
    for pid in _tree(root_pid):
        try:
            total += pid_memory_mb(pid)["rss_mb"]
        except OSError:
            continue
    return total


def start_server(cassettes: Path, cache: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m simulator serve`` on a free loopback port; returns once it answers."""
    import httpx

    port = _free_port()
    env = {**os.environ, "KOPA_CACHE": str(cache),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "simulator", "serve", "--cassettes", str(cassettes), "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 180  # the first start compiles the index
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"simulator serve exited: {err[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/_sim/health", timeout=2).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"simulator serve did not answer on port {port} within 180 s")


def request_mix(client: Any) -> list[tuple[str, int]]:
    """(path, expected status) pairs: every collection's example, its second page at a small
    page size when it has one, the health route and a strict miss."""
    mix: list[tuple[str, int]] = [("/_sim/health", 200)]
    for c in client.get("/_sim/collections").json()["collections"]:
        if not c.get("example"):
            continue
        mix.append((c["example"], 200))
        if c["records"] > 10:
            parts = urlsplit(c["example"])
            q = parse_qsl(parts.query, keep_blank_values=True)
            names = {k.lower(): k for k, _ in q}
            size = next((names[n] for n in ("numofrows", "psize", "page_count", "display") if n in names), None)
            page = next((names[n] for n in ("pageno", "pindex", "page_no", "page") if n in names), None)
            if size and page:
                q = [(k, "5" if k == size else "2" if k == page else v) for k, v in q]
                mix.append((parts.path + "?" + urlencode(q), 200))
    mix.append(("/opendart.fss.or.kr/api/company.json?crtfc_key=x&corp_code=99999999", 404))
    # Keep only what answers as expected before the soak (a path whose window the dialect
    # reads differently is dropped, not counted as a soak error).
    return [(p, s) for p, s in mix if client.get(p).status_code == s]


def rss_slope(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MiB) samples, in MiB per minute (0 for < 2 samples)."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mt = sum(t for t, _ in samples) / n
    mr = sum(r for _, r in samples) / n
    var = sum((t - mt) ** 2 for t, _ in samples)
    if var == 0:
        return 0.0
    return 60.0 * sum((t - mt) * (r - mr) for t, r in samples) / var


def run(cfg: Config, work: Path, log: Any = print) -> dict[str, Any]:
    """Start the server, soak it, stop it; the results document."""
    import httpx

    cassettes = Path(cfg.cassettes) if cfg.cassettes else ROOT / "cassettes"
    proc, port = start_server(cassettes, work / "cache")
    samples: list[tuple[float, float]] = []
    stop = threading.Event()
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10) as client:
            mix = request_mix(client)
            log(f"soak: {len(mix)} distinct requests, {cfg.rate:g} req/s for {cfg.duration_s:g} s")
            t0 = time.monotonic()

            def sampler() -> None:
                while not stop.is_set():
                    samples.append((time.monotonic() - t0, server_rss_mb(proc.pid)))
                    stop.wait(cfg.sample_s)

            th = threading.Thread(target=sampler, daemon=True)
            th.start()
            lat: list[float] = []
            errors: dict[str, int] = {}
            gap = 1.0 / cfg.rate
            n = 0
            while True:
                due = t0 + n * gap
                now = time.monotonic()
                if due - t0 >= cfg.duration_s:
                    break
                if due > now:
                    time.sleep(due - now)
                path, want = mix[n % len(mix)]
                n += 1
                a = time.perf_counter()
                try:
                    r = client.get(path)
                    lat.append(time.perf_counter() - a)
                    if r.status_code != want:
                        errors[f"status {r.status_code}"] = errors.get(f"status {r.status_code}", 0) + 1
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
            elapsed = time.monotonic() - t0
            stop.set()
            th.join(5)
            alive = proc.poll() is None and client.get("/_sim/health").status_code == 200
    finally:
        stop.set()
        stop_server(proc)
    lat.sort()
    half = [(t, r) for t, r in samples if t >= cfg.duration_s / 2]
    rss = [r for _, r in samples]
    slope = rss_slope(half)
    result = {
        "requests": n,
        "distinct_requests": len(mix),
        "errors": sum(errors.values()),
        "error_kinds": errors,
        "elapsed_s": round(elapsed, 2),
        "achieved_rps": round(n / elapsed, 2),
        "p50_ms": round(percentile(lat, 0.50) * 1e3, 3),
        "p99_ms": round(percentile(lat, 0.99) * 1e3, 3),
        "max_ms": round(lat[-1] * 1e3, 3),
        "rss_start_mb": round(rss[0], 1),
        "rss_end_mb": round(rss[-1], 1),
        "rss_peak_mb": round(max(rss), 1),
        "rss_growth_mb": round(rss[-1] - rss[0], 1),
        "rss_slope_second_half_mb_per_min": round(slope, 3),
        "memory_flat": abs(slope) < FLAT_MB_PER_MIN,
        "server_up_after": alive,
        "rss_samples": [[round(t, 2), round(r, 2)] for t, r in samples],
    }
    import httpx as _h

    return {
        "name": NAME,
        "generated_at": now_utc(),
        "config": asdict(cfg),
        "machine": machine(httpx=_h.__version__),
        "result": result,
        "targets": [
            {"target": "zero errors", "measured": f"{result['errors']} of {n}", "met": result["errors"] == 0},
            {"target": f"memory flat (second-half RSS slope < {FLAT_MB_PER_MIN:g} MiB/min)",
             "measured": f"{slope:+.3f} MiB/min", "met": result["memory_flat"]},
            {"target": "server up after the soak", "measured": str(alive), "met": alive},
        ],
    }


def render_markdown(doc: dict[str, Any]) -> str:
    """The soak section of ``RESULTS.md`` (between its markers)."""
    r, c, m = doc["result"], doc["config"], doc["machine"]
    lines = [
        "## Soak: `simulator serve` at a steady rate",
        "",
        f"Measured {doc['generated_at']} on {m['cpu']} ({m['usable_cores']} usable cores), Python "
        f"{m['python']}; `python -m perf.soak{' --quick' if c['mode'] == 'quick' else ''}`.",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| duration | {r['elapsed_s']:.0f} s |",
        f"| offered / achieved rate | {c['rate']:g} / {r['achieved_rps']:.1f} req/s |",
        f"| requests (distinct) | {r['requests']:,} ({r['distinct_requests']}) |",
        f"| errors | {r['errors']} |",
        f"| latency p50 / p99 / max | {r['p50_ms']:.2f} / {r['p99_ms']:.2f} / {r['max_ms']:.2f} ms |",
        f"| server RSS start / end / peak | {r['rss_start_mb']:.1f} / {r['rss_end_mb']:.1f} / {r['rss_peak_mb']:.1f} MiB |",
        f"| RSS slope, second half | {r['rss_slope_second_half_mb_per_min']:+.3f} MiB/min |",
        "",
        "| target | measured | met |",
        "|---|---|:---:|",
    ]
    for t in doc["targets"]:
        lines.append(f"| {t['target']} | {t['measured']} | {'yes' if t['met'] else '**no**'} |")
    lines += [
        "",
        ("Method: one keep-alive client on a fixed schedule over every shipped collection's example "
         "page, other pages, `/_sim/health` and a strict miss (expected 404); an error is a transport "
         "error or an unexpected status. RSS is `VmRSS` of the server's processes, sampled every "
         f"{c['sample_s']:g} s; the slope is a least-squares fit over the second half. Full results: "
         "`perf/results/soak.json`."),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m perf.soak [--quick] [--duration S] [--rate R] [--out DIR] [--markdown FILE]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="10 s smoke run",
                    out_help="folder for soak.json", markdown_help="RESULTS.md to update")
    p.add_argument("--duration", type=float, default=None, help="seconds to soak")
    p.add_argument("--rate", type=float, default=None, help="requests per second")
    p.add_argument("--cassettes", default=None, help="cassette folder (default: the project's)")
    args = p.parse_args(argv)
    from dataclasses import replace

    cfg = QUICK if args.quick else FULL
    cfg = replace(cfg, duration_s=args.duration or cfg.duration_s, rate=args.rate or cfg.rate,
                  cassettes=args.cassettes)
    with tempfile.TemporaryDirectory(prefix="kopa-perf-soak-") as tmp:
        doc = run(cfg, Path(tmp), log=lambda s: print(s, file=sys.stderr, flush=True))
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}")
    print_targets(doc)
    return 0 if all(t["met"] for t in doc["targets"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
