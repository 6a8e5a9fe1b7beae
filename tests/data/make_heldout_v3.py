"""Writes tests/data/heldout_answers_v3.jsonl (issue 29): natural answers written blind.

Written by helper session s36-checker BEFORE reading bench/kopa/checkers.py, the scoring modules,
the checker tests or the earlier held-out files (only the header line of heldout_answers_v2.jsonl
was read, for its schema). Inputs: each task's question (bench/kopa/tasks/*.yaml) and its gold from
`simulator bench run --agent oracle --seeds 1` on kopa@v0006, saved as a JSON list of
{id, template, q, gold}. Labels are the author's judgement as a grader from question and gold
alone. Numbers in working are made up where the gold does not fix them; only the committed answer
matters. Deterministic: no randomness, the phrasing is picked by the task's position.

    python tests/data/make_heldout_v3.py /tmp/tasks.json > tests/data/heldout_answers_v3.jsonl
"""
from __future__ import annotations

import json
import sys

R, W, A = "right", "wrong", "ambiguous"

UNIT = {  # counting word per template (the question's own)
    "molit_trade_count": "건", "molit_fan_total": "건", "molit_fan_monthly_rents": "건",
    "molit_fan_trades_and_rents": "건", "neis_schools_of_same_office": "곳",
    "neis_two_schools_offices_founded_by": "곳", "dart_fan_disclosure_total": "건",
    "law_fan_article_total": "개", "nec_presidential_pledges": "개",
    "nec_winner_bill_count": "건", "nec_preliminary_party_count": "명",
    "nec_party_candidates_minus_winners": "명", "nec_winners_in_committee": "명",
    "nec_winners_fan_bills": "건", "assembly_month_top_committee_size": "명",
    "tago_arrivals_within": "대", "tago_route_stop_count": "곳",
    "seoul_line1_first_stations_arrivals": "대", "tago_fan_distinct_stop_names": "가지",
}
EN = {"건": "cases", "곳": "places", "명": "people", "개": "items", "대": "buses", "가지": "names"}


def c(n: int) -> str:
    return f"{n:,}"


def count_rows(i, t, g):
    u = UNIT[t["template"]]
    n = int(g)
    a, b = n // 3 + 1, n - (n // 3 + 1)
    rows = []
    forms = [
        (f"조회 결과를 정리하면 다음과 같습니다.\n\n- 항목 1: {c(a)}{u}\n- 항목 2: {c(b)}{u}\n\n"
         f"따라서 **총 {c(n)}{u}**입니다.", R, "working then total"),
        (f"질문하신 조건으로 집계하면 {c(n)}{u}입니다.", R, "plain"),
        (f"Based on the API results, the answer is **{c(n)}** ({n}{u}).", R, "english"),
        (f"| 구분 | 값 |\n|---|---|\n| A | {a} |\n| B | {b} |\n| **합계** | **{n}** |\n\n"
         f"합계는 {n}{u}입니다.", R, "table with total"),
        (f"처음에는 {c(n + 2)}{u}로 셌지만 중복을 빼고 다시 세어 보니 최종 답은 {c(n)}{u}입니다.",
         R, "two candidates, final marked"),
        (f"정답: {n}", R, "bare final marker"),
        (f"모두 {c(n)}{u}로 확인됩니다. (조회 시점 기준)", R, "trailing parenthetical"),
        (f"There are {c(n)} in total.", R, "english bare"),
    ]
    wrongs = [
        (f"집계 결과 총 {c(n + 1)}{u}입니다.", W, "off by one"),
        (f"집계 결과 총 {c(n - 2)}{u}입니다.", W, "off by two"),
        (f"항목 1이 {c(a)}{u}, 항목 2가 {c(b)}{u}입니다.", W, "components, no total"),
        (f"처음에는 {c(n)}{u}로 셌지만 다시 확인해 보니 최종 답은 {c(n + 3)}{u}입니다.",
         W, "gold then corrected away"),
        ("죄송하지만 해당 데이터를 조회할 수 없어 정확한 수를 알려드릴 수 없습니다.", W, "refusal"),
        (f"The total comes to **{c(n + 4)}**.", W, "english off by four"),
        (f"{c(n)}{u} 또는 {c(n + 1)}{u}일 가능성이 있습니다. 데이터가 불완전합니다.", W,
         "two candidates, none committed"),
    ]
    k = i % len(forms)
    rows.append(forms[k])
    rows.append(forms[(k + 3) % len(forms)])
    rows.append(wrongs[i % len(wrongs)])
    if n >= 1000:
        rows.append((f"약 {c(n - 3)}{u} 정도입니다.", W, "large count off by three, hedged"))
    return rows


