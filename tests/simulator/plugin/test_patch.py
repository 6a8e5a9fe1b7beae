"""``@pytest.mark.kopa(patch=True)`` / ``kopa_patched``: clients a test builds itself replay,
like ``@pytest.mark.vcr``; ``ignore_params`` from the marker, the ini file or the CLI."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")

DOWNSTREAM = '''
import json
import urllib.request

import httpx
import pytest
import requests

COMPANY = "https://opendart.fss.or.kr/api/company.json?crtfc_key=any&corp_code=00126380"

@pytest.mark.kopa(patch=True)
def test_urllib_replays_under_the_marker():
    with urllib.request.urlopen(COMPANY) as resp:
        assert resp.status == 200 and resp.headers["x-sim-source"] == "window"
        assert json.loads(resp.read())["stock_code"] == "005930"

@pytest.mark.kopa(patch=True)
def test_own_requests_session_replays():
    with requests.Session() as s:
        assert s.get(COMPANY).json()["corp_code"] == "00126380"

def test_kopa_patched_fixture_answers_httpx(kopa_patched):
    with httpx.Client() as c:
        r = c.get(COMPANY + "&utm=1")
    assert r.json()["corp_code"] == "00126380" and r.headers["x-sim-ignored"] == "utm"

@pytest.mark.kopa(patch=True, ignore_params=["corp_cls"])
def test_marker_ignore_params():
    url = ("https://opendart.fss.or.kr/api/list.json?crtfc_key=k&corp_code=09529646"  # an invented company
           "&bgn_de=20240101&end_de=20241231&corp_cls=Y")
    r = requests.get(url)
    assert r.status_code == 200 and r.headers["x-sim-ignored"] == "corp_cls"

@pytest.mark.kopa(patch=True)
def test_ini_ignore_params(kopa_settings):
    assert kopa_settings.ignore_params == ("pblntf_ty",)

@pytest.mark.kopa
def test_without_patch_own_clients_hit_the_guard():
    with pytest.raises(Exception, match="kopa-sim blocked the network"):
        urllib.request.urlopen(COMPANY, timeout=2)
'''


def test_patch_marker_fixture_and_ignore_params(
    pytester: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"  # the compiled shipped set, shared
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    pytester.makeini("[pytest]\nkopa_ignore_params = pblntf_ty\n")
    pytester.makepyfile(test_downstream=DOWNSTREAM)
    result = pytester.runpytest_subprocess("-q", "--strict-markers", *FAST)
    result.assert_outcomes(passed=6)


def test_bad_patch_and_ignore_params_are_usage_errors(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_bad='''
        import pytest

        @pytest.mark.kopa(patch="yes")
        def test_a():
            pass
        '''
    )
    result = pytester.runpytest_subprocess("-q", *FAST)
    result.stderr.fnmatch_lines(["*patch='yes' must be True or False*"])
    pytester.makepyfile(
        test_bad='''
        import pytest

        @pytest.mark.kopa(ignore_params=[1])
        def test_a():
            pass
        '''
    )
    result = pytester.runpytest_subprocess("-q", *FAST)
    result.stderr.fnmatch_lines(["*ignore_params=?1? must be parameter names*"])
