"""Error fidelity and recorded quirks: every error shape parses as an error *with its kind*,
and a body recorded with a quirk (an in-band error shape, an HTML entity, a BOM, a field type
of its time) renders back as recorded (``simulator fidelity`` passes on it)."""

from __future__ import annotations

import json

import pytest

from simulator.catalog import load_catalog
from simulator.dialects import get_dialect
from simulator.fidelity import check_fidelity, sniff_format
from tests.support.paths import SAMPLES

CAT = load_catalog()
RTMS = "https://apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade?serviceKey=REDACTED&LAWD_CD=11680&DEAL_YMD=202607"
KMA = "https://apis.data.go.kr/1360000/VilageFcstInfoService_2.0/getVilageFcst?serviceKey=REDACTED&dataType=JSON&numOfRows=10&pageNo=1&base_date=20220524&base_time=0500&nx=55&ny=127"
DART = "https://opendart.fss.or.kr/api/list.json?crtfc_key=REDACTED&corp_code=00126380"
NEC = "https://apis.data.go.kr/9760000/CommonCodeService/getCommonSgCodeList?serviceKey=REDACTED&pageNo=1&numOfRows=10"
NEIS = "https://open.neis.go.kr/hub/schoolInfo?KEY=REDACTED&Type=json&pIndex=1&pSize=5"
DECL = b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>'

# (request, body, status, kind): error shapes of apis.md that no sample file holds.
SHAPES = [
    # MOLIT's newer in-band shape: code 30 in the header, an empty <body> (issue 17).
    (RTMS, DECL + b"<response><header><resultCode>30</resultCode><resultMsg>SERVICE KEY IS NOT "
     b"REGISTERED ERROR.</resultMsg></header><body></body></response>", 200, "invalid_key"),
    (RTMS + "&type=json", json.dumps({"response": {"header": {"resultCode": "30", "resultMsg":
     "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"}, "body": {}}}).encode(), 200, "invalid_key"),
    # RTMS negative numOfRows (apis.md §3, live-verified by a client).
    (RTMS, DECL + b"<response><header><resultCode>999</resultCode><resultMsg>ERROR: LIMIT must "
     b"not be negative</resultMsg></header></response>", 200, "bad_param"),
    # Quota and per-second limits in the header (data.go.kr code table 22 / 23).
    (KMA, b'{"response":{"header":{"resultCode":"22","resultMsg":"LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"}}}',
     200, "quota_exceeded"),
    (KMA, b'{"response":{"header":{"resultCode":"23","resultMsg":"LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR"}}}',
     200, "rate_limited"),
    (KMA, b'{"response":{"header":{"resultCode":"31","resultMsg":"DEADLINE_HAS_EXPIRED_ERROR"}}}',
     200, "invalid_key"),
    # OpenDART status codes (apis.md §1).
    (DART, '{"status":"020","message":"요청 제한을 초과하였습니다."}'.encode(), 200, "rate_limited"),
    (DART, '{"status":"800","message":"시스템 점검으로 인한 서비스가 중지 중입니다."}'.encode(), 200, "server_error"),
    (DART, '{"status":"010","message":"등록되지 않은 인증키입니다."}'.encode(), 200, "invalid_key"),
    # The rest of OpenDART's status table (apis.md §1): errors of their kind, never the
    # "013 no data" a client would read as zero rows. Wording per the guide's table.
    (DART, '{"status":"011","message":"사용할 수 없는 키입니다."}'.encode(), 200, "invalid_key"),
    (DART, '{"status":"012","message":"접근할 수 없는 IP입니다."}'.encode(), 200, "invalid_key"),
    (DART, '{"status":"021","message":"조회 가능한 회사 개수가 초과하였습니다.(최대 100건)"}'.encode(), 200, "bad_param"),
    (DART, '{"status":"900","message":"정의되지 않은 오류가 발생하였습니다."}'.encode(), 200, "server_error"),
    (DART, '{"status":"901","message":"사용자 계정의 개인정보 보유기간이 만료되어 사용할 수 없는 키입니다."}'.encode(),
     200, "invalid_key"),
    (DART.replace("list.json", "list.xml"), DECL.replace(b"utf-8", b"UTF-8") + "<result><status>011</status>"
     "<message>사용할 수 없는 키입니다.</message></result>".encode(), 200, "invalid_key"),
    # NEC's provider codes in the data.go.kr header (apis.md §11.3), not its INFO-03 no data.
    (NEC, DECL + "<response><header><resultCode>ERROR-301</resultCode><resultMsg>파일타입 값이 누락 혹은 "
     "유효하지 않습니다.</resultMsg></header></response>".encode(), 200, "bad_param"),
    (NEC, DECL + b"<response><header><resultCode>ERROR-340</resultCode><resultMsg>missing</resultMsg>"
     b"</header></response>", 200, "missing_param"),
    (NEC, DECL + "<response><header><resultCode>ERROR-601</resultCode><resultMsg>SQL 문장 오류 입니다."
     "</resultMsg></header></response>".encode(), 200, "server_error"),
    # NEIS bare RESULT errors in wordings other than the simulator's own (apis.md §2).
    (NEIS, '{"RESULT":{"CODE":"ERROR-290","MESSAGE":"인증키가 유효하지 않습니다."}}'.encode(), 200, "invalid_key"),
    (NEIS, '{"RESULT":{"CODE":"ERROR-336","MESSAGE":"데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."}}'.encode(),
     200, "page_too_large"),
    (NEIS, '{"RESULT":{"CODE":"ERROR-337","MESSAGE":"일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다."}}'.encode(),
     200, "quota_exceeded"),
]


