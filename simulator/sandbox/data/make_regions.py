"""Rebuild ``regions.txt`` from the public legal-dong code tables (run by hand, not imported).

Sources (both redistribute the Ministry of the Interior and Safety's 법정동코드 table from
code.go.kr, public data of the Korean government, KOGL Type 1):

* ``addresskr`` 0.1.10 (PyPI, Apache-2.0): ``addresskr/KIKcd_B.20260301.csv`` — the code
  table of 2026-03-01 (``code,name,존재|폐지``). Rows still in force (존재) are kept.
* ``PublicDataReader`` 1.1.1.post2 (PyPI, MIT): ``PublicDataReader/raw/code_bdong.json`` —
  the 2022-09 table with creation dates (생성일자), used for ``adpt_de`` where the code is
  unchanged; codes renumbered since (강원 42→51 on 2023-06-11, 전북 45→52 on 2024-01-18,
  군위군 47720→27720 on 2023-07-01) take the renumbering date.

Usage::

    pip download --no-deps addresskr==0.1.10 PublicDataReader==1.1.1.post2 -d /tmp/x
    (unzip both wheels in /tmp/x)
    python make_regions.py /tmp/x > regions.txt

Output: one row per code, ``code<TAB>leaf name<TAB>adpt_de``, in code order. The full name
(``locatadd_nm``) is the naming parent's full name + " " + leaf, or the leaf itself without
its leading "=" for the few irregular rows (출장소); see ``simulator.sandbox.world``.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path


def parent_for_name(code: str, codes: set[str]) -> str | None:
    """The row whose full name prefixes this one's (the naming parent)."""
    if code[2:] == "00000000":
        return None
    if code[5:] == "00000":
        city = code[:4] + "0" + "00000"
        if city != code and city in codes:
            return city  # 일반구 of a city: "경기도 수원시" + " 장안구"
        return code[:2] + "00000000"
    if code[8:] == "00":
        return code[:5] + "00000"
    return code[:8] + "00"


def main(root: Path) -> None:
    rows: list[tuple[str, str]] = []
    with open(root / "addresskr" / "KIKcd_B.20260301.csv", encoding="utf-8-sig") as f:
        for rec in csv.reader(f):
            if len(rec) >= 3 and rec[2] == "존재" and rec[0].isdigit() and len(rec[0]) == 10:
                rows.append((rec[0], rec[1]))
    full = dict(rows)
    raw = json.loads((root / "PublicDataReader" / "raw" / "code_bdong.json").read_text("utf-8"))
    dates: dict[str, str] = {}
    for i, code in raw["법정동코드"].items():
        d = raw["생성일자"][i]
        if isinstance(d, str) and not (isinstance(raw["말소일자"][i], str) and raw["말소일자"][i]):
            dates[code] = d
    out = []
    for code, name in sorted(rows):
        parent = parent_for_name(code, set(full))
        if parent is None:
            leaf = name
        else:
            pname = full.get(parent, "\0")
            # Irregular rows (출장소) keep their full name, marked with a leading "=".
            leaf = name[len(pname) + 1 :] if name.startswith(pname + " ") else "=" + name
        if code.startswith("51"):
            adpt = "20230611"
        elif code.startswith("52"):
            adpt = "20240118"
        elif code.startswith("2772"):
            adpt = "20230701"
        else:
            adpt = dates.get(code, "")
        out.append(f"{code}\t{leaf}\t{adpt}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
