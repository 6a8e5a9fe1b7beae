"""Sixteen-plus encodings of a key echoed by a server: none is stored, and ``audit`` finds
each one in a version that holds it (issue 31 §4).

The four encodings that used to be stored unmasked: every byte %-encoded (``%6B%65…``), HTML
numeric entities for every character (decimal ``&#107;`` and hex ``&#x6b;``), JSON ``\\uXXXX``
escapes, and a 14–20-character prefix of a key. Each row of ``ENCODINGS`` is one form; every
form is recorded (body, kept header, collection record) through ``VersionBuilder`` with the
key configured, published, compiled and exported to vcrpy, and an independent decoder finds
no key in any file. Then each form is written unscrubbed into a version folder and ``simulator
audit`` must exit 1 naming it, with the keys configured, and (for the escaped forms) without.
"""

from __future__ import annotations

import base64
import html
import json
import re
import secrets as _secrets
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote

import pytest
from typer.testing import CliRunner

from simulator import SimRequest, SimResponse, Store, VersionBuilder, load_catalog
from simulator.cli import app as cli_app
from simulator.vcr import export_vcr

CATALOG = load_catalog()


def _keys() -> list[str]:
    """Keys shaped like the platforms' (made at run time, never real ones)."""
    while True:
        decoding = base64.b64encode(_secrets.token_bytes(48)).decode()
        if "+" in decoding and "/" in decoding:
            break
    return [
        _secrets.token_hex(20),  # OpenDART crtfc_key
        decoding,  # data.go.kr "Decoding" key
        quote(decoding, safe=""),  # data.go.kr "Encoding" key
        "".join(c for c in _secrets.token_urlsafe(40) if c.isalnum())[:40],  # Seoul path key
        _secrets.token_hex(16).upper(),  # Assembly
    ]


def _pct_all(k: str) -> str:
    return "".join(f"%{b:02X}" for b in k.encode())


#: (name, encode, audit finds it without the keys configured). Prefix rows cut the decoded key.
ENCODINGS: list[tuple[str, Callable[[str], str], bool]] = [
    ("raw", lambda k: k, False),
    ("lower case", lambda k: k.lower(), False),
    ("upper case", lambda k: k.upper(), False),
    ("%-encoded", lambda k: quote(k, safe=""), False),
    ("%-encoded twice", lambda k: quote(quote(k, safe=""), safe=""), False),
    ("form-encoded", lambda k: quote_plus(k), False),
    ("HTML-escaped", lambda k: html.escape(k), False),
    ("JSON escaped slash", lambda k: k.replace("/", "\\/"), False),
    ("base64", lambda k: base64.b64encode(k.encode()).decode(), False),
    ("base64 URL-safe", lambda k: base64.urlsafe_b64encode(k.encode()).decode(), False),
    ("decoded Encoding key", lambda k: unquote(k), False),
    # the four that were stored unmasked
    ("every byte %-encoded", lambda k: _pct_all(unquote(k)), True),
    ("every byte %-encoded, lower hex", lambda k: _pct_all(unquote(k)).lower(), True),
    ("every byte %-encoded twice", lambda k: quote(_pct_all(unquote(k)), safe=""), True),
    ("HTML decimal entities", lambda k: "".join(f"&#{ord(c)};" for c in unquote(k)), True),
    ("HTML hex entities", lambda k: "".join(f"&#x{ord(c):x};" for c in unquote(k)), True),
    ("HTML hex entities, upper", lambda k: "".join(f"&#X{ord(c):X};" for c in unquote(k)), True),
    ("JSON \\u escapes", lambda k: "".join(f"\\u{ord(c):04x}" for c in unquote(k)), True),
    ("JSON \\u escapes, upper", lambda k: "".join(f"\\u{ord(c):04X}" for c in unquote(k)), True),
    ("14-character prefix", lambda k: unquote(k)[:14], False),
    ("17-character prefix", lambda k: unquote(k)[:17], False),
    ("20-character prefix", lambda k: unquote(k)[:20], False),
]

_UNIT = re.compile(r"%(?:25)?[0-9A-Fa-f]{2}|&#[0-9]{1,5};|&#[xX][0-9A-Fa-f]{1,4};|\\+u[0-9A-Fa-f]{4}")


def _unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        u = m.group(0)
        if u.startswith("%"):
            return chr(int(u[-2:], 16))
        if u[:3].lower() == "&#x":
            return chr(int(u[3:-1], 16))
        if u.startswith("&#"):
            return chr(int(u[2:-1]))
        return chr(int(u[-4:], 16))

    return _UNIT.sub(one, text)


