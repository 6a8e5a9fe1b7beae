"""Structural equivalence of two native bodies: same structure, same values, same types."""

from __future__ import annotations

import html.entities
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

__all__ = ["equivalent", "fix_entities", "html_entities_in", "keep_entities", "repair_xml"]

_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_CDATA = re.compile(r"(<!\[CDATA\[.*?\]\]>)", re.S)


def repair_xml(text: str) -> str:
    """Repair the malformed closing tags some services emit (``</사건번호 >``), as clients do."""
    return re.sub(r"</([^>\s]+)\s+>", r"</\1>", text)


def fix_entities(text: str) -> str:
    """HTML named entities XML lacks (law.go.kr echoes ``·`` as ``&middot;``) as character
    references, so an XML parser reads the body as a browser does.

    >>> fix_entities("<a>관세&middot;법 &amp; &nbsp;</a>")
    '<a>관세&#183;법 &amp; &#160;</a>'
    """

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _XML_ENTITIES or name not in html.entities.name2codepoint:
            return m.group(0)
        return f"&#{html.entities.name2codepoint[name]};"

    return _ENTITY.sub(repl, text)


def html_entities_in(text: str) -> list[str]:
    """The HTML-only entity names ``text`` uses (sorted), e.g. ``["middot"]``."""
    names = {m.group(1) for m in _ENTITY.finditer(text)}
    return sorted(n for n in names if n not in _XML_ENTITIES and n in html.entities.name2codepoint)


def keep_entities(text: str, names: list[str]) -> str:
    """Write the characters of entity ``names`` back as ``&name;`` outside CDATA sections (a
    version recorded with the quirk renders it).

    >>> keep_entities("<a>관세·법</a><b><![CDATA[·]]></b>", ["middot"])
    '<a>관세&middot;법</a><b><![CDATA[·]]></b>'
    """
    if not names:
        return text
    table = {html.entities.name2codepoint[n]: f"&{n};" for n in names if n in html.entities.name2codepoint}
    pieces = _CDATA.split(text)
    return "".join(p if p.startswith("<![CDATA[") else p.translate(table) for p in pieces)


def _decode(body: bytes) -> str:
    text = body.decode("utf-8-sig")
    return text


def _xml_tree(text: str) -> Any:
    root = ET.fromstring(fix_entities(repair_xml(text)).encode("utf-8"))

    def walk(el: ET.Element) -> Any:
        return (
            el.tag,
            dict(sorted(el.attrib.items())),
            (el.text or "").strip(),
            [walk(c) for c in el],
        )

    return walk(root)


def _diff(a: Any, b: Any, path: str, out: list[str]) -> None:
    if len(out) >= 20:
        return
    if type(a) is not type(b):
        out.append(f"{path}: type {type(a).__name__} != {type(b).__name__} ({a!r:.60} vs {b!r:.60})")
        return
    if isinstance(a, dict):
        if list(a) != list(b):
            missing = [k for k in a if k not in b]
            extra = [k for k in b if k not in a]
            if missing or extra:
                out.append(f"{path}: keys missing {missing} extra {extra}")
            else:
                out.append(f"{path}: key order {list(a)} != {list(b)}")
        for k in a:
            if k in b:
                _diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            out.append(f"{path}: length {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r:.80} != {b!r:.80}")


def equivalent(original: bytes, rendered: bytes, fmt: str) -> list[str]:
    """Differences between two bodies (empty list: equivalent).

    JSON compares parsed values with their types and key order; XML compares element
    trees (tag, attributes, stripped text, children in order; HTML entities such as
    ``&middot;`` read as their characters, as browsers do). Bodies that are not JSON or
    XML compare as bytes. A byte order mark on one side only is a difference.
    """
    out: list[str] = []
    if original == rendered:
        return out
    bom = b"\xef\xbb\xbf"
    if original.startswith(bom) != rendered.startswith(bom):
        out.append("byte order mark: " + ("original has one, rendered not" if original.startswith(bom) else "rendered has one, original not"))
    a_text, b_text = _decode(original), _decode(rendered)
    if fmt == "json":
        try:
            a, b = json.loads(a_text), json.loads(b_text)
        except json.JSONDecodeError as exc:
            return [f"not JSON: {exc}"]
        _diff(a, b, "$", out)
        return out
    if fmt == "xml":
        try:
            a, b = _xml_tree(a_text), _xml_tree(b_text)
        except ET.ParseError as exc:
            return [f"not XML: {exc}"]
        _diff(a, b, "/", out)
        return out
    if a_text.strip() != b_text.strip():
        out.append("bodies differ")
    return out
