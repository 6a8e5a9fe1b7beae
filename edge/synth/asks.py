"""The questions of :mod:`edge.synth.intents`, written as people ask them.

Each intent has a handful of forms (a plain question, a request, a first-person situation;
해요체, 반말 and 합니다체), filled from the draft's slots. ``{k}`` is slot ``k`` as shown, and
``{k|은}`` it with the particle that fits its last syllable (a title in 「」 takes the particle
of the title itself). No form holds a digit or an answer: the numbers a question states are
its slots (a date, an article number, a bill number a person has from the news).
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from .checks import region_short
from .draft import IntentPart
from .korean import date_text, josa

__all__ = ["FORMS", "opener_frame", "phrase", "register", "registers"]

_SLOT = re.compile(r"\{(\w+)(?:\|(\w+))?\}")

#: How a bill comes in: by its title and number as the news gives them, never by its number
#: alone ("제22대 국회 의안번호 2290775번 법률안 관련해서요" reads like a key: blind40j #5).
_BILL_LEAD = ("{age}대 국회 의안번호 {bill}번 '{bname}',", "뉴스에서 {age}대 국회에 발의된 '{bname}'(의안번호 {bill})을 봤는데,",
              "{age}대 국회에 올라온 '{bname}', 의안번호가 {bill}번이던데요.",
              "'{bname}'이라고, {age}대 국회 의안번호 {bill}번으로 올라온 게 있던데요.",
              "기사에서 본 '{bname}'(의안번호 {bill}, {age}대 국회) 건인데요,",
              "{age}대 국회에서 의안번호 {bill}번으로 접수된 '{bname}'을 찾아봤는데,",
              "요즘 뉴스에 자주 나오는 '{bname}'({age}대 국회 의안번호 {bill})에 대해 궁금한 게 있는데,",
              "친구가 '{bname}' 얘기를 하길래 찾아보니 {age}대 국회 의안번호 {bill}번이더라고요.",
              "국회 의안정보시스템에서 {age}대 국회 {bill}번 '{bname}'을 봤어요.",
              "시민단체 소식지에 '{bname}'({age}대 국회 의안번호 {bill})이 실렸던데,",
              "{age}대 국회 의안번호 {bill}번, '{bname}' 건으로 여쭤요.",
              "라디오에서 '{bname}' 얘기가 나와서 찾아보니 {age}대 국회 의안번호 {bill}번이던데요.",
              "신문에 난 '{bname}'({age}대 국회 의안번호 {bill}) 말이에요.",
              "학교 토론 주제로 '{bname}'({age}대 국회 의안번호 {bill})을 맡았는데,")

#: A line's busiest (or quietest) station of a day, found within the ask itself: the asker does
#: not know the station, and the day is said as the day it was ("2025년 3월 14일 금요일"), never
#: glued on as a second step ("…역을 찾아보면, 그 역의 영문 이름도", a blind read).
_BUSIEST_LEAD = ("{day} {dow}에 {line}에서 {whop} 제일 {many} 역은", "{line}에서 {day} {dow}에 {whop} 가장 {many} 역은",
                 "{line} 이용객 통계로 {day} {dow|을} 보면, {whop} 제일 {many} 역은",
                 "{line}에서 {day} {dow} 하루 동안 {whop} 가장 {many} 역은", "{day} {dow}, {line} 역 가운데 {whop} 제일 {many} 곳은",
                 "{day} {dow} {line} 승하차 기록을 보면 {whop} 가장 {many} 역은",
                 "{day} {dow} 하루 {line} 이용 통계에서 {whop} 제일 {many} 역은", "{line}의 {day} {dow} 기록으로 보면 {whop} 가장 {many} 역은")

#: Per intent: how the question brings in its entity (``lead``) and what it asks of it
#: (``ask``, its subject left implicit as Korean does). A question is one lead and one ask, so
#: two questions of one intent share at most one of them (the near-duplicate filter, a
#: character-5-gram Jaccard of 0.5, refuses pairs that share both and differ in a name only).
FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "law_articles": {
        # a count of articles with the asker's reason, and its scope said: the program counts the
        # articles (조문단위), never the 부칙 (「조문 개수」 left it open: blind40j #13, 40l #25)
        "lead": ("{name|을} 처음부터 읽어 보려고 해요.", "시험 준비로 {name|을} 정리하는 중인데,",
                 "스터디 발제로 {name|을} 맡았는데,", "{name} 요약본을 만들려고 하는데,",
                 "{name|을} 하루에 몇 조씩 읽을지 정하려고요."),
        "ask": ("부칙은 빼고 본문 조문이 모두 몇 개인가요?", "부칙 말고 본문에 조문이 몇 개 있어요?",
                "부칙을 빼면 조문이 몇 개인지 알려 주세요.", "부칙 빼고 본문만 치면 몇 개 조예요?",
                "부칙을 제외한 본문 조문이 몇 개인지 알 수 있을까요?"),
    },
    "law_article_title": {
        "lead": ("「{name}」 조문 중에서", "{name|을} 보다가 궁금해졌는데,", "현행 「{name}」에서",
                 "과제 때문에 {name|을} 찾아보는데,", "「{name}」 관련해서요.", "스터디에서 {name|을} 같이 읽는 중인데,",
                 "회의 자료에 {name} 조항을 인용하려고 하는데,", "수업 시간에 {name} 얘기가 나왔는데,",
                 "{name} 조문을 표로 정리하고 있는데,"),
        "ask": ("제{no}조의 제목이 뭐예요?", "제{no}조는 무엇에 관한 조항인가요?", "제{no}조의 제목을 알려 주세요.",
                "제{no}조는 어떤 내용을 다루는 조항이에요?", "제{no}조의 제목은 무엇입니까?",
                "제{no}조가 뭘 정한 조항인지 알려 줘.", "제{no}조에는 뭐가 규정돼 있어요?"),
    },
    "law_article_about": {
        # the subject in plain words, not a quoted heading ("'위임사항'에 관한 조문", a blind read)
        "lead": ("「{name}」에서", "{name|을} 읽고 있는데,", "현행 「{name}」 기준으로", "일 때문에 {name|을} 확인해야 해서요.",
                 "수업 자료를 만들다가 {name|을} 찾아봤는데,", "{name} 내용을 정리하는 중인데,"),
        "ask": ("{title}에 관한 내용은 몇 조에 있어요?", "{title} 얘기는 몇 조에 나오는지 알려 주세요.",
                "{title}에 대해 정한 조항이 몇 조인가요?", "{title|을} 다루는 조문이 몇 조인지 궁금합니다.",
                "{title} 부분이 몇 조인지 찾아 줘.", "{title|을} 정한 조항은 제 몇 조입니까?"),
    },
    "ordin_articles": {
        "lead": ("{name|을} 처음 읽어 보려는데,", "주민자치 모임에서 {name|을} 같이 읽기로 해서요.",
                 "{name|을} 발표 자료로 정리하는 중인데,", "아파트 입주민 모임에서 {name|을} 읽어 보기로 했는데,"),
        "ask": ("부칙은 빼고 조문이 몇 개인가요?", "부칙 말고 본문은 몇 개 조로 되어 있어요?",
                "부칙을 빼면 조문이 몇 개인지 알고 싶어요.", "부칙 빼고 본문 조문이 모두 몇 개예요?"),
    },
    "ordin_article_title": {
        # no reader who has the text open ("훑어보다가 … 제5조의 제목", blind40l #32) and no
        # reason too vague to need one article ("민원 때문에", #35)
        "lead": ("「{name}」에서", "{name|을} 찾아보는데,", "동네 모임에서 {name} 얘기가 나왔는데,",
                 "지역 소식지에서 {name} 얘기를 봤는데,"),
        "ask": ("제{no}조의 제목이 뭐예요?", "제{no}조에는 어떤 내용이 들어 있어요?", "제{no}조가 무슨 조항인지 알려 주세요.",
                "제{no}조는 무슨 내용입니까?"),
    },
    "tago_stop_routes": {
        "lead": ("{city} {stop} 정류장 앞 회사로 출근해요.", "{city}에 사는데, 집 앞이 {stop} 정류장이에요.", "{city} {stop} 정류장에서 버스를 자주 타요.",
                 "{city}에서 {stop} 정류장을 자주 이용해요.", "이번에 {city|으로} 이사 왔는데, 근처가 {stop} 정류장이에요."),
        "ask": ("거기를 지나는 버스 노선은 몇 개예요?", "거기 서는 버스가 몇 개 노선이나 되나요?", "거기 서는 버스 노선이 몇 개인지 알려 주세요.",
                "거기 다니는 버스 노선이 몇 개야?", "이 정류장을 지나는 버스 노선은 몇 개입니까?",
                "거기서 탈 수 있는 노선이 모두 몇 개인지 궁금해요."),
    },
    "tago_stop_route_type": {
        "lead": ("{city} {stop} 정류장에", "{city} {stop} 정류장 바로 앞에 살아요. 거기에", "{city}에서 {stop} 정류장을 자주 이용하는데, 거기에",
                 "{city} {stop} 정류장 근처로 이사 왔는데, 거기에", "{city} {stop} 정류장에서 출퇴근하는데, 그 정류장에"),
        "ask": ("서는 {kind|은} 몇 개 노선이에요?", "서는 버스 가운데 {kind|은} 몇 개 노선인가요?",
                "{kind|이} 몇 개 노선 다니는지 알려 주세요.", "서는 {kind|이} 몇 개 노선인지 알려 주십시오.",
                "오는 {kind} 노선이 몇 개나 돼요?"),
    },
    # what a person waiting asks: which bus comes first, not how long the arrival list is
    # ("도착 예정인 버스는 몇 대", a blind read)
    "tago_stop_arrivals": {
        "lead": ("지금 {city} '{stop}' 정류장인데,", "{city} {stop} 정류장에서 버스를 기다리는 중이에요.",
                 "{city} {stop} 정류장에 막 도착했는데,", "지금 {city} {stop} 정류장에 있는데,"),
        "ask": ("제일 먼저 오는 버스가 몇 번이에요?", "가장 먼저 도착하는 버스는 몇 번인가요?",
                "먼저 들어오는 버스가 몇 번인지 알려 주세요.", "제일 먼저 오는 버스 몇 번이야?",
                "가장 빨리 도착하는 버스는 몇 번입니까?"),
    },
    # the asker does not know the station: it is found inside the one ask; the lines of the
    # busiest station only ("사람이 몰린 게 환승역이라서인지"), the English name with the reason
    # a person wants it: one day's figures put in English (a guide's "붐비는 역" pinned to one
    # past day read as the data's scope in three outside reads), and no trains "arriving now" at
    # a station picked from a past day's figures (two times glued together)
    "seoul_busiest_lines": {
        "pre": ("", "", "", "사람이 몰린 게 환승역이라서인지 궁금해서요.", "지하철 이용 통계를 보다가 궁금해졌는데,",
                "출퇴근길 혼잡한 역이 환승역이 많은지 보고 있어요."),
        "lead": _BUSIEST_LEAD,
        "ask": ("몇 개 호선이 지나나요?", "노선이 몇 개나 지나는 역이에요?", "몇 개 호선이 지나는 역인지 알려 주세요.",
                "몇 개 호선이 다니는 역이야?", "몇 개 호선이 지나는 역입니까?", "몇 개 호선이 만나는 역이에요?",
                "몇 개 호선으로 갈아탈 수 있어요?",
                "몇 개 호선을 갈아탈 수 있는 역인지 궁금해요."),
    },
    "seoul_busiest_eng": {
        "pre": ("영문 보고서에 서울 지하철 하루 이용 통계를 인용하려고 하는데,", "영어 수업 과제로 서울 지하철 하루 이용 통계를 정리하고 있어요.",
                "외국인 동료와 지하철 하루 이용 통계를 같이 보고 있는데,", "영어 발표 자료에 지하철 하루 이용 통계를 넣으려고 하는데,",
                "해외 친구에게 서울 지하철 하루 이용 통계를 보여 주려는데,", "영어로 된 교통 통계 자료를 만들고 있어요.",
                "지하철 이용 통계를 영어 논문에 쓰려고 하는데,", "교환학생 친구에게 서울 지하철 하루 이용 통계를 설명하려는데,",
                "영문 블로그에 서울 지하철 하루 이용 통계를 올리려고 하는데,", "국제 학회 발표에 서울 지하철 하루 이용 통계를 인용하려는데,"),
        "lead": ("{day} {dow}에 {line}에서 {whop} 가장 {many} 역을", "{line}에서 {day} {dow}에 {whop} 제일 {many} 역을",
                 "{line} 역 중에 {day} {dow} 하루 {whop} 제일 {many} 곳을",
                 "{line}에서 {day} {dow} 하루 동안 {whop} 가장 {many} 역을", "{day} {dow}, {line} 역 가운데 {whop} 제일 {many} 곳을",
                 "{day} {dow} {line} 승하차 기록에서 {whop} 가장 {many} 역을"),
        "ask": ("영어 이름으로 알려 주세요.", "영문 표기로 알려 줄래요?", "영어로 어떻게 쓰는지 알려 주세요.",
                "영문 역명으로 알려 주십시오.", "영어 이름으로 알려 줘.", "영문명으로 알려 주시겠어요?",
                "영어로는 어떻게 표기하는지 궁금해요.", "영문으로는 어떻게 쓰는지 알려 줄 수 있어요?"),
    },
    "fsc_top_corp": {
        # a name filter as a person makes one: the word typed into a trading app's search box
        "lead": ("주식 앱에서 {qword|으로} 검색해 보니 {market} 종목이 여럿 나오던데,",
                 "{market} 종목 검색창에 {qword|을} 쳐 보면 나오는 종목들 중에서",
                 "{market}에서 이름에 {qword|이} 들어가는 종목들을 보고 있는데,"),
        "ask": ("{day}에 {key} {most} 곳은 어느 회사예요?", "{day} 기준으로 {key} {most} 종목은 어느 회사 건가요?",
                "{day}에 {key} {most} 곳이 어느 회사인지 알려 주세요.", "{day}에 {key} {most} 종목은 어느 회사입니까?",
                "{day}에 {key} {most} 데가 어느 회사인지 궁금해요."),
    },
    "dart_ceo": {
        "lead": ("{name} 말인데요,", "{name}에 대해 알아보는 중인데,", "거래처인 {name} 관련해서요.", "{name|이라}는 회사가 있는데,",
                 "취업 준비로 {name|을} 찾아보고 있어요."),
        "ask": ("대표이사가 누구예요?", "대표자 이름이 어떻게 되나요?", "지금 대표가 누구인지 알려 주세요.",
                "대표가 누군지 알 수 있을까요?", "대표이사는 누구입니까?"),
    },
    "dart_revenue": {
        "lead": ("{name}의", "{name}에 투자해 볼까 하는데,", "{name}의 실적이 궁금해서요.", "{name|이라}는 회사가 있는데,",
                 "{name} 매출 규모가 궁금해서요."),
        "ask": ("2024년 사업보고서 기준 연결 매출액이 얼마예요?", "2024년 사업보고서상 연결 기준 매출액을 알려 주세요.",
                "2024년 사업보고서 연결재무제표상 매출액은 얼마인가요?", "2024년 사업보고서에 나온 연결 매출액이 궁금해요.",
                "2024년 사업보고서상 연결 매출액은 얼마입니까?"),
    },
    "dart_profit": {
        "lead": ("{name}의", "{name}에 투자해 볼까 하는데,", "{name}의 실적이 궁금해서요.", "{name|이라}는 회사가 있는데,",
                 "{name} 재무제표를 보려고 해요.", "{name|이} 돈을 잘 버는 회사인지 궁금해서요."),
        "ask": ("2024년 사업보고서 기준 연결 영업이익이 얼마예요?", "2024년 사업보고서상 연결 기준 영업이익을 알려 주세요.",
                "2024년 사업보고서 연결재무제표상 영업이익은 얼마인가요?", "2024년 사업보고서에 나온 연결 영업이익이 궁금해요.",
                "2024년 사업보고서상 연결 영업이익은 얼마입니까?"),
    },
    "dart_disclosures": {
        "lead": ("{name|은}", "{name} 공시를 챙겨 보려는데,", "{name|이라}는 회사가 있는데,", "{name}에 대해 알아보는 중인데,",
                 "주주로서 {name} 소식이 궁금해서요."),
        "ask": ("2024년 한 해 동안 공시를 몇 건 냈어요?", "2024년 한 해 동안 올라온 공시가 모두 몇 건인가요?",
                "2024년 한 해 공시 건수를 알려 주세요.", "2024년 1년 동안 공시가 몇 건이었는지 알 수 있을까요?",
                "2024년 한 해 동안 제출된 공시가 몇 건입니까?"),
    },
    "bill_sponsor_district": {
        "lead": _BILL_LEAD,
        "ask": ("대표발의한 의원의 지역구는 어디예요?", "대표발의한 의원 지역구가 어디인가요?",
                "누가 대표발의했는지, 그 의원의 지역구를 알려 주세요.", "대표발의 의원은 어느 지역구 의원입니까?",
                "대표발의자 지역구 좀 알려 줘."),
    },
    "bill_sponsor_party": {
        "lead": _BILL_LEAD,
        "ask": ("대표발의한 의원은 어느 정당 소속이에요?", "대표발의자의 소속 정당이 어디인가요?",
                "대표발의한 의원의 정당을 알려 주세요.", "대표발의 의원 소속 정당은 어디입니까?", "대표발의자 당이 어디야?"),
    },
    "bill_sponsor_committee": {
        "lead": _BILL_LEAD,
        "ask": ("대표발의한 의원은 어느 위원회 소속이에요?", "대표발의 의원이 속한 상임위원회가 어디인가요?",
                "대표발의한 의원의 소속 위원회를 알려 주십시오.", "대표발의자가 어느 상임위에 있는지 알려 줘."),
    },
    "bill_sponsor_terms": {
        "lead": _BILL_LEAD,
        "ask": ("대표발의한 의원은 몇 선이에요?", "대표발의 의원이 국회의원을 몇 번째 하고 있는지 알려 주세요.",
                "대표발의 의원은 몇 선 의원입니까?", "대표발의자가 국회의원 몇 선째인지 알려 줘."),
    },
    "nec_winners_party": {
        "lead": ("{year}년 지방선거 {office} 선거 결과를 보면,", "{year}년 지방선거 때 치러진 {office} 선거에서",
                 "{year}년 지방선거 {office} 선거 결과가 궁금한데요,", "{year}년 지방선거 {office} 선거 기준으로"),
        "ask": ("{region} 당선인 가운데 {party} 소속은 몇 명이에요?", "{region}에서 {party} 당선자는 몇 명이었나요?",
                "{region}에서 {party|은} 몇 명 당선됐어요?", "{region} 당선인 중 {party} 소속이 몇 명인지 알려 주십시오."),
    },
    "nec_candidates_party": {
        "lead": ("{year}년 지방선거 {office} 선거에", "{year}년 지방선거 {office} 선거 때", "{year}년 지방선거 때 치러진 {office} 선거에"),
        "ask": ("{region}에서 {party} 후보로 나온 사람은 몇 명이에요?", "{region}에서 {party} 공천을 받아 출마한 후보는 몇 명인가요?",
                "{region}에서 {party} 후보가 몇 명 나왔는지 알려 주세요."),
    },
    # COND: a small party's showing, as people ask it — its winners, or if none, its candidates
    # ("…라도": the fallback in the asker's own words; the threshold is one winner)
    "nec_cond": {
        "lead": ("{year}년 지방선거 {office} 선거에서 {party|은} {region}에서 당선자를 몇 명 냈어요?",
                 "{party|이} {year}년 지방선거 {office} 선거 때 {region}에서 당선자를 몇 명 냈는지 궁금해요.",
                 "{year}년 지방선거 {office} 선거 결과를 보는데, {region}에서 {party} 당선자는 몇 명이에요?",
                 "{year}년 지방선거 {office} 선거에 나선 {party} 후보 중 {region}에서 당선된 사람은 몇 명이었어요?"),
        "ask": ("한 명도 없었다면 후보는 몇 명 냈는지라도 알려 주세요.", "당선자가 없었다면 후보가 몇 명 나왔는지라도 알려 주세요.",
                "없었다면 그 당 후보가 몇 명 출마했는지라도 알고 싶어요."),
    },
    "nec_winners": {
        "lead": ("{year}년 지방선거 때 치러진 {office} 선거 결과를 보는데,", "{year}년 지방선거 {office} 선거 기준으로",
                 "{year}년 지방선거 {office} 선거 결과가 궁금한데요,", "{year}년 지방선거 {office} 선거 결과를 보면,"),
        "ask": ("{region}에서 당선된 사람은 모두 몇 명이에요?", "{region}에서 당선된 사람이 몇 명인지 알려 주세요.", "{region}에서 당선된 사람은 총 몇 명입니까?",
                "{region}에서는 몇 명이 당선됐나요?", "{region}에서는 당선자가 몇 명 나왔는지 궁금해요."),
    },
    "nec_candidates": {
        "lead": ("{year}년 지방선거의 {office} 선거에", "{year}년 지방선거 때 치러진 {office} 선거에서", "{year}년 지방선거 {office} 선거 때"),
        "ask": ("{region}에서 나온 후보는 모두 몇 명이었어요?", "{region}에서 출마한 후보가 몇 명인지 알려 주세요.",
                "{region}에서 출마한 사람은 총 몇 명입니까?", "{region}에서는 후보가 몇 명 나왔나요?",
                "{region}에서 출마한 사람이 몇 명이었는지 궁금해요."),
    },
}


# ---- where people live (edge.synth.intents_local): three pieces, a context ("pre", mostly none:
# a quarter of an intent's questions at most, ``PREFACE_SHARE``), how the place and month come in
# ("lead") and the ask, so the same intent reads many ways.
#: Housing prefaces, per ask: each reason fits what it asks (a buyer asks what a home costs, not
#: the month's record price: 「은퇴 후 작은 집으로 옮길까 해서요」 before the highest price, blind40k
#: #38; 「첫 집 마련」 before a maximum, blind40j #34), says 매매 where a 전세 tenant asks (blind40l
#: #37), and opens one or two intents' questions only, so none comes back often in a run (one
#: shared preface opened 10 of 1,000 and three of one blind read's 40).
_HOME_PRE = {
    "count": ("", "거래 절벽 기사를 본 기억이 나서요.", "부동산 공부를 하고 있는데,", "부동산 수업 과제를 하고 있는데,",
              "동네 시세 분위기 좀 보려고요.", "동네 부동산 경기가 어떤지 궁금해서요.", "지역 신문에 부동산 기사를 쓰고 있는데,"),
    "dong": ("", "이사 갈 동네를 알아보는 중이에요.", "신혼집 후보 동네를 보고 있어요.", "회사 근처로 이사를 생각하고 있어서요.",
             "동네 카페에서 집값 얘기가 나와서요.", "중개사무소에 가기 전에 미리 알아보려고요.", "이사 후보 동네를 추리는 중이에요.",
             "아이 학교 때문에 이사할 동네를 찾고 있어요.", "동네 거래가 활발한 편인지 궁금해서요.", "주말에 집 보러 가기 전에 확인하려고요."),
    "max": ("", "집값 기사를 보다가 궁금해져서요.", "신고가 기사를 보고 궁금해져서요.", "재테크 모임에서 얘기가 나와서요."),
    "top": ("", "동네에서 제일 비싼 집이 어딘지 궁금해서요.", "부동산 카페 글을 보다가 궁금해져서요."),
    "mean": ("", "첫 집 마련을 준비하고 있어서요.", "부모님 집을 알아봐 드리는 중인데,", "독립해서 살 집을 찾고 있어요.",
             "은퇴 후 작은 집으로 옮길까 해서요.", "전세 만기가 다가와서 매매도 알아보는 중이에요.", "예산이 맞을지 보려고요."),
    "cmp": ("", "두 구 중에 어디로 이사할지 고르고 있어요.", "두 구의 부동산 분위기를 비교해 보려고요."),
    "pair": ("", "빌라와 오피스텔 중에 어느 쪽을 살지 고민 중이에요.", "부동산 수업 발표를 준비하는데,"),
}
_HOME_LEAD = ("{month} {place}에서", "{place}에서 {month}에", "{month} 한 달 동안 {place}에서", "{month}에 {place}에서",
              "{place}에서 {month} 한 달 동안")
# a school is always said with its district (a name alone, "푸른초등학교", is many schools:
# blind reads), never "○○고등학교에서 … 반 수를"; a preface fits any school year the question
# names (no "이번에 전학을 가게 돼서요" before 2024학년도), and each is rare (few repeat in 40)
_SCHOOL_PRE = ("",) * 30 + ("학부모 모임에서 얘기가 나와서요.", "학교 비교 자료를 만들고 있는데,", "아이 친구 엄마가 물어봐서요.",
               "동네 학교들을 비교해 보는 중이에요.", "조카가 다니는 학교라서요.", "교육 봉사를 가게 된 학교인데,",
               "졸업한 모교라서 궁금해서요.", "지역 신문 기사를 쓰고 있는데,")
_SCHOOL_LEAD = ("{where} {school}", "{where}에 있는 {school}", "{where}의 {school}")

FORMS.update({
    "home_count": {
        "pre": _HOME_PRE["count"], "lead": _HOME_LEAD,
        "ask": ("신고된 {kind} 매매는 몇 건이었어?", "거래된 {kind|은} 모두 몇 건이에요?", "{kind} 매매가 몇 건 있었나요?",
                "팔린 {kind|은} 몇 건인지 알려 주세요.", "{kind|이} 몇 건이나 거래됐는지 궁금해요.",
                "이뤄진 {kind} 매매 건수를 알 수 있을까요?", "{kind} 매매는 몇 건이었습니까?"),
    },
    "home_dong": {
        "pre": _HOME_PRE["dong"],
        "lead": ("{month} {place} {dong}에서", "{place} {dong}에서 {month}에", "{month} 한 달 동안 {place} {dong}에서",
                 "{place} {dong}에서 {month} 한 달 동안", "{month}에 {place} {dong}에서"),
        "ask": ("신고된 {kind} 매매는 몇 건이었어?", "거래된 {kind|은} 모두 몇 건이에요?", "{kind} 매매가 몇 건 있었나요?",
                "팔린 {kind|은} 몇 건인지 알려 주세요.", "{kind|이} 몇 건이나 거래됐는지 궁금해요.",
                "{kind} 매매는 모두 몇 건입니까?"),
    },
    # COND: the asker's neighbourhood, and the district if it had none ("…라도": their own fallback)
    "home_dong_cond": {
        "lead": ("{month} {place} {dong}에서", "{place} {dong}에서 {month}에", "{month} 한 달 동안 {place} {dong}에서"),
        # the fallback with its reason (a neighbourhood may have had no sale) and said each its own
        # way: 「한 건도 없었다면 … 전체로는 … 라도」 three times in a blind read's 40 read as
        # program logic (blind40k #13/#20/#28, 40l #17/#30/#34)
        "ask": ("{kind} 매매 건수를 알고 싶은데, 그 동에 거래가 없었으면 {gu} 전체 건수로 알려 주셔도 돼요.",
                "팔린 {kind|이} 있었다면 몇 건인지 궁금해요. 동 하나로 보면 없었을 수도 있으니, 그럼 {gu} 전체로 봐 주세요.",
                "{kind} 매매가 몇 건이었는지 알려 주세요. 동 단위로는 비어 있을 수도 있으니, 그때는 {gu} 전체 숫자면 돼요."),
    },
    "home_max": {
        "pre": _HOME_PRE["max"], "lead": _HOME_LEAD,
        "ask": ("팔린 {kind} 가운데 최고가는 얼마였어요?", "거래된 {kind} 최고 매매가가 얼마인가요?",
                "팔린 {kind} 중 최고가가 얼마였는지 알려 줘.", "가장 비싸게 팔린 {kind|은} 얼마에 거래됐는지 알려 주세요.",
                "{kind} 매매 중 최고가는 얼마였습니까?", "{kind|은} 제일 비싼 게 얼마에 팔렸어요?"),
    },
    "home_mean": {
        "pre": _HOME_PRE["mean"], "lead": _HOME_LEAD,
        "ask": ("거래된 {kind}의 평균 매매가는 얼마예요?", "팔린 {kind}의 평균 가격이 얼마인지 알려 주세요.",
                "팔린 {kind|은} 평균 얼마에 거래됐나요?", "{kind|은} 평균적으로 얼마에 팔렸는지 궁금해요.",
                "매매된 {kind}의 평균 가격은 얼마입니까?", "팔린 {kind|은} 평균 얼마였는지 알려 줘."),
    },
    "home_top": {
        "pre": _HOME_PRE["top"], "lead": _HOME_LEAD,
        "ask": ("가장 비싸게 팔린 {kind|은} 어디였어요?", "최고가로 거래된 {kind} 이름이 뭐예요?",
                "제일 비싸게 거래된 {kind} 건물 이름을 알려 주세요.", "{kind} 가운데 가장 높은 값에 팔린 곳은 어디인가요?",
                "최고가 {kind} 거래가 나온 건물 이름이 궁금합니다.", "{kind} 중 제일 비싸게 팔린 건 어느 건물이에요?",
                "가장 비싼 값에 거래된 {kind|이} 어디인지 알려 주세요.", "{kind} 최고가 거래는 어디서 나왔어?",
                "{kind} 매매 가운데 최고가를 찍은 곳은 어디입니까?"),
    },
    "home_cmp": {
        "pre": _HOME_PRE["cmp"],
        "lead": ("{month}에", "{month} 한 달 동안"),
        "ask": ("{place|과} {other} 중 {kind} 매매가 더 많았던 곳은 어디예요?",
                "{place}하고 {other} 가운데 {kind} 거래가 더 많은 쪽은 어디인가요?",
                "{kind|이} 더 많이 팔린 곳은 {place|과} {other} 중 어디였는지 알려 주세요.",
                "{place|과} {other}, 둘 중 {kind} 매매 건수가 많은 곳은 어디입니까?",
                "{kind} 매매가 {place|과} {other} 중 어디서 더 활발했어?"),
    },
    "school_classes": {
        "pre": _SCHOOL_PRE, "lead": _SCHOOL_LEAD,
        "ask": ("{ay} 학급은 모두 몇 개예요?", "{ay}에는 반이 몇 개나 돼요?", "{ay} 전체 학급 수를 알려 주세요.",
                "{ay} 기준으로 반이 모두 몇 개인지 궁금해요.", "{ay} 학급이 총 몇 개입니까?",
                "{ay}에는 학급이 몇 개 편성됐어요?", "{ay}에 반이 몇 개 있었는지 알려 줄래요?"),
    },
    "school_grade": {  # a class assignment is one grade's: its reason fits this ask only
        "pre": _SCHOOL_PRE + ("아이 반 배정 얘기가 나와서요.",), "lead": _SCHOOL_LEAD,
        "ask": ("{ay} {grade}학년은 몇 반까지 있어요?", "{ay}에 {grade}학년 학급이 몇 개인가요?",
                "{ay} {grade}학년은 몇 반이에요?", "{grade}학년은 {ay}에 몇 개 반으로 운영되나요?",
                "{ay} {grade}학년 학급 수가 궁금합니다.", "{ay}에 {grade}학년은 반이 몇 개였어요?"),
    },
    "school_majors": {
        "pre": ("", "", "", "진학할 학교를 고르는 중인데,", "입학 설명회 가기 전에 알아보려고요."),
        "lead": _SCHOOL_LEAD,
        "ask": ("학과는 몇 개 개설돼 있어요?", "학과가 모두 몇 개 있나요?", "운영하는 학과 수를 알려 주세요.",
                "학과가 몇 개나 되는지 궁금해요.", "개설 학과 수는 몇 개입니까?"),
    },
    "school_dish": {
        "pre": ("",) * 8 + ("아이가 편식이 심해서요.", "급식 식단이 궁금해서요.", "아이가 좋아하는 메뉴라서 물어봐요.",
                "급식 모니터링을 맡게 됐는데,", "아이가 급식 얘기를 자주 해서요.", "저녁 메뉴가 겹치지 않게 하려고요."),
        "lead": _SCHOOL_LEAD,
        "ask": ("{month} 점심 급식에 {dish|이} 몇 번 나왔어요?", "{month} 점심 메뉴에 {dish|이} 몇 번 올라왔나요?",
                "{month} 점심에 {dish|이} 나온 횟수를 알려 주세요.", "{month} 급식 중 {dish|이} 들어간 점심은 몇 번이었는지 알 수 있을까요?",
                "{month} 점심 식단에 {dish|은} 몇 번 올라왔습니까?"),
    },
    "school_lunches": {
        # a count of days ("모두 며칠", not a bare "며칠", which also asks a date); no 급식비
        # reason (a Seoul elementary school's lunch is free: a blind read)
        "pre": ("", "", "", "급식 일정을 정리하고 있는데,", "급식 모니터링 자료를 정리하는데,", "학교 운영위원회 자료를 준비하고 있어서요."),
        "lead": _SCHOOL_LEAD,
        "ask": ("{month}에 점심 급식이 있었던 날은 모두 며칠이에요?", "{month}에 점심 급식을 한 날이 모두 며칠인가요?",
                "{month} 한 달 동안 점심 급식이 며칠 나왔는지 알려 주세요.", "{month}에 급식이 나온 날은 다 합쳐 며칠이었어요?",
                "{month}에 점심 급식이 있었던 날은 모두 며칠입니까?"),
    },
    "school_event_day": {
        "pre": ("", "", "", "아이 사진을 날짜별로 정리하고 있어서요.", "학교 행사 날짜를 기록해 두려고요.", "학교 소식지를 다시 보다가 궁금해졌는데,"),
        "lead": _SCHOOL_LEAD,
        "ask": ("{ay} {event|은} 언제예요?", "{ay} 학사일정상 {event|은} 며칠인가요?", "{ay} {event} 날짜를 알려 주세요.",
                "{ay}에 {event|이} 잡힌 날이 언제인지 궁금해요.", "{ay} {event} 일정은 언제입니까?"),
    },
    "school_events": {
        "pre": ("", "", "", "", "", "학교 행사가 몰린 달인지 궁금해서요.", "아이 학교가 바쁜 달인지 보려고요."),
        "lead": _SCHOOL_LEAD,
        # what is counted is said: the calendar's events on school days, not its 공휴일 and 휴업일
        # rows (「학교 행사가 몇 개」 left 방학 and holidays open: blind40j #21/#29, 40l #31)
        "ask": ("{month} 학사일정에서 공휴일이나 휴업일 말고 학교 행사는 몇 개예요?",
                "{month}에는 쉬는 날을 빼고 학교 행사가 몇 개 있었나요?",
                "{month} 학사일정 중 휴일이나 휴업일을 뺀 학교 행사가 몇 개인지 알려 주세요.",
                "{month}에 수업하는 날 잡힌 학교 행사가 몇 개인지 알 수 있을까요?",
                "{month}에는 휴일을 빼면 학교 행사가 몇 개 잡혀 있습니까?"),
    },
})

# FAN, SEM and COND questions (edge.synth.intents_multi): the pair asked in the answer's order,
# the condition's threshold a round number, the routes by the numbers on the bus stop's sign
FORMS.update({
    "home_pair": {
        "pre": _HOME_PRE["pair"],
        "lead": ("{month} {place}에서", "{place}에서 {month}에", "{month} 한 달 동안 {place}에서", "{place}에서 {month} 한 달 동안"),
        "ask": ("빌라 매매랑 오피스텔 매매는 각각 몇 건이었어요?", "연립·다세대 매매와 오피스텔 매매가 각각 몇 건 신고됐나요?",
                "팔린 빌라와 오피스텔은 각각 몇 건인지 알려 주세요.", "빌라는 몇 건, 오피스텔은 몇 건 거래됐어?",
                "연립·다세대 주택하고 오피스텔 매매 건수를 나눠서 알려 주시겠어요?",
                "거래된 연립·다세대와 오피스텔이 각각 몇 건이었는지 궁금합니다."),
    },
    "school_year_pair": {
        "pre": ("", "", "", "진학할 학교를 비교하고 있어요.", "입학 설명회 가기 전에 알아보려고요."),
        "lead": _SCHOOL_LEAD,
        "ask": ("{ay}에 학급은 몇 개고, 학과는 몇 개예요?", "{ay} 학급 수와 개설 학과 수를 각각 알려 주세요.",
                "{ay} 기준으로 반이 몇 개인지, 학과는 몇 개 있는지 궁금해요.",
                "{ay} 전체 학급 수랑 운영 학과 수를 알려 줘.", "{ay} 학급 수와 학과 수는 각각 몇 개입니까?"),
    },
    "tago_city_fan": {
        "pre": ("", "", "", "버스로 출퇴근하기 좋은 도시를 알아보는 중이에요.", "대중교통이 편한 곳으로 이사하고 싶어서요.",
                "지역별 버스 사정을 비교해 보려고요."),
        "lead": ("{cities} 중에", "{cities} 가운데", "{cities|을} 놓고 보면", "{cities} 중에서"),
        "ask": ("버스 노선이 가장 {manya} 곳은 어디예요?", "버스 노선 수가 제일 {manya} 도시는 어디인가요?",
                "운행하는 버스 노선이 가장 {manya} 도시가 어딘지 알려 주세요.", "버스 노선이 제일 {manya} 데가 어디야?",
                "버스 노선이 가장 {manya} 도시는 어디입니까?"),
    },
    "tago_route_fan": {
        "pre": ("", "", "", "출퇴근 버스를 고르는 중이에요.", "이번에 이사를 와서 버스 노선을 익히는 중이에요."),
        "lead": ("{city} '{stop}' 정류장에 서는 {routes} 버스 중에", "{city} {stop} 정류소를 지나는 {routes} 가운데",
                 "{city}에서 {stop} 정류장을 자주 이용하는데, 거기 서는 {routes} 중에", "{city} '{stop}' 정류소에 오는 {routes} 버스 중"),
        "ask": ("정류장을 가장 {many} 거치는 노선은 몇 번이에요?", "거쳐 가는 정류소가 제일 {manya} 노선은 어느 거예요?",
                "정류장 수로 따지면 어느 노선이 제일 {manya}가요?", "거쳐 가는 정류장이 가장 {manya} 버스는 몇 번인지 알려 주세요.",
                "정류장을 제일 {many} 들르는 버스가 몇 번이야?"),
    },
})

# an election is said whole by its slot ("2022년 지방선거 시장·군수·구청장 선거", "2024년 국회의원
# 선거"): the NEC forms name it, never a local election's words for a general one
for _name, _f in FORMS.items():
    if _name.startswith("nec_"):
        for _k in ("lead", "ask"):
            _f[_k] = tuple(t.replace("{year}년 지방선거 때 치러진 {office} 선거", "{vote_held}")
                           .replace("{year}년 지방선거의 {office} 선거", "{vote_of}")
                           .replace("{year}년 지방선거 {office} 선거", "{vote}") for t in _f[_k])

#: The most a preface opens of an intent's questions: a preface is the asker's reason, said now
#: and then; a frequent one reads canned (「급식비 고지서가 맞는지 보려고요」 twice in 40, and
#: 「부모님 집을 알아봐 드리는 중인데」 twice in another 40). Intents whose every question gives
#: its reason (``seoul_busiest_eng``: why the English name) hold no empty preface and keep theirs.
PREFACE_SHARE = 0.25
for _f in FORMS.values():
    _pre = _f.get("pre")
    if _pre and "" in _pre:
        _f["pre"] = ("",) * max(0, round(sum(1 for p in _pre if p) / PREFACE_SHARE) - len(_pre)) + tuple(_pre)

#: How people call each kind of home (``kind`` slot), drawn once per question.
_KIND_WORDS = {"rh": ("연립·다세대", "빌라", "연립·다세대 주택"), "offi": ("오피스텔",),
               "일반버스": ("일반 시내버스",)}  # TAGO's route type 일반버스 is the API's label (a blind read)

#: The ranking word of a stock field, with its subject particle.
_KEY_WORDS = {"trqu": ("거래량이", "거래량"), "mrktTotAmt": ("시가총액이", "시가총액"), "clpr": ("종가가", "종가"),
              "fltRt": ("등락률이", "등락률"), "trPrc": ("거래대금이", "거래대금")}
_WHO = {"승차": ("승차",), "하차": ("하차",)}


def _show(slots: dict[str, Any], rng: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Slot text as shown and as read for particles (a title in 「」 reads as the title)."""
    shown: dict[str, str] = {}
    read: dict[str, str] = {}
    short = rng.random() < 0.6  # one form for every place of a question ("서울 마포구와 서울 구로구")
    for k, v in slots.items():
        v = str(v)
        if k == "day" and len(v) == 8 and v.isdigit():  # the day as the day it was: "금요일", "평일"
            wd = datetime.date(int(v[:4]), int(v[4:6]), int(v[6:])).weekday()
            shown["dow"] = read["dow"] = "월화수목금토일"[wd] + "요일"
            shown["daykind"] = read["daykind"] = "평일" if wd < 5 else "주말"
        if k in ("day", "month"):
            v = date_text(v) or v
        elif k == "city":
            v = _city(v, rng)
        elif k in ("place", "other"):
            v = region_short(v) if short and region_short(v) else v
        elif k in ("kind", "then"):
            v = rng.choice(_KIND_WORDS.get(v, (v,)))
        elif k == "who":  # 승차/하차 as people say it, with its subject particle
            shown["whop"] = read["whop"] = rng.choice(("탄 사람이", "승차 인원이")) if v == "승차" \
                else rng.choice(("내린 사람이", "하차 인원이"))
        elif k == "most" and ("많았던" in v or "적었던" in v):
            shown["many"] = read["many"] = "많았던" if "많았던" in v else "적었던"
        elif k == "ay":
            v = f"{v}학년도"
        shown[k] = read[k] = v
        if k in ("word", "title"):
            shown["q" + k], read["q" + k] = f"'{v}'", v
    return shown, read