def leaks(text: str, keys: list[str]) -> list[str]:
    """Keys (or 14-character prefixes of them) found in ``text`` by an independent decoder."""
    views = {text, unquote(text), unquote(unquote(text)), html.unescape(text), text.replace("\\/", "/"),
             _unescape(text), _unescape(_unescape(text)), json.dumps(text)}
    for tok in re.findall(r"[A-Za-z0-9+/=_\-]{12,}", text):
        for skip in range(4):
            body = tok[skip:]
            for dec in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    views.add(dec(body + "=" * (-len(body) % 4)).decode("latin-1"))
                except ValueError:
                    pass
    low = [v.lower() for v in views]
    return [f"{k[:4]}… ({form_name})" for k in keys
            for form_name, form in (("key", k), ("decoded", unquote(k)), ("prefix", unquote(k)[:14]))
            if any(form.lower() in v for v in low)]


def test_the_decoder_sees_every_encoding() -> None:
    keys = _keys()
    for name, enc, _ in ENCODINGS:
        for k in keys:
            assert leaks(enc(k), [k]), name
    assert len(ENCODINGS) >= 16


@pytest.mark.parametrize("name,enc", [(n, e) for n, e, _ in ENCODINGS], ids=[n for n, _, _ in ENCODINGS])
def test_no_encoding_is_stored(tmp_path: Path, name: str, enc: Callable[[str], str]) -> None:
    keys = _keys()
    store = Store(tmp_path / "cassettes", cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "kopa", CATALOG, parent=None, secrets=keys)
    for i, key in enumerate(keys):
        form = enc(key)
        body = json.dumps({"echo": form, "note": f"key {form} was used", "nested": json.dumps({"k": form})},
                          ensure_ascii=False)
        headers = [("content-type", "application/json; charset=UTF-8"),
                   ("content-disposition", f'attachment; filename="{form}.zip"')]
        url = f"https://apis.data.go.kr/1613000/Echo/get{i}?q={i}"
        b.add_interaction(SimRequest.from_url(url), SimResponse(200, headers, body.encode()))
    b.add_collection(
        endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25", filters={"cityCode": "25"},
        fmt="json", total=len(keys),
        records=[{"nodeid": f"N{i}", "nodenm": f"정류장 {enc(k)}", "nodeno": i} for i, k in enumerate(keys)],
    )
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    version = store.open("kopa")
    export_vcr(version, CATALOG, tmp_path / "export.yaml")
    found = []
    for p in sorted(tmp_path.rglob("*")):
        if p.is_file():
            text = p.read_bytes().decode("utf-8", "replace")
            found += [f"{p.relative_to(tmp_path)}: {x}" for x in leaks(text, keys)]
    assert found == [], name


@pytest.mark.parametrize("name,enc,blind", ENCODINGS, ids=[n for n, _, _ in ENCODINGS])
def test_audit_finds_every_encoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                                    enc: Callable[[str], str], blind: bool) -> None:
    keys = _keys()
    vdir = tmp_path / "kopa" / "v0001"
    vdir.mkdir(parents=True)
    lines = [json.dumps({"body": f"echo {enc(k)} end"}, ensure_ascii=False) for k in keys]
    (vdir / "leak.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (vdir / "manifest.json").write_text('{"set": "kopa"}', encoding="utf-8")
    for env in [e for e in __import__("os").environ if e.startswith("KOPA_KEY_")]:
        monkeypatch.delenv(env)
    if blind:  # no key configured: the escaped run itself is the finding
        res = CliRunner().invoke(cli_app, ["audit", str(vdir), "--json"])
        assert res.exit_code == 1, (name, res.output)
        assert len(json.JSONDecoder().raw_decode(res.stdout)[0]["findings"]) >= len(keys), (name, res.output)
        assert leaks(res.output, keys) == [], res.output
    for i, k in enumerate(keys):
        monkeypatch.setenv(f"KOPA_KEY_TEST{i}", k)
    res = CliRunner().invoke(cli_app, ["audit", str(vdir), "--json"])
    assert res.exit_code == 1, (name, res.output)
    lines_hit = {f["where"] for f in json.JSONDecoder().raw_decode(res.stdout)[0]["findings"]}
    assert lines_hit == {f"line {i + 1}" for i in range(len(keys))}, (name, res.output)
    assert leaks(res.output, keys) == [], res.output
