"""``simulator audit``: a clean version passes (the shipped one included); a copy with a key
planted in each kind of place — manifest, interaction URL, stored header, echoed body,
collection record, key path segment, compiled index — is caught, the right file named, and
neither the text nor the JSON output ever contains the key."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from pathlib import Path
from typing import Callable
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from simulator import load_catalog
from simulator.audit import audit_version, mask, scan_text
from simulator.cli import app
from simulator.request import SimRequest, SimResponse
from simulator.store import Store, VersionBuilder
from simulator.store.index import iter_entries

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parents[3] / "cassettes"


def _invoke(*args: str) -> tuple[int, str]:
    """Exit code and output; with ``--json``, stdout only (the fix hint goes to stderr)."""
    r = runner.invoke(app, list(args))
    return r.exit_code, (r.stdout if "--json" in args else r.output)


def _forms(key: str) -> list[str]:
    return [key, quote(key, safe=""), quote(quote(key, safe=""), safe="")]


@pytest.fixture(scope="module")
def clean_version(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A small version recorded with a key in the query, in the path and echoed in a body
    (the builder scrubs them), plus the shipped ECOS collections; its index compiled."""
    root = tmp_path_factory.mktemp("audit")
    cassettes, cache = root / "cassettes", root / "cache"
    catalog = load_catalog()
    dart_key, seoul_key = secrets.token_hex(20), secrets.token_hex(15)
    shipped = Store(SHIPPED).manifest("kopa")
    b = VersionBuilder(Store(cassettes, cache), "kopa", catalog, parent=None, secrets=[dart_key, seoul_key])
    for e in iter_entries(SHIPPED / "kopa" / shipped.version, shipped, "collections"):
        if e["endpoint"].startswith("ecos_"):
            b.add_collection(endpoint=e["endpoint"], key=e["key"], filters=e["filters"], fmt=e["fmt"],
                             total=e["total"], records=e["records"], envelope=e["envelope"])
    b.add_interaction(
        SimRequest.from_url(f"https://opendart.fss.or.kr/api/company.json?crtfc_key={dart_key}&corp_code=00126380"),
        SimResponse(200, [("content-type", "application/json"), ("x-api-key", dart_key)],
                    json.dumps({"status": "000", "echo": f"crtfc_key={dart_key}", "raw": dart_key}).encode()),
    )
    b.add_interaction(
        SimRequest.from_url(f"http://openapi.seoul.go.kr:8088/{seoul_key}/json/SeoulPublicLibraryInfo/1/5"),
        SimResponse(200, [("content-type", "application/json")], b'{"SeoulPublicLibraryInfo":{"list_total_count":0}}'),
    )
    m = b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    Store(cassettes, cache).open("kopa")  # compile the index into the cache
    return cassettes, cache, m.version


