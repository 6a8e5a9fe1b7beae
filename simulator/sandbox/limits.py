"""Sandbox limits: per-second rates, daily quotas and seeded faults (all off by default)."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Callable, Literal

__all__ = ["Fault", "Limits", "LimitState"]

#: A fault the sandbox can inject: an HTTP 5xx, a slow answer, a body cut short (with a
#: matching Content-Length), or a connection dropped mid-body.
Fault = Literal["server_error", "slow", "truncated", "reset"]
FAULTS: tuple[Fault, ...] = ("server_error", "slow", "truncated", "reset")


@dataclass
class Limits:
    """What the sandbox enforces beyond the APIs' own rules.

    Args:
        rate_per_sec: platform id (or ``"default"``) → requests allowed per second; missing
            or ``0`` means unlimited. Over it: the platform's native ``rate_limited`` body.
        daily_quota: platform id (or ``"default"``) → requests allowed per day (the
            sandbox's day: until ``reset`` or a restart). Over it: native ``quota_exceeded``.
        fault_rate: share of requests (0–1) that get a fault, chosen by a hash of (seed,
            request counter), so a run with the same seed fails at the same calls.
        faults: the kinds of fault to draw from.
        slow_seconds: delay of a ``slow`` fault.
        clock: seconds, monotonic (injectable for tests).

    >>> Limits(rate_per_sec={"opendart": 5}).rate_for("opendart")
    5.0
    """

    rate_per_sec: dict[str, float] = field(default_factory=dict)
    daily_quota: dict[str, int] = field(default_factory=dict)
    fault_rate: float = 0.0
    faults: tuple[Fault, ...] = FAULTS
    slow_seconds: float = 2.0
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        if not 0.0 <= self.fault_rate <= 1.0:
            raise ValueError(f"fault_rate={self.fault_rate!r} must be between 0 and 1")
        bad = [f for f in self.faults if f not in FAULTS]
        if bad:
            raise ValueError(f"faults={bad!r} are unknown; choose from {list(FAULTS)}")

    def rate_for(self, platform: str) -> float:
        return float(self.rate_per_sec.get(platform, self.rate_per_sec.get("default", 0)) or 0)

    def quota_for(self, platform: str) -> int:
        return int(self.daily_quota.get(platform, self.daily_quota.get("default", 0)) or 0)


class LimitState:
    """Counters behind :class:`Limits` (one per app)."""

    def __init__(self, limits: Limits, seed: int) -> None:
        self.limits = limits
        self.seed = seed
        self.requests = 0
        self.used: dict[str, int] = {}
        self._second: dict[str, tuple[int, int]] = {}

    def reset(self) -> None:
        self.used.clear()
        self._second.clear()

    def admit(self, platform: str) -> Literal["ok", "rate_limited", "quota_exceeded"]:
        """Count one request of ``platform``; say whether it is over a limit."""
        quota = self.limits.quota_for(platform)
        if quota and self.used.get(platform, 0) >= quota:
            return "quota_exceeded"
        rate = self.limits.rate_for(platform)
        if rate:
            now = int(self.limits.clock())
            sec, n = self._second.get(platform, (now, 0))
            if sec != now:
                sec, n = now, 0
            if n >= rate:
                return "rate_limited"
            self._second[platform] = (sec, n + 1)
        self.used[platform] = self.used.get(platform, 0) + 1
        return "ok"

    def fault(self) -> Fault | None:
        """The fault of the next request, if any (advances the request counter)."""
        n = self.requests
        self.requests += 1
        if self.limits.fault_rate <= 0 or not self.limits.faults:
            return None
        h = hashlib.sha256(f"{self.seed}:{n}".encode()).digest()
        u = int.from_bytes(h[:8], "big") / 2**64
        if u >= self.limits.fault_rate:
            return None
        return self.limits.faults[int.from_bytes(h[8:12], "big") % len(self.limits.faults)]
