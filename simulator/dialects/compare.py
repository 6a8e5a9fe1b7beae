"""Structural equivalence of two native bodies: same structure, same values, same types."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

__all__ = ["equivalent", "repair_xml"]


def repair_xml(text: str) -> str:
    """Repair the malformed closing tags some services emit (``</사건번호 >``), as clients do."""
    return re.sub(r"</([^>\s]+)\s+>", r"</\1>", text)


def _decode(body: bytes) -> str:
    text = body.decode("utf-8-sig")
    return text


def _xml_tree(text: str) -> Any:
    root = ET.fromstring(repair_xml(text).encode("utf-8"))

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
    trees (tag, attributes, stripped text, children in order). Bodies that are not JSON or
    XML compare as bytes.
    """
    out: list[str] = []
    if original == rendered:
        return out
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
