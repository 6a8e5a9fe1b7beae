"""Replay answers the way the real server does: parameters that select nothing are ignored
(and named in ``x-sim-ignored``), ordering parameters are applied, switches filter.

Each answer is compared with what the sandbox (the stand-in the shipped cassettes were
recorded from) answers live for the same request.
"""

from __future__ import annotations

import json

import pytest

from simulator import Resolver, Store
from simulator.catalog import Param
from simulator.request import SimRequest, SimResponse
from simulator.sandbox import SandboxApp, create_app

LIST = "https://opendart.fss.or.kr/api/list.json"
#: An (invented) corp whose recorded 2024 disclosures hold three "[기재정정]" (superseded) reports.
CORP = "09796369"
RECORDED = f"corp_code={CORP}&bgn_de=20240101&end_de=20241231"


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    cache.mkdir(exist_ok=True)
    return Resolver(Store(cache_dir=cache).open("kopa"))


@pytest.fixture(scope="module")
def sandbox() -> SandboxApp:
    return create_app(seed=0)


def _replay(r: Resolver, query: str) -> SimResponse:
    return r.resolve(SimRequest.from_url(f"{LIST}?crtfc_key=k&{query}"))


def _live(app: SandboxApp, query: str) -> dict:
    key = app.keys["opendart"]
    return json.loads(app.handle(SimRequest.from_url(f"{LIST}?crtfc_key={key}&{query}")).body)


def _rows(resp: SimResponse) -> list[dict]:
    assert resp.status == 200, resp.body[:300]
    body = json.loads(resp.body)
    assert body["status"] == "000", body
    return body["list"]


@pytest.mark.parametrize(
    "extra",
    [
        "last_reprt_at=N&page_no=1&page_count=100",  # OpenDartReader's list() defaults
        "last_reprt_at=Y&page_no=1&page_count=100",  # list(final=True)
        "sort=date&sort_mth=desc&page_no=1&page_count=100",  # dart-fss's defaults
        "sort_mth=asc&page_count=100",
        "sort=rpt&sort_mth=asc&page_count=100",
        "sort=crp&page_count=5&page_no=2",
        "last_reprt_at=Y&sort_mth=asc&page_count=7&page_no=2",
    ],
)
def test_opendart_list_params_replay_like_the_sandbox(
    shipped: Resolver, sandbox: SandboxApp, extra: str
) -> None:
    resp = _replay(shipped, f"{RECORDED}&{extra}")
    assert resp.header("x-sim-source") in ("window", "query")
    live = _live(sandbox, f"{RECORDED}&{extra}")
    assert json.loads(resp.body) == live


def test_last_reprt_at_y_drops_superseded_reports(shipped: Resolver) -> None:
    every = _rows(_replay(shipped, f"{RECORDED}&page_count=100"))
    final = _rows(_replay(shipped, f"{RECORDED}&last_reprt_at=Y&page_count=100"))
    assert len(every) - len(final) == 3
    assert final == [r for r in every if not r["report_nm"].startswith("[기재정정]")]


def test_sort_mth_asc_reverses_the_recorded_order(shipped: Resolver) -> None:
    desc = _rows(_replay(shipped, f"{RECORDED}&page_count=100"))
    asc = _rows(_replay(shipped, f"{RECORDED}&sort_mth=asc&page_count=100"))
    assert asc == desc[::-1]
    by_name = _rows(_replay(shipped, f"{RECORDED}&sort=rpt&sort_mth=asc&page_count=100"))
    assert [r["report_nm"] for r in by_name] == sorted(r["report_nm"] for r in desc)


def test_unknown_params_are_ignored_and_named(shipped: Resolver) -> None:
    plain = _replay(shipped, RECORDED)
    extra = _replay(shipped, f"{RECORDED}&utm_source=x&zz=1")
    assert extra.body == plain.body
    assert extra.header("x-sim-ignored") == "utm_source,zz"
    assert plain.header("x-sim-ignored") is None


