"""Replay answers a NEIS request without ``KEY`` as the sandbox (and the real portal) does: the
sample window, at most ``keyless_rows`` rows on page 1 (found by schoolInfo, a held-out client
whose README calls without a key: docs/clients-outsider.md)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from simulator import Resolver, SimRequest


def _rows(resolver: Resolver, query: dict[str, str]) -> list[dict[str, object]]:
    url = "https://open.neis.go.kr/hub/elsTimetable?" + urlencode(query)
    res = resolver.resolve(SimRequest.from_url(url))
    assert res.status == 200, res.body[:300]
    return json.loads(res.body)["elsTimetable"][1]["row"]  # type: ignore[no-any-return]


def test_keyless_neis_replay_is_the_sample_window(shipped_store) -> None:  # type: ignore[no-untyped-def]
    resolver = Resolver(shipped_store.open("kopa"))
    coll = next(c for c in shipped_store.open("kopa").collections("neis_els_timetable") if c.total > 5)
    base = {"Type": "json", **coll.filters}
    keyless = _rows(resolver, {**base, "pIndex": "3", "pSize": "100"})
    keyed = _rows(resolver, {**base, "KEY": "any-key", "pIndex": "1", "pSize": "5"})
    assert len(keyless) == 5
    assert keyless == keyed  # page 1, whatever pIndex said
    assert len(_rows(resolver, {**base, "KEY": "any-key", "pIndex": "1", "pSize": "100"})) == min(coll.total, 100)
