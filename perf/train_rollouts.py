"""Rollout throughput against ``simulator serve --workers 2`` over HTTP, 64 rollouts at once.

What a GRPO trainer's environment sees when the simulator runs as a separate server (one per
node, many rollout workers): each rollout is a :class:`train.env.SimEpisode` whose world
resolves every tool call with an HTTP GET to ``simulator serve`` on loopback (the same
request the in-process resolver would answer, through :class:`HttpResolver`); the client
parses the records and cuts the observation as in training. The policy replays the gold
conversation of synthesized EDGE examples (their tool-call turns), so the answers are right
and the calls are the ones a trained model would make.

Every episode opens its own world (no answer memo across episodes: every call crosses the
wire). Measured, at 64 concurrent rollouts:

* episodes/s and tool calls/s over the whole run (wall clock);
* per-call latency (p50 / p99) seen by the client;
* the simulator's share of a rollout's wall time, Σ time inside tool calls ÷ Σ episode wall
  time, with a zero-cost policy (an upper bound: the simulator is all there is) and with a
  *modelled* policy that spends ``--policy-ms`` per assistant turn (a sleep standing for
  generation; not a measurement of any model).

Run it (writes ``results/train_rollouts.json`` and the train_rollouts section of ``RESULTS.md``)::

    python -m perf.train_rollouts            # 40 examples × 4 passes
    python -m perf.train_rollouts --quick    # 8 examples × 2 passes (CI smoke)
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perf._common import base_parser, machine, now_utc, percentile, stop_server, write_results

__all__ = ["FULL", "QUICK", "Config", "HttpResolver", "main", "render_markdown", "run"]

NAME = "train_rollouts"
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Config:
    """One run's shape: synthesized examples, passes over them, concurrent rollouts,
    server workers and the modelled policy time per assistant turn (ms)."""

    mode: str
    examples: int = 40
    passes: int = 4
    concurrency: int = 64
    workers: int = 2
    policy_ms: float = 200.0


FULL = Config(mode="full")
QUICK = Config(mode="quick", examples=8, passes=2)


class HttpResolver:
    """A resolver that answers each request with a GET to ``simulator serve`` (one shared
    connection pool); the time spent in calls is added up per thread."""

    def __init__(self, port: int, pool: int) -> None:
        import httpx

        self.base = f"http://127.0.0.1:{port}"
        self.client = httpx.Client(limits=httpx.Limits(max_connections=pool, max_keepalive_connections=pool),
                                   timeout=60)
        self.local = threading.local()

    def resolve(self, req: Any, **_: Any) -> Any:
        """The server's answer to ``req`` as a :class:`simulator.SimResponse`."""
        from simulator import SimResponse

        path = "/" + req.url.split("://", 1)[1]
        t0 = time.perf_counter()
        r = self.client.get(path if path.startswith("http") else self.base + path)
        self.local.seconds = getattr(self.local, "seconds", 0.0) + time.perf_counter() - t0
        self.local.calls = getattr(self.local, "calls", 0) + 1
        self.local.lat = getattr(self.local, "lat", [])
        self.local.lat.append(time.perf_counter() - t0)
        return SimResponse(r.status_code, [(k.lower(), v) for k, v in r.headers.items()], r.content)

    def take(self) -> tuple[float, int, list[float]]:
        """This thread's (seconds in calls, calls, latencies) since the last take; reset."""
        out = (getattr(self.local, "seconds", 0.0), getattr(self.local, "calls", 0), getattr(self.local, "lat", []))
        self.local.seconds, self.local.calls, self.local.lat = 0.0, 0, []
        return out


def _rows(examples: list[dict[str, Any]]) -> list[tuple[Any, list[dict[str, Any]]]]:
    from train.env import Example

    out = []
    for e in examples:
        conv = e["conversation"]
        turns = [m for m in conv[2:] if m["role"] == "assistant"]
        out.append((Example.from_row({"id": e["id"], "prompt": conv[:2], "answer": e["ground_truth"],
                                      "platforms": e["platforms"], "gold_program": e["gold_program"]}), turns))
    return out


