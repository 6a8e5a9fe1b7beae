"""``simulator catalog``: generate the catalog's generated tier, show where an entry came from."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from .common import fail

if TYPE_CHECKING:
    from ..catalog import Catalog

catalog_app = typer.Typer(help="The catalog: generate entries from published facts, show their provenance.",
                          no_args_is_help=True)

CatalogOpt = Annotated[
    Optional[str],
    typer.Option("--catalog", help="Catalog tier: curated, full or all (default: $KOPA_CATALOG, else full).",
                 show_default=False),
]


def catalog_tier(option: str | None) -> str | None:
    """The tier a command asked for: ``--catalog``, else ``$KOPA_CATALOG`` (read only here, at the CLI edge)."""
    from ..catalog.tiers import TIERS

    tier = option or os.environ.get("KOPA_CATALOG") or None
    if tier is not None and tier not in TIERS:
        fail(f"--catalog={tier!r}: choose {', '.join(TIERS)}")
    return tier


def load_tier(option: str | None) -> Catalog:
    """The shipped catalog of the tier a command asked for."""
    from ..catalog import load_catalog

    return load_catalog(tier=catalog_tier(option))


def platform_ids(catalog: Catalog, names: list[str] | None) -> list[str] | None:
    """``--platform`` values as platform ids: an old id (``gen_opendart``) is read as its
    platform with a note on stderr; an unknown one fails naming the platforms."""
    if not names:
        return None
    from ..errors import CatalogError

    try:
        ids, notes = catalog.resolve_platforms(names)
    except CatalogError as exc:
        fail(str(exc))
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    return ids


@catalog_app.command("generate")
def generate(
    everything: Annotated[bool, typer.Option("--all", help="Every operation the facts know (≈ 11,000), not the paper's set.")] = False,
    out: Annotated[Optional[Path], typer.Option(help="Output directory (default: simulator/catalog/generated; with --all required).")] = None,
) -> None:
    """Build generated catalog entries from the committed facts (offline, deterministic)."""
    from ..catalog.generate import generate as run

    if everything and out is None:
        fail("--all writes ≈ 11,000 endpoints: pass --out DIR (the shipped directory holds the paper-scale set)")
    report = run(out, everything=everything)
    for pid, n in sorted(report.generated.items()):
        typer.echo(f"{pid:24} {n:6}")
    typer.echo(f"{'total':24} {sum(report.generated.values()):6}")
    if report.shadowed:
        typer.echo(f"{len(report.shadowed)} generated entries left out, a curated endpoint serves their URL:")
        for gen, cur in report.shadowed:
            typer.echo(f"  {gen} -> {cur}")


@catalog_app.command("extract")
def extract(
    datagokr_wheel: Annotated[Optional[Path], typer.Option(help="data_go_kr_client-4.16.0-*.whl (pip download --no-deps).")] = None,
    neispy_wheel: Annotated[Optional[Path], typer.Option(help="neispy-*.whl.")] = None,
    dart_ops_repo: Annotated[Optional[Path], typer.Option(help="git dir of chrisryugj/korean-dart-mcp.")] = None,
    dart_spec_repo: Annotated[Optional[Path], typer.Option(help="git dir of ChangooLee/mcp-opendart.")] = None,
    law_repo: Annotated[Optional[Path], typer.Option(help="git dir of ChangooLee/mcp-kr-legislation (names only).")] = None,
    law_guide_commit: Annotated[Optional[str], typer.Option(help="with --law-repo: the commit whose guide copy has the output tables (9b9527254b7ff3d13d712f6cb73646dfd2fabdb3).")] = None,
    assembly_wheel: Annotated[Optional[Path], typer.Option(help="assembly_api_client-1.2.6-*.whl.")] = None,
    assembly_codes: Annotated[Optional[Path], typer.Option(help="hollobit/assembly-api-mcp docs/discovered-all-codes.json (or 'infId code' lines).")] = None,
) -> None:
    """Re-read facts from the sources given into simulator/catalog/generated/facts (then run generate)."""
    from ..catalog.generate.extract import extract_all

    if dart_ops_repo is None and dart_spec_repo is not None or dart_ops_repo is not None and dart_spec_repo is None:
        fail("OpenDART needs both --dart-ops-repo and --dart-spec-repo")
    if (assembly_wheel is None) != (assembly_codes is None):
        fail("the National Assembly needs both --assembly-wheel and --assembly-codes")
    paths = extract_all(datagokr_wheel=datagokr_wheel, neispy_wheel=neispy_wheel, dart_ops_repo=dart_ops_repo,
                        dart_spec_repo=dart_spec_repo, law_repo=law_repo, law_guide_commit=law_guide_commit,
                        assembly_wheel=assembly_wheel,
                        assembly_codes=assembly_codes)
    if not paths:
        fail("name at least one source (see --help); sources: shared/reference/catalog_sources.md")
    for p in paths:
        typer.echo(f"wrote {p}")


@catalog_app.command("show")
def show(
    tool: Annotated[str, typer.Argument(help="Tool (endpoint) id.")],
    catalog: CatalogOpt = "full",
) -> None:
    """Where an endpoint's facts came from and how complete they are (looks in tier all too)."""
    from ..catalog.provenance import describe
    from ..errors import SimulatorError

    cat = load_tier(catalog)
    if tool not in cat.endpoints and cat.tier != "all":
        from ..catalog import load_catalog

        everything = load_catalog(tier="all")
        cat = everything if tool in everything.endpoints else cat
    try:
        typer.echo(describe(cat, tool))
    except SimulatorError as exc:
        fail(str(exc))


