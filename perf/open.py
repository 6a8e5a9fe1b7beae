"""Opening a version: cold (compile the SQLite index) and warm (cached index), by size; RSS.

Versions of about 10 MB, 100 MB and 1 GB of records (the collections' JSON Lines text on
disk) are generated with ``VersionBuilder``: apartment-trade collections of the real catalog
endpoint ``molit_apt_trades`` (21 string fields, one collection per district and month, as
the recorder stores them). For each size:

* **build** — generate + ``VersionBuilder.publish`` (a child process; its peak RSS reported);
* **cold open** — ``Store.open`` with no cached index: verifies the files' sha256 and compiles
  the SQLite index (a child process; its peak RSS reported);
* **warm open** — ``Store(root, cache).open(...)`` with the index cached: the median of
  repeated opens in this process (each a fresh ``Store``), and the first warm open in a fresh
  process.

Then a fresh process opens the largest version (warm) and answers 1,000 uniformly random page
windows (random collection, page and ``numOfRows`` 10-100) through ``Resolver.resolve``; its
RSS (``VmRSS`` / ``VmHWM`` from ``/proc/self/status``, or psutil) is read before opening, after
opening, and after the requests.

Run it (writes ``results/open.json`` and the open section of ``RESULTS.md``)::

    python -m perf.open            # full run: 10 MB, 100 MB, 1 GB (or 300 MB, see below)
    python -m perf.open --quick    # 1 MB and 3 MB, seconds (CI smoke)

The 1 GB version is built only when the disk has room (text + index ≈ 3× its size) and the
100 MB build + compile rate projects it to finish within ``--budget-s``; otherwise the
largest size is 300 MB and the results say why.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perf._common import (
    _meminfo_mb,
    base_parser,
    machine,
    now_utc,
    print_targets,
    proc_memory_mb,
    targets_table,
    update_section,
    write_results,
)

__all__ = [
    "FULL",
    "QUICK",
    "Config",
    "main",
    "machine",
    "proc_memory_mb",
    "render_markdown",
    "run",
    "update_section",
]

NAME = "open"
ENDPOINT = "molit_apt_trades"
BASE_URL = "https://apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade"
BENCH_KEY = "BENCHKEY0123456789"
RECORDS_PER_COLLECTION = 1000
WARM_LIMIT_S = 0.100
RSS_LIMIT_MB = 300.0


@dataclass(frozen=True)
class Config:
    """Sizes and repetitions of one run.

    Args:
        mode: ``full`` or ``quick``.
        sizes_mb: target sizes (MB of collection text) in increasing order; the last is the
            largest and may be replaced by ``fallback_mb`` (see the module docstring).
        fallback_mb: the largest size used instead when the largest cannot be built here.
        warm_reps: in-process warm opens per size (the median is reported).
        rss_requests: random page windows the RSS process answers.
        budget_s: the most the largest version's build + compile may be projected to take.
        seed: seeds the generated records and the requests.
    """

    mode: str
    sizes_mb: tuple[float, ...]
    fallback_mb: float | None
    warm_reps: int = 21
    rss_requests: int = 1000
    budget_s: float = 900.0
    seed: int = 20260101


FULL = Config(mode="full", sizes_mb=(10, 100, 1000), fallback_mb=300)
QUICK = Config(mode="quick", sizes_mb=(1, 3), fallback_mb=None, warm_reps=7, rss_requests=200)




# ---- generated versions ----------------------------------------------------------------
_APTS = ["래미안", "자이", "힐스테이트", "e편한세상", "푸르지오", "아이파크", "롯데캐슬", "더샵"]
_DONGS = ["역삼동", "대치동", "개포동", "도곡동", "삼성동", "청담동", "논현동", "신사동"]


def trade(rng: random.Random, lawd: str, ymd: str, i: int) -> dict[str, str]:
    """One ``molit_apt_trades`` record (the API's 21 alphabetical string fields)."""
    apt = rng.randrange(400)
    return {
        "aptDong": " ",
        "aptNm": f"{_APTS[apt % len(_APTS)]}{apt}단지",
        "aptSeq": f"{lawd}-{apt}",
        "buildYear": str(1980 + apt % 45),
        "buyerGbn": "개인" if rng.random() < 0.9 else "법인",
        "cdealDay": " ",
        "cdealType": " ",
        "dealAmount": f"{rng.randrange(20_000, 400_000):,}",
        "dealDay": str(1 + i % 28),
        "dealMonth": str(int(ymd[4:])),
        "dealYear": ymd[:4],
        "dealingGbn": "중개거래" if rng.random() < 0.8 else "직거래",
        "estateAgentSggNm": "서울 강남구",
        "excluUseAr": f"{rng.uniform(30, 200):.2f}",
        "floor": str(rng.randrange(1, 50)),
        "jibun": str(rng.randrange(1, 1500)),
        "landLeaseholdGbn": "N",
        "rgstDate": f"{ymd[2:4]}.{ymd[4:]}.{1 + i % 28:02d}",
        "sggCd": lawd,
        "slerGbn": "개인",
        "umdNm": _DONGS[apt % len(_DONGS)],
    }


def collection_keys(n: int) -> list[tuple[str, str]]:
    """``n`` distinct (LAWD_CD, DEAL_YMD) filter pairs: 250 districts × months from 2006."""
    out = []
    for j in range(n):
        lawd = f"{11000 + (j % 250) * 10:05d}"
        month = j // 250
        out.append((lawd, f"{2006 + month // 12}{1 + month % 12:02d}"))
    return out


def build_version(root: Path, set_name: str, mb: float, seed: int) -> dict[str, Any]:
    """Generate and publish set ``set_name`` with about ``mb`` MB of collection text."""
    from simulator import Store, VersionBuilder, load_catalog

    rng = random.Random(seed)
    probe = [trade(rng, "11680", "202503", i) for i in range(200)]
    # A record line on disk is its values as a JSON array (the collection names fields once).
    per_record = statistics.mean(
        len(json.dumps(list(r.values()), ensure_ascii=False, separators=(",", ":")).encode()) + 1
        for r in probe
    )
    n_records = max(RECORDS_PER_COLLECTION, int(mb * 1e6 / per_record))
    n_colls = max(1, round(n_records / RECORDS_PER_COLLECTION))
    t0 = time.perf_counter()
    b = VersionBuilder(Store(root, cache_dir=root / ".no-cache"), set_name, load_catalog(), parent=None)
    for lawd, ymd in collection_keys(n_colls):
        records = [trade(rng, lawd, ymd, i) for i in range(RECORDS_PER_COLLECTION)]
        b.add_collection(
            endpoint=ENDPOINT,
            key=f"{ENDPOINT}?DEAL_YMD={ymd}&LAWD_CD={lawd}",
            filters={"DEAL_YMD": ymd, "LAWD_CD": lawd},
            fmt="json",
            total=RECORDS_PER_COLLECTION,
            records=records,
        )
    generated = time.perf_counter() - t0
    m = b.publish(recorded_at="2026-01-01T00:00:00Z", source="test", version="v1")
    built = time.perf_counter() - t0
    vdir = root / set_name / m.version
    # The text, whether its files are stored compressed (format 3) or plain.
    from simulator.store.objects import decoded_size, stored_path

    text_bytes = sum(decoded_size(stored_path(vdir / rel) or vdir / rel) for rel in m.files)
    return {
        "target_mb": mb,
        "collections": n_colls,
        "records": n_colls * RECORDS_PER_COLLECTION,
        "text_mb": text_bytes / 1e6,
        "generate_s": generated,
        "build_s": built,
        "build_peak_rss_mb": proc_memory_mb()["hwm_mb"],
    }


def window_request(lawd: str, ymd: str, page: int, size: int) -> Any:
    from simulator import SimRequest

    return SimRequest.from_url(
        f"{BASE_URL}?serviceKey={BENCH_KEY}&LAWD_CD={lawd}&DEAL_YMD={ymd}"
        f"&pageNo={page}&numOfRows={size}&type=json"
    )


def cold_open(root: Path, cache: Path, set_name: str) -> dict[str, Any]:
    """Open with no cached index (verify + compile); time it and the process's peak RSS."""
    from simulator import Store

    before = proc_memory_mb()
    t0 = time.perf_counter()
    v = Store(root, cache_dir=cache).open(set_name, "v1")
    cold = time.perf_counter() - t0
    index = Store(root, cache_dir=cache).index_path(v.manifest)
    return {
        "open_cold_s": cold,
        "index_mb": index.stat().st_size / 1e6,
        "rss_before_mb": before["rss_mb"],
        "cold_peak_rss_mb": proc_memory_mb()["hwm_mb"],
    }


def first_warm_open(root: Path, cache: Path, set_name: str) -> dict[str, Any]:
    """The first warm open in a fresh process (imports done first, not timed)."""
    from simulator import Resolver, Store, load_catalog

    load_catalog()
    t0 = time.perf_counter()
    v = Store(root, cache_dir=cache).open(set_name, "v1")
    opened = time.perf_counter() - t0
    Resolver(v)
    return {"open_warm_first_s": opened, "with_resolver_s": time.perf_counter() - t0}


def serve_windows(root: Path, cache: Path, set_name: str, n: int, seed: int) -> dict[str, Any]:
    """Open the version warm and answer ``n`` random page windows; RSS before, between, after."""
    import simulator  # noqa: F401 - imports counted in the baseline, not in the version's cost
    from simulator import Resolver, Store, load_catalog

    load_catalog()
    base = proc_memory_mb()
    t0 = time.perf_counter()
    version = Store(root, cache_dir=cache).open(set_name, "v1")
    resolver = Resolver(version)
    opened = time.perf_counter() - t0
    after_open = proc_memory_mb()
    infos = version.collections(ENDPOINT)
    rng = random.Random(seed)
    per_req: list[float] = []
    bytes_out = 0
    for _ in range(n):
        info = rng.choice(infos)
        size = rng.randrange(10, 101)
        page = rng.randrange(1, -(-info.count // size) + 1)
        req = window_request(info.filters["LAWD_CD"], info.filters["DEAL_YMD"], page, size)
        t1 = time.perf_counter()
        resp = resolver.resolve(req)
        per_req.append(time.perf_counter() - t1)
        if resp.status != 200 or resp.header("x-sim-source") != "window":
            raise RuntimeError(
                f"window {req.url} answered {resp.status} {resp.header('x-sim-source')}: "
                f"{resp.body[:300]!r}"
            )
        bytes_out += len(resp.body)
    after = proc_memory_mb()
    per_req.sort()
    return {
        "collections": len(infos),
        "requests": n,
        "open_s": opened,
        "baseline_rss_mb": base["rss_mb"],
        "after_open_rss_mb": after_open["rss_mb"],
        "after_requests_rss_mb": after["rss_mb"],
        "peak_rss_mb": after["hwm_mb"],
        "request_p50_us": per_req[len(per_req) // 2] * 1e6,
        "request_p99_us": per_req[int(len(per_req) * 0.99)] * 1e6,
        "mean_body_kb": bytes_out / n / 1024,
    }


_CHILD_TASKS: dict[str, Callable[..., dict[str, Any]]] = {
    "build": build_version,
    "cold": cold_open,
    "warm_first": first_warm_open,
    "serve": serve_windows,
}


def in_child(task: str, *args: Any) -> dict[str, Any]:
    """Run ``task`` in a fresh Python process (its memory and imports its own); its result."""
    spec = json.dumps({"task": task, "args": [str(a) if isinstance(a, Path) else a for a in args]})
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [sys.executable, "-m", "perf.open", "--child", spec],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"child {task} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def _child_main(spec: str) -> int:
    d = json.loads(spec)
    fn = _CHILD_TASKS[d["task"]]
    args = [Path(a) if isinstance(a, str) and a.startswith("/") else a for a in d["args"]]
    print(json.dumps(fn(*args)))
    return 0


# ---- the run -----------------------------------------------------------------------------
def warm_opens(root: Path, cache: Path, set_names: list[str], reps: int) -> list[dict[str, float]]:
    """Warm opens of every set in this process (a fresh ``Store`` each), in alternating rounds
    so that drift on the machine lands on every size alike; median / min / max per set."""
    from simulator import Store

    for name in set_names:  # untimed: imports, first page reads
        Store(root, cache_dir=cache).open(name, "v1").index.close()
    gc.collect()
    times: dict[str, list[float]] = {name: [] for name in set_names}
    for _ in range(reps):
        for name in set_names:
            t0 = time.perf_counter()
            v = Store(root, cache_dir=cache).open(name, "v1")
            times[name].append(time.perf_counter() - t0)
            v.index.close()
    return [
        {
            "open_warm_s": statistics.median(times[n]),
            "open_warm_min_s": min(times[n]),
            "open_warm_max_s": max(times[n]),
            "warm_reps": reps,
        }
        for n in set_names
    ]


def plan_largest(
    cfg: Config, work: Path, measured: list[dict[str, Any]]
) -> tuple[float | None, str | None]:
    """Whether the largest size can be built here; (size to use, why it changed)."""
    big = cfg.sizes_mb[-1]
    if cfg.fallback_mb is None or not measured:
        return big, None
    ref = measured[-1]
    rate = (ref["build_s"] + ref["open_cold_s"]) / ref["text_mb"]
    projected = rate * big
    free_mb = shutil.disk_usage(work).free / 1e6
    need_mb = big * 3.0  # text + index (≈ 1.5×) + the compile's temporary file
    if free_mb < need_mb:
        return cfg.fallback_mb, (
            f"{big:,.0f} MB not built: {free_mb:,.0f} MB free on the work disk, about "
            f"{need_mb:,.0f} MB needed (text + index); measured {cfg.fallback_mb:,.0f} MB instead"
        )
    peak_mb = ref["build_peak_rss_mb"] / ref["text_mb"] * big
    avail_mb = _meminfo_mb("MemAvailable")
    if avail_mb and peak_mb > 0.8 * avail_mb:
        return cfg.fallback_mb, (
            f"{big:,.0f} MB not built: building it would peak near {peak_mb / 1024:,.1f} GiB of "
            f"memory (`VersionBuilder` holds every record as a Python dict; "
            f"{ref['build_peak_rss_mb']:,.0f} MB peak at {ref['text_mb']:,.0f} MB), over 80 % of "
            f"the {avail_mb / 1024:,.1f} GiB available; measured {cfg.fallback_mb:,.0f} MB instead"
        )
    if projected > cfg.budget_s:
        return cfg.fallback_mb, (
            f"{big:,.0f} MB not built: at the {ref['target_mb']:,.0f} MB rate "
            f"({rate:.2f} s per MB for build + compile on {os.cpu_count()} cores) it would take "
            f"≈ {projected / 60:,.0f} min, over the {cfg.budget_s / 60:,.0f} min budget; "
            f"measured {cfg.fallback_mb:,.0f} MB instead"
        )
    return big, None


def run(
    cfg: Config, work: Path, log: Callable[[str], None] = print, *, reuse: bool = False
) -> dict[str, Any]:
    """Build every size under ``work``, open each cold and warm, measure RSS; the results.

    With ``reuse``, sizes already built in ``work`` by an earlier run (same target) keep that
    run's build and cold-open numbers (``built_at`` says when); warm opens and RSS are new.
    """
    started = time.perf_counter()
    root, cache = work / "cassettes", work / "cache"
    rows: list[dict[str, Any]] = []
    sizes = list(cfg.sizes_mb)
    substituted: str | None = None
    for k, mb in enumerate(sizes):
        if k == len(sizes) - 1 and len(sizes) > 1:
            use, why = plan_largest(cfg, work, rows)
            if why:
                log(f"[open] {why}")
                substituted = why
            mb = use if use is not None else mb
        set_name = f"s{k}"
        saved = work / f"{set_name}.row.json"
        if reuse and saved.exists() and json.loads(saved.read_text())["target_mb"] == mb:
            row = json.loads(saved.read_text())
            log(f"[open] reusing the {row['text_mb']:,.0f} MB build of {row['built_at']}")
            rows.append(row)
            continue
        log(f"[open] building ≈ {mb:,.0f} MB")
        row = in_child("build", root, set_name, mb, cfg.seed + k)
        log(f"[open]   {row['text_mb']:.1f} MB in {row['build_s']:.1f} s; cold open")
        (cache / "index").mkdir(parents=True, exist_ok=True)
        row.update(in_child("cold", root, cache, set_name))
        row.update(in_child("warm_first", root, cache, set_name))
        row["built_at"] = now_utc()
        saved.write_text(json.dumps(row))
        log(f"[open]   cold {row['open_cold_s']:.2f} s")
        rows.append(row)
    log(f"[open] warm opens, {cfg.warm_reps} alternating rounds")
    for row, warm in zip(rows, warm_opens(root, cache, [f"s{k}" for k in range(len(rows))], cfg.warm_reps)):
        row.update(warm)
        log(f"[open]   {row['text_mb']:,.0f} MB: warm {row['open_warm_s'] * 1e3:.2f} ms")
    log(f"[open] RSS: {cfg.rss_requests:,} random windows from the {rows[-1]['text_mb']:.0f} MB version")
    rss = in_child("serve", root, cache, f"s{len(rows) - 1}", cfg.rss_requests, cfg.seed)
    rss["text_mb"] = rows[-1]["text_mb"]
    doc: dict[str, Any] = {
        "benchmark": NAME,
        "schema": 1,
        "mode": cfg.mode,
        "generated_at": now_utc(),
        "command": "python -m perf.open" + ("" if cfg.mode == "full" else " --quick"),
        "machine": machine(),
        "config": asdict(cfg),
        "endpoint": ENDPOINT,
        "records_per_collection": RECORDS_PER_COLLECTION,
        "sizes": rows,
        "reused_builds": [r["built_at"] for r in rows] if reuse else [],
        "largest_substituted": substituted,
        "rss": rss,
    }
    doc["targets"] = targets(doc)
    doc["total_s"] = time.perf_counter() - started
    return doc


def targets(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue 9's targets against this run's numbers."""
    rows, rss = doc["sizes"], doc["rss"]
    big = rows[-1]
    warm_ms = big["open_warm_s"] * 1e3
    growth = big["open_warm_s"] / rows[0]["open_warm_s"]
    size_growth = big["text_mb"] / rows[0]["text_mb"]
    peak = rss["peak_rss_mb"]
    out = [
        {
            "target": f"warm open ≤ 100 ms (at {big['text_mb']:,.0f} MB)",
            "measured": f"{warm_ms:.2f} ms",
            "met": big["open_warm_s"] <= WARM_LIMIT_S,
        },
        {
            "target": (
                f"warm open O(1) in size: {size_growth:,.0f}× the records, ≤ 2× the time"
            ),
            "measured": f"{growth:.2f}×",
            "met": growth <= 2.0,
        },
        {
            "target": (
                f"RSS < {RSS_LIMIT_MB:.0f} MB serving {rss['requests']:,} windows from "
                f"{rss['text_mb']:,.0f} MB"
            ),
            "measured": f"peak {peak:.0f} MB (after open {rss['after_open_rss_mb']:.0f} MB)",
            "met": peak < RSS_LIMIT_MB,
        },
    ]
    if peak >= RSS_LIMIT_MB:
        out[-1]["why"] = (
            f"the process holds {rss['baseline_rss_mb']:.0f} MB before opening (interpreter, "
            f"simulator, catalog); opening adds {rss['after_open_rss_mb'] - rss['baseline_rss_mb']:.0f}"
            f" MB and the requests {rss['after_requests_rss_mb'] - rss['after_open_rss_mb']:.0f}"
            " MB (mapped index pages count as resident)"
        )
    if big["open_warm_s"] > WARM_LIMIT_S:
        out[0]["why"] = f"{warm_ms - 100:.1f} ms over"
    return out


# ---- reporting ---------------------------------------------------------------------------
def render_markdown(doc: dict[str, Any]) -> str:
    """The open section of ``RESULTS.md`` (between its markers)."""
    m, rss = doc["machine"], doc["rss"]
    lines = [
        "## Opening a version: cold (compile) and warm (cached index), and RSS",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run, {doc['total_s']:.0f} s) by:",
        "",
        "```sh",
        doc["command"],
        "```",
        "",
        (
            f"Machine: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable), "
            f"{m['memory_gb']} GB RAM; {m['implementation']} {m['python']}, SQLite {m['sqlite']}."
        ),
        "",
        (
            f"Versions generated with `VersionBuilder`: `{doc['endpoint']}` collections of "
            f"{doc['records_per_collection']:,} records (21 string fields; one per district and "
            "month). Size = the collections' JSON Lines text on disk."
        ),
        "",
        (
            "| records text | collections | records | build + publish s | build peak RSS MB "
            "| cold open s (verify + compile) | compile peak RSS MB | index MB "
            "| warm open ms (median) | first warm open in a fresh process ms |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in doc["sizes"]:
        lines.append(
            f"| {r['text_mb']:,.1f} MB | {r['collections']:,} | {r['records']:,} "
            f"| {r['build_s']:.1f} | {r['build_peak_rss_mb']:,.0f} | {r['open_cold_s']:.2f} "
            f"| {r['cold_peak_rss_mb']:,.0f} | {r['index_mb']:,.1f} "
            f"| {r['open_warm_s'] * 1e3:.2f} | {r['open_warm_first_s'] * 1e3:.2f} |"
        )
    if doc.get("reused_builds"):
        lines += [
            "",
            (
                "Build and cold-open columns come from the builds made at "
                f"{', '.join(sorted(set(doc['reused_builds'])))} (`--work DIR --reuse`); the warm "
                "opens and RSS were measured in this run."
            ),
        ]
    if doc.get("largest_substituted"):
        lines += ["", f"**Largest size changed:** {doc['largest_substituted']}."]
    lines += [
        "",
        (
            f"### RSS serving {rss['requests']:,} random page windows from the "
            f"{rss['text_mb']:,.0f} MB version ({rss['collections']:,} collections)"
        ),
        "",
        "| point | RSS MB |",
        "|---|---:|",
        f"| before opening (Python + `simulator` + catalog) | {rss['baseline_rss_mb']:.0f} |",
        f"| after `Store.open` + `Resolver` ({rss['open_s'] * 1e3:.1f} ms) | {rss['after_open_rss_mb']:.0f} |",
        f"| after the requests | {rss['after_requests_rss_mb']:.0f} |",
        f"| peak (VmHWM) | {rss['peak_rss_mb']:.0f} |",
        "",
        (
            f"Per window (`Resolver.resolve`, numOfRows 10-100, mean body {rss['mean_body_kb']:.1f} "
            f"KiB): p50 {rss['request_p50_us']:,.0f} µs, p99 {rss['request_p99_us']:,.0f} µs."
        ),
        "",
        *targets_table(doc["targets"]),
    ]
    lines += [
        "",
        (
            "Method: build, cold open and the first warm open each run in a fresh process; the "
            f"warm-open median is over {doc['config']['warm_reps']} opens per size in one process, "
            "sizes taking turns round by round, each with a fresh `Store` (manifest read + index "
            "connection + its meta check). "
            "The OS page cache is warm throughout (the files were just written). Wall-clock "
            "`time.perf_counter`, possibly shared machine. Full results: "
            "`perf/results/open.json`."
        ),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m perf.open [--quick] [--out DIR] [--markdown FILE] [--work DIR]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="1 MB and 3 MB (seconds; CI smoke)",
                    out_help="folder for open.json", markdown_help="RESULTS.md to update")
    p.add_argument("--work", type=Path, default=None, help="build here (default: a temp dir)")
    p.add_argument("--budget-s", type=float, default=None, help="largest build + compile budget")
    p.add_argument(
        "--reuse",
        action="store_true",
        help="with --work: keep the builds (and their build/cold numbers) an earlier run left there",
    )
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return _child_main(args.child)
    cfg = QUICK if args.quick else FULL
    if args.budget_s is not None:
        from dataclasses import replace

        cfg = replace(cfg, budget_s=args.budget_s)
    with tempfile.TemporaryDirectory(prefix="kopa-perf-open-") as tmp:
        work = (args.work or Path(tmp)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        doc = run(cfg, work, log=lambda s: print(s, file=sys.stderr, flush=True),
                  reuse=args.reuse and args.work is not None)
    if args.reuse and args.work is not None:
        doc["command"] += f" --work {args.work} --reuse"
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}")
    print_targets(doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
