"""The pytest plugin, exercised through real pytest sessions (``pytester``)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from simulator import Store, VersionBuilder, load_catalog
from simulator.pytest_plugin import marker_settings, merge_settings
from simulator.request import SimRequest, SimResponse

from tests.support.loopback import serve_in_thread

pytest_plugins = ["pytester"]

try:  # Inline pytester runs drop the modules first imported inside them, and numpy (pulled in
    # by some installed pytest plugins) cannot be imported twice in one process: load it here.
    import numpy  # noqa: F401
except ImportError:  # pragma: no cover
    pass

REPO = Path(__file__).resolve().parents[3]
#: Inner sessions skip the cache and hypothesis's plugin (its import alone takes seconds).
FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


@pytest.fixture
def shipped_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One compiled index of the shipped set for the whole test session (it takes seconds)."""
    path = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    path.mkdir(exist_ok=True)
    monkeypatch.setenv("KOPA_CACHE", str(path))
    monkeypatch.delenv("KOPA_CASSETTES", raising=False)
    return path


def _tiny_store(root: Path, names: list[str]) -> Store:
    """A set ``tiny`` with one version per name, each answering one distinct request."""
    store = Store(root)
    cat = load_catalog()
    for name in names:
        b = VersionBuilder(store, "tiny", cat, parent=None)
        req = SimRequest.from_url(f"https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K")
        b.add_interaction(req, SimResponse(200, [("content-type", "application/json")], json.dumps({"v": name}).encode()))
        b.publish(recorded_at="2026-01-01T00:00:00Z", source="test", version=name)
    return store


# ---- downstream replay ----------------------------------------------------------------------
DOWNSTREAM = '''
import pytest

KEY = "any-key-at-all"

@pytest.mark.kopa(version="v0001")
def test_company(kopa_client):
    r = kopa_client.get("https://opendart.fss.or.kr/api/company.json",
                        params={"crtfc_key": KEY, "corp_code": "00126380"})
    assert r.status_code == 200
    assert r.json()["stock_code"] == "005930"

def test_school_page(kopa_session):
    r = kopa_session.get("https://open.neis.go.kr/hub/schoolInfo",
                         params={"KEY": KEY, "Type": "json", "pIndex": "2", "pSize": "5"})
    rows = r.json()["schoolInfo"][1]["row"]
    assert len(rows) == 5 and r.headers["x-sim-source"] == "window"

def test_pinned_version(kopa_resolver, kopa_settings):
    assert kopa_resolver.version.manifest.set == "kopa"
    assert kopa_settings.record_mode == "none"
'''


def test_downstream_suite_replays_offline_with_marker_and_fixtures(
    pytester: pytest.Pytester, shipped_cache: Path
) -> None:
    pytester.makepyfile(test_downstream=DOWNSTREAM)
    result = pytester.runpytest_subprocess("-q", "--strict-markers", *FAST)
    result.assert_outcomes(passed=3)


def test_plugin_module_is_import_light() -> None:
    code = (
        "import sys, simulator.pytest_plugin as p; "
        "heavy = [m for m in ('simulator.resolve', 'simulator.transports.requests_adapter', "
        "'vcr', 'requests', 'aiohttp') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # The package __init__ loads the core; the plugin itself pulls in nothing optional.
    assert "'vcr'" not in out.stdout and "'requests'" not in out.stdout and "'aiohttp'" not in out.stdout
    assert "requests_adapter" not in out.stdout


# ---- network guard --------------------------------------------------------------------------
def test_replay_mode_blocks_the_network_naming_test_and_host(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_guard='''
        import socket
        import httpx
        import pytest

        @pytest.mark.kopa
        def test_reaches_out():
            httpx.get("https://example.org:8443/x", timeout=2)

        @pytest.mark.kopa
        def test_loopback_is_allowed():
            with socket.create_server(("127.0.0.1", 0)) as srv:
                with socket.create_connection(srv.getsockname()[:2], timeout=2):
                    pass

        def test_unmarked_tests_are_left_alone():
            assert socket.getaddrinfo is socket.getaddrinfo
        '''
    )
    result = pytester.runpytest("-q", *FAST)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*KopaNetworkBlocked: kopa-sim blocked the network: test test_guard.py::test_reaches_out "
        "tried to reach example.org:8443*"
    ])
    import socket

    assert socket.socket.connect.__qualname__ == "socket.connect" or "guard" not in repr(socket.socket.connect)