def name_rows(i, t, g, neighbour):
    rows = [
        (f"조회 결과 정답은 **{g}**입니다.", R, "bold name"),
        (f"결론: {g}", R, "final marker"),
        (f"API로 확인한 결과, 질문에 해당하는 것은 '{g}'입니다. 참고로 {neighbour}는 그다음입니다.",
         R, "answer then neighbour mentioned"),
        (f"The answer is {g}.", R, "english with korean name"),
        (f"{neighbour}입니다.", W, "neighbour"),
        (f"{g}일 수도 있고 {neighbour}일 수도 있어 단정하기 어렵습니다.", W, "undecided"),
        ("해당 정보를 찾을 수 없습니다.", W, "refusal"),
    ]
    k = i % 4
    return [rows[k], rows[(k + 1) % 4], rows[4 + i % 3]]


def dec_rows(i, t, g, unit, en_unit, wrong_scale):
    x = float(g)
    s = f"{x:.2f}"
    rows = [
        (f"계산하면 {s}{unit}입니다.", R, "plain decimal"),
        (f"분자와 분모를 나누면 {x:.4f}… 이고, 소수 둘째 자리까지 반올림하면 **{s}{unit}**입니다.",
         R, "more digits then rounded"),
        (f"약 {s}{unit}", R, "hedged decimal"),
        (f"The ratio is about {s}{en_unit}.", R, "english"),
        (f"계산하면 {x + 0.05:.2f}{unit}입니다.", W, "off by 0.05"),
        (f"계산하면 {x * wrong_scale:.2f}{unit}입니다.", W, "wrong scale"),
        (f"소수 첫째 자리까지 {x + 0.1:.1f}{unit}입니다.", W, "wrong value, rounded"),
    ]
    k = i % 4
    return [rows[k], rows[(k + 2) % 4], rows[4 + i % 3]]


def date_rows(i, g, other):
    y, m, d = g[:4], g[4:6], g[6:]
    im, id_ = int(m), int(d)
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    rows = [
        (f"열량이 가장 높았던 날은 {y}년 {im}월 {id_}일입니다.", R, "korean date"),
        (f"{y}-{m}-{d}", R, "iso date"),
        (f"답: {g} (YYYYMMDD)", R, "yyyymmdd with marker"),
        (f"{y}.{m}.{d}.", R, "dotted date"),
        (f"The highest-calorie meal was on {months[im - 1]} {id_}, {y}.", R, "english date"),
        (f"가장 높은 날은 {other[:4]}년 {int(other[4:6])}월 {int(other[6:])}일입니다.", W, "other day"),
        (f"{y}년 {im}월입니다.", W, "month only"),
    ]
    k = i % 5
    return [rows[k], rows[(k + 2) % 5], rows[5 + i % 2]]


