"""``simulator vcr import`` publishes the next free version of the set, whatever the install
holds, so it names that version and how to pin it; docs/migrating.md never guesses the name."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from simulator.cli import app

from tests.support.helpers import build_demo_version

CITIES = "apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList"
MIGRATING = Path(__file__).resolve().parents[3] / "docs" / "migrating.md"


def _cassette(path: Path) -> Path:
    data = {"version": 1, "interactions": [{
        "request": {"body": None, "headers": {}, "method": "GET", "uri": f"https://{CITIES}?serviceKey=REDACTED&_type=xml"},
        "response": {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": "<response/>"}},
    }]}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_import_names_the_version_it_published_and_how_to_pin_it(tmp_path: Path) -> None:
    root = tmp_path / "cassettes"
    build_demo_version(root)
    build_demo_version(root)  # two versions already: the import is the third
    r = CliRunner().invoke(app, ["vcr", "import", str(_cassette(tmp_path / "c.yaml")), "--cassettes", str(root)])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("published kopa@v0003 (")
    assert "parent: v0002" in r.stdout
    assert "pin it in tests: @pytest.mark.kopa(version='v0003') or --kopa-version v0003" in r.stdout


def test_migrating_guide_names_no_fixed_version_for_the_import() -> None:
    text = MIGRATING.read_text(encoding="utf-8")
    step1 = text.split("## Step 1", 1)[1].split("## Step 3", 1)[0]
    # the import's name is the next free version of the install: printed, never guessed
    assert not re.search(r"import is `kopa@v\d{4}`", step1)
    assert not re.search(r'version="v\d{4}"\)\s+# the version the import published', step1)
    assert "pin it in tests" in step1
