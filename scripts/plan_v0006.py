"""Write ``simulator/record/plans/v0006.yaml``, the plan ``kopa@v0006`` was recorded with, and
``docs/seeds-v0006.md``, the generated endpoints it leaves out and why.

The plan re-records the generated tier of ``kopa@v0005`` from world edition 5 (the fuller
published fields, each filled in its shape) on real values only (``replace_tiers:
[generated]``; the curated tier's collections carry over byte for byte):

* one seed per generated endpoint whose required params all have a real value
  (``simulator catalog seeds``: a published example or enum value, an entity code of the
  sandbox world, a date in the label's format);
* every other generated collection ``kopa@v0005`` holds on real values (the client calls of
  ``docs/clients.md`` ask for them: OpenDART's ``fnlttMultiAcnt`` of two companies, NEIS past
  timetables of one school), under the same key.

A generated endpoint with a required param no rule gives a real value is not recorded under a
dummy: its ``kopa@v0005`` collections (keyed on ``A1`` or ``1``) are not carried into v0006,
and ``docs/seeds-v0006.md`` lists it with the reason.

    python scripts/plan_v0006.py            # writes both files
    python scripts/plan_v0006.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import ROOT, carried_generated, key, main, plan_text, report_text  # noqa: E402

from simulator.catalog import load_catalog  # noqa: E402
from simulator.catalog.generate.seeds import seed_plan_report  # noqa: E402
from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0006.yaml"
REPORT = ROOT / "docs" / "seeds-v0006.md"
#: The params the catalog marked required after kopa@v0006 was recorded (stop 37): its seeds lack them.
LATER_REQUIRED = {"dart_fnltt_singl_acnt_all": "fs_div", "dart_fnltt_singl_indx": "idx_cl_code",
                  "dart_fnltt_cmpny_indx": "idx_cl_code", "dart_xbrl_taxonomy": "sj_div"}

HEADER = """\
# The plan kopa@v0006 was recorded with (written by scripts/plan_v0006.py; do not edit by hand).
# v0006 is v0005 with its generated tier recorded anew from world edition 5 on real values only:
# the curated tier's collections carry over byte for byte (replace_tiers: [generated]); the seeds
# are `simulator catalog seeds` (no placeholder: the endpoints it cannot give a real value are
# listed in docs/seeds-v0006.md and not recorded) and the other real-keyed generated collections
# v0005 holds. Recorded on top of v0005:
#   simulator sandbox serve --seed 0 --edition 5 --catalog full --port 8790 &
#   simulator record --live --upstream http://127.0.0.1:8790 --plan simulator/record/plans/v0006.yaml \\
#     --cassettes cassettes --catalog full --rate 1000 --recorded-at 2026-12-05T00:00:00Z
"""


def seeds_of(catalog, edition: int) -> tuple[list[dict[str, object]], dict[str, list[tuple[str, str]]]]:
    """`simulator catalog seeds` as it was when the version was recorded: the world of its
    edition, and without the params made required later (LATER_REQUIRED)."""
    plan, report = seed_plan_report(catalog, set_name="kopa", world=World(0, edition=edition))
    seeds = [{"endpoint": s["endpoint"],
              "params": {k: v for k, v in s["params"].items() if LATER_REQUIRED.get(s["endpoint"]) != k}}
             for s in plan["seeds"]]
    return seeds, report.unresolved


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    seeds, left = seeds_of(catalog, 5)
    planned = {key(s["endpoint"], s["params"]) for s in seeds}
    kept = carried_generated(catalog, "v0005", planned)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0), ("replace_tiers", ["generated"]))
    text = plan_text(HEADER, settings, f"{len(seeds)} from `simulator catalog seeds`, then {len(kept)} more real-keyed "
                     "v0005 collections", seeds + kept)
    intro = ("kopa@v0002–v0005 recorded each under a dummy (`A1`, or `1` for an integer), a key no real request "
             "sends; kopa@v0006 records none of them and does not carry those collections over, so a call to one of "
             "these tools misses (`--miss native` answers the platform's no-data envelope). Record them from the live "
             "API with a plan that gives the parameter a real value (`simulator record --live`).")
    return text, report_text("plan_v0006.py", "v0006", intro, left)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0006.py", build, PLAN, REPORT))