#: Cities a bus table names otherwise than people do: TAGO's "세종특별시" is 세종시 (officially
#: 세종특별자치시; nobody says "세종특별시", a blind read).
_CITY_NAMES = {"세종특별시": "세종특별자치시"}


def _city(name: str, rng: Any) -> str:
    """A city as people say it: 세종특별자치시 (and TAGO's 세종특별시) → 세종/세종시, 부산광역시 → 부산."""
    name = name.split("/")[0]  # "대전광역시/계룡시": one code for both, said as the city
    name = _CITY_NAMES.get(name, name)
    m = re.match(r"^(.+?)(특별자치시|특별시|광역시)$", name)
    if not m:
        return name
    return rng.choice((m.group(1), m.group(1) + "시", m.group(1) + "시")) if m.group(2) == "특별자치시" \
        else rng.choice((m.group(1), m.group(1), name))


def register(text: str) -> str | None:
    """The speech level a sentence ends in: ``da`` (합쇼체: "…입니까?", "…주십시오."), ``yo``
    (해요체: "…인가요?", "…말인데요,"), ``ban`` (반말: "…몇 대야?", "…알려 줘.") or None for a
    clause that ends in none ("…보는데,", "「법」에서").

    >>> [register(x) for x in ("몇 개입니까?", "정류장 말인데요,", "몇 대야?", "읽고 있는데,")]
    ['da', 'yo', 'ban', None]
    """
    t = text.rstrip()
    if re.search(r"(니까|니다|십시오|시오)[.?!]?$", t):
        return "da"
    if re.search(r"요[.?!,]?$", t):
        return "yo"
    if re.search(r"[.?!]$", t):
        return "ban"
    return None


