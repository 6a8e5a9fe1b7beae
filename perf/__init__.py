"""Performance harnesses: each module measures one thing side by side and writes its results.

``python -m perf.replay`` — in-process replay per request: kopa-sim's httpx transport
vs vcrpy vs ``httpx.MockTransport`` over a dict (the floor), and page windows vs exact hits.
"""

from __future__ import annotations

__all__: list[str] = []
