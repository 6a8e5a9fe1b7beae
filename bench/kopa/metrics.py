"""pass@k (unbiased, Chen et al. 2021), pass^k, and confidence intervals over seeds."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .errors import BenchError

__all__ = ["mean_ci", "pass_at_k", "pass_hat_k"]

# Two-sided 95% Student t quantiles by degrees of freedom (normal beyond 30).
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042}


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one task with ``n`` samples, ``c`` correct: 1 − C(n−c,k)/C(n,k).

    >>> pass_at_k(8, 0, 4), pass_at_k(8, 8, 4), round(pass_at_k(8, 1, 4), 4)
    (0.0, 1.0, 0.5)
    """
    if k <= 0 or n <= 0:
        raise BenchError("n and k must be positive")
    if k > n:
        raise BenchError(f"k={k} > n={n}: pass@k needs at least k samples")
    if not 0 <= c <= n:
        raise BenchError(f"c={c} outside 0..{n}")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def pass_hat_k(n: int, c: int, k: int) -> float:
    """τ-bench pass^k: probability that k samples are all correct, C(c,k)/C(n,k)."""
    if k > n:
        raise BenchError(f"k={k} > n={n}")
    return math.comb(c, k) / math.comb(n, k)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (Student t) of per-seed values."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    df = n - 1
    t = _T95.get(df) or _T95[max(d for d in _T95 if d <= df)] if df <= 30 else 1.96
    half = t * math.sqrt(var / n)
    return (m, m - half, m + half)