def registers(question: str) -> set[str]:
    """The speech levels of a question's sentences and comma-ended clauses (one, said right)."""
    parts = re.findall(r"[^.?!,]+[.?!,]", question)  # an unended tail ("…정류장에서") says no level
    return {r for r in map(register, parts) if r}


def phrase(part: IntentPart, rng: Any) -> tuple[str, str]:
    """The question of an intent part and its template id: its preface, lead and ask in one
    speech level (a 해요체 lead is never followed by a 반말 or 합쇼체 ask)."""
    name = part.intent
    forms = FORMS[name]
    h = rng.randrange(len(forms["pre"])) if "pre" in forms else -1
    i = rng.randrange(len(forms["lead"]))
    j = rng.randrange(len(forms["ask"]))
    pre = forms["pre"][h] if h >= 0 else ""
    said = registers(pre) | registers(forms["lead"][i])
    if len(said) > 1:  # a 합쇼체 lead after a 해요체 preface: the lead speaks alone
        pre, h, said = "", -1 if "pre" not in forms else 0, registers(forms["lead"][i])
    if said and register(forms["ask"][j]) not in said:
        fit = [k for k, a in enumerate(forms["ask"]) if register(a) in said]
        if fit:
            j = fit[j % len(fit)]
        elif pre and not registers(forms["lead"][i]):
            pre = ""  # no ask speaks as the preface does: drop the preface
    if pre and register(forms["ask"][j]) == "da":
        # a first-person preface is said in 해요체: no "알아봐 드리는 중인데, … 들어왔습니까?"
        # (a blind read's register clash); a 해요체 ask instead, else no preface
        fit = [k for k, a in enumerate(forms["ask"]) if register(a) == "yo"]
        if fit and (not said or "yo" in said):
            j = fit[j % len(fit)]
        else:
            pre, h = "", 0
    if "궁금" in pre + forms["lead"][i] and "궁금" in forms["ask"][j]:
        # "실적이 궁금해서요. … 매출액이 궁금해요." says 궁금 twice: an ask of the same level without it
        said_now = registers(pre) | registers(forms["lead"][i])
        other = [k for k, a in enumerate(forms["ask"]) if "궁금" not in a and (not said_now or register(a) in said_now)]
        if other:
            j = other[j % len(other)]
    if re.search(r"(데요|데),$", pre) and re.search(r"(데요|데),$", forms["lead"][i]):
        pre = ""  # "우리 애 학교 얘기인데요, ○○고 말인데요," says one 데요 too many
    form = " ".join(x for x in (pre, forms["lead"][i], forms["ask"][j]) if x)
    shown, read = _show(part.slots, rng)
    if not shown.get("where", "x"):  # a school whose address says no district: by its name alone
        form = form.replace("{where}에 있는 ", "").replace("{where}의 ", "").replace("{where} ", "")
    if "key" in shown:  # "거래량이 가장 컸던": the field with its particle, said once
        subj, noun = _KEY_WORDS.get(shown["key"], (shown["key"], shown["key"]))
        shown["key"] = read["key"] = subj if "{key} 1위" not in form else noun

    def one(m: re.Match[str]) -> str:
        k, p = m.group(1), m.group(2)
        if not p:
            return shown[k]
        return shown[k] + josa(read[k], p)[len(read[k]):]

    text = _SLOT.sub(one, form)
    if str(part.slots.get("options", "")) == "2":  # of two routes or cities, "더 많은", not "가장 많은"
        text = re.sub(r"(?:가장|제일) (?=\S*(?:많|적))", "더 ", text)
    # 「name」 with the particle of the title: "「가정폭력방지법」은"
    text = re.sub(r"」(은|는|이|가)(?= )", lambda m: "」" + josa(part.slots.get("name", ""), m.group(1))[-1:], text)
    # "… 선거에서 부산에서 …" says 에서 twice in a row: the first becomes a pause
    text = re.sub(r"(\S)에서 (?=[^ .?,]+에서(?:는)? )", r"\1, ", text)
    # "안전교육의 날 날짜" says 날 twice (blind40d #39): the day's date is when it is
    text = re.sub(r"날 날짜를 알려 주세요", "날이 언제인지 알려 주세요", text)
    text = text.replace("날이 잡힌 날이", "날이")  # "안전교육의 날이 잡힌 날이 언제인지"
    text = re.sub(r"날 (날짜|일정)은 언제(예요|입니까)", r"날은 언제\2", text)
    # a stop whose name ends in 정류장 is not called "… 정류장 정류장"
    text = re.sub(r"((?:정류장|정류소)'?) (?:정류장|정류소)(?=[,에은는을인 ]|$)", r"\1", text)
    tid = f"INT:{name}.{i}.{j}" if h < 0 else f"INT:{name}.{h}.{i}.{j}"
    return text, tid