@pytest.mark.parametrize("url,body,status,kind", SHAPES, ids=[f"{i}-{s[3]}" for i, s in enumerate(SHAPES)])
def test_error_shapes_parse_with_their_kind_and_render_back(url: str, body: bytes, status: int, kind: str) -> None:
    match = CAT.match(__import__("simulator").SimRequest.from_url(url))
    parsed = get_dialect(match.endpoint.dialect).parse(match.endpoint, body, sniff_format(body))
    assert parsed.outcome != "ok" and parsed.kind == kind
    result = check_fidelity(CAT, url, body, status=status)
    assert result.ok, result.differences
    assert result.outcome == "error"


def test_molit_inband_error_is_never_an_empty_success_page() -> None:
    body = SHAPES[0][1]
    result = check_fidelity(CAT, RTMS, body)
    assert b"<resultCode>30</resultCode>" in result.rendered and b"<items" not in result.rendered
    assert b"<body></body>" in result.rendered


def _law_sample() -> tuple[str, bytes]:
    path = SAMPLES / "lawgokr/lawSearch_law_gwanse_display1.xml"
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared/samples beside the checkout)")
    body = path.read_bytes().replace("<키워드>관세법".encode(), "<키워드>관세&middot;법".encode(), 1)
    url = "https://www.law.go.kr/DRF/lawSearch.do?OC=REDACTED&target=law&type=XML&query=관세·법&display=1"
    return url, body


def test_undefined_html_entity_parses_and_renders_as_recorded() -> None:
    url, body = _law_sample()
    result = check_fidelity(CAT, url, body)
    assert result.ok, result.differences
    assert "<키워드>관세&middot;법</키워드>".encode() in result.rendered
    # A clean recording renders clean: the quirk is the version's, not the catalog's.
    clean = check_fidelity(CAT, url, body.replace(b"&middot;", "·".encode()))
    assert clean.ok and b"&middot;" not in clean.rendered


def test_comparator_reads_entities_and_sees_a_lost_bom() -> None:
    from simulator.dialects import equivalent

    assert equivalent(b"<a>&middot;</a>", "<a>·</a>".encode(), "xml") == []
    assert equivalent(b"\xef\xbb\xbf{}", b"{}", "json") == ["byte order mark: original has one, rendered not"]


def test_bom_recorded_is_rendered() -> None:
    path = SAMPLES / "datagokr_kma/getVilageFcst_numOfRows1_totalCount809.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    body = b"\xef\xbb\xbf" + path.read_bytes()
    url = KMA.replace("numOfRows=10", "numOfRows=1")
    result = check_fidelity(CAT, url, body)
    assert result.ok, result.differences
    assert result.rendered.startswith(b"\xef\xbb\xbf")


@pytest.mark.parametrize("value", [b'"967"', b"967", b"1411.00"])
def test_neis_field_types_as_recorded_that_version(value: bytes) -> None:
    path = SAMPLES / "neis/mealServiceDietInfo_B10_7091380_202606_trimmed3of21.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    body = path.read_bytes().replace(b'"MLSV_FGR":1411.00', b'"MLSV_FGR":' + value)
    url = ("https://open.neis.go.kr/hub/mealServiceDietInfo?KEY=REDACTED&Type=json&pIndex=1&pSize=1000"
           "&ATPT_OFCDC_SC_CODE=B10&SD_SCHUL_CODE=7091380&MLSV_FROM_YMD=20260601&MLSV_TO_YMD=20260630")
    result = check_fidelity(CAT, url, body)
    assert result.ok, result.differences
    assert b'"MLSV_FGR":' + value in result.rendered
