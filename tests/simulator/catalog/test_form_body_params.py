"""Parameters in an ``application/x-www-form-urlencoded`` body are request parameters.

juso.go.kr documents its search API for GET and POST, and its clients POST the form
(``requests.post(url, data={"confmKey": …, "keyword": …})``); addresskr sends the same form in
the body of a GET. ``Catalog.match`` reads them after the query (the query wins a repeat), so
the replay and the sandbox answer them like the query; any other body is not read.
"""

from __future__ import annotations

import json
import secrets
from urllib.parse import urlencode

import httpx
import pytest

from simulator import Resolver, Store
from simulator.catalog import load_catalog
from simulator.request import SimRequest, form_params
from simulator.sandbox import create_app
from simulator.transports.patching import patched

JUSO = "https://business.juso.go.kr/addrlink/addrLinkApi.do"
FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    cache.mkdir(exist_ok=True)
    return Resolver(Store(cache_dir=cache).open("kopa"))


def _form(**params: str) -> bytes:
    return urlencode(params).encode("ascii")


def test_form_body_params_are_matched_after_the_query() -> None:
    catalog = load_catalog()
    req = SimRequest.from_url(JUSO + "?resultType=json", method="POST", headers=FORM,
                              body=_form(confmKey="k", keyword="강남구", resultType="xml"))
    m = catalog.match(req)
    assert m.endpoint.id == "juso_address_search"
    assert m.params["keyword"] == "강남구" and m.params["confmKey"] == "k"
    assert m.params["resultType"] == "json"  # the query wins a repeat
    # charset parameters of the content type are read; other bodies are not parameters
    latin = SimRequest.from_url(JUSO, method="POST", body=b"keyword=x",
                                headers={"Content-Type": "application/x-www-form-urlencoded; charset=UTF-8"})
    assert form_params(latin) == (("keyword", "x"),)
    as_json = SimRequest.from_url(JUSO, method="POST", headers={"content-type": "application/json"},
                                  body=json.dumps({"keyword": "강남구"}).encode())
    assert form_params(as_json) == () and "keyword" not in catalog.match(as_json).params


def test_a_posted_form_replays_like_the_query(shipped: Resolver) -> None:
    key = secrets.token_hex(20)
    params = {"confmKey": key, "keyword": "강남구", "resultType": "json", "countPerPage": "10"}
    with patched(shipped):
        got = httpx.get(JUSO, params=params)
        posted = httpx.post(JUSO, data=params)
        on_get = httpx.request("GET", "http://www.juso.go.kr/addrlink/addrLinkApi.do", data=params)
    assert got.status_code == 200 and got.json()["results"]["common"]["errorCode"] == "0"
    assert got.json()["results"]["juso"]
    assert posted.status_code == 200 and posted.json() == got.json()
    assert on_get.json() == got.json()  # addresskr's form on a GET


def test_the_sandbox_reads_a_posted_form() -> None:
    from tests.support.loopback import serve_in_thread

    app = create_app(seed=0)
    params = {"confmKey": app.keys["juso"], "keyword": "강남구", "resultType": "json"}
    with serve_in_thread(app) as base:
        url = base + "/business.juso.go.kr/addrlink/addrLinkApi.do"
        got = httpx.get(url, params=params)
        posted = httpx.post(url, data=params)
    assert got.json()["results"]["common"]["errorCode"] == "0"
    assert posted.content == got.content


def test_a_post_elsewhere_is_still_not_allowed(shipped: Resolver) -> None:
    """Only an endpoint whose API documents POST (option ``form_post``) reads a POSTed form as
    its GET; elsewhere the method is still no part of a recording's identity."""
    form = {"crtfc_key": secrets.token_hex(20), "corp_code": "00126380"}
    with patched(shipped):
        resp = httpx.post("https://opendart.fss.or.kr/api/company.json", data=form)
    assert resp.status_code == 405 and resp.headers["allow"] == "GET"
