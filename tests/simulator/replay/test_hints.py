"""Messages that fit the context: "did you mean", invalid values named, the record hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator import Resolver, SimRequest, Store
from simulator.hints import did_you_mean, header_safe
from tests.support.helpers import build_demo_version

pytest_plugins = ["pytester"]

STATIONS = "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList?serviceKey=k&_type=json&"


def _resolver(tmp_path: Path, **kw: object) -> Resolver:
    build_demo_version(tmp_path, n=10)
    return Resolver(Store(tmp_path).open("kopa"), **kw)  # type: ignore[arg-type]


def test_did_you_mean_case_and_near_misses() -> None:
    names = ["cityCode", "nodeNm", "nodeNo", "numOfRows", "pageNo"]
    assert did_you_mean("citycode", names) == "cityCode"
    assert did_you_mean("CITYCODE", names) == "cityCode"
    assert did_you_mean("cityCod", names) == "cityCode"
    assert did_you_mean("numofrows", names) == "numOfRows"
    assert did_you_mean("serviceKey", names) is None


def test_a_miss_with_a_misspelt_param_says_did_you_mean(tmp_path: Path) -> None:
    r = _resolver(tmp_path).resolve(SimRequest.from_url(STATIONS + "citycode=25"))
    err = json.loads(r.body)["error"]
    assert r.status == 404 and err["did_you_mean"] == {"citycode": "cityCode"}
    assert "did you mean 'cityCode'?" in err["message"]
    assert "simulator record --live" in err["message"]


def test_the_record_hint_fits_the_caller(tmp_path: Path) -> None:
    hint = "record it with `pytest --kopa-record-mode new_episodes --kopa-upstream URL`"
    r = _resolver(tmp_path, miss_hint=hint).resolve(SimRequest.from_url(STATIONS + "cityCode=99"))
    msg = json.loads(r.body)["error"]["message"]
    assert hint in msg and "simulator record" not in msg and "did you mean" not in msg


def test_an_invalid_value_is_named_beside_the_native_error(tmp_path: Path) -> None:
    res = _resolver(tmp_path)
    r = res.resolve(SimRequest.from_url(STATIONS + "cityCode=25&numOfRows=abc"))
    assert r.header("x-sim-source") == "error"
    assert r.header("x-sim-hint") == "numOfRows='abc' is not an integer"
    native = json.loads(r.body)  # the platform's own body, unchanged
    assert native["response"]["header"]["resultCode"] == "10"


def test_hints_are_one_ascii_line() -> None:
    assert header_safe("값이\n 잘못됨 ≥ 1") == "\\uac12\\uc774 \\uc798\\ubabb\\ub428 \\u2265 1"


MISSING = '''
import pytest
from simulator.errors import ReplayMiss

@pytest.mark.kopa(set="kopa")
def test_miss(kopa_client):
    with pytest.raises(ReplayMiss) as exc:
        kopa_client.get("https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList",
                        params={"serviceKey": "k", "citycode": "25", "_type": "json"})
    message = str(exc.value)
    assert "did you mean 'cityCode'?" in message
    assert "pytest --kopa-record-mode new_episodes" in message and "simulator record" not in message
'''


def test_a_miss_under_pytest_names_the_pytest_options(pytester: pytest.Pytester, tmp_path: Path) -> None:
    build_demo_version(tmp_path / "c", n=10)
    pytester.makepyfile(MISSING)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--kopa-cassettes", str(tmp_path / "c"))
    result.assert_outcomes(passed=1)


def test_a_page_number_past_64_bits_is_never_a_500(tmp_path: Path) -> None:
    res = _resolver(tmp_path)
    r = res.resolve(SimRequest.from_url(STATIONS + "cityCode=25&pageNo=99999999999999999999999"))
    assert r.status == 200 and r.header("x-sim-source") == "error"  # the native error, named
    assert "pageNo=" in (r.header("x-sim-hint") or "")
    # The index itself clamps a window past SQLite's integers: empty, not OverflowError.
    (coll,) = res.version.collections("tago_stations_by_name")
    assert res.version.index.records(coll.id, 2**63, 1000) == []


@pytest.mark.parametrize(
    ("query", "hint"),
    [("pageNo=0", "pageNo=0 must be >= 1"), ("numOfRows=0", "numOfRows=0 must be >= 1")],
)
def test_a_bad_page_value_is_named_by_its_parameter(tmp_path: Path, query: str, hint: str) -> None:
    r = _resolver(tmp_path).resolve(SimRequest.from_url(STATIONS + "cityCode=25&" + query))
    assert r.header("x-sim-source") == "error" and r.header("x-sim-hint") == hint
