"""What every adapter over the resolver shares: episodes, call indices, answers as exceptions.

The httpx transports, the ``requests`` adapter, the patched clients and the HTTP server all
answer through :class:`CallCounter` and :func:`raise_for_answer`, so they agree on:

* **The episode** of a request: its ``X-Sim-Episode`` header when that is non-empty, else
  the adapter's own ``episode`` (None if it has none). An empty header is the same as no
  header (an empty id would otherwise be its own episode in one adapter and none in
  another).
* **The call index** (the fault hash input, with the seed and the episode): the client's
  ``X-Sim-Call: N`` header (N from 0) when sent, so the fault pattern of an episode depends
  only on (seed, episode, N), whichever process or worker answers; without it, the number
  of calls this adapter has answered for the episode so far. A bad value is answered with
  a 400 simulator error that names it.
* **The exception** a client sees: an injected timeout raises the client's own timeout
  error, a strict miss raises :class:`~simulator.errors.ReplayMiss` when asked.

Per-episode counters are bounded (an LRU of ``max_episodes``; a long id is kept as its
digest), so any number of distinct episode ids leaves memory flat. An evicted episode that
comes back counts from 0 again: send ``X-Sim-Call`` where that matters.

>>> from simulator.request import SimRequest
>>> calls = CallCounter()
>>> req = SimRequest("GET", "apis.data.go.kr", "/x", headers=(("x-sim-episode", "e1"),))
>>> [calls.call_of(req) for _ in range(3)]
[('e1', 0), ('e1', 1), ('e1', 2)]
>>> calls.call_of(SimRequest("GET", "h", "/", headers=(("x-sim-call", "7"),)), "mine")
('mine', 7)
"""

from __future__ import annotations

import hashlib
import threading
from typing import TYPE_CHECKING, Any, Callable

from .cache import BoundedCache
from .errors import ReplayMiss
from .request import SimRequest
from .resolve import Resolution, Source, sim_error

if TYPE_CHECKING:  # pragma: no cover
    from .resolve import Resolver

__all__ = [
    "CALL_HEADER",
    "EPISODE_HEADER",
    "CallCounter",
    "EpisodeHeaders",
    "latency_of",
    "raise_for_answer",
]

EPISODE_HEADER = "x-sim-episode"
CALL_HEADER = "x-sim-call"
#: Episodes whose call counts an adapter keeps (least recently used leave first).
MAX_EPISODES = 4096
#: Longer episode ids are counted under their digest (the id itself is never held).
_MAX_ID = 64
#: The largest call index accepted in ``X-Sim-Call``.
_MAX_CALL = 10**12


def episode_of(req: SimRequest, default: str | None = None) -> str | None:
    """The request's episode: a non-empty ``X-Sim-Episode`` header, else ``default``."""
    sent = req.header(EPISODE_HEADER)
    return sent if sent else default


class CallCounter:
    """Call indices per episode for one adapter (thread-safe, bounded).

    Args:
        max_episodes: how many episodes' counts to keep.
    """

    def __init__(self, max_episodes: int = MAX_EPISODES) -> None:
        self._counts: BoundedCache[str | bytes | None, int] = BoundedCache(max_episodes)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many episodes are being counted (at most ``max_episodes``)."""
        return len(self._counts)

    def next(self, episode: str | None) -> int:
        """This call's index in ``episode`` (0 first) when the client sends none."""
        key: str | bytes | None = episode
        if episode is not None and len(episode) > _MAX_ID:
            key = hashlib.blake2b(episode.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        with self._lock:
            n = self._counts.get(key) or 0
            self._counts.put(key, n + 1)
        return n

    def call_of(self, req: SimRequest, default_episode: str | None = None) -> tuple[str | None, int]:
        """(episode, call index) of ``req``; raises ``ValueError`` for a bad ``X-Sim-Call``."""
        episode = episode_of(req, default_episode)
        sent = req.header(CALL_HEADER)
        if sent is None:
            return episode, self.next(episode)
        text = sent.strip()
        if not text.isdigit() or int(text) > _MAX_CALL:
            raise ValueError(
                f"X-Sim-Call={sent!r} is not a call index; send the call's number in its "
                "episode, counting from 0 (or leave the header out)"
            )
        return episode, int(text)

    def answer(self, resolver: Resolver, req: SimRequest, default_episode: str | None = None) -> Resolution:
        """The resolver's answer to ``req`` at its episode and call index (a 400 for a bad
        ``X-Sim-Call``).

        A :class:`Resolver` without faults reads neither (its answer depends on neither):
        such a call is not counted, and costs no lock. A sent ``X-Sim-Call`` is still checked.
        """
        if getattr(resolver, "faults", False) is None:
            for name, _value in req.headers:  # (names are lowercase) ``req.header`` inlined
                if name == CALL_HEADER:
                    break
            else:
                return resolver.resolve(req)
        try:
            episode, index = self.call_of(req, default_episode)
        except ValueError as exc:
            return Resolution(Source.ERROR, sim_error(400, "bad_call_index", str(exc)))
        return resolver.resolve(req, episode=episode, call_index=index)


class EpisodeHeaders:
    """What a client of ``simulator serve`` sends so an episode's faults are the same from
    any worker: ``X-Sim-Episode`` and ``X-Sim-Call`` (0, 1, 2, … per call).

    Call it as an httpx request hook, or take ``headers()`` for each call of another client:

    >>> import httpx
    >>> hook = EpisodeHeaders("rollout-3")
    >>> client = httpx.Client(event_hooks={"request": [hook]})
    >>> EpisodeHeaders("e").headers(), EpisodeHeaders("e", start=5).headers()
    ({'X-Sim-Episode': 'e', 'X-Sim-Call': '0'}, {'X-Sim-Episode': 'e', 'X-Sim-Call': '5'})
    """

    def __init__(self, episode: str, *, start: int = 0) -> None:
        if not episode:
            raise ValueError("episode='' names no episode; give the episode's id")
        self.episode = episode
        self._next = start
        self._lock = threading.Lock()

    def headers(self) -> dict[str, str]:
        """The headers of the next call (each call takes the next index)."""
        with self._lock:
            n, self._next = self._next, self._next + 1
        return {"X-Sim-Episode": self.episode, "X-Sim-Call": str(n)}

    def __call__(self, request: Any) -> None:
        """httpx request hook: set the next call's headers on ``request``."""
        request.headers.update(self.headers())


def raise_for_answer(
    res: Resolution, *, timeout: Callable[[str], BaseException], raise_on_miss: bool
) -> None:
    """Raise what a client would see for ``res``: ``timeout(message)`` for an injected
    timeout, :class:`ReplayMiss` for a strict miss when ``raise_on_miss``; else nothing."""
    if res.fault == "timeout":
        raise timeout("injected timeout (kopa-sim seeded fault)")
    if raise_on_miss and res.miss is not None:
        raise ReplayMiss(res.miss.message, nearest=res.miss.nearest)


def latency_of(res: Resolution) -> float | None:
    """Seconds of injected latency on ``res`` (None: none)."""
    if res.fault != "latency":
        return None
    ms = res.response.header("x-sim-latency-ms")
    return int(ms) / 1000 if ms else None
