"""Native response headers declared per endpoint (``response_headers``), replayed and live."""

from __future__ import annotations

import pytest

from simulator import Resolver, Store
from simulator.request import SimRequest
from simulator.sandbox import create_app

CORPCODE = "https://opendart.fss.or.kr/api/corpCode.xml?crtfc_key="


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    cache.mkdir(exist_ok=True)
    return Resolver(Store(cache_dir=cache).open("kopa"))


def test_corpcode_zip_is_an_attachment_named_like_the_real_one(shipped: Resolver) -> None:
    resp = shipped.resolve(SimRequest.from_url(CORPCODE + "k"))
    assert resp.body[:4] == b"PK\x03\x04"
    assert resp.header("content-disposition") == "attachment; filename=CORPCODE.zip"
    assert resp.header("content-type") == "application/zip"
    app = create_app(seed=0)
    live = app.handle(SimRequest.from_url(CORPCODE + app.keys["opendart"]))
    assert live.header("content-disposition") == resp.header("content-disposition")
    assert live.body == resp.body


def test_an_error_instead_of_the_zip_is_no_attachment() -> None:
    app = create_app(seed=0)
    err = app.handle(SimRequest.from_url(CORPCODE + "unregistered"))
    assert err.body.lstrip().startswith(b"<?xml") and b"<status>010</status>" in err.body
    assert err.header("content-disposition") is None