def test_an_ignored_misspelling_is_hinted(shipped: Resolver) -> None:
    # The real API ignores a misspelt name too; the answer says which one was probably meant.
    resp = _replay(shipped, f"{RECORDED}&pblntf_tY=A")
    assert resp.header("x-sim-ignored") == "pblntf_tY"
    assert resp.header("x-sim-hint") == "'pblntf_tY' was ignored: did you mean 'pblntf_ty'?"
    assert _replay(shipped, f"{RECORDED}&zz=1").header("x-sim-hint") is None


def test_user_ignore_params_and_miss_diagnostics(shipped: Resolver) -> None:
    # corp_cls selects records: with it the request misses, unless the user ignores it.
    miss = _replay(shipped, f"{RECORDED}&corp_cls=Y&foo=bar")
    assert miss.status == 404
    err = json.loads(miss.body)["error"]
    assert err["type"] == "replay_miss" and err["ignored"] == ["foo"]
    assert "ignored parameters (the real API ignores them too): foo" in err["message"]
    lenient = Resolver(shipped.version, ignore_params=["corp_cls"])
    hit = _replay(lenient, f"{RECORDED}&corp_cls=Y&foo=bar")
    assert hit.header("x-sim-ignored") == "corp_cls,foo"
    assert hit.body == _replay(shipped, RECORDED).body


def test_role_ignore_params_never_key_a_collection(shipped: Resolver) -> None:
    ep = shipped.catalog.endpoint("mois_stan_regin_cd")
    assert ep.param("flag").role == "ignore"  # type: ignore[union-attr]
    url = "https://apis.data.go.kr/1741000/StanReginCd/getStanReginCdList?ServiceKey=k&type=json&pageNo=1&numOfRows=10"
    a = shipped.resolve(SimRequest.from_url(url))
    b = shipped.resolve(SimRequest.from_url(url + "&flag=Y"))
    assert a.body == b.body and b.header("x-sim-ignored") == "flag"


def test_order_params_are_validated() -> None:
    with pytest.raises(ValueError, match="orders is only for role 'order'"):
        Param(name="sort", role="plain", orders={"a": "x"})
    with pytest.raises(ValueError, match="needs orders"):
        Param(name="sort", role="order")
    with pytest.raises(ValueError, match="default='zz' is not one of orders"):
        Param(name="sort", role="order", default="zz", orders={"a": "x"})


def test_ignore_params_accepts_a_comma_string(shipped: Resolver) -> None:
    r = Resolver(shipped.version, ignore_params="corp_cls, foo")
    assert r.ignore_params == frozenset({"corp_cls", "foo"})
    with pytest.raises(TypeError, match="must be a parameter name"):
        Resolver(shipped.version, ignore_params=[1])  # type: ignore[list-item]


LAWS = "https://www.law.go.kr/DRF/lawSearch.do?OC=k&target=law&type=JSON&display=100&page=1"


def _laws(r: Resolver, sort: str) -> list[dict]:
    resp = r.resolve(SimRequest.from_url(LAWS + (f"&sort={sort}" if sort else "")))
    assert resp.status == 200, resp.body[:200]
    return json.loads(resp.body)["LawSearch"]["law"]


def test_law_sort_names_key_and_direction_in_one_value(shipped: Resolver) -> None:
    """law.go.kr's ``sort`` (lasc, ldes, dasc, …, efdes) orders the search; it was a replay miss."""
    recorded = _laws(shipped, "")
    assert _laws(shipped, "lasc") == recorded  # the default: the recorded order
    assert [x["법령일련번호"] for x in _laws(shipped, "ldes")] == [
        x["법령일련번호"] for x in reversed(_whole(shipped))][:100]
    eff = [x["시행일자"] for x in _laws(shipped, "efdes")]
    assert eff == sorted(eff, reverse=True) and eff[0] == max(x["시행일자"] for x in _whole(shipped))
    nums = [int(x["공포번호"]) for x in _laws(shipped, "nasc")]
    assert nums == sorted(nums)  # by value: 9 before 10
    assert _laws(shipped, "bogus") == recorded  # an unknown value is the default, as on the server


def _whole(r: Resolver) -> list[dict]:
    out: list[dict] = []
    for page in range(1, 17):
        resp = r.resolve(SimRequest.from_url(LAWS.replace("page=1", f"page={page}")))
        out += json.loads(resp.body)["LawSearch"]["law"]
    return out
