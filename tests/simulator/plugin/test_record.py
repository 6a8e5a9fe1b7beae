"""Record mode is safe: every HTTP stack reaches the sandbox and nothing else; failures are
not published (pytester sessions against the sandbox app on a loopback port)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator import Store, load_catalog

from tests.support.loopback import serve_in_thread
from tests.simulator.plugin.test_plugin import FAST

pytest_plugins = ["pytester"]

EVERY_STACK = '''
import json
import urllib.error
import urllib.request

import httpx
import pytest
import requests

from simulator.pytest_plugin import KopaNetworkBlocked

KEY = "sandbox-opendart"
URL = "https://opendart.fss.or.kr/api/company.json"


@pytest.mark.kopa
def test_every_stack_reaches_the_sandbox():
    a = httpx.get(URL, params={"crtfc_key": KEY, "corp_code": "00126380"})
    with httpx.Client() as c:
        b = c.get(URL, params={"crtfc_key": KEY, "corp_code": "00164779"})
    c2 = requests.get(URL, params={"crtfc_key": KEY, "corp_code": "00401731"})
    with urllib.request.urlopen(URL + "?crtfc_key=" + KEY + "&corp_code=00164742") as fh:
        d = json.loads(fh.read())
    assert [a.json()["status"], b.json()["status"], c2.json()["status"], d["status"]] == ["000"] * 4


@pytest.mark.kopa
def test_nothing_else_is_reached():
    # other hosts go to the loopback stand-in too (to be recorded exactly): the sandbox
    # knows none of them, and nothing leaves the machine
    assert httpx.get("https://example.com/").status_code == 404
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen("http://example.org/")
    assert err.value.code == 404
    import socket
    with pytest.raises(KopaNetworkBlocked, match="test_nothing_else_is_reached.*example.net"):
        socket.create_connection(("example.net", 80))
'''

ALL_FAIL = '''
import httpx
import pytest

URL = "https://opendart.fss.or.kr/api/company.json"


@pytest.mark.kopa
def test_calls_with_a_wrong_key():
    for corp in ("00126380", "00164779"):
        r = httpx.get(URL, params={"crtfc_key": "not-the-sandbox-key", "corp_code": corp})
        assert r.json()["status"] != "000"
'''


@pytest.fixture
def sandbox() -> object:
    from simulator.sandbox import create_app

    with serve_in_thread(create_app(seed=0), health="/_sandbox/health") as base:
        yield base


def _record(pytester: pytest.Pytester, root: Path, sandbox: str, *extra: str) -> pytest.RunResult:
    """An inner session in record mode ``all`` into set ``mine``, upstream the sandbox."""
    return pytester.runpytest_subprocess(
        "-q", *FAST, "--kopa-record-mode=all", f"--kopa-cassettes={root}", "--kopa-set=mine",
        f"--kopa-upstream={sandbox}", *extra,
    )


@pytest.mark.integration
def test_record_mode_sends_every_http_stack_to_the_sandbox_and_nothing_else(
    pytester: pytest.Pytester, tmp_path: Path, sandbox: str
) -> None:
    root = tmp_path / "cass"
    pytester.makepyfile(test_stacks=EVERY_STACK)
    result = _record(pytester, root, sandbox)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*kopa-sim: published mine@v0001 (parent none, mode all): 4 interaction(s)*"])
    warnings = [line for line in result.stdout.lines if "warning" in line]
    assert len(warnings) == 2 and all("answered HTTP 404; not published" in w for w in warnings), warnings
    m = Store(root).versions("mine")[-1]
    assert m.source == "sandbox" and m.endpoints["opendart_company"].interactions == 4


@pytest.mark.integration
def test_a_session_whose_calls_all_fail_publishes_nothing(
    pytester: pytest.Pytester, tmp_path: Path, sandbox: str
) -> None:
    root = tmp_path / "cass"
    pytester.makepyfile(test_fail=ALL_FAIL)
    result = _record(pytester, root, sandbox)
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "*kopa-sim: nothing published for set 'mine': all 2 recorded call(s) failed*",
        "*kopa-sim: warning: *test_calls_with_a_wrong_key: opendart_company answered native error*sandbox-<platform>*",
    ])
    assert "published mine@" not in out
    assert not (root / "mine").exists() or not Store(root).versions("mine")

    # Asked to, the error answers are kept as data.
    result = _record(pytester, root, sandbox, "--kopa-keep-errors")
    result.stdout.fnmatch_lines(["*kopa-sim: published mine@v0001*: 2 interaction(s)*"])


def test_a_strict_miss_under_pytest_names_the_plugin_options(pytester: pytest.Pytester, tmp_path: Path) -> None:
    from .test_plugin import _tiny_store

    _tiny_store(tmp_path / "cass", ["v0001"])
    pytester.makepyfile(test_miss='''
from simulator import ReplayMiss
import pytest

def test_miss(kopa_client):
    with pytest.raises(ReplayMiss, match="--kopa-record-mode new_episodes"):
        kopa_client.get("https://opendart.fss.or.kr/api/company.json", params={"corp_code": "00000001"})
''')
    result = pytester.runpytest_subprocess("-q", *FAST, f"--kopa-cassettes={tmp_path / 'cass'}", "--kopa-set=tiny")
    result.assert_outcomes(passed=1)


def _pair(uri: str, body: bytes, status: int = 200) -> tuple[object, dict[str, object]]:
    from vcr.request import Request

    return Request("GET", uri, None, {}), {
        "status": {"code": status, "message": "OK"},
        "headers": {"Content-Type": ["application/json"]},
        "body": {"string": body},
    }


def test_keep_drops_errors_and_what_the_parent_answers_and_keeps_other_hosts_exact(tmp_path: Path) -> None:
    from simulator.record.session import RecordBucket, _keep
    from tests.support.helpers import build_demo_version

    parent = build_demo_version(tmp_path).open("kopa")
    bucket = RecordBucket(str(tmp_path), "kopa", None, "new_episodes", None)
    stations = "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList?_type=json&cityCode=25"
    ok = b'{"status":"000","message":"ok","corp_code":"00126380","corp_name":"x"}'
    refused = b'{"status":"010","message":"unregistered key"}'
    pairs = [
        _pair("https://opendart.fss.or.kr/api/company.json?crtfc_key=K&corp_code=00126380", ok),
        _pair("https://opendart.fss.or.kr/api/company.json?crtfc_key=bad&corp_code=00164779", refused),
        _pair(stations + "&numOfRows=5&pageNo=2", b"{}"),  # the parent holds this collection
        _pair("https://example.com/x", b"hello"),
        _pair("http://127.0.0.1:9/helper", b"ok"),
    ]
    _keep(pairs, "t::test", bucket, load_catalog(), parent)
    # example.com (no catalog platform) is kept exactly, like vcrpy; loopback is the test's own
    assert [(r.host, r.query) for r, _ in bucket.exchanges] == [
        ("opendart.fss.or.kr", (("crtfc_key", "K"), ("corp_code", "00126380"))), ("example.com", ()),
    ]
    assert (bucket.calls, bucket.failed) == (4, 1)
    assert any("opendart_company answered native error 010" in w for w in bucket.warnings)
    assert not any("example.com" in w or "127.0.0.1" in w for w in bucket.warnings)
    assert {"K", "bad"} <= bucket.secrets
