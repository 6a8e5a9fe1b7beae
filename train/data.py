"""Training data: EDGE synthesis output only, bench tasks refused, provenance recorded.

The default training data of ``simulator train grpo`` and ``simulator train verl-config`` is
the output directory of ``simulator edge synthesize`` (:data:`DEFAULT_DATA`, its
``trl.jsonl``). KOPA-Bench tasks are the test set: a row whose id or question is a bench
task's is refused unless the run says it is an ablation (``ablation_train_on_bench``). Each
run records which file (sha256), which split and which cassette version (content hash) it
trained on (:func:`run_metadata`).

>>> from pathlib import Path
>>> resolve_data_path(Path("synth-out/trl.jsonl"))  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence
from .errors import TrainError

__all__ = [
    "DEFAULT_DATA",
    "MAKE_DATA",
    "META_FILE",
    "DataError",
    "bench_overlap",
    "load_training_rows",
    "resolve_data_path",
    "run_metadata",
    "write_run_metadata",
]

#: Where ``simulator edge synthesize`` writes by default (its ``--out``).
DEFAULT_DATA = Path("synth-out")
#: The command that makes training data (named in every data error).
MAKE_DATA = "simulator edge synthesize --n 1000 --out synth-out"
#: Run metadata written into a run's output directory.
META_FILE = "kopa_run.json"


class DataError(TrainError):
    """Training data that cannot be used as given (the message names the fix)."""


def resolve_data_path(data: str | Path | None, name: str = "trl.jsonl") -> Path:
    """The JSONL file to train on: ``data`` itself, ``data/<name>`` for a directory, or the
    default synthesis output. Raises :class:`DataError` saying how to make one when missing."""
    path = Path(data) if data else DEFAULT_DATA
    if path.is_dir():
        path = path / name
    if not path.is_file():
        where = "no --data given and " if not data else ""
        raise DataError(f"{where}training data {path} not found: make it with `{MAKE_DATA}` "
                        f"(or pass --data: such a directory, or its {name})")
    return path


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{n} is not JSON ({exc.msg}); regenerate it with `{MAKE_DATA}`") from exc
    return rows


def _question(row: Mapping[str, Any]) -> str:
    prompt = row.get("prompt")
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt or [] if isinstance(m, Mapping) and m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else str(row.get("question", ""))


def bench_overlap(rows: Iterable[Mapping[str, Any]], tasks: Sequence[Any]) -> list[str]:
    """Ids of rows that are KOPA-Bench tasks (same id, or the same question text)."""
    ids = {t.id for t in tasks}
    questions = {" ".join(t.question.split()) for t in tasks}
    out = []
    for r in rows:
        rid = str(r.get("task_id") or r.get("id") or "")
        if rid in ids or " ".join(_question(r).split()) in questions:
            out.append(rid or _question(r)[:40])
    return out


def load_training_rows(path: Path, *, split: str | None = "train", tasks: Sequence[Any] = (),
                       ablation_train_on_bench: bool = False,
                       content_hash: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``path`` in ``split`` (None: every split), checked.

    Raises:
        DataError: no rows in the split; rows that are bench tasks (without the ablation
            flag); rows synthesized on another cassette version than ``content_hash``.
    """
    rows = _read_jsonl(path)
    if split is not None:
        rows = [r for r in rows if str(r.get("split", "train")) == split]
    if not rows:
        raise DataError(f"{path} has no rows in split {split!r}: pass --split, or make data with `{MAKE_DATA}`")
    hits = bench_overlap(rows, tasks)
    if hits and not ablation_train_on_bench:
        raise DataError(f"{len(hits)} of {len(rows)} rows in {path} are KOPA-Bench tasks (e.g. {hits[0]!r}): "
                        f"the bench is the test set; train on `{MAKE_DATA}` output, or pass "
                        "--ablation-train-on-bench to train on it on purpose")
    if content_hash:
        other = sorted({str(r["cassettes"]) for r in rows if r.get("cassettes") and r["cassettes"] != content_hash})
        if other:
            raise DataError(f"{path} was synthesized on cassettes {other[0][:12]}…, the run uses "
                            f"{content_hash[:12]}…: pass the matching --version, or re-synthesize")
    return rows


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_metadata(*, data: Path | None, rows: Sequence[Mapping[str, Any]], split: str | None,
                 world: Any, source: str, ablation_train_on_bench: bool,
                 config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a run trained on: the data file (path, sha256, rows), split, cassette version."""
    return {
        "data": {"source": source, "path": str(data) if data else None,
                 "sha256": _sha256(data) if data else None, "rows": len(rows),
                 "split": split, "ablation_train_on_bench": ablation_train_on_bench},
        "cassettes": {"set": Path(world.version.path).parent.name, "version": world.version.id,
                      "content_hash": world.content_hash},
        "config": dict(config or {}),
    }


def write_run_metadata(out_dir: str | Path, meta: Mapping[str, Any]) -> Path:
    """Write ``meta`` as ``<out_dir>/kopa_run.json`` (sorted keys, no clock)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / META_FILE
    path.write_text(json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True, default=str) + "\n",
                    encoding="utf-8")
    return path
