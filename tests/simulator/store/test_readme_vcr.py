"""The README's vcr export example, run as written (issue #18): the export holds the plain
request (no paging params) the README's Python snippet sends, so vcrpy replays it."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import vcr

from simulator import load_catalog
from simulator.vcr import export_vcr, kopa_vcr_config
from tests.support.helpers import build_demo_version

REPO = Path(__file__).resolve().parents[3]
README = REPO / "README.md"
STATIONS = "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"


def _vcr_example() -> tuple[str, str]:
    """The README's ``simulator vcr export`` command and the Python block after it."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## vcrpy cassettes and MCP", 1)[1]
    command = next(line.split("#")[0].strip() for line in section.splitlines() if "simulator vcr export" in line)
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    return command, code.group(1)


def test_export_holds_the_plain_request_of_a_collection(tmp_path: Path) -> None:
    from simulator import Store

    build_demo_version(tmp_path / "c", n=57)
    out = tmp_path / "kopa.yaml"
    export_vcr(Store(tmp_path / "c").open("kopa"), load_catalog(), out, max_pages=20)
    with vcr.use_cassette(str(out), **kopa_vcr_config()):
        r = httpx.get(STATIONS, params={"serviceKey": "MY_KEY", "cityCode": "25", "_type": "json"})
    body = r.json()["response"]["body"]
    assert body["totalCount"] == 57 and len(body["items"]["item"]) == 10  # the default page


@pytest.mark.slow
def test_readme_vcr_example_runs_as_written(tmp_path: Path) -> None:
    command, code = _vcr_example()
    argv = shlex.split(command)
    assert argv[:3] == ["simulator", "vcr", "export"] and argv[3] == "/tmp/kopa.yaml"
    out = tmp_path / "kopa.yaml"  # the README's /tmp/kopa.yaml, kept inside the test's dir
    argv[3] = str(out)
    subprocess.run([sys.executable, "-m", "simulator", *argv[1:]], check=True, cwd=REPO)
    # The README's code with its path moved into the test's dir, and its answer printed.
    code = code.replace("/tmp/kopa.yaml", str(out)).replace("    httpx.get(", "    _r = httpx.get(", 1)
    code += "\nprint(_r.json()['response']['body']['totalCount'])\n"
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO)
    assert int(done.stdout.split()[-1]) > 0
