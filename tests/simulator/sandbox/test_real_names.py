"""From world edition 7 an invented company (and an invented apartment complex's builder) never
bears a real Korean company's name: ``data/real_listed_names.txt`` lists the names of the listed
companies (KOSPI, KOSDAQ, KONEX; see ``data/SOURCES.txt``), and the generators draw again, or take
the next word, where a name would spell one. Editions up to 6 answer as they did.
"""

from __future__ import annotations

import hashlib

from simulator.sandbox.world import World, pools
from simulator.sandbox.world._core import DATA, name_key, real_listed_names, real_name_stems
from simulator.sandbox.world._finance import spells_real_company

#: Districts whose K-apt complexes the builder checks read (Seoul, Gyeonggi, Busan).
_DISTRICTS = ("11680", "41135", "26350")


def _invented(w: World) -> list[str]:
    real = {c[0] for c in pools()["companies"]}
    return [c["corp_name"] for c in w.companies() if c["corp_code"] not in real]


def test_the_list_is_loaded_and_real() -> None:
    lines = (DATA / "real_listed_names.txt").read_text(encoding="utf-8").splitlines()
    assert lines == sorted(set(lines)) and all(ln.strip() == ln and ln for ln in lines)
    names = real_listed_names()
    assert len(names) > 2500
    for n in ("서울반도체", "삼성전자", "한미반도체", "녹십자홀딩스", "대우건설", "셀트리온", "에코프로"):
        assert n in names, n
    assert all(name_key(c[2]) in names for c in pools()["companies"])  # the pool's 20 real ones
    assert "서울" in real_name_stems() and "동아건설" in real_name_stems()  # 서울반도체, 동아건설산업 less their kind


def test_name_comparison_ignores_spaces_and_the_legal_form() -> None:
    for n in ("서울반도체", "서울 반도체", "(주)서울반도체", "서울반도체(주)", "주식회사 서울반도체", "cj cgv"):
        assert spells_real_company(n), n
    assert spells_real_company("동아건설X", stem="동아건설")  # 동아건설산업 without its kind
    assert not spells_real_company("세림대영테크", stem="세림대영")


def test_edition_7_invents_no_real_name() -> None:
    kinds = sorted(pools()["corp_kinds"], key=len, reverse=True)
    names = _invented(World(0, edition=7))
    assert len(names) == 5980
    assert not [n for n in names if name_key(n) in real_listed_names()]
    stems = [next(n[: -len(k)] for k in kinds if n.endswith(k)) for n in names]  # two word stems each
    assert not [s for s in stems if name_key(s) in real_name_stems()]


def test_edition_6_is_unchanged() -> None:
    """Edition 6 (``kopa@v0007``) keeps its names, real-looking ones included (the reason for the
    edition 7 rule): the digest is of edition 6's company names before the rule existed."""
    w6 = World(0, edition=6)
    names = [c["corp_name"] for c in w6.companies()]
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    assert digest == "22f61700b89f8ecce2eb12e904f8317fe217e23a23815b70819c4ab086cb5179"
    assert {"서울반도체", "한미반도체"} <= set(_invented(w6))
    builders = {c["kaptBcompany"] for d in _DISTRICTS for c in w6.apt_complexes(d)}
    assert "대우건설" in builders


def test_edition_7_builders_are_invented() -> None:
    w6, w7 = World(0, edition=6), World(0, edition=7)
    rows6 = [c for d in _DISTRICTS for c in w6.apt_complexes(d)]
    rows7 = [c for d in _DISTRICTS for c in w7.apt_complexes(d)]
    assert len(rows7) == len(rows6) > 100
    assert not [c["kaptBcompany"] for c in rows7 if name_key(c["kaptBcompany"]) in real_name_stems()]
    # only the builder of a row that named a real company changes; every other field stays
    changed = [(a, b) for a, b in zip(rows6, rows7) if a != b]
    assert changed and all(name_key(a["kaptBcompany"]) in real_name_stems() for a, _ in changed)
    for a, b in changed:
        assert {**a, "kaptBcompany": ""} == {**b, "kaptBcompany": ""}
