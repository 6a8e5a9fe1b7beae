"""Cassette storage side by side: plain text (formats 1/2) vs gzip (format 3, shipped) vs xz.

The shipped set is laid out three ways in one run, every version's content hash the same in
each (checked):

* **plain** — every file as text, as kopa-sim wrote it before format 3 (the shipped set
  decoded back: its manifests say format 1, or 2 where they list segments);
* **gz** — ``simulator compact`` of the plain copy (what ships: files of 64 KiB or more
  gzip'd, level 9); its files are checked to be byte for byte the shipped ones;
* **xz** — ``simulator compact --codec xz`` of the plain copy (lzma preset 6).

For each layout and version (v0001: whole files; v0009: the newest, 819 segments):

* **read** — decoding every data file of the version (``objects.file_chunks``), MB/s of text;
* **cold open** — ``Store.open`` with an empty cache: verify + compile the SQLite index;
* **first open** — the index cached but no stamp (right after ``pip install``, whose wheel
  carries a prebuilt index, or after any file changed): every file decoded and hashed,
  the index hashed, then stamped;
* **warm open** — the stamp matches: no hashing (median of repeated opens);
* **replay** — ``Resolver.resolve`` of the first page of random collections of the version,
  each rendered (no answer memo; median µs per request over batches); requests answered 200
  only (a Seoul path needs paging in it), their bodies checked equal across layouts.

Layouts take turns per measurement, so drift on a shared machine hits them alike. Run it
(writes ``results/store_format.json`` and its section of ``RESULTS.md``)::

    python -m perf.store_format            # three layouts, v0001 and v0009 (~3 minutes on 2 cores)
    python -m perf.store_format --quick    # plain vs gz, v0004, a few requests (~1 minute)
"""

from __future__ import annotations

import gzip
import json
import lzma
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

from perf._common import base_parser, machine, now_utc, timed, write_results

__all__ = ["FULL", "QUICK", "Config", "expand", "main", "render_markdown", "run"]

NAME = "store_format"
SET = "kopa"
SHIPPED = Path(__file__).resolve().parents[1] / "cassettes"


@dataclass(frozen=True)
class Config:
    """What one run measures.

    Args:
        mode: ``full`` or ``quick``.
        layouts: which of plain, gz, xz.
        versions: the versions measured.
        reps: repetitions of the read and first-open measures (median).
        warm_reps: warm opens per layout and version (median).
        requests: replayed requests per batch; ``batches`` batches (median of batch means).
        seed: picks the replayed collections.
    """

    mode: str
    layouts: tuple[str, ...]
    versions: tuple[str, ...]
    reps: int = 3
    warm_reps: int = 21
    requests: int = 500
    batches: int = 5
    seed: int = 20261204


FULL = Config(mode="full", layouts=("plain", "gz", "xz"), versions=("v0001", "v0009"))
QUICK = Config(mode="quick", layouts=("plain", "gz"), versions=("v0004",), reps=1, warm_reps=5, requests=50,
               batches=3)


