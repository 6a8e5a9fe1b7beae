"""Re-derive the response-field facts files the generated data.go.kr endpoints take their
fields from, beside the data.go.kr client's first eight (issue 27 item 1):

* ``facts/fields_guides.json`` — the FSC's 활용가이드 response items (names and Korean labels),
  from a plain field list: one ``@<Service>`` line per service, then
  ``<operation>: name(한국어), …`` per operation, as a public digest of 22 of the guides lists
  them (search-index file 60026531345, "공공데이터 오픈API 필드 레퍼런스"; the list itself is
  not kept in the project);
* ``facts/kpubdata_fields.json`` — kpubdata's catalogue (PyPI wheel, MIT): LOCALDATA's 59
  permit services, SEMAS sdsc2, and the AirKorea/KMA operations it lists fields for;
* ``facts/measured_fields.json`` — field names kloud80/datagokr-mcp (MIT) measured on live
  answers, from its ``probe/stats/<dataset>.json`` files (read with the search tool's
  ``read_file``; the repository could not be mirrored here, so only the files given are read);
* ``facts/datagokr_mcp_fields.json`` — the response schemas (name, Korean title, measured type)
  of kloud80/datagokr-mcp's dataset files ``knowledge/datasets/<sector>/<id>.yaml``, from a
  local cache of the texts ``read_file`` answered: ``.cache/datagokr-mcp/<commit>/<path>``
  (git-ignored; each file keeps the keys read: ``id``, ``title``, ``services[].op/endpoint/
  verified_ok``, ``schema.fields[].name/title/type``). The generator serves these fields from
  world edition 6 on (``late_fields``), so the shipped versions replay unchanged.

    python scripts/extract_fields.py --fsc-list FSC_LIST.txt --kpubdata kpubdata-0.10.0-py3-none-any.whl \
        --measured probe_stats/15000415.json --datagokr-mcp .cache/datagokr-mcp
    simulator catalog generate

Only names, types and Korean labels are taken (facts); no code or prose. Operations the
data.go.kr facts do not know are left out of ``fields_guides`` (their URL comes from there).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.catalog.generate.extract import (  # noqa: E402
    extract_datagokr_mcp,
    extract_field_lists,
    extract_kpubdata,
    extract_measured_stats,
    read_facts,
    write_facts,
)

FSC_SOURCE = ("FSC 오픈API 활용가이드 (data.go.kr 1160100) response items, names and Korean labels, "
              "as listed by a public digest of 22 guides (search-index file 60026531345)")

MEASURED_SOURCE = "github:kloud80/datagokr-mcp probe/stats (measured on live answers; names only)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fsc-list", type=Path, help="the FSC guides' field list (format above)")
    ap.add_argument("--kpubdata", type=Path, help="kpubdata-*.whl (pip download --no-deps kpubdata==0.10.0)")
    ap.add_argument("--measured", type=Path, nargs="+", help="kloud80/datagokr-mcp probe/stats/<dataset>.json files")
    ap.add_argument("--datagokr-mcp", type=Path, metavar="DIR",
                    help="the cache of kloud80/datagokr-mcp dataset files: DIR/<commit>/knowledge/datasets/<sector>/<id>.yaml")
    args = ap.parse_args(argv)
    if args.fsc_list is None and args.kpubdata is None and not args.measured and args.datagokr_mcp is None:
        ap.error("name at least one source: --fsc-list FILE, --kpubdata WHEEL, --measured STATS.json, --datagokr-mcp DIR …")
    written = []
    if args.fsc_list is not None:
        if not args.fsc_list.is_file():
            ap.error(f"--fsc-list {args.fsc_list}: no such file; pass the field list (format in --help)")
        known = read_facts("datagokr_client")["operations"]
        written.append(write_facts("fields_guides", extract_field_lists(args.fsc_list, "1160100", FSC_SOURCE, known)))
    if args.kpubdata is not None:
        if not args.kpubdata.is_file():
            ap.error(f"--kpubdata {args.kpubdata}: no such file; pip download --no-deps -d DIR kpubdata==0.10.0")
        written.append(write_facts("kpubdata_fields", extract_kpubdata(args.kpubdata)))
    if args.measured:
        missing = [p for p in args.measured if not p.is_file()]
        if missing:
            ap.error(f"--measured {missing[0]}: no such file; pass kloud80/datagokr-mcp probe/stats/<dataset>.json files")
        written.append(write_facts("measured_fields", extract_measured_stats(args.measured, MEASURED_SOURCE)))
    if args.datagokr_mcp is not None:
        if not any(args.datagokr_mcp.glob("*/knowledge/datasets/*/*.yaml")):
            ap.error(f"--datagokr-mcp {args.datagokr_mcp}: no <commit>/knowledge/datasets/<sector>/<id>.yaml under it")
        written.append(write_facts("datagokr_mcp_fields", extract_datagokr_mcp(args.datagokr_mcp)))
    for path in written:
        facts = read_facts(path.name.split(".")[0])
        n = sum(len(o["fields"]) for o in facts["operations"])
        print(f"wrote {path.relative_to(ROOT)}: {len(facts['operations'])} operations, {n} fields")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