# ---- precedence -----------------------------------------------------------------------------
def test_precedence_cli_then_marker_then_config_fixture(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root = tmp_path / "cass"
    _tiny_store(root, ["v0001", "v0002", "v0003", "v0004"])
    pytester.makeconftest(
        f'''
        import pytest

        @pytest.fixture
        def kopa_config():
            return {{"cassettes": {str(root)!r}, "set": "tiny", "version": "v0001"}}
        '''
    )
    pytester.makeini("[pytest]\nkopa_version = v0004\n")
    pytester.makepyfile(
        test_prec='''
        import pytest

        def expected(request, own):
            return request.config.getoption("kopa_version") or own

        def test_fixture_beats_ini(kopa_resolver, kopa_settings, request):
            assert kopa_resolver.version.manifest.version == expected(request, "v0001")

        @pytest.mark.kopa(version="v0002")
        def test_marker_beats_fixture(kopa_resolver, kopa_settings, request):
            assert kopa_resolver.version.manifest.version == expected(request, "v0002")
            want = "command line" if request.config.getoption("kopa_version") else "marker"
            assert kopa_settings.sources["version"] == want
            assert kopa_settings.sources["set"] == "kopa_config"
        '''
    )
    pytester.runpytest("-q", *FAST).assert_outcomes(passed=2)
    pytester.runpytest("-q", *FAST, "--kopa-version", "v0003").assert_outcomes(passed=2)


def test_merge_settings_orders_layers() -> None:
    s = merge_settings(
        ("command line", {"version": "c"}),
        ("marker", {"version": "m", "miss": "native"}),
        ("kopa_config", {"version": "f", "miss": "strict", "set": "s"}),
        ("ini", {"set": "i", "record_mode": "none"}),
    )
    assert (s.version, s.miss, s.set, s.record_mode) == ("c", "native", "s", "none")
    assert s.sources == {"version": "command line", "miss": "marker", "set": "kopa_config", "record_mode": "ini"}


# ---- bad values -----------------------------------------------------------------------------
def test_bad_record_mode_is_a_usage_error_listing_valid_ones(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    result = pytester.runpytest(*FAST, "--kopa-record-mode", "sometimes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*record mode 'sometimes' is not accepted; use one of: none, new_episodes, all, rewrite*"])
    pytester.makeini("[pytest]\nkopa_record_mode = often\n")
    result = pytester.runpytest(*FAST)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini kopa_record_mode*'often'*none, new_episodes, all, rewrite*"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"miss": "sometimes"}, "miss='sometimes' is not accepted; use one of: strict, native"),
        ({"versoin": "v1"}, "unknown argument(s) versoin; accepted: version=, miss=, fault_seed=, fault_rate=, set="),
        ({"fault_rate": 2}, "fault_rate=2 must be a number between 0 and 1"),
        ({"fault_seed": "x"}, "fault_seed='x' must be an int or None"),
    ],
)
def test_bad_marker_arguments_raise_usage_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(pytest.UsageError, match=re.escape(message)):
        marker_settings(pytest.mark.kopa(**kwargs).mark)
    with pytest.raises(pytest.UsageError, match="use keywords: version="):
        marker_settings(pytest.mark.kopa("v1").mark)
    assert marker_settings(pytest.mark.kopa(version="v1", miss="native", fault_seed=3).mark) == {
        "version": "v1", "miss": "native", "fault_seed": 3,
    }


def test_a_bad_marker_stops_the_session_with_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_m='import pytest\n\n@pytest.mark.kopa(miss="sometimes")\ndef test_m():\n    pass\n')
    result = pytester.runpytest(*FAST)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_m.py::test_m: @pytest.mark.kopa: miss='sometimes' is not accepted; use one of: strict, native*"])


