"""Recording what the catalog does not know, through the pytest plugin (issue 17).

A downstream suite calls an uncatalogued data.go.kr service (inferred from MOLIT's platform),
answered by a loopback stand-in upstream; it records it with ``--kopa-record-mode
new_episodes``, then replays offline with the network blocked, where a page of the inferred
endpoint never requested is answered from the recorded collection. Hosts of no catalog
platform are sent to the loopback stand-in too while recording, kept exactly, and replayed
by fingerprint (``patched()`` answers the hosts a version holds).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator import Store, VersionBuilder, load_catalog

from tests.support.loopback import serve_in_thread
from tests.support.standin import SILV, StandIn

pytest_plugins = ["pytester"]
FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")

RECORDING = '''
SILV = "{silv}"

def test_records(kopa_client):
    r = kopa_client.get(SILV, params={{"serviceKey": "k", "LAWD_CD": "11680", "DEAL_YMD": "202607",
                                      "pageNo": "1", "numOfRows": "10"}})
    assert r.status_code == 200 and "<totalCount>23</totalCount>" in r.text
'''

REPLAY = '''
SILV = "{silv}"

def test_replays(kopa_client):
    r = kopa_client.get(SILV, params={{"serviceKey": "x", "LAWD_CD": "11680", "DEAL_YMD": "202607",
                                      "pageNo": "3", "numOfRows": "5"}})
    assert r.headers["x-sim-endpoint"] == "inferred" and r.headers["x-sim-source"] == "window"
    assert "단지10" in r.text and "단지15" not in r.text
'''


def _record_against_the_standin(pytester: pytest.Pytester, root: Path, source: str) -> pytest.RunResult:
    """An empty set ``mine`` at ``root``; one inner session records ``source`` into it."""
    VersionBuilder(Store(root), "mine", load_catalog(), parent=None).publish(
        recorded_at="2026-01-01T00:00:00Z", source="test"
    )
    with serve_in_thread(StandIn()) as base:
        pytester.makepyfile(test_rec=source)
        result = pytester.runpytest_subprocess(
            "-q", *FAST, "--kopa-record-mode=new_episodes",
            f"--kopa-cassettes={root}", "--kopa-set=mine", f"--kopa-upstream={base}",
        )
    result.assert_outcomes(passed=1)
    return result


@pytest.mark.integration
def test_unknown_endpoints_record_and_replay(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root = tmp_path / "cass"
    result = _record_against_the_standin(pytester, root, RECORDING.format(silv=SILV))
    result.stdout.fnmatch_lines(["*kopa-sim: published mine@v0002*"])
    pytester.makepyfile(test_rec=REPLAY.format(silv=SILV))
    result = pytester.runpytest_subprocess("-q", *FAST, f"--kopa-cassettes={root}", "--kopa-set=mine")
    result.assert_outcomes(passed=1)


OTHER_RECORDING = '''
import requests

def test_records_other_hosts(kopa_client):
    r = kopa_client.get("https://api.example.org/v1/thing", params={"id": "7"})
    assert r.status_code == 200 and r.json()["path"] == "/v1/thing"
    # a plain requests call, no kopa fixture: captured and sent to the stand-in too
    r = requests.get("https://data.example.net/x", params={"q": "1"}, timeout=10)
    assert r.status_code == 200 and r.json()["host"] == "data.example.net"
'''

OTHER_REPLAY = '''
import pytest
import requests

def test_replays_other_hosts(kopa_client, kopa_patched):
    r = kopa_client.get("https://api.example.org/v1/thing", params={"id": "7"})
    assert r.headers["x-sim-source"] == "exact" and r.json()["query"] == {"id": "7"}
    r = requests.get("https://data.example.net/x", params={"q": "1"}, timeout=10)
    assert r.headers["x-sim-source"] == "exact" and r.json()["host"] == "data.example.net"
    miss = kopa_client.get("https://api.example.org/v1/thing", params={"id": "8"})
    assert miss.status_code == 404  # never recorded: not answered, and nothing went out
'''


@pytest.mark.integration
def test_hosts_outside_the_catalog_platforms_record_and_replay_exactly(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root = tmp_path / "cass"
    result = _record_against_the_standin(pytester, root, OTHER_RECORDING)
    result.stdout.fnmatch_lines(["*kopa-sim: published mine@v0002*2 interaction(s)*"])
    result.stdout.no_fnmatch_line("*not recorded*")
    result.stdout.no_fnmatch_line("*warning*")
    v = Store(root).open("mine", "v0002")
    assert v.index.uncatalogued_hosts() == ["api.example.org", "data.example.net"]
    pytester.makepyfile(test_rec=OTHER_REPLAY)
    # replay: no upstream, the network blocked (the plugin's default in replay)
    result = pytester.runpytest_subprocess("-q", *FAST, f"--kopa-cassettes={root}", "--kopa-set=mine")
    result.assert_outcomes(passed=1)