def test_clean_version_passes(clean_version: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    cassettes, cache, version = clean_version
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    report = audit_version(Store(cassettes, cache), "kopa", version)
    assert report.ok, [str(f) for f in report.findings]
    assert report.index is not None and report.index_rows > 0
    assert {"manifest.json", "collections/ecos.jsonl", "interactions/opendart.jsonl",
            "interactions/seoul.jsonl"} <= set(report.files)
    code, out = _invoke("audit", "--cassettes", str(cassettes), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["ok"] is True and data["findings"] == [] and data["index_rows_scanned"] > 0
    code, out = _invoke("audit", version, "--cassettes", str(cassettes))
    assert code == 0 and "clean" in out


def test_shipped_cassettes_audit_clean() -> None:
    code, out = _invoke("audit", str(SHIPPED / "kopa" / Store(SHIPPED).manifest("kopa").version))
    assert code == 0, out
    assert "clean" in out


def test_unknown_version_is_a_usage_error(clean_version: tuple[Path, Path, str]) -> None:
    code, out = _invoke("audit", "v9999", "--cassettes", str(clean_version[0]))
    assert code == 2 and "known: v0001" in out


def _edit_line(path: Path, contains: str, edit: Callable[[str], str]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if contains in line)
    lines[i] = edit(lines[i])
    path.write_text("".join(lines), encoding="utf-8")


def _dart_key() -> str:
    return secrets.token_hex(20)


def _datagokr_key() -> str:
    return secrets.token_urlsafe(48).replace("-", "+").replace("_", "/") + "=="


#: (case, file the key lands in, kind the audit must report, planter(version dir, key), key maker)
PLANTS: list[tuple[str, str, str, Callable[[Path, str], None], Callable[[], str]]] = [
    ("manifest info", "manifest.json", "key_param",
     lambda v, k: _edit_line(v / "manifest.json", '"source"',
                             lambda s: s.replace('"source"', f'"note": "?serviceKey={quote(k, safe="")}",\n  "source"')),
     _datagokr_key),
    ("interaction url query", "interactions/opendart.jsonl", "key_param",
     lambda v, k: _edit_line(v / "interactions/opendart.jsonl", "crtfc_key=REDACTED",
                             lambda s: s.replace("crtfc_key=REDACTED", f"CRTFC_KEY={k}")),
     _dart_key),
    ("stored header", "interactions/opendart.jsonl", "auth_header",
     lambda v, k: _edit_line(v / "interactions/opendart.jsonl", '"headers":[',
                             lambda s: s.replace('"headers":[', f'"headers":[["authorization","Bearer {k}"],')),
     lambda: "tok" + secrets.token_hex(8)),
    ("echoed body, bare 40-hex", "interactions/opendart.jsonl", "hex40_token",
     lambda v, k: _edit_line(v / "interactions/opendart.jsonl", '"status\\":',
                             lambda s: s.replace('\\"status\\":', f'\\"corp\\":\\"{k}\\",\\"status\\":')),
     _dart_key),
    ("key path segment (Seoul)", "interactions/seoul.jsonl", "path_key",
     lambda v, k: _edit_line(v / "interactions/seoul.jsonl", "/REDACTED/",
                             lambda s: s.replace("/REDACTED/", f"/{k}/")),
     lambda: "k" + secrets.token_hex(6)),
    ("collection record, encoded data.go.kr key", "collections/ecos.jsonl", "encoded_key",
     lambda v, k: _edit_line(v / "collections/ecos.jsonl", '"%"]',
                             lambda s: s.replace('"%"]', f'"{quote(k, safe="")}"]', 1)),
     _datagokr_key),
    ("collection record, ECOS key in a link", "collections/ecos.jsonl", "path_key",
     lambda v, k: _edit_line(v / "collections/ecos.jsonl", '"%"]',
                             lambda s: s.replace('"%"]', f'"https://ecos.bok.or.kr/api/StatisticTableList/{k}/json/kr/1/10"]', 1)),
     lambda: secrets.token_hex(10).upper()),
    ("collection record, law.go.kr OC in any case", "collections/ecos.jsonl", "key_param",
     lambda v, k: _edit_line(v / "collections/ecos.jsonl", '"%"]',
                             lambda s: s.replace('"%"]', f'"lawService.do?oc={k}&ID=1"]', 1)),
     lambda: "user" + secrets.token_hex(3)),
    ("unlisted file, Seoul-style path token", "extra.txt", "path_token",
     lambda v, k: (v / "extra.txt").write_text(f"GET http://example.org/{k}/xml/x\n", encoding="utf-8"),
     lambda: "a1" + secrets.token_hex(15)),
]


@pytest.mark.parametrize("case,file,kind,plant,make", PLANTS, ids=[p[0] for p in PLANTS])
def test_planted_key_is_caught(clean_version: tuple[Path, Path, str], tmp_path: Path, case: str, file: str,
                               kind: str, plant: Callable[[Path, str], None], make: Callable[[], str]) -> None:
    src, cache, version = clean_version
    cassettes = tmp_path / "cassettes"
    shutil.copytree(src, cassettes)
    key = make()
    vdir = cassettes / "kopa" / version
    plant(vdir, key)
    code, out = _invoke("audit", str(vdir), "--no-index")
    assert code == 1, out
    assert f"{file}:line " in out, out
    assert kind in out
    code, js = _invoke("audit", version, "--cassettes", str(cassettes), "--json", "--no-index")
    assert code == 1
    findings = json.loads(js)["findings"]
    assert {(f["file"], f["kind"]) for f in findings} == {(file, kind)}, findings
    assert mask(key) in out or kind != "key_param" or any("masked" in f["excerpt"] for f in findings)
    for form in _forms(key):
        assert form not in out and form not in js, f"{case}: the audit printed the key"


def test_planted_key_in_compiled_index(clean_version: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    src, cache, version = clean_version
    cassettes, cache2 = tmp_path / "cassettes", tmp_path / "cache"
    shutil.copytree(src, cassettes)
    shutil.copytree(cache, cache2)
    monkeypatch.setenv("KOPA_CACHE", str(cache2))
    store = Store(cassettes, cache2)
    index = store.index_path(store.manifest("kopa", version))
    key = _dart_key()
    with sqlite3.connect(index) as conn:
        conn.execute("UPDATE records SET data = ? WHERE coll = 1 AND idx = 0",
                     (json.dumps({"url": f"https://opendart.fss.or.kr/api/list.json?crtfc_key={key}"}),))
    code, out = _invoke("audit", "--cassettes", str(cassettes))
    assert code == 1, out
    assert f"index:{index.name}:table records row (" in out and "column data" in out
    assert key not in out
    code, out = _invoke("audit", "--cassettes", str(cassettes), "--no-index")
    assert code == 0, out  # the text itself is clean: only the cache was touched


def test_scan_text_masks_every_secret_in_an_excerpt() -> None:
    dart, seoul = secrets.token_hex(20), "s" + secrets.token_hex(16)
    text = (f"https://opendart.fss.or.kr/api/list.json?crtfc_key={dart}&page_no=1 "
            f"http://openapi.seoul.go.kr:8088/{seoul}/xml/SeoulPublicLibraryInfo/1/5")
    found = scan_text(text)
    assert [k for k, _l, _e in found] == ["key_param", "path_key"]
    for _kind, _label, excerpt in found:
        assert dart not in excerpt and seoul not in excerpt
    # Placeholders and digests are not findings.
    assert scan_text("serviceKey=REDACTED&KEY=sample&OC=test /{KEY}/json KEY=sandbox-seoul") == []
    assert scan_text('{"fp":"' + secrets.token_hex(16) + '","request":"GET x"}') == []


def test_a_prebuilt_index_of_a_read_only_root_is_scanned(clean_version: tuple[Path, Path, str],
                                                         tmp_path: Path) -> None:
    # An installed wheel replays from the index prebuilt beside its read-only cassettes, never
    # from the cache: the audit scans that one (it said "index not cached (not scanned)").
    from simulator.store.roots import SHIPPED_INDEX, Roots

    src, cache, version = clean_version
    shipped = tmp_path / "shipped"
    shutil.copytree(src, shipped)
    compiled = Store(src, cache)
    m = compiled.manifest("kopa", version)
    (shipped / SHIPPED_INDEX).mkdir()
    shutil.copy(compiled.index_path(m), shipped / SHIPPED_INDEX / compiled.index_path(m).name)
    store = Store(roots=Roots(tmp_path / "user", (tmp_path / "user", shipped), "user data dir"),
                  cache_dir=tmp_path / "empty-cache")
    report = audit_version(store, "kopa", version)
    assert report.ok and report.index == str(shipped / SHIPPED_INDEX / compiled.index_path(m).name)
    assert report.index_rows > 0
    assert audit_version(store, "kopa", version, scan_index=False).index is None


def test_a_key_like_name_the_catalog_takes_as_a_code_is_no_key() -> None:
    """SEMAS sdsc2 names its area code ``key`` (role filter): ``key=11680`` is a code, while a
    real key under the same name (NEIS ``KEY``), or a long value, is still a finding."""
    catalog = load_catalog()
    code = '{"coll":"datagokr_misc_semas_store_list_in_dong?divId=signguCd&key=11680","filters":{"key":"11680"}}'
    assert scan_text(code, catalog) == []
    leak = secrets.token_hex(16)
    kinds = [h[0] for h in scan_text(f"https://open.neis.go.kr/hub/schoolInfo?KEY={leak}&Type=json", catalog)]
    assert "key_param" in kinds
    assert [h[0] for h in scan_text('{"filters":{"key":"12345678901"}}', catalog)] == ["key_param"]