def test_bad_kopa_config_key_names_the_accepted_keys(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("import pytest\n\n@pytest.fixture\ndef kopa_config():\n    return {'verison': 'v1'}\n")
    pytester.makepyfile(test_c="def test_c(kopa_settings):\n    pass\n")
    result = pytester.runpytest(*FAST)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown key(s) verison; accepted: cassettes, set, version*"])


# ---- recording --------------------------------------------------------------------------------
RECORDING = '''
import requests

KEY = "sandbox-opendart"
LIST = {"crtfc_key": KEY, "corp_code": "09529646", "bgn_de": "20240101", "end_de": "20241231",
        "page_no": "2", "page_count": "2"}

def test_records(kopa_client, kopa_settings):
    assert kopa_settings.record_mode == "new_episodes"
    r = kopa_client.get("https://opendart.fss.or.kr/api/company.json",
                        params={"crtfc_key": KEY, "corp_code": "00126380"})
    assert r.headers["x-sim-source"] == "exact"          # the parent answers it: not re-fetched
    r = kopa_client.get("https://opendart.fss.or.kr/api/list.json", params=LIST)
    assert r.json()["status"] == "000" and r.json()["total_count"] == 11  # an invented company's 2024 filings
    assert r.headers["x-sim-source"] == "live"
    # A client the plugin did not build: captured by vcrpy, sent to the upstream.
    r = requests.get("https://opendart.fss.or.kr/api/company.json",
                     params={"crtfc_key": KEY, "corp_code": "00164779"})
    assert r.json()["stock_code"] == "000660"
'''

REPLAY = '''
LIST = {"crtfc_key": "whatever", "corp_code": "09529646", "bgn_de": "20240101", "end_de": "20241231",
        "page_no": "3", "page_count": "2"}

def test_replays_offline(kopa_client):
    r = kopa_client.get("https://opendart.fss.or.kr/api/list.json", params=LIST)
    assert r.headers["x-sim-source"] == "window"
    assert r.json()["page_no"] == 3 and len(r.json()["list"]) == 2
'''


@pytest.mark.integration
def test_record_new_episodes_against_a_sandbox_publishes_a_redacted_version(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simulator.sandbox import create_app

    key = "sandbox-opendart"
    monkeypatch.setenv("KOPA_KEY_OPENDART", key)
    root = tmp_path / "cass"
    store = Store(root)
    with serve_in_thread(create_app(seed=0), health="/_sandbox/health") as base:
        company = SimRequest.from_url(
            f"https://opendart.fss.or.kr/api/company.json?crtfc_key={key}&corp_code=00126380"
        )
        r = httpx.get(f"{base}/opendart.fss.or.kr{company.path}", params=dict(company.query))
        parent = VersionBuilder(store, "mine", load_catalog(), parent=None, secrets=[key])
        parent.add_interaction(company, SimResponse(r.status_code, [("content-type", "application/json")], r.content))
        parent.publish(recorded_at="2026-01-01T00:00:00Z", source="sandbox")

        pytester.makepyfile(test_rec=RECORDING)
        result = pytester.runpytest_subprocess(
            "-q", *FAST, "--kopa-record-mode=new_episodes",
            f"--kopa-cassettes={root}", "--kopa-set=mine", f"--kopa-upstream={base}",
        )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*kopa-sim: published mine@v0002 (parent v0001, mode new_episodes)*"])
    versions = store.versions("mine")
    assert [m.version for m in versions] == ["v0001", "v0002"]
    m = versions[-1]
    assert m.parent == "v0001" and m.source == "sandbox"
    assert m.endpoints["opendart_company"].interactions == 2          # parent's kept + the new one
    assert m.endpoints["opendart_disclosures"].interactions == 1
    assert m.endpoints["opendart_disclosures"].collections == 1
    assert m.endpoints["opendart_disclosures"].records == 11         # the whole collection
    for path in (root / "mine" / "v0002").rglob("*"):
        if path.is_file():  # a gzip'd file (format 3: 64 KiB or more) is read decoded
            data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            assert key not in data.decode("utf-8"), path
    assert not list((root / "mine").glob(".record-*")), "recorder checkpoints are cleaned up"

    # The published version replays offline: a page never requested while recording.
    pytester.makepyfile(test_rec=REPLAY)
    result = pytester.runpytest(
        "-q", *FAST, f"--kopa-cassettes={root}", "--kopa-set=mine",
    )
    result.assert_outcomes(passed=1)


def test_a_missing_set_names_the_pytest_option_and_rewrite(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(test_empty="def test_it(kopa_resolver):\n    pass\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = pytester.runpytest_inprocess("-q", *FAST, "--kopa-cassettes", str(empty),
                                          "--kopa-record-mode", "new_episodes", "--kopa-upstream", "http://127.0.0.1:9")
    result.assert_outcomes(errors=1)
    (line,) = [ln for ln in result.stdout.lines if ln.startswith("E ") and "VersionNotFound: " in ln]
    assert "Pass --kopa-cassettes DIR (ini: kopa_cassettes)" in line and "Pass --cassettes DIR" not in line
    assert line.endswith("to record into an empty directory, use --kopa-record-mode rewrite")
