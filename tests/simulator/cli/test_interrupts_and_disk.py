"""Raw tracebacks become one ``error:`` line (issue 31 §8): a full disk under ``bench run`` and
``edge synthesize``, a Ctrl-C in ``record``'s first second (while the command loads), and
``simulator fidelity`` on an address-API body whose request lacks its required keyword."""

from __future__ import annotations

import errno
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

import simulator.cli as cli
from tests.support.helpers import build_demo_version

ROOT = Path(__file__).resolve().parents[3]


def _main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["simulator", *argv])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    return int(exc.value.code or 0), capsys.readouterr().err


def _disk_full_under(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Every file opened for writing under ``folder`` fails as a full disk does."""
    real_open = Path.open

    def open_(self: Path, mode: str = "r", *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if any(c in mode for c in "wax+") and str(self).startswith(str(folder)):
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_open(self, mode, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", open_)


def _one_line_disk_full(code: int, err: str, command: str, folder: Path) -> None:
    assert code == 1 and "Traceback" not in err, err
    last = err.rstrip("\n").split("\n")[-1]  # after the progress lines on stderr
    assert last.startswith(f"error: cannot finish `{command}`: the disk is full at '{folder}"), err
    assert "free space there" in last and err.count("error:") == 1


def test_a_full_disk_under_bench_run_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    store = build_demo_version(tmp_path / "c")
    full = tmp_path / "full"
    _disk_full_under(monkeypatch, full)
    code, err = _main(monkeypatch, capsys, "bench", "run", "--agent", "oracle", "--seeds", "1", "--k", "1",
                      "--tasks", "molit-trade-count-0", "--out", str(full / "run"), "--cassettes", str(store.root))
    _one_line_disk_full(code, err, "simulator bench run", full)


def test_a_full_disk_under_edge_synthesize_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The graph and the synthesis are stood in for (minutes of work that write nothing): the
    # writing of the dataset, where the disk fills, is the command's own.
    store = build_demo_version(tmp_path / "c")
    monkeypatch.setattr("edge.cli.build_graph", lambda *a, **k: SimpleNamespace(graph=None, obs=None))
    monkeypatch.setattr("edge.synth.synthesize",
                        lambda *a, **k: SimpleNamespace(examples=[], report={"attempts": 0, "filters": {}}))
    full = tmp_path / "full"
    _disk_full_under(monkeypatch, full)
    code, err = _main(monkeypatch, capsys, "edge", "synthesize", "--n", "3", "--out", str(full / "synth"),
                      "--cassettes", str(store.root))
    _one_line_disk_full(code, err, "simulator edge synthesize", full)


def test_a_ctrl_c_before_the_recorder_starts_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt  # as a Ctrl-C does while the catalog loads

    monkeypatch.setattr("simulator.cli.record.load_tier", interrupted)
    code, err = _main(monkeypatch, capsys, "record", "--live", "--upstream", "http://127.0.0.1:9",
                      "--cassettes", str(tmp_path / "c"))
    assert code == 130 and "Traceback" not in err, err
    assert err == "error: interrupted: nothing was published; run the same command again to start over\n"


#: Run the console script's entry point with a Ctrl-C arriving while ``simulator`` imports yaml.
_IMPORT_INTERRUPTED = """
import importlib, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "yaml":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
module, _, func = sys.argv[1].partition(":")
sys.argv = ["simulator", "record", "--live"]
getattr(importlib.import_module(module), func)()
"""


def test_a_ctrl_c_while_the_console_script_imports_is_one_line() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    proc = subprocess.run([sys.executable, "-c", _IMPORT_INTERRUPTED, scripts["simulator"]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT)})
    assert proc.returncode == 130 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr == "error: interrupted while starting: nothing was done\n"


def test_fidelity_of_a_juso_body_without_its_keyword_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    body = tmp_path / "juso.json"
    body.write_text('{"results":{"common":{"errorCode":"0","errorMessage":"정상","totalCount":"1",'
                    '"currentPage":"1","countPerPage":"10"},"juso":[{"roadAddr":"서울특별시 종로구 세종대로 209"}]}}',
                    encoding="utf-8")
    url = ("https://business.juso.go.kr/addrlink/addrLinkApi.do?confmKey=secret-key-0&currentPage=1"
           "&countPerPage=10&resultType=json")
    code, err = _main(monkeypatch, capsys, "fidelity", str(body), "--request", url)
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert "juso_address_search" in err and "keyword is required" in err and "--request" in err
    assert "secret-key-0" not in err and "confmKey=REDACTED" in err
