"""One-line errors that name the fix, `simulator --version`, metavars that read well (#18)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import simulator
import simulator.cli as cli
from simulator.cli.extras import install_hint, missing_module

runner = CliRunner()


def _main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["simulator", *argv])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    return int(exc.value.code or 0), capsys.readouterr().err


def test_version() -> None:
    r = runner.invoke(cli.app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"kopa-sim {simulator.__version__}"


def test_install_hints_name_the_extra() -> None:
    assert install_hint("torch") == "pip install 'kopa-sim[train]'"
    assert install_hint("matplotlib.pyplot") == "pip install 'kopa-sim[plots]'"
    assert install_hint("mcp") == "pip install 'kopa-sim[mcp]'"
    assert install_hint("somelib") == "pip install somelib"


def test_a_wrapped_missing_module_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    app = typer.Typer()

    @app.command()
    def grpo() -> None:
        try:
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        except ModuleNotFoundError as exc:  # as TRL does: its own error, the import as cause
            raise RuntimeError("Failed to import trl.trainer.grpo_trainer") from exc

    @app.command()
    def other() -> None:
        raise RuntimeError("not an import problem")

    monkeypatch.setattr(cli, "app", app)
    code, err = _main(monkeypatch, capsys, "grpo")
    assert code == 1 and err == "error: torch is not installed: pip install 'kopa-sim[train]'\n"
    with pytest.raises(RuntimeError, match="not an import problem"):
        _main(monkeypatch, capsys, "other")


def test_missing_module_walks_the_chain() -> None:
    try:
        try:
            import kopa_sim_no_such_module  # type: ignore[import-not-found]  # noqa: F401
        except ImportError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as exc:
        assert missing_module(exc) == "kopa_sim_no_such_module"
    assert missing_module(RuntimeError("x")) is None


def test_a_missing_cassette_set_is_one_line_in_bench(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _main(monkeypatch, capsys, "bench", "tasks", "--cassettes", str(tmp_path))
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("error: no cassette set='kopa' in ") and "--cassettes DIR" in err


def test_cassette_options_have_named_metavars() -> None:
    r = runner.invoke(cli.app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert "--cassettes" in r.output and " DIR " in r.output and " NAME " in r.output and " VERSION " in r.output


def test_a_first_open_of_a_large_version_says_it_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from simulator.cli import common
    from tests.support.helpers import build_demo_version

    build_demo_version(tmp_path, n=10)
    monkeypatch.setattr(common, "NOTICE_BYTES", 1)  # the demo version counts as large
    r = runner.invoke(cli.app, ["inspect", "--cassettes", str(tmp_path)])
    assert r.exit_code == 0 and "compiling the index of kopa@v0001" in r.output
    r = runner.invoke(cli.app, ["inspect", "--cassettes", str(tmp_path)])  # cached now: silent
    assert r.exit_code == 0 and "compiling" not in r.output


def test_the_console_script_help_reads_well(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "argv", ["simulator", "inspect", "--help"])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    out = capsys.readouterr().out
    assert exc.value.code == 0
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│ --")}
    assert " TEXT " in lines["--endpoint"] and "<" not in lines["--json"] and " DIR " in lines["--cassettes"]
    assert "<" not in lines["--help"]  # typer wrote ``--help <bool>``


def test_bench_report_keeps_the_extra_in_its_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.kopa import cli as bench_cli
    from bench.kopa import report

    def no_plots(out: Path) -> None:  # the summary a machine without matplotlib writes
        (out / "summary.md").write_text(report.PLOTS_SKIPPED + "\n", encoding="utf-8")

    monkeypatch.setattr(report, "write_report", no_plots)
    monkeypatch.setenv("COLUMNS", "400")
    r = runner.invoke(bench_cli.bench_app, ["report", str(tmp_path)])
    # rich may wrap the line where the terminal is narrow (xdist workers have none): the
    # install command must still be whole, whatever the line breaks
    assert r.exit_code == 0 and "pip install 'kopa-sim[plots]'" in " ".join(r.output.split())


def test_inspect_an_unrecorded_endpoint_says_did_you_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.helpers import build_demo_version

    build_demo_version(tmp_path, n=10)
    code, err = _main(monkeypatch, capsys, "inspect", "--cassettes", str(tmp_path), "--endpoint", "tago_station_by_name")
    assert code == 1 and err.count("\n") == 1
    assert "--endpoint='tago_station_by_name' is not recorded" in err and "did you mean 'tago_stations_by_name'?" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agent", "nope"], "error: --agent 'nope': unknown agent 'nope'; use oracle,"),
        (["--agent", "oracle", "--tasks", "no-such-task"], "error: --tasks: no task no-such-task;"),
        (["--agent", "oracle", "--seeds", "0"], "error: --seeds 0: run at least one seed per task"),
        (["--agent", "oracle", "--seeds", "2", "--k", "9"], "error: --k 9: pass@k needs 1 ≤ k ≤ --seeds (2)"),
        (["--agent", "oracle", "--workers", "0"], "error: --workers 0: use 1 or more"),
    ],
)
def test_bench_run_bad_arguments_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, err = _main(monkeypatch, capsys, "bench", "run", "--out", str(tmp_path / "out"), *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith(message)
    assert not (tmp_path / "out").exists()


def test_edge_synthesize_refuses_a_non_positive_n(tmp_path: Path) -> None:
    r = runner.invoke(cli.app, ["edge", "synthesize", "--n", "0", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "'--n'" in r.output
    assert not (tmp_path / "o").exists()


def test_a_ctrl_c_during_record_says_how_to_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from simulator.record import Recorder

    def interrupted(self: Recorder, **_kw: object) -> None:
        self.checkpoint_dir.mkdir(parents=True, exist_ok=True)
        self.checkpoint.write_text("", encoding="utf-8")  # what a job checkpoints before Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(Recorder, "run", interrupted)
    r = runner.invoke(cli.app, ["record", "--live", "--upstream", "http://127.0.0.1:9", "--cassettes", str(tmp_path)])
    assert r.exit_code == 130
    assert "interrupted: nothing was published; 0 collections are checkpointed in " in r.output
    assert "run the same command again to resume" in r.output


@pytest.mark.parametrize("upstream", ["not-a-url", "127.0.0.1:8790", "ftp://127.0.0.1/"])
def test_record_refuses_an_upstream_that_is_not_a_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], upstream: str
) -> None:
    # It used to retry every request five times (UnsupportedProtocol) before giving up.
    code, err = _main(monkeypatch, capsys, "record", "--live", "--upstream", upstream,
                      "--cassettes", str(tmp_path / "c"))
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"error: --upstream={upstream!r} is not an http(s) URL") and "http://127.0.0.1:8790" in err
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("command", [["serve"], ["sandbox", "serve"]])
def test_serve_on_a_busy_port_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    import socket

    from tests.support.helpers import build_demo_version

    build_demo_version(tmp_path, n=10)
    monkeypatch.setenv("KOPA_CACHE", str(tmp_path / "cache"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        extra = ["--cassettes", str(tmp_path)] if command == ["serve"] else []
        code, err = _main(monkeypatch, capsys, *command, "--port", str(port), *extra)
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port} (") and "pass another --port" in err


def test_serve_refuses_zero_workers(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _main(monkeypatch, capsys, "serve", "--workers", "0")
    assert code == 1 and err.count("\n") == 1 and "--workers=0: serve with 1 or more worker processes" in err
