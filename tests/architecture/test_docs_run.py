"""The README's and ``docs/*.md``'s code blocks that claim an output are run, and must print it.

A *claim* is a trailing comment on an expression statement of a ``python`` block::

    print(r.headers["x-sim-source"], total)   # window 3120      -> the printed line
    OpenDartReader("k").company("005930")["corp_name"]   # '삼성전자(주)'  -> repr() of the value

and every ``$ command`` of a ``console`` block, whose following lines are its output. A claim may
add an explanation after ``: `` (``# True False query: right answer, calls missing``); the output
must equal the claim or the part before that explanation. Blocks without a claim are prose-like
examples and are not run here (the features they show have their own tests).
"""

from __future__ import annotations

import ast
import doctest
import io
import re
import shlex
import subprocess
import sys
import tokenize
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
#: console blocks whose command takes minutes run only with the slow tests
SLOW_COMMANDS = ("simulator edge graph",)


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int
    lang: str
    source: str

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"


def _blocks() -> list[Block]:
    out: list[Block] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            out.append(Block(doc, text[: m.start()].count("\n") + 1, m.group(1), m.group(2)))
    return out


def _comments(source: str) -> dict[int, str]:
    """Line number -> the text of the comment on that line."""
    found: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string.lstrip("#").strip()
    return found


def python_claims(source: str) -> dict[int, str]:
    """The claimed outputs of a python block, by the line of the statement that makes them.

    >>> python_claims('x = 1   # not a claim\\nprint(x)   # 1\\nx + 1  # 2\\n')
    {2: '1', 3: '2'}
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}  # test_python_blocks_parse names it
    comments = _comments(source)
    return {
        node.end_lineno: comments[node.end_lineno]
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and node.end_lineno in comments
    }


class _Recorder(ast.NodeTransformer):
    """Wraps each claiming expression so its output is recorded under its line."""

    def __init__(self, lines: set[int]) -> None:
        self.lines = lines

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if node.end_lineno not in self.lines:
            return node
        call = node.value
        is_print = isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"
        fn = "__claim_print__" if is_print else "__claim_value__"
        args = call.args if is_print and isinstance(call, ast.Call) else [call]
        new = ast.Call(ast.Name(fn, ast.Load()), [ast.Constant(node.end_lineno), *args], [])
        return ast.copy_location(ast.Expr(ast.copy_location(new, node)), node)


def run_python(source: str, cwd: Path) -> dict[int, str]:
    claims = python_claims(source)
    tree = ast.fix_missing_locations(_Recorder(set(claims)).visit(ast.parse(source)))
    got: dict[int, str] = {}

    def claim_print(line: int, *args: Any) -> None:
        got[line] = " ".join(str(a) for a in args)

    def claim_value(line: int, value: Any) -> None:
        got[line] = repr(value)

    namespace = {"__name__": "__docs__", "__claim_print__": claim_print, "__claim_value__": claim_value}
    with redirect_stdout(io.StringIO()):
        exec(compile(tree, "<docs>", "exec"), namespace)  # noqa: S102 - the docs' own code
    return got


def matches(claim: str, output: str) -> bool:
    """The output is the claim, or the claim's part before an explanation after ``: ``.

    >>> matches("True False query: right answer", "True False query"), matches("200 query", "200 window")
    (True, False)
    """
    return output == claim or claim.startswith(output + ": ")


def console_commands(source: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines of a console block with the output lines after each."""
    out: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python" and python_claims(b.source)]
CONSOLE = [b for b in BLOCKS if b.lang == "console"]


def test_claims_are_found() -> None:
    # the README's own snippets claim outputs: if this finds none, the parser is broken
    assert len(PYTHON) >= 4 and len(CONSOLE) >= 2, ([b.id for b in PYTHON], [b.id for b in CONSOLE])


def _is_doctest(block: Block) -> bool:
    return block.source.lstrip().startswith(">>>")


def test_python_blocks_parse() -> None:
    bad = []
    for b in BLOCKS:
        if b.lang == "python":
            sources = ([e.source for e in doctest.DocTestParser().get_examples(b.source)]
                       if _is_doctest(b) else [b.source])
            for src in sources:
                try:
                    ast.parse(src)
                except SyntaxError as e:
                    bad.append(f"{b.id} (+{e.lineno}): {e.msg}")
    assert not bad, bad


DOCTESTS = [b for b in BLOCKS if b.lang == "python" and _is_doctest(b)]


@pytest.mark.parametrize("block", DOCTESTS, ids=[b.id for b in DOCTESTS])
def test_doctest_block_runs(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a ``>>>`` block claims each of its outputs: run it as doctest runs a docstring
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(block.source, {}, block.id, str(block.doc), block.line)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_python_block_prints_what_it_claims(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    got = run_python(block.source, tmp_path)
    wrong = {line: (claim, got.get(line)) for line, claim in python_claims(block.source).items()
             if not matches(claim, got.get(line, "<not run>"))}
    assert not wrong, f"{block.id}: claimed vs printed, by line of the block: {wrong}"


def _console_param(block: Block) -> Any:
    slow = any(c.startswith(SLOW_COMMANDS) for c, _ in console_commands(block.source))
    return pytest.param(block, id=block.id, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("block", [_console_param(b) for b in CONSOLE])
def test_console_block_prints_what_it_shows(block: Block, tmp_path: Path) -> None:
    for command, shown in console_commands(block.source):
        argv = shlex.split(command)
        assert argv[0] == "simulator", f"{block.id}: only simulator commands are run: {command!r}"
        done = subprocess.run([sys.executable, "-m", "simulator", *argv[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{block.id}: {command!r} failed:\n{done.stderr[-2000:]}"
        printed = [line.rstrip() for line in done.stdout.splitlines()]
        expected = [line.rstrip() for line in shown]
        assert printed == expected, f"{block.id}: {command!r} printed\n" + "\n".join(printed)