@catalog_app.command("seeds")
def seeds(
    out: Annotated[Path, typer.Option(help="Where to write the recording plan (YAML).")],
    platform: Annotated[Optional[list[str]], typer.Option(help="Only these platforms (default: every generated one).")] = None,
    set_name: Annotated[str, typer.Option("--set", help="Cassette set of the plan.")] = "kopa",
    catalog: CatalogOpt = "full",
    add: Annotated[Optional[list[Path]], typer.Option(help="Also the seeds and crawls of these plans (e.g. simulator/record/plans/v0002_extra.yaml).")] = None,
    report: Annotated[Optional[Path], typer.Option(help="Write the endpoints left out (no real value for a required param) and why, as Markdown.")] = None,
    placeholders: Annotated[bool, typer.Option("--placeholders", help="The rule kopa@v0002–v0005 were recorded with ('A1' where nothing was published): only to re-record them.")] = False,
) -> None:
    """Write a recording plan with one seed per generated endpoint (record it with --catalog full).

    Every seed value is one a real request would send (a published example or enum value, an
    entity code of the sandbox world, a date in the label's format); an endpoint with a
    required param no rule can fill is left out and listed in the report, never seeded with a
    placeholder."""
    import yaml

    from ..catalog.generate.seeds import seed_plan_report

    cat = load_tier(catalog)
    plan, left_out = seed_plan_report(cat, platforms=platform_ids(cat, platform), set_name=set_name,
                                      placeholders=placeholders)
    if report is not None:
        report.write_text(left_out.to_markdown() + "\n", encoding="utf-8")
    for extra in add or []:
        try:
            more = yaml.safe_load(extra.read_text(encoding="utf-8")) or {}
            plan["seeds"] += list(more.get("seeds") or [])
            if more.get("crawls"):
                plan.setdefault("crawls", []).extend(more["crawls"])
        except (OSError, yaml.YAMLError, AttributeError) as exc:
            fail(f"--add {extra}: not a readable recording plan ({exc}); pass a plan YAML with a 'seeds' list")
    out.write_text(yaml.safe_dump(plan, allow_unicode=True, sort_keys=False), encoding="utf-8")
    typer.echo(f"wrote {len(plan['seeds'])} seeds to {out}; {len(left_out.unresolved)} endpoint(s) left out without "
               f"a real value for a required param" + (f" (listed in {report})" if report else " (--report FILE lists them)"),
               err=True)


@catalog_app.command("stats")
def stats(catalog: CatalogOpt = "full") -> None:
    """Tools per platform and tier (curated, generated) as a Markdown table."""
    from ..catalog.provenance import platform_table

    typer.echo(platform_table(load_tier(catalog)))


def register(app: typer.Typer) -> None:
    app.add_typer(catalog_app, name="catalog")
