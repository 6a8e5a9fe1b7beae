"""KOPA-Bench: multi-step tool-calling tasks over the recorded Korean public APIs (DESIGN §9).

Tasks (``tasks/*.yaml``) carry gold programs whose answers are computed on the version under
test; agents (OpenAI-compatible or scripted) run against a pinned simulator version and are
scored on RESPONSE, ACTION and ENVIRONMENT, with a failure taxonomy read from traces.
"""

from __future__ import annotations

__all__: list[str] = []