# ---- the layouts -------------------------------------------------------------------------
def expand(set_dir: Path) -> None:
    """Decode every compressed file of ``set_dir`` back to its plain name and mark each
    manifest format 1 (2 where it lists segments): the set as an older kopa-sim stored it."""
    for p in sorted(set_dir.rglob("*")):
        if p.is_file() and p.suffix in (".gz", ".xz"):
            opener = gzip.open if p.suffix == ".gz" else lzma.open
            with opener(p, "rb") as src, open(p.with_suffix(""), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            p.unlink()
    for mpath in sorted(set_dir.glob("*/manifest.json")):
        raw = json.loads(mpath.read_text(encoding="utf-8"))
        raw["format"] = 2 if raw.get("segments") else 1
        mpath.write_text(json.dumps(raw, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and p.name != ".lock")


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock" and p.suffix == ".gz"}


def build_layouts(cfg: Config, work: Path, log: Any) -> dict[str, Any]:
    """The layouts under ``work/<layout>/kopa``; sizes, compaction times, checks."""
    from simulator.store import Store
    from simulator.store.compact import compact

    out: dict[str, Any] = {"layouts": {}}
    plain = work / "plain"
    shutil.copytree(SHIPPED / SET, plain / SET, ignore=shutil.ignore_patterns(".lock"))
    expand(plain / SET)
    hashes = {m.version: m.content_hash for m in Store(SHIPPED).versions(SET)}
    out["layouts"]["plain"] = {"bytes": _size(plain / SET), "compact_s": 0.0}
    for layout in ("gz", "xz"):
        if layout not in cfg.layouts:
            continue
        shutil.copytree(plain, work / layout)
        log(f"compacting a plain copy with {layout}…")
        t0 = time.perf_counter()
        done = compact(Store(work / layout, cache_dir=work / "cache-compact"), SET, codec="." + layout)
        out["layouts"][layout] = {"bytes": _size(work / layout / SET), "compact_s": time.perf_counter() - t0,
                                  "files_compressed": done.compressed}
    for layout in cfg.layouts:
        got = {m.version: m.content_hash for m in Store(work / layout).versions(SET)}
        if got != hashes:
            raise SystemExit(f"{layout}: content hashes differ from the shipped set's: {got} != {hashes}")
    out["content_hashes_equal"] = True
    if "gz" in cfg.layouts:
        out["gz_equals_shipped"] = _files(work / "gz" / SET) == _files(SHIPPED / SET)
        if not out["gz_equals_shipped"]:
            raise SystemExit("compacting the plain set with gz did not give the shipped files byte for byte")
    return out


# ---- the measures ------------------------------------------------------------------------
def _amplification(root: Path, version: str) -> dict[str, int]:
    """Text bytes a version's files need vs bytes decompress-and-skip decodes to get them."""
    from simulator.store import Store

    m = Store(root).manifest(SET, version)
    need = decoded = 0
    for segs in m.segments.values():
        far: dict[str, int] = {}
        for sha, off, length, _hint in segs:
            need += length
            far[sha] = max(far.get(sha, 0), off + length)
        decoded += sum(far.values())
    return {"segment_bytes": need, "decoded_bytes": decoded}


def _read_all(root: Path, version: str) -> int:
    from simulator.store import Store
    from simulator.store.objects import file_chunks

    store = Store(root)
    m = store.manifest(SET, version)
    vdir = store.version_dir(SET, version)
    return sum(len(c) for rel in sorted(m.files) for c in file_chunks(vdir, m, rel))


def _open(root: Path, cache: Path, version: str) -> Any:
    from simulator import Store

    return Store(root, cache_dir=cache).open(SET, version)


def _unstamp(cache: Path) -> None:
    """Forget the stamp of every index in ``cache`` (as a fresh cache over a prebuilt index)."""
    for side in (cache / "index").glob("*.sha256"):
        record = json.loads(side.read_text(encoding="ascii"))
        record.pop("seen", None)
        side.write_text(json.dumps(record, sort_keys=True) + "\n", encoding="ascii")


def _requests(cfg: Config, root: Path, version: str) -> list[Any]:
    from simulator import Store, load_catalog
    from simulator.catalog.requests import build_request

    catalog = load_catalog()
    v = Store(root, cache_dir=root.parent / "cache-req").open(SET, version)
    cols = [c for c in v.collections() if c.endpoint in catalog.endpoints]
    rng = random.Random(cfg.seed)
    return [build_request(catalog.endpoint(c.endpoint), c.filters, key="PERFKEY0123456789")
            for c in rng.sample(cols, min(cfg.requests, len(cols)))]


def measure(cfg: Config, work: Path, log: Any) -> list[dict[str, Any]]:
    from simulator import Resolver, Store

    rows: list[dict[str, Any]] = []
    for version in cfg.versions:
        res = {layout: {"layout": layout, "version": version} for layout in cfg.layouts}
        roots = {layout: work / layout for layout in cfg.layouts}
        caches = {layout: work / f"cache-{layout}-{version}" for layout in cfg.layouts}
        log(f"{version}: reading every file…")
        for layout in cfg.layouts:
            n, times = timed(partial(_read_all, roots[layout], version), cfg.reps)
            res[layout].update(text_bytes=n, read_s=statistics.median(times))
            res[layout].update(_amplification(roots[layout], version))
        log(f"{version}: cold opens (compile)…")
        for layout in cfg.layouts:
            _v, times = timed(partial(_open, roots[layout], caches[layout], version), 1)
            res[layout]["cold_open_s"] = times[0]
        log(f"{version}: first opens (no stamp)…")
        first: dict[str, list[float]] = {layout: [] for layout in cfg.layouts}
        for _ in range(cfg.reps):
            for layout in cfg.layouts:
                _unstamp(caches[layout])
                _v, times = timed(partial(_open, roots[layout], caches[layout], version), 1)
                first[layout] += times
        warm: dict[str, list[float]] = {layout: [] for layout in cfg.layouts}
        for _ in range(cfg.warm_reps):
            for layout in cfg.layouts:
                _v, times = timed(partial(_open, roots[layout], caches[layout], version), 1)
                warm[layout] += times
        log(f"{version}: replay…")
        reqs = _requests(cfg, roots[cfg.layouts[0]], version)
        # Every answer rendered each time (no answer memo), as a first request for it is.
        resolvers = {layout: Resolver(Store(roots[layout], cache_dir=caches[layout]).open(SET, version),
                                      answer_memo_bytes=0) for layout in cfg.layouts}
        # A collection's plain request (its filters, no paging) is answered 200 by most
        # endpoints; the few whose path needs more (Seoul's start/end index) are left out.
        reqs = [q for q in reqs if resolvers[cfg.layouts[0]].resolve(q).status == 200]
        answers = {layout: [resolvers[layout].resolve(r) for r in reqs] for layout in cfg.layouts}
        bodies = {layout: [(a.status, a.body) for a in answers[layout]] for layout in cfg.layouts}
        if any(bodies[layout] != bodies[cfg.layouts[0]] for layout in cfg.layouts):
            raise SystemExit(f"{version}: the layouts answered differently")
        batch: dict[str, list[float]] = {layout: [] for layout in cfg.layouts}
        for _ in range(cfg.batches):
            for layout in cfg.layouts:
                r = resolvers[layout]
                t0 = time.perf_counter()
                for q in reqs:
                    r.resolve(q)
                batch[layout].append((time.perf_counter() - t0) / len(reqs))
        for layout in cfg.layouts:
            res[layout].update(
                first_open_s=statistics.median(first[layout]),
                warm_open_s=statistics.median(warm[layout]),
                replay_us=statistics.median(batch[layout]) * 1e6,
                requests=len(reqs),
            )
            rows.append(res[layout])
    return rows


def run(cfg: Config, work: Path, log: Any = print) -> dict[str, Any]:
    import simulator

    t0 = time.perf_counter()
    built = build_layouts(cfg, work, log)
    rows = measure(cfg, work, log)
    plain = {r["version"]: r for r in rows if r["layout"] == "plain"}
    for r in rows:
        base = plain[r["version"]]
        r["ratios"] = {k: r[k] / base[k] for k in ("read_s", "cold_open_s", "first_open_s", "warm_open_s", "replay_us")}
    return {
        "name": NAME,
        "mode": cfg.mode,
        "generated_at": now_utc(),
        "command": "python -m perf.store_format" + (" --quick" if cfg.mode == "quick" else ""),
        "machine": machine(kopa_sim=getattr(simulator, "__version__", "?")),
        "config": asdict(cfg),
        **built,
        "rows": rows,
        "total_s": time.perf_counter() - t0,
    }


# ---- reporting ---------------------------------------------------------------------------
def render_markdown(doc: dict[str, Any]) -> str:
    """The store_format section of ``RESULTS.md`` (between its markers)."""
    m = doc["machine"]
    lay = doc["layouts"]
    mib = 2**20
    lines = [
        "## Cassette storage: plain text vs gzip (format 3, shipped) vs xz",
        "",
        (f"Generated {doc['generated_at']} ({doc['mode']} run, {doc['total_s']:.0f} s) by `{doc['command']}`. "
        f"Machine: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable); {m['implementation']} "
        f"{m['python']}, SQLite {m['sqlite']}."),
        "",
        ("The shipped set laid out three ways; every version's content hash is the same in each "
        f"(checked{', and gz is byte for byte the shipped files' if doc.get('gz_equals_shipped') else ''})."),
        "",
        "| layout | set on disk | ÷ plain | `simulator compact` from plain |",
        "|---|---:|---:|---:|",
    ]
    for name, x in lay.items():
        took = "-" if name == "plain" else f"{x['compact_s']:.1f} s"
        lines.append(f"| {name} | {x['bytes'] / mib:.1f} MiB | {x['bytes'] / lay['plain']['bytes']:.2f} | {took} |")
    lines += [
        "",
        ("| version | layout | text MB | read MB/s | decoded ÷ needed | cold open s | first open s (no stamp) "
        "| warm open ms | replay µs/request |"),
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in doc["rows"]:
        amp = r["decoded_bytes"] / r["segment_bytes"] if r["segment_bytes"] else 1.0
        rt = r["ratios"]
        lines.append(
            f"| {r['version']} | {r['layout']} | {r['text_bytes'] / 1e6:.1f} | {r['text_bytes'] / r['read_s'] / 1e6:,.0f} "
            f"({rt['read_s']:.2f}×) | {amp:.2f} | {r['cold_open_s']:.2f} ({rt['cold_open_s']:.2f}×) "
            f"| {r['first_open_s']:.3f} ({rt['first_open_s']:.2f}×) | {r['warm_open_s'] * 1e3:.1f} ({rt['warm_open_s']:.2f}×) "
            f"| {r['replay_us']:,.0f} ({rt['replay_us']:.2f}×) |"
        )
    lines += [
        "",
        ("Ratios in parentheses are the layout's time over plain text's (same version, same run). "
        "*decoded ÷ needed*: the text decompress-and-skip decodes to read a version's segments, over "
        "the text they hold (a plain file is read by seeking, so only gz and xz pay it). A replayed "
        "request reads the compiled SQLite index only, never the stored files, so storage cannot "
        "change it; a cold open is dominated by parsing and indexing the text, so decoding adds "
        "little. The first open without a stamp (the first after an install, or after a file changed) "
        "decodes and hashes the whole version: that is where the codec shows. Full results: "
        "`perf/results/store_format.json`."),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m perf.store_format [--quick] [--out DIR] [--markdown FILE] [--work DIR]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="plain vs gz on v0004 (about a minute)",
                    out_help="folder for store_format.json", markdown_help="RESULTS.md to update")
    p.add_argument("--work", type=Path, default=None, help="lay the sets out here (default: a temp dir)")
    args = p.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    with tempfile.TemporaryDirectory(prefix="kopa-perf-store-") as tmp:
        work = (args.work or Path(tmp)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        doc = run(cfg, work, log=lambda s: print(s, file=sys.stderr, flush=True))
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