def rollouts(version: Any, catalog: Any, rows: list[tuple[Any, list[dict[str, Any]]]], http: HttpResolver,
             cfg: Config, policy_s: float) -> dict[str, Any]:
    """All ``rows`` × ``cfg.passes`` episodes, ``cfg.concurrency`` at a time; the numbers."""
    from bench.kopa.env import World
    from train.env import EnvConfig, SimEpisode
    from train.rewards import answer_matches

    env_cfg = EnvConfig(max_turns=64, max_calls=256, max_observation_chars=20_000)

    def one(i: int) -> dict[str, Any]:
        ex, turns = rows[i % len(rows)]
        world = World(version, catalog)
        world.resolver = http  # every call of this episode over HTTP
        http.take()
        t0 = time.perf_counter()
        ep = SimEpisode(world, ex, env_cfg, seed=i)
        for msg in turns:
            if policy_s:
                time.sleep(policy_s)  # the modelled generation time of this turn
            ep.step(msg)
            if ep.done:
                break
        wall = time.perf_counter() - t0
        sim, calls, lat = http.take()
        return {"wall": wall, "sim": sim, "calls": calls, "lat": lat,
                "ok": answer_matches(ep.answer or "", ex.answer, ex.check)}

    n = len(rows) * cfg.passes
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=cfg.concurrency) as pool:
        got = list(pool.map(one, range(n)))
    wall = time.perf_counter() - t0
    lat = sorted(x for g in got for x in g["lat"])
    calls = sum(g["calls"] for g in got)
    return {"episodes": n, "seconds": round(wall, 3), "episodes_per_s": round(n / wall, 2),
            "tool_calls": calls, "tool_calls_per_s": round(calls / wall, 1),
            "calls_per_episode": round(calls / n, 2),
            "call_ms_p50": round(1000 * percentile(lat, 0.5), 2) if lat else None,
            "call_ms_p99": round(1000 * percentile(lat, 0.99), 2) if lat else None,
            "simulator_share": round(sum(g["sim"] for g in got) / sum(g["wall"] for g in got), 3),
            "rewarded": sum(1 for g in got if g["ok"]), "policy_ms_per_turn": round(1000 * policy_s, 1)}


def run(cfg: Config, log: Callable[[str], None] = print, *, graph: Any = None, obs: Any = None,
        gold: Any = None) -> dict[str, Any]:
    """Synthesize, start the server, measure with a free and a modelled policy. ``graph``,
    ``obs``, ``gold``: the shipped version's graph (seed 7, the small budget), observations
    and gold hold-out if the caller has them already (:func:`perf.train_env.synth_examples`)."""
    from perf.http import start_server
    from perf.train_env import synth_examples
    from simulator import Store, load_catalog

    version = Store(ROOT / "cassettes").open("kopa")
    catalog = load_catalog()
    log(f"synthesizing {cfg.examples} examples (setup, not timed)...")
    rows = _rows(synth_examples(version, catalog, cfg.examples, graph=graph, obs=obs, gold=gold))
    with tempfile.TemporaryDirectory(prefix="kopa-rollouts-") as tmp:
        work = Path(tmp)
        (work / "cassettes").symlink_to(ROOT / "cassettes")
        log(f"starting simulator serve --workers {cfg.workers}...")
        proc, port = start_server("kopa", cfg.workers, work)
        http = HttpResolver(port, cfg.concurrency)
        try:
            rollouts(version, catalog, rows[:2], http, Config(mode="warm", passes=1, concurrency=2), 0.0)
            free = rollouts(version, catalog, rows, http, cfg, 0.0)
            log(f"free policy: {free['episodes_per_s']} episodes/s, {free['tool_calls_per_s']} calls/s")
            modelled = rollouts(version, catalog, rows, http, cfg, cfg.policy_ms / 1000)
            log(f"modelled policy: share {modelled['simulator_share']}")
        finally:
            http.client.close()
            stop_server(proc)
    return {"name": NAME, "when": now_utc(), "config": asdict(cfg), "machine": machine(),
            "examples": len(rows), "free_policy": free, "modelled_policy": modelled}


def render_markdown(doc: dict[str, Any]) -> str:
    """The train_rollouts section of RESULTS.md."""
    c = doc["config"]
    lines = [f"Rollouts over HTTP: {doc['examples']} synthesized examples × {c['passes']} passes, "
             f"{c['concurrency']} concurrent rollouts, `simulator serve --workers {c['workers']}` on loopback "
             f"({doc['when']}, {doc['machine'].get('cpu', '?')}, {doc['machine'].get('cores', '?')} cores).", "",
             "| policy | episodes/s | tool calls/s | calls/episode | call p50 ms | call p99 ms | simulator share | "
             "rewarded |", "|---|---|---|---|---|---|---|---|"]
    for key, label in (("free_policy", "zero-cost (upper bound)"),
                       ("modelled_policy", f"modelled {c['policy_ms']:.0f} ms/turn")):
        r = doc[key]
        lines.append(f"| {label} | {r['episodes_per_s']} | {r['tool_calls_per_s']} | {r['calls_per_episode']} | "
                     f"{r['call_ms_p50']} | {r['call_ms_p99']} | {100 * r['simulator_share']:.1f}% | "
                     f"{r['rewarded']}/{r['episodes']} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m perf.train_rollouts [--quick] [--policy-ms MS] [--out DIR] [--markdown FILE]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="small sizes (CI smoke)",
                    out_help="folder for train_rollouts.json", markdown_help="RESULTS.md to update")
    p.add_argument("--policy-ms", type=float, default=None, help="modelled generation time per turn")
    p.add_argument("--examples", type=int, default=None, help="synthesized examples")
    args = p.parse_args(list(argv) if argv is not None else None)
    cfg = QUICK if args.quick else FULL
    over = {k: v for k, v in (("policy_ms", args.policy_ms), ("examples", args.examples)) if v is not None}
    cfg = Config(**{**asdict(cfg), **over})
    doc = run(cfg, log=lambda s: print(s, file=sys.stderr))
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(render_markdown(doc))
    print(f"wrote {out_json} and {md}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
