"""Keys echoed in transformed forms are never written, and short keys mask nothing
(issue 15 §5).

Nine keys shaped like the platforms' are echoed by responses in ten encodings (raw, lower
and upper case, %-encoded once and twice, form-encoded, HTML entities, JSON ``\\/``, base64
standard and URL-safe at any alignment, and the decoded form of a data.go.kr "Encoding"
key) in bodies, kept headers (Content-Disposition, Content-Type, Retry-After), collection
records and ``--exact`` exchanges, and under a parameter name no catalog calls a key. After
publishing, compiling, exporting to vcrpy and auditing, an independent decoder (it unquotes,
unescapes and base64-decodes every token run) finds no key in any file or output.
"""

from __future__ import annotations

import base64
import html
import json
import re
import secrets as _secrets
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote

import pytest
from typer.testing import CliRunner

from simulator import Resolver, SimRequest, SimResponse, Store, VersionBuilder, load_catalog
from simulator.cli import app as cli_app
from simulator.vcr import export_vcr

CATALOG = load_catalog()


def _keys() -> list[str]:
    """Nine keys made at run time, shaped like the platforms' (never real ones)."""
    while True:
        decoding = base64.b64encode(_secrets.token_bytes(48)).decode()  # data.go.kr "Decoding" key
        if "+" in decoding and "/" in decoding:
            break
    return [
        _secrets.token_hex(20),  # OpenDART crtfc_key
        decoding,
        quote(decoding, safe=""),  # data.go.kr "Encoding" key (its decoded form is echoed too)
        "".join(c for c in _secrets.token_urlsafe(40) if c.isalnum())[:40],  # Seoul path key
        _secrets.token_hex(16),  # NEIS
        _secrets.token_hex(16).upper(),  # Assembly
        "kopa" + _secrets.token_hex(4),  # law.go.kr OC: short but a secret
        "U01TX0FVVEgy" + base64.b64encode(_secrets.token_bytes(24)).decode(),  # juso confmKey
        _secrets.token_urlsafe(24),  # - and _ inside
    ]


def _encodings(key: str) -> list[str]:
    raw = key.encode()
    return [
        key, key.lower(), key.upper(), quote(key, safe=""), quote(quote(key, safe=""), safe=""),
        quote_plus(key), html.escape(key), "".join(f"&#{ord(c)};" if not c.isalnum() else c for c in key),
        key.replace("/", "\\/"), base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode(),
        base64.b64encode(b"id=" + raw + b"&x=1").decode(), unquote(key),
    ]


_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-]{12,}")


def leaks(text: str, keys: list[str]) -> list[str]:
    """Keys found in ``text`` by decoding it independently of the scrubber."""
    views = {text, unquote(text), unquote(unquote(text)), html.unescape(text), text.replace("\\/", "/")}
    for tok in _TOKEN.findall(text):
        for skip in range(4):
            for dec in (base64.b64decode, base64.urlsafe_b64decode):
                body = tok[skip:]
                try:
                    views.add(dec(body + "=" * (-len(body) % 4)).decode("latin-1"))
                except ValueError:
                    pass
    low = [v.lower() for v in views]
    return [k[:4] + "…" for k in keys for form in {k, unquote(k)} if any(form.lower() in v for v in low)]


def _record(root: Path, keys: list[str]) -> Store:
    store = Store(root / "cassettes", cache_dir=root / "cache")
    b = VersionBuilder(store, "kopa", CATALOG, parent=None, secrets=keys)
    for i, key in enumerate(keys):
        forms = _encodings(key)
        echo = json.dumps({"forms": forms, "link": f"/DRF/lawService.do?OC={key}"}, ensure_ascii=False)
        headers = [
            ("content-type", f"application/json; charset=UTF-8; key={key.upper()}"),
            ("content-disposition", f'attachment; filename="{forms[9]}.zip"; note={forms[6]}'),
            ("retry-after", forms[4]),
        ]
        url = f"https://apis.data.go.kr/1613000/Echo/get{i}?service_key={quote(key, safe='')}&q={i}"
        b.add_interaction(SimRequest.from_url(url), SimResponse(200, headers, echo.encode()))
    b.add_collection(
        endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25", filters={"cityCode": "25"},
        fmt="json", total=len(keys),
        records=[{"nodeid": f"N{i}", "nodenm": " ".join(_encodings(k)), "nodeno": i} for i, k in enumerate(keys)],
    )
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def test_no_key_in_any_form_in_any_file_export_or_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = _keys()
    assert all(leaks(" ".join(_encodings(k)), [k]) for k in keys)  # the decoder finds every form
    store = _record(tmp_path, keys)
    version = store.open("kopa")
    r = Resolver(version).resolve(SimRequest.from_url("https://apis.data.go.kr/1613000/Echo/get3?service_key=other&q=3"))
    assert r.status == 200  # replays under any key
    export_vcr(version, CATALOG, tmp_path / "export.yaml")
    for i, k in enumerate(keys):
        monkeypatch.setenv(f"KOPA_KEY_TEST{i}", k)
    res = CliRunner().invoke(cli_app, ["audit", "all", "--cassettes", str(store.root)], env={"KOPA_CACHE": str(store.cache_dir)})
    assert res.exit_code == 0, res.output
    found = []
    for p in sorted(tmp_path.rglob("*")):
        if p.is_file():
            found += [f"{p.relative_to(tmp_path)}: {x}" for x in leaks(p.read_bytes().decode("utf-8", "replace"), keys)]
    found += [f"audit output: {x}" for x in leaks(res.output, keys)]
    assert found == []


def test_audit_of_unscrubbed_keys_prints_only_masked_prefixes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = _keys()
    vdir = tmp_path / "kopa" / "v0001"
    vdir.mkdir(parents=True)
    lines = [json.dumps({"forms": _encodings(k), "url": f"https://x.go.kr/a?service_key={k}&serviceKey={k}"}) for k in keys]
    (vdir / "leak.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (vdir / "manifest.json").write_text('{"set": "kopa"}', encoding="utf-8")  # not a valid version
    for i, k in enumerate(keys):
        monkeypatch.setenv(f"KOPA_KEY_TEST{i}", k)
    for args in (["audit", str(vdir)], ["audit", str(vdir), "--json"]):
        res = CliRunner().invoke(cli_app, args)
        assert res.exit_code == 1 and "known_key" in res.output, res.output
        assert leaks(res.output, keys) == [], res.output


def test_a_short_key_is_a_placeholder_and_masks_no_path(tmp_path: Path) -> None:
    store = Store(tmp_path / "c", cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "kopa", CATALOG, parent=None, secrets=["any"])
    url = "https://opendart.fss.or.kr/api/company.json?crtfc_key=any&corp_code=00126380"
    b.add_interaction(SimRequest.from_url(url), SimResponse(200, [("content-type", "application/json")],
                                                            b'{"status":"000","corp_name":"company any"}'))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    text = next((tmp_path / "c" / "kopa" / "v0001" / "interactions").iterdir()).read_text(encoding="utf-8")
    assert "/api/company.json" in text and "compREDACTED" not in text and "company any" in text
    hit = Resolver(store.open("kopa")).resolve(SimRequest.from_url(url.replace("=any", "=" + "k" * 40)))
    assert hit.status == 200 and b"company any" in hit.body
