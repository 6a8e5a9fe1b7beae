"""KOPA-Bench answer checkers: answer markers, number fallback, list and set answers,
and the binary (ZIP) body text a model is shown."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bench.kopa.checkers import check_answer, extract_answer, same_item, single_number, split_items
from bench.kopa.env import body_text
from bench.kopa.tasks import Check
from train.rewards import answer_matches

EXACT, SET = Check(), Check(type="set")


# ---- extract_answer -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "want"), [
    ("ANSWER: 26", "26"),
    ("Answer: 26", "26"),
    ("answer：26", "26"),
    ("정답: 26", "26"),
    ("최종 답: 26", "26"),
    ("답: 26", "26"),
    ("답：26", "26"),
    ("조회 결과 26건입니다.\n답: 26", "26"),
    ("따라서 답: 13, 5\n(출처: 국토교통부)", "13, 5"),
    ("답: 1\n다시 보니…\n답: 2", "2"),  # the last one wins
    ("ANSWER: 13, 5\n답: 0", "13, 5"),  # an explicit marker beats a bare 답:
    ("답: 0\nANSWER: 7", "7"),
    ("ANSWER: 1\nANSWER: 2", "2"),
    ("ANSWER:\n  42\n", "42"),  # a marker alone on its line reads the next line
    ("대답: 9", "대답: 9"),  # 답 inside another word is not a marker
    ("해답은 26입니다", "해답은 26입니다"),
    ("  26  ", "26"),
    ("", ""),
])
def test_extract_answer_markers(text: str, want: str) -> None:
    assert extract_answer(text) == want


def test_bare_dap_answer_is_checked() -> None:
    # The EDGE prompts ask for "답: …"; the benchmark's checker reads it too.
    assert check_answer("조회했습니다.\n답: 종로구", "종로구", EXACT)
    assert check_answer("답: 1,208", "1208", EXACT)
    assert check_answer("답: b, a", "a, b", SET)
    assert check_answer("답: 12.4", "12.5", Check(type="numeric", abs_tol=0.2))


# ---- exact: the number fallback only for a one-number gold --------------------------------


@pytest.mark.parametrize(("pred", "gold"), [
    ("ANSWER: 13", "13, 5"),  # a list gold is never the number 13
    ("ANSWER: 13", "13,5"),
    ("ANSWER: 135", "13, 5"),
    ("ANSWER: 13, 5", "13"),  # nor is a list answer the number 13
    ("ANSWER: 13건, 5건", "13"),
    ("ANSWER: 1208", "1, 208"),
    ("ANSWER: 5, 13", "13, 5"),  # order matters for exact lists
    ("ANSWER: 13", "135"),
    ("ANSWER: 2025년 13건", "13"),
])
def test_exact_rejects(pred: str, gold: str) -> None:
    assert not check_answer(pred, gold, EXACT)


@pytest.mark.parametrize(("pred", "gold"), [
    ("ANSWER: 1,208", "1208"),  # thousands separators are one number
    ("ANSWER: 1208", "1,208"),
    ("ANSWER: 13건", "13"),
    ("ANSWER: 13.0", "13"),
    ("ANSWER: -3.50", "-3.5"),
    ("ANSWER: 13, 5", "13, 5"),
    ("ANSWER: 13,5", "13, 5"),
    ("ANSWER: 1,208, 36", "1208, 36"),  # list items compare as numbers too
    ("ANSWER: 1208; 36", "1,208, 36"),
    ("ANSWER: 서울, 부산", "서울,부산"),
    ("ANSWER: 종로구.", "종로구"),
])
def test_exact_accepts(pred: str, gold: str) -> None:
    assert check_answer(pred, gold, EXACT)


def test_set_items_keep_thousands_together() -> None:
    assert check_answer("ANSWER: 36, 1,208", "1208, 36", SET)
    assert not check_answer("ANSWER: 1, 208, 36", "1208, 36", SET)
    assert check_answer("ANSWER: 부산、서울", "서울, 부산", SET)
    assert not check_answer("ANSWER: 서울", "서울, 부산", SET)


def test_item_helpers() -> None:
    assert split_items("1,208, 36") == ["1,208", "36"]
    assert split_items("13,5") == ["13", "5"]
    assert split_items("a; b\nc、 d,") == ["a", "b", "c", "d"]
    assert single_number(" 1,208 ") == 1208.0 and single_number("-0.5") == -0.5
    assert single_number("13, 5") is None and single_number("13,5") is None
    assert single_number("1,2345") is None and single_number("13건") is None
    assert same_item("1,208", "1208") and not same_item("13", "135")


def test_rewards_share_the_checker_rules() -> None:
    # train.rewards reads the same markers and item rules (EDGE rows: canonical JSON gold).
    assert answer_matches("답: 1,208, 36", "[1208,36]")
    assert not answer_matches("답: 13", "[13,5]")
    assert answer_matches("따라서 답: 13, 5", "[13,5]")
    assert not answer_matches("답: 13", "13, 5")  # plain-text list gold through check_answer


# ---- binary bodies ------------------------------------------------------------------------


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def test_zip_body_is_shown_as_its_xml_text() -> None:
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n<result><list><corp_name>삼성전자</corp_name></list></result>\n'
    body = _zip({"CORPCODE.xml": xml.encode("utf-8")})
    text = body_text(body)
    head, rest = text.split("\n", 1)
    assert head == (f"[ZIP archive of {len(body):,} bytes holding CORPCODE.xml "
                    f"({len(xml.encode('utf-8')):,} bytes); unzipped text follows]")
    assert rest == xml
    assert "\ufffd" not in text and body_text(body) == text


def test_zip_member_encoding_several_members_and_bad_zips() -> None:
    euc = '<?xml version="1.0" encoding="EUC-KR"?><r>서울</r>'.encode("euc-kr")
    text = body_text(_zip({"a.xml": euc, "b.txt": b"plain"}))
    assert text.splitlines()[1:] == ["[a.xml]", '<?xml version="1.0" encoding="EUC-KR"?><r>서울</r>',
                                     "[b.txt]", "plain"]
    assert body_text(b"PK\x03\x04 truncated").startswith("[binary body: 14 bytes, a ZIP that cannot be read")
    assert body_text(_zip({})) == body_text(_zip({}))
    assert body_text("<r>한글</r>".encode()) == "<r>한글</r>"  # text bodies unchanged


def test_numeric_check_refuses_a_hedge() -> None:
    """A numeric answer names one number: "13, 14" against 13 is two answers, not a pass."""
    from bench.kopa.checkers import Check, check_answer

    num = Check(type="numeric")
    assert check_answer("ANSWER: 13", "13", num)
    assert check_answer("ANSWER: 약 13.0건", "13", num)
    assert not check_answer("ANSWER: 13, 14", "13", num)
    assert not check_answer("ANSWER: 12 또는 13", "13", num)


# ---- the probe corpus: answers as a Korean reader writes them ------------------------------

PROBES = Path(__file__).resolve().parents[2] / "tests" / "data" / "checker_probes.jsonl"


def _probes() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line]


def test_probe_corpus_is_large_and_balanced() -> None:
    probes = _probes()
    assert len(probes) >= 300
    accept = sum(p["expect"] for p in probes)
    assert 0.3 < accept / len(probes) < 0.7
    # the quoted false negatives are in it
    answers = {p["answer"] for p in probes if p["expect"]}
    for a in ("팔판삼성타워 아파트", "단지명은 팔판삼성타워입니다.", "더불어민주당입니다", "SK하이닉스(주)",
              "한주찬 대표", "463번, 621번, 963번", "1조 8,425억"):
        assert a in answers


def test_probe_corpus_passes_in_full() -> None:
    wrong = []
    for p in _probes():
        got = check_answer(p["answer"], p["gold"], Check(**p["check"]), p["question"])
        if got != p["expect"]:
            wrong.append((p["answer"], p["gold"], p["check"]["type"], p["why"]))
    assert not wrong, f"{len(wrong)} probes misread: {wrong[:20]}"


def test_rewards_read_answers_like_the_checker() -> None:
    # train.rewards shares the checker: every probe gets the same verdict through the reward
    from train.rewards import answer_reward

    probes = _probes()
    got = answer_reward([p["answer"] for p in probes], answer=[p["gold"] for p in probes],
                        check=[json.dumps(p["check"]) for p in probes],
                        prompts=[[{"role": "user", "content": p["question"]}] for p in probes])
    assert got == [1.0 if p["expect"] else 0.0 for p in probes]