def opener_frame(template: str) -> str | None:
    """The frame a question of template ``template`` opens with: its first clause (a preface, or
    a lead that ends in a comma or a full stop) with every slot as "…", or None when it opens
    with no such clause (a walk's template, or a question that is one sentence).

    Two questions opening "서울 종로구 ○○초등학교 말인데요," and "태일로보틱스 말인데요," share
    the frame "… 말인데요,": an outside reader saw it open 6 of 40 questions
    (:func:`edge.synth.quality.opener_stats` counts it over a run).

    >>> opener_frame("INT:dart_ceo.0.1"), opener_frame("INT:home_count.0.0.0")
    ('… 말인데요,', None)
    """
    m = re.fullmatch(r"INT:(\w+)\.(?:(\d+)\.)?(\d+)\.(\d+)", template)
    if not m or m.group(1) not in FORMS:
        return None
    forms = FORMS[m.group(1)]
    pre = forms["pre"][int(m.group(2))] if m.group(2) is not None and "pre" in forms else ""
    text = " ".join(x for x in (pre, forms["lead"][int(m.group(3))]) if x)
    text = re.sub(r"…(?:\s*…)+", "…", _SLOT.sub("…", text))
    first = re.match(r"[^,.?]*[,.]", text)
    if not first or len(re.findall(r"[가-힣]", re.sub(r"…\S*", "", first.group(0)))) < 2:
        return None
    return first.group(0).strip()
