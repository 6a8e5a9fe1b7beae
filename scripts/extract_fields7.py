"""Re-derive ``facts/fields_edition7.json``: response fields published for generated endpoints
that world edition 7 serves (issue 27 item 1; option ``late_fields`` ``{name: 7}``, so the
versions recorded from editions 2–6 re-record byte for byte).

Sources (facts only: names, JSON types, Korean labels; no code or prose is kept):

* the data.go.kr portal's own swagger documents (``data-go-kr-inline-swagger.json``, one per
  dataset) as kept by the public mirror umyunsang/UMMAYA (Apache-2.0) under
  ``docs/api/data-go-kr-candidate-docs/<dataset>/``: per operation URL the response item's
  properties (name, type, description as label); read from a local git mirror (``--ummaya``);
* kloud80/datagokr-mcp's (MIT) response schemas measured on live answers, for datasets read
  since edition 6's (``facts/datagokr_mcp_fields.json``): the same git-ignored cache layout
  ``DIR/<commit>/knowledge/datasets/<sector>/<id>.yaml`` of the texts the search tool's
  ``read_file`` answered, trimmed to the keys read (``--datagokr-mcp``);
* a package's typed return value for one operation (``DATAGOKR_FIELDS``, the file named);
* law.go.kr DRF targets whose guide copy (``facts/lawgokr_fields.json``) has no output table:
  the element names of the guide page as StatPan/lawpy (MIT) scraped it (``specs/kr/<htmlName>.json``,
  names only: the guide is CC BY-NC), read from a local git mirror (``--lawpy``); for the
  targets whose page has no table either, the element names a client parses or a public digest
  lists, written below per target with the file they come from (``LAW_FIELDS``); each names
  only the target it was published for.

    python scripts/extract_fields7.py --ummaya /work/.mirror/umyunsang+UMMAYA/repo \\
        --lawpy /work/.mirror/StatPan+lawpy/repo --datagokr-mcp .cache/datagokr-mcp7
    simulator catalog generate
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.catalog.generate.extract import (  # noqa: E402
    extract_datagokr_mcp,
    extract_lawgokr_specs,
    extract_swagger_fields,
    read_facts,
    write_facts,
)

#: korean-law-mcp (chrisryugj, MIT), the commit read.
KLM = "github:chrisryugj/korean-law-mcp@2887dd11ac67 (v4.9.6, MIT)"
#: A public markdown digest of the law.go.kr guide's output fields (search-index file; the
#: index names no repository for it).
DIGEST = ("search-index file 7357402459 (a public markdown digest, '국가법령정보 공동활용 API 스펙', of the "
          "law.go.kr guide's output fields; the index names no repository; names only)")
_CGM_LIST = ["법령해석일련번호", "안건명", "안건번호", "질의기관코드", "질의기관명", "해석기관코드", "해석기관명",
             "해석일자", "데이터기준일시", "법령해석상세링크"]
_KCS_LIST = ["법령해석일련번호", "안건명", "질의기관코드", "질의기관명", "해석기관코드", "해석기관명", "해석일자",
             "법령해석상세링크"]

#: (service, target) → (source, element names) for law.go.kr targets without an output table
#: in the guide copy the generator reads (``facts/lawgokr_fields.json``).
LAW_FIELDS: dict[tuple[str, str], tuple[str, list[str]]] = {
    ("lawSearch", "kcsCgmExpc"): (
        f"{KLM} src/tools/customs-interpretations.ts (the item elements its parser reads from lawSearch.do "
        "target=kcsCgmExpc; names only)", _KCS_LIST),
    ("lawSearch", "ntsCgmExpc"): (
        f"{KLM} src/tools/customs-interpretations.ts (it states ntsCgmExpc answers in kcsCgmExpc's structure; "
        "the item elements its parser reads; names only)", _KCS_LIST),
    ("lawSearch", "aiSearch"): (
        f"{KLM} src/tools/life-law.ts (the 법령조문 item elements its parser reads for search=0, the default; "
        "names only)",
        ["시행일자", "법령ID", "법령명", "법령종류명", "소관부처명", "조문번호", "조문가지번호", "조문제목", "조문내용"]),
    ("lawSearch", "molegCgmExpc"): (f"{DIGEST}: 법제처 법령해석 목록 조회", _CGM_LIST),
    ("lawService", "molegCgmExpc"): (
        f"{DIGEST}: 법제처 법령해석 본문 조회",
        ["법령해석일련번호", "안건명", "안건번호", "해석일자", "해석기관코드", "해석기관명", "질의기관코드", "질의기관명",
         "관리기관코드", "등록일시", "질의요지", "회답", "이유", "관련법령", "데이터기준일시"]),
    ("lawSearch", "moelCgmExpc"): (f"{DIGEST}: 고용노동부 법령해석 목록 조회", _CGM_LIST),
    ("lawSearch", "mojCgmExpc"): (f"{DIGEST}: 법무부 법령해석 목록 조회 (output fields stated as 고용노동부's)",
                                  _CGM_LIST),
    ("lawSearch", "aiRltLs"): (
        f"{DIGEST}: 연관법령 API (the names it lists for the target, repeats dropped)",
        ["법령조문ID", "법령ID", "법령명", "시행일자", "공포일자", "공포번호", "조문번호", "조문가지번호", "조문제목",
         "행정규칙조문ID", "행정규칙ID", "행정규칙명", "발령일자", "발령번호"]),
    ("lawService", "moelCgmExpc"): (
        "search-index file 60102635813 (a public client module for target=moelCgmExpc that records the "
        "elements of live XML answers of lawService.do; the index names no repository; names only)",
        ["법령해석일련번호", "안건명", "안건번호", "해석일자", "해석기관명", "질의기관명", "등록일시", "질의요지", "회답",
         "이유", "관련법령", "데이터기준일시"]),
}

#: Targets whose guide table lists the items of every search kind in one (aiSearch: 법령조문,
#: 법령별표서식, 행정규칙조문, …): ``LAW_FIELDS`` gives the default kind's elements instead.
PER_KIND = frozenset({("lawSearch", "aiSearch")})

#: data.go.kr operation URL → (source, ``[name, type, label]``) for fields a package's typed
#: return value names for that one operation.
DATAGOKR_FIELDS: dict[str, tuple[str, list[list[str]]]] = {
    "https://apis.data.go.kr/1613000/AptListService3/getSigunguAptList3": (
        "npm:budongsan-api@1.0.474 dist/index.d.ts (T_ApartmentSimpleInfo, the record type getApartmentList "
        "returns for AptListService3/getSigunguAptList3; MIT; names and types only)",
        [["kaptCode", "string", ""], ["kaptName", "string", ""], ["bjdCode", "string", ""], ["as1", "string", ""],
         ["as2", "string", ""], ["as3", "string", ""], ["as4", "string", ""]]),
}

UMMAYA = "github:umyunsang/UMMAYA"
_SWAGGER_DIR = "docs/api/data-go-kr-candidate-docs"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def ummaya_swaggers(repo: Path) -> list[tuple[str, str]]:
    """``[(source, text)]`` of every portal swagger document the UMMAYA mirror keeps."""
    commit = _git(repo, "rev-parse", "HEAD").strip()
    paths = [p for p in _git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", _SWAGGER_DIR).splitlines()
             if p.endswith("/data-go-kr-inline-swagger.json")]
    return [(f"{UMMAYA}@{commit[:12]}:{p} (the portal's swagger, Apache-2.0 mirror)", _git(repo, "show", f"HEAD:{p}"))
            for p in sorted(paths)]


def law_operations(lawpy: Path) -> list[dict[str, object]]:
    """The targets without an output table in the guide copy read before: lawpy's guide pages
    first, then ``LAW_FIELDS`` for the targets those have no table for either."""
    have = {(o["service"], o["target"]) for o in read_facts("lawgokr_fields")["operations"] if o["fields"]}
    ops = {(o["service"], o["target"]): o for o in extract_lawgokr_specs(lawpy)
           if (o["service"], o["target"]) not in have and (o["service"], o["target"]) not in PER_KIND}
    for key, (src, names) in LAW_FIELDS.items():
        if key not in ops and key not in have:
            ops[key] = {"service": key[0], "target": key[1], "source": src, "fields": [[n, "string", n] for n in names]}
    return [ops[k] for k in sorted(ops)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ummaya", type=Path, required=True, help="git dir of a umyunsang/UMMAYA mirror")
    ap.add_argument("--lawpy", type=Path, required=True, help="git dir of a StatPan/lawpy mirror")
    ap.add_argument("--datagokr-mcp", type=Path, metavar="DIR",
                    help="cache of kloud80/datagokr-mcp dataset files read since edition 6's: DIR/<commit>/knowledge/…")
    args = ap.parse_args(argv)
    ops = [op for op in extract_swagger_fields(ummaya_swaggers(args.ummaya))
           if str(op["url"]).startswith("https://apis.data.go.kr/")]
    if args.datagokr_mcp is not None:
        six = {o["url"] for o in read_facts("datagokr_mcp_fields")["operations"]}  # served from edition 6
        ops += [{"url": o["url"], "source": o["source"], "fields": [row[:3] for row in o["fields"]]}
                for o in extract_datagokr_mcp(args.datagokr_mcp)["operations"] if o["url"] not in six]
    have = {o["url"] for o in ops}
    ops += [{"url": u, "source": src, "fields": f} for u, (src, f) in sorted(DATAGOKR_FIELDS.items()) if u not in have]
    ops += law_operations(args.lawpy)
    path = write_facts("fields_edition7", {"source": "published response schemas served from world edition 7 "
                                                     "(each operation names its source)", "operations": ops})
    print(f"{path}: {len(ops)} operations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