def rows_for(i, t):
    tid, tpl, g = t["id"], t["template"], t["gold"]
    out = []
    if tpl in UNIT:
        out += count_rows(i, t, g)
    elif tpl == "molit_compare_two_gu":
        x = float(g)
        ab = abs(x)
        eok, man = int(ab // 10000), ab - (ab // 10000) * 10000
        word = "낮습니다" if x < 0 else "높습니다"
        anti = "높습니다" if x < 0 else "낮습니다"
        out += [
            (f"평균 매매가 차이는 {x:,.1f}만원입니다.", R, "signed 만원"),
            (f"앞의 구의 평균이 뒤의 구보다 {ab:,.1f}만원 {word}. 따라서 답은 {x:.1f}입니다.", R,
             "sign in words then signed"),
            (f"앞의 구가 약 {eok}억 {man:,.0f}만원 {word}.", R, "억 만원 in words"),
            (f"The first district's mean is {ab:,.1f} (만원) {'lower' if x < 0 else 'higher'}, "
             f"so the answer is {x:.1f}.", R, "english"),
            (f"앞의 구가 {ab:,.1f}만원 {anti}.", W, "wrong direction"),
            (f"차이는 {x:,.1f}원입니다.", W, "원 instead of 만원"),
            (f"평균 매매가 차이는 {x + 100 if x > 0 else x - 100:,.1f}만원입니다.", W, "off by 100"),
        ]
    elif tpl == "molit_fan_mean_price":
        x = float(g)
        eok, man = int(x // 10000), x - (x // 10000) * 10000
        out += [
            (f"전체 평균 거래금액은 {x:,.1f}만원입니다.", R, "만원"),
            (f"평균은 약 {eok}억 {man:,.0f}만원입니다.", R, "억 만원 hedged"),
            (f"평균 거래금액: {int(x * 10000):,}원 (= {x:,.1f}만원)", R, "원 with 만원 restated"),
            (f"평균은 {x:,.1f}원입니다.", W, "원 unit for 만원 value"),
            (f"각 구 평균을 단순 평균하면 {x * 1.04:,.1f}만원입니다.", W, "mean of means"),
        ]
    elif tpl == "seoul_library_and_trades":
        out += dec_rows(i, t, g, "건", " per library", 10)
    elif tpl == "fsc_mcap_vs_equity":
        out += dec_rows(i, t, g, "배", "x", 100)
    elif tpl == "seoul_card_station_boardings":
        out += dec_rows(i, t, g, "%", "%", 0.01)
        x = float(g)
        out.append((f"비율은 {x / 100:.4f}입니다.", W, "fraction where % asked"))
    elif tpl == "juso_coordinate":
        x = float(g)
        out += [
            (f"entX 값은 {g}입니다.", R, "full"),
            (f"X좌표는 {x:,.3f}입니다 (entX).", R, "3 decimals with comma"),
            (f"entX = {x + 12.5:.6f}", W, "another entrance"),
            (f"entX는 약 {x:.0f}입니다.", A, "rounded to integer"),
        ]
    elif tpl in ("neis_schedule_holiday_count", "tago_compare_route_counts"):
        n = int(g)
        u = "일" if tpl.startswith("neis") else "개"
        big, small = n + 7, 7
        out += [
            (f"한 곳이 {big}{u}, 다른 곳이 {small}{u}이므로 {n}{u} 더 많습니다.", R, "working then diff"),
            (f"차이는 {n}{u}입니다.", R, "plain"),
            (f"The difference is {n}.", R, "english"),
            (f"한 곳이 {big}{u}로 더 많습니다.", W, "the larger component"),
            (f"차이는 {n + 1}{u}입니다.", W, "off by one"),
        ]
    elif tpl == "tago_compare_city_distinct_names":
        n = int(g)
        out += [
            (f"앞 도시가 {c(n + 3000)}가지, 뒤 도시가 3,000가지로 앞 도시가 {c(n)}가지 더 많습니다.",
             R, "working then diff"),
            (f"+{c(n)}", R, "signed plus"),
            (f"{c(n)}가지 적습니다.", W, "wrong sign in words"),
            (f"답은 -{n}입니다.", W, "negative sign"),
            (f"{c(n + 2)}가지 더 많습니다.", W, "off by two"),
        ]
    elif tpl == "cond_fsc_price_then_dart" and g == "26434000000":
        out += [
            ("종가가 50,000원 이상이므로 2024년 연결 매출액을 답합니다: 26,434,000,000원.", R,
             "threshold restated then 원"),
            ("연결 매출액은 264억 3,400만 원입니다.", R, "억 만원"),
            ("매출액은 26,434,000천원입니다 (공시 단위 천원).", R, "천원 unit"),
            ("Revenue was KRW 26.434 billion.", R, "english billion"),
            ("연결 매출액은 26,434,000원입니다.", W, "천원 figure read as 원"),
            ("연결 매출액은 2,643억 4,000만 원입니다.", W, "ten times"),
            ("연결 매출액은 약 264억 원입니다.", A, "rounded beyond tolerance"),
        ]
    elif tpl == "neis_meal_max_calorie" or (tpl == "cond_neis_meal_or_schedule" and len(g) == 8):
        other = g[:6] + f"{(int(g[6:]) % 27) + 1:02d}"
        out += date_rows(i, g, other)
    elif tid == "cond-tago-arr-1":
        out += [
            (f"15분 안에 2대 이상 도착 예정이므로, 가장 먼저 오는 버스의 노선번호는 {g}번입니다.", R,
             "threshold restated then route number"),
            (f"노선번호: {g}", R, "marker"),
            ("15분 안에 도착 예정인 버스는 2대입니다.", W, "the condition's count"),
        ]
    elif tpl.startswith("cond_") and g.isdigit():
        n = int(g)
        unitmap = {"cond_molit_trades_or_rents": "건", "cond_neis_meal_or_schedule": "개",
                   "cond_fsc_price_then_dart": "건", "cond_assembly_committee_size": "건",
                   "cond_nec_party_then_assembly": "건", "cond_tago_busy_stop": "개",
                   "cond_seoul_busy_station": "명"}
        u = unitmap[tpl]
        q = t["q"]
        if tpl == "cond_seoul_busy_station":
            out += [
                (f"의정부역 승차 인원이 50,000명 이상이므로 노선 전체 승차 인원 합계는 {c(n)}명입니다.",
                 R, "threshold restated then total"),
                (f"노선 전체 합계: {n}명", R, "marker"),
                (f"노선 전체 합계는 {n // 10000}만 {n % 10000:,}명입니다.", R, "만 in words"),
                ("의정부역 승차 인원은 61,204명입니다.", W, "the component asked in the condition"),
                (f"노선 전체 합계는 약 {n // 10000}만 명입니다.", W, "rounded"),
            ]
        else:
            cond, cond_only = COND[tid]
            out += [
                (f"{cond}이므로, 답은 {c(n)}{u}입니다.", R, "condition restated then answer"),
                (f"결과: **{n}{u}**", R, "marker"),
                (f"The condition is checked first ({cond}); the answer is {n}.", R, "english"),
                (cond_only, W, "only the condition's value"),
                (f"답은 {n + 1}{u}입니다.", W, "off by one"),
            ]
    elif tpl == "tago_station_route_list":
        out += [
            ("지나는 노선은 463번, 621번, 963번입니다.", R, "list with 번"),
            ("- 963\n- 463\n- 621", R, "bullets, other order"),
            ("Routes: 621, 963 and 463.", R, "english and"),
            ("463번, 621번 두 노선입니다.", W, "partial"),
            ("463, 621, 963, 604번이 지납니다.", W, "extra route"),
        ]
    elif tpl == "law_ministry":
        nb = {"해양수산부": "법무부", "고용노동부": "보건복지부", "국무조정실": "질병관리청",
              "국토교통부": "행정안전부"}[g]
        out += [
            (f"소관부처는 {g}입니다.", R, "sentence"),
            (f"국가법령정보의 검색 결과에 따르면 이 법령의 소관부처는 **{g}**입니다. "
             f"(현실의 법령과는 다를 수 있는 합성 데이터입니다.)", R, "hedged sentence"),
            (f"{g} 소관입니다.", R, "소관"),
            (f"The responsible ministry is {g}.", R, "english"),
            (f"일반적으로 이 법은 {nb} 소관입니다.", W, "real-world prior"),
            (f"{g} 또는 {nb}로 보입니다.", W, "undecided"),
        ]
    elif tpl == "ordin_promulgation":
        out += [
            (f"공포번호는 제{g}호입니다.", R, "제…호"),
            (f"공포번호: {g}", R, "marker"),
            (f"The promulgation number is {g}.", R, "english"),
            (f"공포번호는 제{g[::-1]}호입니다.", W, "digits reversed"),
            (f"공포번호는 {int(g) + 1}입니다.", W, "off by one"),
        ]
    elif tpl == "cond_dart_active_discloser" and "보고서" in g:
        out += [
            (f"공시가 10건 이상이므로 가장 늦게 접수된 보고서명은 「{g}」입니다.", R, "brackets"),
            ("분기보고서(2024.09)", R, "no space"),
            ("가장 늦은 공시는 반기보고서 (2024.06)입니다.", W, "earlier report"),
            ("분기보고서입니다.", W, "report name without period"),
        ]
    elif tpl == "fsc_code_to_dart_address":
        short = g.split(" (")[0]
        prov = {"경기도": "경기", "서울특별시": "서울"}
        first = g.split()[0]
        parts = short.split()
        num = parts[-1]
        bad = " ".join(parts[:-1] + [str(int(num) + 10)])
        out += [
            (f"본사 주소는 {g}입니다.", R, "full"),
            (f"주소: {short}", R, "without parenthetical dong"),
            (f"{short.replace(first, prov[first], 1)}에 있습니다.", R, "short province"),
            (f"The head office is at {g}.", R, "english"),
            (f"본사 주소는 {bad}입니다.", W, "wrong building number"),
            (f"본사는 {' '.join(parts[:2])}에 있습니다.", W, "city only"),
        ]
    elif tpl == "nec_winner_first_pledge":
        out += [
            (f"1번 공약 제목은 '{g}'입니다.", R, "quoted"),
            (f"**{g}**", R, "bold only"),
            ("1번 공약은 '전국 복지 혁신 2'입니다.", W, "neighbour pledge"),
            ("당선인의 1번 공약은 '전국 복지 혁신'입니다.", W, "truncated title"),
        ]
    elif tpl == "tago_next_bus":
        out += [
            (f"가장 먼저 도착하는 버스는 {g}번입니다. 약 2분 후 도착 예정입니다.", R, "with minutes"),
            (f"{g}번 버스", R, "번 버스"),
            (f"가장 먼저 오는 버스는 {g}0번입니다.", W, "longer number"),
        ]
    else:
        nb = NEIGHBOUR.get(tid, "알수없음")
        out += name_rows(i, t, g, nb)
        extra = EXTRA_NAME.get(tpl)
        if extra:
            out += extra(g)
    return out


COND = {  # (the condition as a model restates it, an answer that stops at the condition)
    "cond-molit-1": ("3월 매매가 346건으로 400건 미만", "성동구의 2025년 3월 매매는 346건입니다."),
    "cond-neis-meal-1": ("4월 평균 열량이 684kcal로 720kcal 미만", "4월 평균 열량은 684kcal입니다."),
    "cond-fsc-dart-1": ("3월 14일 종가가 41,250원으로 50,000원 미만", "종가는 41,250원입니다."),
    "cond-asm-cmt-0": ("국방위원회 위원이 21명으로 20명 이상", "국방위원회 위원은 21명입니다."),
    "cond-nec-asm-1": ("종로구을 당선인은 국민의힘 소속", "당선인은 국민의힘 소속입니다."),
    "cond-tago-arr-0": ("15분(900초) 안에 도착 예정인 버스가 2대로 3대 미만",
                        "15분 안에 도착 예정인 버스는 2대입니다."),
}

NEIGHBOUR = {
    "molit-trade-max-0": "경희궁자이", "molit-fan-argmax-0": "종로구", "molit-fan-argmax-1": "중구",
    "cond-molit-0": "남산타운", "molit-fan-rent-max-0": "성동구", "dart-fan-revenue-0": "삼성전자",
    "dart-fan-revenue-1": "카카오", "dart-fan-revenue-2": "LG화학", "dart-fan-revenue-3": "KB금융",
    "fsc-dart-ceo-0": "김미현", "fsc-dart-ceo-1": "서광희", "fsc-dart-ceo-2": "곽석준",
    "cond-dart-disc-0": "김미현", "nec-winner-cmit-0": "행정안전위원회",
    "nec-winner-cmit-1": "국방위원회", "nec-winner-cmit-2": "정무위원회",
    "nec-cand-oldest-0": "신윤철", "nec-cand-oldest-1": "송철수", "nec-cand-oldest-2": "김성진",
    "nec-turnout-0": "종로구", "nec-turnout-1": "중구", "nec-turnout-2": "부천시원미구",
    "nec-turnout-3": "상주시", "cond-asm-cmt-1": "국민의힘", "cond-nec-cand-0": "국민의힘",
    "cond-nec-cand-1": "홍준석", "cond-nec-asm-0": "행정안전위원회",
    "nec-prelim-oldest-0": "문채원", "nec-prelim-oldest-1": "윤용호", "nec-prelim-oldest-2": "류규철",
    "nec-prelim-oldest-3": "최도윤", "nec-cand-youngest-0": "안은지", "nec-cand-youngest-1": "송진우",
    "nec-cand-youngest-2": "안민수", "nec-cand-youngest-3": "노호석", "tago-route-last-0": "괴정동",
    "seoul-fan-arr-min-0": "소요산", "tago-stop-far-0": "죽동삼거리", "tago-stop-far-1": "반석역",
    "tago-stop-far-2": "안서동", "tago-stop-far-3": "합강리", "tago-stop-north-0": "홍도동",
    "tago-stop-north-1": "보람동", "tago-stop-north-2": "동면사무소",
    "tago-fan-far-0": "안서초등학교", "tago-fan-far-1": "죽동네거리", "tago-fan-far-2": "주례역",
    "tago-fan-far-3": "동면사무소",
}


def _gu(g):
    return [(f"서울 {g}가 가장 높습니다.", R, "with city prefix"),
            (f"서울특별시 {g}", R, "full city prefix")]


def _company(g):
    return [(f"㈜{g}", R, "㈜ prefix"), (f"{g}(주)가 가장 큽니다.", R, "(주) suffix")]


def _person(g):
    return [(f"{g} 대표이사입니다.", R, "title suffix"), (f"대표자는 {g} 씨입니다.", R, "씨")]


def _cand(g):
    return [(f"{g} 후보입니다.", R, "후보 suffix"), (f"해당 후보: {g}", R, "label then name")]


def _committee(g):
    short = g.replace("위원회", "위")
    return [(f"{short} 소속입니다.", A, "abbreviated committee"),
            (f"국회 {g} 위원으로 활동 중입니다.", R, "in sentence")]


def _stop(g):
    return [(f"'{g}' 정류장입니다.", R, "quoted with 정류장"),
            (f"{g} 정류소", R, "정류소 suffix")]


EXTRA_NAME = {
    "molit_fan_most_expensive": _gu, "molit_fan_top_deposit_gu": _gu,
    "dart_fan_top_revenue": _company, "fsc_dart_ceo_and_price": _person,
    "nec_oldest_candidate": _cand, "nec_party_youngest_candidate": _cand,
    "nec_preliminary_oldest": _cand, "nec_winner_committee": _committee,
    "tago_city_farthest_stop": _stop, "tago_two_cities_northernmost_stop": _stop,
    "tago_fan_cities_farthest_stop": _stop,
}

SPECIAL = {  # hand-written rows for tasks with a known trap
    "nec-cand-lost-1": [
        ("국민의힘 지역구 후보는 254명이었고, 그중 154명이 낙선했고, 100명이 당선됐습니다.", R,
         "two counts each with its own verb"),
        ("100명이 당선되고 154명이 낙선했습니다.", R, "verbs reversed order"),
        ("154명이 당선됐고, 100명이 낙선했습니다.", W, "the winners' count bound to 낙선"),
        ("후보 254명 중 낙선자는 154명입니다.", R, "total then answer"),
    ],
    "nec-cand-lost-0": [
        ("더불어민주당은 지역구에 254명을 냈고 이 중 108명이 당선, 146명이 낙선했습니다.", R,
         "당선/낙선 list"),
        ("낙선 146명 (당선 108명)", R, "answer then parenthetical other count"),
        ("당선 146명, 낙선 108명", W, "swapped"),
    ],
    "nec-cand-lost-3": [
        ("개혁신당 후보 61명 모두 낙선했습니다.", R, "모두"),
        ("Sixty-one candidates lost: 61.", R, "english with digits"),
    ],
    "tago-arr-count-1": [
        ("15분(900초) 이내 도착 예정 버스는 두 대입니다.", R, "korean number word"),
        ("900초 안에 오는 버스는 세 대입니다.", W, "korean number word, wrong"),
    ],
    "neis-sched-holiday-0": [
        ("종로초등학교가 휴업일이 닷새 더 많습니다 (5일).", R, "native number word with digits"),
    ],
    "molit-fan-total-2": [
        ("중구 265건, 성동구 346건, 광진구 369건, 종로구 382건을 더하면 총 1,362건입니다.", R,
         "working before total"),
        ("중구 265건, 성동구 346건, 광진구 369건, 종로구 382건입니다.", W, "breakdown only"),
        ("총 1,363건입니다.", W, "off by one on 1000+"),
        ("총 1,362건 중 중구는 265건입니다.", A, "total then a component"),
    ],
    "molit-cmp-mean-0": [
        ("종로구 평균 66,352.4만원, 중구 평균 135,053.0만원으로 종로구가 68,700.6만원 적습니다.", R,
         "means then 적습니다"),
        ("차이: -6억 8,700만 6천원", R, "억/만/천 in words signed"),
        ("종로구가 68,700.6만원 더 비쌉니다.", W, "wrong sign in words"),
        ("-687,006만원", W, "scale by ten"),
    ],
    "cond-molit-1": [
        ("성동구의 3월 매매는 346건으로 400건 미만입니다. 따라서 같은 달 전월세 계약 건수인 455건이 답입니다.",
         R, "threshold, condition count, answer"),
        ("성동구의 3월 매매는 455건으로 400건 이상이므로 최고가 단지는 서울숲리버뷰입니다.", W,
         "other branch"),
    ],
    "nec-asm-cmt-winners-0": [
        ("국방위원회 위원 17명 중 지역구 당선인은 11명입니다(비례대표 6명 제외).", R,
         "committee size then answer then exclusion"),
        ("국방위원회 위원은 모두 17명입니다.", W, "the committee size"),
    ],
    "seoul-card-1": [
        ("동두천역 승차 18,210명 / 1호선 전체 901,500명 = 2.02%", R, "formula with result"),
        ("2.02%p", A, "%p for a ratio"),
    ],
    "cond-fsc-dart-1": [
        ("카카오 종가는 41,250원으로 50,000원 미만이므로 대량보유 보고 건수 5건이 답입니다.", R,
         "prices restated then answer"),
        ("카카오 종가는 41,250원입니다.", W, "the condition's value"),
    ],
    "tago-cmp-distinct-0": [
        ("부산 6,423가지 − 대전 4,064가지 = 2,359가지", R, "subtraction line"),
        ("대전이 부산보다 2,359가지 적으므로 답은 2,359입니다.", R, "restated from the other side"),
    ],
    "molit-fan-mean-0": [
        ("평균 거래금액은 13억 5,052만 6천원입니다.", R, "억/만/천 with 원"),
        ("약 13.5억 원", R, "억 decimal within tolerance"),
        ("약 14억 원", W, "rounded too far"),
    ],
    "fsc-dart-mcap-3": [
        ("PBR ≈ 504.42배 (시가총액 ÷ 자본총계)", R, "≈ with 배"),
        ("PBR은 5.04배입니다.", W, "percent scale confusion"),
    ],
    "ordin-promul-0": [
        ("공포번호는 강릉시조례 제6028호입니다.", R, "with issuer prefix"),
    ],
    "juso-coord-0": [
        ("entX: 969382.722789, entY: 1952311.104551", R, "both coordinates labelled"),
        ("entY는 1952311.104551입니다.", W, "the other coordinate"),
    ],
    "tago-routes-0": [
        ("반석정류장 경유 노선: 463, 621, 963 (총 3개)", R, "list with count"),
        ("총 3개 노선입니다.", W, "count instead of list"),
    ],
    "nec-pledges-sum-0": [
        ("후보 5명이 각각 5개씩, 총 25개입니다.", R, "product working"),
        ("후보별로 5, 5, 5, 5, 5개입니다.", W, "components only"),
    ],
    "asm-month-cmt-0": [
        ("2024년 9월에는 법제사법위원회에 가장 많이 회부됐고, 이 위원회 위원은 27명입니다.", R,
         "date and name before count"),
        ("2024년 9월 법제사법위원회 회부 법률안은 43건입니다.", W, "the bill count"),
    ],
}


def main() -> None:
    tasks = json.load(open(sys.argv[1], encoding="utf-8"))
    header = {
        "_header": (
            "Held-out natural answers v3 for the KOPA-Bench RESPONSE checker (issue 29). Written by "
            "helper session s36-checker BEFORE reading bench/kopa/checkers.py, the scoring modules, "
            "tests/bench/test_checker_*.py, docs/bench.md's checker section or the earlier held-out "
            "files (only the header line of heldout_answers_v2.jsonl was read, for its schema), from "
            "each task's question and its gold on kopa@v0006 (`simulator bench run --agent oracle`), "
            "generated by tests/data/make_heldout_v3.py. Labels (right / wrong / ambiguous) are the "
            "author's judgement as a grader; 'ambiguous' rows are excluded from the figures. Numbers "
            "in working are made up where the gold does not fix them; only the committed answer "
            "matters. The world is synthetic (sandbox values)."),
        "world": "kopa@v0006",
    }
    print(json.dumps(header, ensure_ascii=False))
    for i, t in enumerate(tasks):
        rows = rows_for(i, t) + SPECIAL.get(t["id"], [])
        for text, label, kind in rows:
            print(json.dumps({"task": t["id"], "gold": t["gold"], "label": label, "text": text,
                              "why": kind}, ensure_ascii=False))


if __name__ == "__main__":
    main()
