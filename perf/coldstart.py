"""Time to the first answer: ``simulator serve`` started, one window answered over HTTP.

Measured from process start to the first 200 answer of the README's window request, with a
fresh cache (an empty ``KOPA_CACHE``, as right after ``pip install``) and a warm one (the
same cache again), from a temporary working directory with no ``./cassettes`` (so the set is
found the way an installation finds it). ``serve`` prints its banner only once its socket is
listening, so the request is sent as soon as the banner appears, never polled.

```sh
python -m perf.coldstart --quick                              # this checkout
python -m perf.coldstart --checkout --simulator /tmp/venv/bin/simulator  # both
```

An installed ``simulator`` runs without ``PYTHONPATH`` (it must import its own install).
A checkout has no prebuilt index, so its fresh start includes compiling one: that is the
time a wheel without the prebuilt index (before #18) took.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from ._common import base_parser, machine, now_utc, stop_server, write_results

__all__ = ["first_answer_s", "main"]

REQUEST = (
    "/apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"
    "?cityCode=25&pageNo=2&numOfRows=5&_type=json"
)
TARGET_S = 1.0
_BANNER = re.compile(rb"on http://([^/:]+):(\d+)/")


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def first_answer(simulator: str, env: dict[str, str], cwd: Path, timeout: float = 120.0) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the server) from starting ``simulator serve --port 0``
    to the first answered window. CPU time is what a shared, loaded machine inflates least."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [simulator, "serve", "--port", "0"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stderr is not None
        seen = b""
        while (m := _BANNER.search(seen)) is None:
            line = proc.stderr.readline()
            if not line:
                raise RuntimeError(f"serve exited before its banner: {seen.decode(errors='replace')}")
            seen += line
            if time.perf_counter() - t0 > timeout:
                raise RuntimeError("no banner within the timeout")
        url = f"http://{m.group(1).decode()}:{int(m.group(2))}{REQUEST}"
        with urllib.request.urlopen(url, timeout=timeout) as r:
            if r.status != 200 or r.headers.get("x-sim-source") != "window":
                raise RuntimeError(f"unexpected answer: {r.status} {r.headers.get('x-sim-source')}")
            r.read()
        return time.perf_counter() - t0, _cpu_s(proc.pid)
    finally:
        stop_server(proc)


def first_answer_s(simulator: str, env: dict[str, str], cwd: Path, timeout: float = 120.0) -> float:
    """Wall seconds of :func:`first_answer`."""
    return first_answer(simulator, env, cwd, timeout)[0]


def measure(simulator: str, reps: int, installed: bool) -> dict[str, Any]:
    """Fresh-cache and warm-cache times (each ``reps`` runs) for one ``simulator``."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kopa-coldstart-") as tmp:
        work = Path(tmp)
        env = dict(os.environ, HOME=str(work / "home"), XDG_DATA_HOME=str(work / "data"))
        env.pop("KOPA_CASSETTES", None)
        if installed:
            env.pop("PYTHONPATH", None)
        fresh: list[tuple[float, float]] = []
        for i in range(reps):
            cache = work / f"cache-fresh-{i}"
            fresh.append(first_answer(simulator, dict(env, KOPA_CACHE=str(cache)), work))
            shutil.rmtree(cache, ignore_errors=True)
        warm_env = dict(env, KOPA_CACHE=str(work / "cache-warm"))
        first_answer(simulator, warm_env, work)
        warm = [first_answer(simulator, warm_env, work) for _ in range(reps)]
    for name, runs in (("fresh_cache", fresh), ("warm_cache", warm)):
        out[name] = {
            "median_s": round(statistics.median(w for w, _c in runs), 3),
            "median_cpu_s": round(statistics.median(c for _w, c in runs), 3),
            "runs_s": [round(w, 3) for w, _c in runs],
            "runs_cpu_s": [round(c, 3) for _w, c in runs],
        }
    return out


def render(doc: dict[str, Any]) -> str:
    rows = [
        "## Time to the first answer (`perf/coldstart.py`)",
        "",
        f"`simulator serve` started → first window answered (target ≤ {TARGET_S:.0f} s), "
        f"{doc['reps']} run(s) each, measured {doc['measured_at']}.",
        "",
        "| simulator | fresh cache: wall (server CPU) | warm cache: wall (server CPU) |",
        "|---|---|---|",
    ]
    for label, r in doc["results"].items():
        f, w = r["fresh_cache"], r["warm_cache"]
        rows.append(
            f"| {label} | {f['median_s']:.2f} s ({f['median_cpu_s']:.2f} s) "
            f"| {w['median_s']:.2f} s ({w['median_cpu_s']:.2f} s) |"
        )
    rows += [
        "",
        f"Load average when measured: {doc['loadavg']} on {doc['machine'].get('cores', '?')} cores "
        "(wall time grows with the load; the server's CPU time much less).",
        "",
        f"Command: `{doc['command']}`",
        "",
    ]
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    p = base_parser("coldstart", __doc__.split("\n", 1)[0], quick_help="one run each (default 3)")
    p.add_argument("--simulator", action="append", default=None,
                   help="an installed `simulator` to measure (repeatable; default: this checkout's)")
    p.add_argument("--checkout", action="store_true",
                   help="also measure this checkout's `simulator` (measured anyway without --simulator)")
    args = p.parse_args(argv)
    reps = 1 if args.quick else 3
    targets = args.simulator or []
    results: dict[str, Any] = {}
    if args.checkout or not targets:
        results["checkout (no prebuilt index)"] = measure(shutil.which("simulator") or "simulator", reps, False)
    for sim in targets:
        results[f"installed wheel ({sim})"] = measure(sim, reps, True)
    doc = {
        "measured_at": now_utc(),
        "machine": machine(),
        "reps": reps,
        "loadavg": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "target_s": TARGET_S,
        "results": results,
        "command": "python -m perf.coldstart" + (" --quick" if args.quick else "")
        + (" --checkout" if args.checkout else "")
        + "".join(f" --simulator {s}" for s in targets),
    }
    out_json, md = write_results(doc, "coldstart", args.out, args.markdown, render)
    print(render(doc))
    print(f"wrote {out_json} and {md}")


if __name__ == "__main__":
    main()
