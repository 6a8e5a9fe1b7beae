"""Write ``facts/fields_edition9.json``: response fields published for generated endpoints that
were thin (declaring <= 3 record fields) in world edition 8, served from world edition 9
(option ``late_fields`` ``{name: 9}``, so the versions recorded from editions 2–8 re-record byte
for byte; ``build.PUBLISHED9_EDITION``).

Sources (facts only: field names, the Korean labels a source gives, the JSON type its reader
gives the value; no code or prose is kept). Each was read with the search tool's ``read_file``;
the index names no repository for them, so each is cited by its search-index file id and what
it is. A client's read keys are not a full list: an operation they would leave at <= 3 fields is
not given them (the rule of edition 8), and a client that reads a key under alternative names
(``a || b``) is not used.

* ``MOIS_DISASTER``: a Python collector of four MOIS 행정안전통계연보 자연재해 services (연도별·지역별
  피해, 연도별·지역별 복구비): per service the XML element names it reads from each row, each with
  the Korean name its comment gives, every value read as a number;
* ``MOIS_HEATWAVE``: a React hook reading 연도별 폭염 인명피해 rows by XML element name;
* data.go.kr's own API pages (the portal's 출력결과(Response Element) table) as the search
  tool's docs corpus stores them: ``MOIS_PORTAL`` (행정안전통계연보 services registered in 2021) and
  ``FSC_PORTAL``, ``KMA_PORTAL``; each is tied to its URL by data-go-kr-client's first rows (:func:`_check_portal`);
* ``KMA_MMSUMRY``: a Python script reading KMA 지상기상월보 getMmSumry (API hub ``typ02/openApi``,
  the same service as ``apis.data.go.kr/1360000/SfcMtlyInfoService``) rows, values read as floats;
* ``KLOUD80`` (stop 40): kloud80/datagokr-mcp's dataset files (MIT) for FSC and AirKorea
  (한국환경공단 kecoapi) operations that data-go-kr-client cut at eight or gave no field: the
  response schema it measured on a live answer of the operation the file marks ``verified_ok``, or
  each field's ``op`` (names and the titles it gives; the measured value kinds are not kept:
  data.go.kr answers these as strings), tied to the URL by the file's own ``endpoint`` and by
  data-go-kr-client's rows for it, which must all be among the measured names
  (:func:`_check_measured`); a field without a title takes the agency's label for its name;
* ``FSC_PORTAL`` pages whose rows continue the client's rows of more than one operation of their
  service are tied to the one operation whose filter params are the page's request params
  (the 요청변수 table, the envelope's numOfRows/pageNo/resultType/serviceKey left out).

    python scripts/extract_fields9.py
    python -m simulator catalog generate
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.catalog.generate.extract import field_rows, write_facts  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from extract_fields8 import _agency_labels  # noqa: E402

DG = "https://apis.data.go.kr"

MOIS_DISASTER = ("search-index file 49373004171 (a Python collector of four MOIS 행정안전통계연보 자연재해 "
                 "services: the XML element names it reads from each row, with the Korean names its comments "
                 "give; every value read as a number; the index names no repository; names and labels only)")
MOIS_HEATWAVE = ("search-index file 12952789614 (a React hook reading the rows of MOIS 연도별 폭염 인명피해 by XML "
                 "element name; the index names no repository; names only); labels it does not give: those "
                 "search-index file 49373004171 gives the same names at the same agency")
KMA_MMSUMRY = ("search-index file 14342282671 (a Python script reading the rows of KMA 지상기상월보 getMmSumry, "
               "API hub typ02/openApi, by XML element name, the temperatures as floats; the index names no "
               "repository; names only)")

Row = list[str]


#: The causes the four 자연재해 services break their figures down by: the element name each
#: reads (the services spell 강풍 and 지진 two ways) and its Korean name.
_CAUSES = (("typhoon", "태풍"), ("heavy_rain", "호우"), ("heavy_snow", "대설"), ("{wind}", "강풍"),
           ("wind_wave_strong_wind", "풍랑·강풍"), ("typhoon_heavy_rain", "태풍·호우"), ("lightning", "낙뢰"),
           ("cold_wave", "한파"), ("{quake}", "지진"), ("heatwave", "폭염"))


def _causes(ftype: str, wind: str, quake: str, suffix: str = "", label_suffix: str = "") -> str:
    return ", ".join(f"{name.format(wind=wind, quake=quake)}{suffix}:{ftype}:{label}{label_suffix}"
                     for name, label in _CAUSES)


MOIS = {
    "NaturalDisasterDamageByYear/getNaturalDisasterDamageByYear":
        (MOIS_DISASTER, "wrttimeid::연도, tot:integer:합계, " + _causes("integer", "heavy_wind", "earthquak")),
    "AnnualDisasterRecoveryCosts/getAnnualDisasterRecoveryCosts":
        (MOIS_DISASTER, "wrttimeid::연도, total:integer:합계, " + _causes("integer", "strong_wind", "earthquake")),
    "RegionDisasterRecoveryCosts/getRegionDisasterRecoveryCosts":
        (MOIS_DISASTER, "wrttimeid::연도, region::지역, tot:number:합계, " + _causes("number", "heavy_wind", "earthquak")),
    "RegionalNaturalDisasterDamage/getRegionalNaturalDisasterDamage":
        (MOIS_DISASTER, "wrttimeid::연도, region::지역, prop_tot:number:합계 재산, life_tot:number:합계 인명, "
                        + _causes("number", "strong_wind", "earthquake", "_property_damage", " 재산") + ", "
                        + _causes("number", "strong_wind", "earthquake", "_life_damage", " 인명")),
    "CasualtiesFromHeatwaveByYear/getCasualtiesFromHeatwaveByYear":
        (MOIS_HEATWAVE, "wrttimeid::연도, tot:integer:합계, otdoor_subtot:integer, indoor_subtot:integer"),
}

#: data.go.kr's own pages for the 행정안전통계연보 services registered in 2021 (the portal's
#: 출력결과(Response Element) table: 항목명(영문) and 항목설명) as the search tool's docs corpus stores
#: them: dataset id → (service path, the record rows after the envelope). A stored page may stop
#: before its table ends: the rows are those it shows. data-go-kr-client's first eight rows for
#: the same URL must open the list (checked by :func:`operations`), which ties page to URL.
MOIS_PORTAL = {
    "15077884": ("NumberPCBasedVideoConferencing/getNumberPCBasedVideoConferencingList",
                 "type::수신 문서양식, bas_yy::기준년도, smry:integer:계(회), centgovbdi:integer:중앙행정기관(회), "
                 "locgovs:integer:지방자치단체(회)"),
    "15077895": ("UserPCBasedVideoConferencing/getUserPCBasedVideoConferencingList",
                 "type::수신 문서양식, bas_yy::기준년도, smry:integer:계, centgovbdi:integer:중앙행정기관(회), "
                 "locgovs:integer:지방자치단체(회)"),
    "15077900": ("FixedNumberCivilServantsOrg/getFixedNumberCivilServantsOrgList",
                 "type::수신 문서양식, bas_yy::기준년도, org::기관, smry:integer:계(명), polsrvc:integer:정무직(명), "
                 "spcladmsrvc:integer:별정직(명), consrvc:integer:계약직(명), spesrvc:integer:특정직(명), gensrvc:integer:일반직"),
    "15077896": ("FixedNumberCareerCivilServants/getFixedNumberCareerCivilServantsList",
                 "type::수신 문서양식, bas_yy::기준년도, crrcls::직종, cls::구분, fixno:integer:정원(명)"),
    "15077904": ("FixedNumberCivilServantsYear/getFixedNumberCivilServantsYearList",
                 "type::수신 문서양식, bas_yy::기준년도, civlsrv_fixno:integer:공무원정원(명), inde:integer:증감(명), "
                 "inde_rt:number:증감률(%), rmk::비고"),
    "15077977": ("NumberCivilServantsGrade/getNumberCivilServantsGradeList",
                 "bas_yy::기준년도, cls::구분, smry:integer:계(명), exebrch_subtot:integer:행정부 소계(명), "
                 "exebrch_stte:integer:행정부 국가(명), exebrch_locl:integer:행정부 지방(명), legbrch:integer:입법부(명), "
                 "judbrch:integer:사법부(명)"),
    "15077968": ("IllegalElevatorInspectRegion/getIllegalElevatorInspectRegionList",
                 "bas_yy::기준년도, regi::지역, inspc_target:integer:점검대상(대), inspc_dycnt:integer:점검일수(일), "
                 "illg_rnng:integer:불법운행(대), type::수신 문서양식"),
    "15077969": ("ElevatorSafetyEducationRegion/getElevatorSafetyEducationRegionList",
                 "bas_yy::기준년도, regi::지역, tot:integer:합계(명), eleschl_studnt:integer:초등학교 학생(명), "
                 "eleschl_teachr:integer:초등학교 교사(명), vulnr_hirch_child:integer:취약계층 어린이(명), "
                 "vulnr_hirch_paren_or_etc:integer:취약계층 부모등기타"),
    "15077930": ("ElevSafetyEduYear/getElevSafetyEduYearList",
                 "type::수신 문서양식, bas_yy::기준년도, tot:integer:합계(명), eleschl_studnt:integer:초등학교 학생(명), "
                 "eleschl_teachr:integer:초등학교 교사(명), vulnr_hirch_child:integer:취약계층 어린이(명), "
                 "vulnr_hirch_paren_or_etc:integer:취약계층 부모등기타(명)"),
    "15077944": ("AdminiDistrictYear/getAdminiDistrictYearList",
                 "type::수신 문서양식, bas_yy::기준년도, spclmcity:integer:특별시(개), othrmcitiy:integer:광역시(개), "
                 "spclatomcty:integer:특별자치시(개), provi:integer:도(개), ssefprvin:integer:특별자치도(개), "
                 "city:integer:시(개), cnti:integer:군(개)"),
    "15077978": ("AvgSizeAdministrativeDist/getAvgSizeAdministrativeDistList",
                 "bas_yy::기준년도, cls::구분, avg_area:number:평균면적(㎢), avg_popl:integer:평균인구(명), "
                 "higst_popl_admr_zon::최고인구 행정구역, higst_popl_popl:integer:최고인구수(명), "
                 "min_popl_admr_zon::최저인구 행정구역"),
    "15077955": ("ReliefSuppliesReservesMng/getReliefSuppliesReservesMngList",
                 "type::수신 문서양식, bas_yy::기준년도, regi::지역, smry_bas:integer:합계 기준(세트), "
                 "smry_resrv_qty:integer:합계 비축량(세트), smry_resrv_rt:number:합계 비축률(%), "
                 "emeg_rlikit_bas:integer:응급구호세트 기준(세트)"),
    "15077971": ("DisasterVictimsOccurRegion/getDisasterVictimsOccurRegionList",
                 "bas_yy::기준년도, disst_occu::재해발생일, disst_nm::재해명, tot_houshol:integer:세대수 합계(세대), "
                 "tot_prsnum:integer:이재민수 합계(명), lseoul_houshol:integer:서울 세대수(세대), "
                 "lseoul_prsnum:integer:서울 이재민수(명), lbusan_houshol:integer:부산 세대수"),
    "15077972": ("DisasterReliefFundRegion/getDisasterReliefFundRegionList",
                 "bas_yy::기준년도, regi::지역, lyr_eyr_bal:integer:전년도 연말잔액(백만원), "
                 "tyr_incom:integer:당해연도 수입액(백만원), tyr_otcom:integer:당해연도 지출액(백만원), "
                 "tyr_eyr_bal:integer:당해연도 연말잔액(백만원), accuml_stndd:integer:누적적립 기준액"),
    "15077934": ("DisasterVictOccurrYear/getDisasterVictOccurrYearList",
                 "type::수신 문서양식, bas_yy::기준년도, tot:integer:합계(명), heavywind:integer:강풍(명), "
                 "wavs:integer:풍랑(명), heavyrain:integer:호우(명), typhoon:integer:태풍(명), heavysnow:integer:대설(명), "
                 "earthquak:integer:지진(명), foresfire:integer:산불(명), lightni:integer:낙뢰(명), heatwav:integer:폭염(명)"),
    "15077942": ("AirRaidShelterYear/getAirRaidShelterYearList",
                 "type::수신 문서양식, bas_yy::기준년도, target_popl:integer:대상인구(천명), accpt_rt:number:수용률(%), "
                 "shelt_abl_popl_smry:integer:대피가능인구 계(천명), "
                 "shelt_abl_popl_gov_shelts:integer:정부지원시설 대피가능인구(천명), "
                 "shelt_abl_popl_pub_shelts:integer:공공용시설 대피가능인구(천명), "
                 "gov_shelts_shelts:integer:정부지원시설 수(개소)"),
    "15077967": ("DesignPedEnvImprovDist/getDesignPedEnvImprovDistList",
                 "bas_yy::기준년도, regi::지역, pedes_env_imprv_dstric:integer:보행환경개선지구(개소), "
                 "citycntidstri::시군구, type::수신 문서양식"),
    "15077932": ("DesignationProtectionZonesYear/getDesignationProtectionZonesYearList",
                 "type::수신 문서양식, bas_yy::기준년도, tot:integer:합계(개소), child_protct_zon:integer:어린이보호구역(개소), "
                 "seni_protct_zon:integer:노인보호구역(개소), disbld_protct_zon:integer:장애인보호구역(개소)"),
    "15077970": ("DesignProtectZoneRegion/getDesignProtectZoneRegionList",
                 "bas_yy::기준년도, regi::지역, tot:integer:합계(개소), child_protct_zon:integer:어린이보호구역(개소), "
                 "seni_protct_zon:integer:노인보호구역(개소), disbld_protct_zon:integer:장애인보호구역(개소), "
                 "type::수신 문서양식"),
    "15077954": ("NumberOrdinanceRegulationsType/getNumberOrdinanceRegulationsTypeList",
                 "type::수신 문서양식, bas_yy::기준년도, cls::구분, stot_ordin_regul:integer:조례규칙 총계(개), "
                 "stot_ordin:integer:조례 총계(개), stot_regul:integer:규칙 총계(개), mcityprovi_ordin:integer:시도 조례(개), "
                 "mcityprovi_regul:integer:시도 규칙(개), citycontiatodstri_ordin:integer:시군자치구 조례(개)"),
    "15077953": ("OrdinanceRegulationsYear/getOrdinanceRegulationsYearList",
                 "type::수신 문서양식, bas_yy::기준년도, smry:integer:계(개), lseoul:integer:서울(개), lbusan:integer:부산(개), "
                 "ldaegu:integer:대구(개), lincheon:integer:인천(개), lgwangju:integer:광주(개), ldaejeon:integer:대전"),
    "15077960": ("UseNumberRemoteWorkSrvGVPN/getUseNumberRemoteWorkSrvGVPNList",
                 "bas_yy::기준년도, gvpn_user_num_smry:integer:이용자수 계(명), "
                 "gvpn_user_num_centgovbdi:integer:중앙행정기관 이용자수(명), gvpn_user_num_mcityprovi:integer:시/도 이용자수(명), "
                 "gvpn_user_num_etc_pub_org:integer:기타공공기관 이용자수(명), gvpn_work_num_smry:integer:활용업무수 계(건)"),
    "15077907": ("DesignPedEnvImprovDistYear/getDesignPedEnvImprovDistYearList",
                 "type::수신 문서양식, bas_yy::기준년도, pedes_env_imprv_dstric:integer:보행환경개선지구(개소)"),
    "15077898": ("LocalBusinessStimulusProject/getLocalBusinessStimulusProjectList",
                 "type::수신 문서양식, bas_yy::기준년도, smry:integer:계(개), rmk::비고"),
}


#: The same kind of page for FSC services whose operation data-go-kr-client cut at eight: the
#: page shows its first operation's table, tied to one operation by the same check (and no other
#: operation of the service may match it: 모기지론발행상세·종목기본·발행통계·원본및이자상환추이 pages
#: match two or three operations of their service and are left out).
FSC_PORTAL = {
    "15043285": ("service/GetBkrFnCoInfoService/getBkrFnCoBasiInfo",
                 "basDt::기준일자, bkrpFncoNm::파산금융회사명, bkrpFncoSqno::파산금융회사일련번호, "
                 "bkrpFncoAraCd::파산금융회사권역코드"),
    "15059585": ("service/GetBorrInveInfoService/getNPLReviInfo",
                 "basDt::기준일자, crno::법인등록번호, th1CrdrAsmbDt::1회차채권자집회일자, "
                 "th2CrdrAsmbDt::2회차채권자집회일자, th3CrdrAsmbDt::3회차채권자집회일자"),
    "15043362": ("service/GetPublDispAsseInfoService/getPublDispAsse",
                 "basDt::기준일자, ntnlAstObjcMngNo::국가자산물건관리번호, pusaDt::공매일자, "
                 "ntnlAstObjcScd::국가자산물건상태코드, ntnlAstObjcStusNm::국가자산물건상태명"),
    "15059614": ("service/GetKoreAsseInfoService/getLoanSellAsse",
                 "basDt::기준일자, ntnlAstObjcMngNo::국가자산물건관리번호, ntnlAstObjcNm::국가자산물건명, "
                 "dsslAstPusaNo::매각자산공매번호"),
    "15059581": ("service/GetInfoOpenPropService/getInfoOpenProp",
                 "basDt::기준일자, ntnlAstObjcMngNo::국가자산물건관리번호, ntnlAstObjcMngId::국가자산물건관리ID, "
                 "ntnlAstObjcNm::국가자산물건명, kamcoMngInstNo::한국자산관리공사관리기관번호"),
    "15059606": ("service/GetFnCoDepoInsuInfoService/getDepoInsuSubjFnCo",
                 "basDt::기준일자, crno::법인등록번호, binsTrgtYn::부보대상여부, binsFncoAraCd::부보금융회사권역코드, "
                 "binsFncoAraCdNm::부보금융회사권역코드명, binsFncoRevsDt::부보금융회사수정일자"),
    "15059589": ("service/GetMortLoanPrinInteInfoService/getPrinAndInteInfo",
                 "rqdzPlanCd::유동화계획코드, isinCd::ISIN코드, bondCcd::채권분류코드, mbsDtlCsfNm::MBS상세분류명, "
                 "scrsIssuYr::유가증권발행년도, scrsIssuRndNo::유가증권발행회차번호, trncCdNm::트랜치코드명, "
                 "pbanWrtDt::공시작성일자, pbanClsfNm::공시구분명, pbanTitNm::공시제목명, scrsIssuBal::유가증권발행잔액, "
                 "scrsDvdnBnfRt:number:유가증권배당수익률"),
    "15059603": ("service/GetMortLoanMarkTradInfoService/getOverTheCounTradStat",
                 "rqdzPlanCd::유동화계획코드, isinCd::ISIN코드, bondCcd::채권분류코드, mbsDtlCsfNm::MBS상세분류명, "
                 "scrsIssuYr::유가증권발행년도"),
    "15059604": ("service/GetMortLoanUndeAsseInfoService/getUndeAsseRedeInfo",
                 "basMm::기준연월, rqdzPlanCd::유동화계획코드, bondCcd::채권분류코드, mbsDtlCsfNm::MBS상세분류명"),
    "15059586": ("service/GetMortLoanRedeStatInfoService/getItemRedeInfo",
                 "basYm::기준년월, rqdzPlanCd::유동화계획코드, bondCcd::채권분류코드, scrsIssuYr::유가증권발행년도, "
                 "scrsIssuRndNo::유가증권발행회차번호, scrsIssuDt::유가증권발행일자, scrsTisuAmt::유가증권총발행금액, "
                 "scrsTrdpAmt::유가증권총상환금액"),
}


#: Pages whose rows continue the client's rows of two operations of their service, with the
#: request params (요청변수, the envelope left out) the page shows: dataset id → params. The page is
#: tied to the one operation whose filter params are these (:func:`_check_portal`).
PORTAL_PARAMS = {
    "15059587": ("basYm", "rqdzPlanCd"),
}

FSC_PORTAL.update({
    # 모기지론증권잔액현황정보: the first operation's whole table (the stored page goes on past it).
    "15059605": ("service/GetMortLoanSecuBalaInfoService/getAllSeBalaStat",
                 "basYm::기준년월, scrsIssuYr::유가증권발행년도, mbsIssuAmt::MBS발행금액, mbbIssuAmt::MBB발행금액, "
                 "slbsIssuAmt::SLBS발행금액, komocoIssuAmt::KOMOCO채권합계금액, mogScrtCnt::담보증권수"),
    # 모기지론발행통계정보: rows up to where the stored page stops; its request params basYm and
    # rqdzPlanCd are 발행금액현황통계조회's (발행금리현황통계조회 asks basYm and scrsIssuYr).
    "15059587": ("service/GetMortLoanIssuStatInfoService/getIssuAmouStatStat",
                 "basYm::기준년월, rqdzPlanCd::유동화계획코드, scrsIssuYr::유가증권발행년도, "
                 "scrsIssuRndNo::유가증권발행회차번호, scrsIssuDt::유가증권발행일자, tsumIssuAmt::총합계발행금액, "
                 "mbsIssuAmt::MBS발행금액, mbbIssuAmt::MBB발행금액"),
})


#: kloud80/datagokr-mcp (MIT) dataset files read with the search tool's ``read_file`` (stop 40):
#: (sector folder, dataset id, commit, operation URL path under apis.data.go.kr, the measured
#: schema's fields ``name::title`` in the file's order). A file with one ``verified_ok`` operation
#: and no per-field ``op`` was measured on that operation's answer; a file measured on several
#: gives each field its ``op`` (the NppSttService file: six operations, 34 columns).
_C78 = "78c9c40834c162296bd20183220cd469b815e31b"
_C3F = "3ff677487e99067462d8c605b8584b5b3a7a630f"
_C65 = "6547437000b0467df6fa123ffcbe1daaac4482e5"
_C4F = "4f3c414bc1caffc907ed69ad8c8831cf6c6e3009"
_NPP = "B552584/kecoapi/NppSttService"
_CPC = "maxSclCpctVl::최대 규모 용량값, minSclCpctVl::최소 규모 용량값, avgSclCpctVl::평균 규모 용량값"
_EFC = ("expctPrcsSpnsMaxEfcncVl::예상처리부유물질최대효율값, expctPrcsSpnsMinEfcncVl::예상처리부유물질최소효율값, "
        "expctPrcsSpnsAvgEfcncVl::예상처리부유물질평균효율값, expctPrcsBodMaxEfcncVl::예상처리생물학적산소요구량최대효율값, "
        "expctPrcsBodMinEfcncVl::예상처리생물학적산소요구량최소효율값, expctPrcsBodAvgEfcncVl::예상처리생물학적산소요구량평균효율값")
#: the columns the three 개인사업자 operations share, after basYm
_SB_COMMON = "rprSexNm, rprAggrNm, estbYr, bizAreaNm, bizBzcCd, bizBzcCdNm, empeCntNm"
KLOUD80: list[tuple[str, str, str, str, str]] = [
    ("재정금융", "15059590", _C78, "1160100/service/GetMortLoanCallOptiInfoService/getCallOptiInfo",
     "bondCcd, cloptAfexrBondBal, cloptExertAmt, cloptExertRto, cloptIntCalcFmulCtt, cloptIntPayAmt, "
     "clrdDt, isinCd, mbsDtlCsfNm, pbanClsfNm, pbanTitNm, pbanWrtDt, rdptPlanRevsYn, rdptPlanRmkCtt, "
     "realIntPayDt, rqdzPlanCd, scrsDvdnBnfRt, scrsIssuDt, scrsIssuRndNo, scrsIssuYr, trncCdNm"),
    ("재정금융", "15059599", _C78, "1160100/service/GetMortLoanIssuDetaInfoService/getIssuOutl",
     "babuPayAmtNm, bondCcd, cloptCondCtt, crdtRifmCtt, frreRnknDcd, frreRnknDcdNm, fstDvdnBnfPayDt, "
     "intPayMthNm, isinCd, issuInvpnCtt, issuScrtCrdtGdcd, mbsDtlCsfNm, pamtPayMcd, pamtPayMcdNm, "
     "prirPayAmtNm, rqdzPlanCd, scrsExprClsfNm, scrsIssuAmt, scrsIssuDt, scrsIssuIrt, scrsIssuRndNo, "
     "scrsIssuYr, trncCdNm, wghnAvgIssuIrt"),
    ("재정금융", "15059601", _C78, "1160100/service/GetBkrFnCoBsInfoService/getBkrFnCoBs",
     "acitId, acitNm, basDt, bizYear, bpvtrAcitAmt, crno, crtmAcitAmt, fnclDcd, fnclDcdNm, lsqtAcitAmt, "
     "pvtrAcitAmt, rptCd, rptCdNm, thqrAcitAmt"),
    ("재정금융", "15059602", _C78, "1160100/service/GetBkrFnCoIsInfoService/getBkrFnCoIs",
     "acitId, acitNm, basDt, bizYear, bpvtrAcitAmt, crno, crtmAcitAmt, fnclDcd, fnclDcdNm, lsqtAcitAmt, "
     "pvtrAcitAmt, rptCd, rptCdNm, thqrAcitAmt"),
    ("재정금융", "15059588", _C78, "1160100/service/GetMoLoPrinInteRedeInfoService/getAllSecuPrinInteRedeInfo",
     "basYm, bondCcd, komocoDvdnAmt, komocoOrcpAmt, mbsDvdnAmt, mbsOrcpAmt, scrsIssuYr, slbsDvdnAmt, slbsOrcpAmt"),
    ("재정금융", "15059608", _C78, "1160100/service/GetPublFuScInfoService/getPublFundSuppCollInfo",
     "basDt, bkrpFncoClupMthoNm, bsupFncoNm, bzdsCsfNm, fncoNm, pblfndRmkCtt, rdptFndRtrvAstDsslAmt, "
     "rdptFndRtrvBkrpDvdnAmt, rdptFndRtrvInvtAmt, rdptFndRtrvLoanAmt, rdptFndRtrvStotAmt, rdptFndSuprAstBuyAmt, "
     "rdptFndSuprCtbtAmt, rdptFndSuprDepSbpayAmt, rdptFndSuprInvtAmt, rdptFndSuprLoanAmt, rdptFndSuprStotAmt, "
     "spraccBkrpDvdnRtrvAmt, spraccInvtRtrvAmt, spraccLoanRtrvAmt, spraccRtrvEtcAmt, spraccRtrvSumAmt, "
     "spraccSuprCtbtAmt, spraccSuprEstrPayAm, spraccSuprInvtAmt, spraccSuprIsuAm, spraccSuprKrncLoanAmt, "
     "spraccSuprSumAmt"),
    # 금융위원회_서민금융상품기본정보 (서민금융한눈에): one operation, 47 columns
    ("재정금융", "15094787", _C4F,
     "1160100/service/GetSmallLoanFinanceInstituteInfoService/getOrdinaryFinanceInfo",
     "basYm, snq, finPrdNm, lnLmt, irtCtg, irt, maxTotLnTrm, maxDfrmTrm, maxRdptTrm, rdptMthd, usge, trgt, "
     "instCtg, ofrInstNm, rsdAreaPamtEqltIstm, suprTgtDtlCond, age, incm, rsdArea, crdtSc, anin, housHoldCnt, "
     "housAr, lnTgtHous, rfrcCnpl, grnInst, jnMthd, rpymdCfe, lnIcdcst, ovItrYr, prftAddIrtCond, etcRefSbjc, "
     "hdlInst, cnpl, rltSite, tgtFltr, hdlInstDtlVw, prdExisYn, cv19Rfrc, prdCtg, prdNm, cv19SuprCtg, "
     "cv19SuprCtn, cv19SuprTgtDtlCtn, mgmDln, prdCtg2, fileWrtDt"),
    # 금융위원회_개인사업자금융정보: both operations measured, each field naming its op
    ("재정금융", "15108175", _C78, "1160100/service/GetSBBankingInfoService/getGrnBalInfo",
     f"basYm, {_SB_COMMON}, grnBal, wrkfndLoanYn, fctfndLoanYn"),
    ("재정금융", "15108175", _C78, "1160100/service/GetSBBankingInfoService/getDpstLoanInfo",
     f"basYm, {_SB_COMMON}, depAbl, loanAbl, wrkfndLoanYn, fctfndLoanYn"),
    # 금융위원회_개인사업자평가정보: one operation
    ("재정금융", "15108177", _C78, "1160100/service/GetSBCreditInfoService/getEvlInfo",
     f"basYm, {_SB_COMMON}, crEvlGdNm"),
    # 한국환경공단_비점오염저감시설 현황: six operations measured, each field naming its op
    ("환경기상", "15124967", _C3F, f"{_NPP}/getNofAdmZone",
     "decrFcltKndNm::저감시설종류명, ctpvNm::시도명, decrFcltNowCnt::저감시설 수"),
    ("환경기상", "15124967", _C3F, f"{_NPP}/getCpcAdmZone", f"decrFcltKndNm::저감시설종류명, ctpvNm::시도명, {_CPC}"),
    ("환경기상", "15124967", _C3F, f"{_NPP}/getCpcMng", f"decrFcltKndNm::저감시설종류명, cmptncInstNm::관할기관 명, {_CPC}"),
    ("환경기상", "15124967", _C3F, f"{_NPP}/getCpcWs", f"decrFcltKndNm::저감시설종류명, wtstNm::수계명, {_CPC}"),
    ("환경기상", "15124967", _C3F, f"{_NPP}/getExpPrcEfcAdmZone", f"decrFcltKndNm::저감시설종류명, ctpvNm::시도명, {_EFC}"),
    ("환경기상", "15124967", _C3F, f"{_NPP}/getExpPrcEfcMng",
     f"decrFcltKndNm::저감시설종류명, cmptncInstNm::관할기관 명, {_EFC}"),
    # 한국환경공단_비점오염저감시설 수치정보: one verified operation (getNiCpc did not answer the probe)
    ("환경기상", "15124969", _C65, "B552584/kecoapi/NppService/getNiExpPrcEfc",
     "instlDclrFcltRcptNo::설치신고시설 접수번호, rvrNm::하천명, wtstNm::수계명, bizAprvInstNm::사업 승인 기관명, "
     "cmptncInstNm::관할기관명, decrFcltKndNm::저감시설 종류명, expctPrcsSpnsEfcncVl::예상처리부유물질효율값, "
     "expctPrcsBodEfcncVl::예상처리생물학적산소요구량효율값, ctpvNm::시도명"),
    # 한국환경공단_사업장폐기물 인계정보: one verified operation of three
    ("환경기상", "15124992", _C78, "B552584/kecoapi/WstAbrService/getEntyMontTranTrtm",
     "crtrYm::기준년월, sn::순번, ctpvAddr::시도주소, sggAddr::시군구주소, wstNm::폐기물명, "
     "mmTonUnitEmsnCnsnQnt::배출 위탁량, mmTonUnitCrrgQnt::운반량, mmTonUnitPrcsQnt::처리량, "
     "mmTonUnitReutilQnt::재활용량"),
]


def _kloud80_source(sector: str, dataset: str, commit: str) -> str:
    return (f"github:kloud80/datagokr-mcp@{commit[:12]}:knowledge/datasets/{sector}/{dataset}.yaml (MIT; the "
            "response schema measured on a live answer of the operation (the file's verified_ok operation, or each "
            "field's op): field names and the titles it gives, the measured value kinds and samples not kept; "
            "data.go.kr answers the values as strings)")


#: The same kind of page for KMA services (one operation each on the page).
KMA_PORTAL = {
    "15059087": ("FrstFcstInfoService/getFrstOcurFcst",
                 "BASE_DATE::생성일자, BASE_TIME::생성시간, FCST_DATE::예측일자, FCST_TIME::예측시간, "
                 "DAY:integer:선행일, VALUE:integer:서리 발생 가능성(%)"),
    "15058079": ("LgtInfoService/getLgt",
                 "altitudeKm:number:낙뢰 고도, dateTime::낙뢰 시간, errorRangeKm:number:오차 범위, flashId::flash id"),
}


#: Portal pages whose stored copy shows the whole 출력결과 table (the page goes on past its last row):
#: what they list is all the operation answers, so an endpoint serving three or fewer of them is
#: thin because the service is small, not because a source was cut (``"complete": true``).
COMPLETE_PAGES = frozenset({"15077907", "15077898"})


def _portal_source(dataset: str) -> str:
    return (f"data.go.kr's page for dataset {dataset} (https://www.data.go.kr/data/{dataset}/openapi.do: the portal's "
            "출력결과(Response Element) table, 항목명(영문) and 항목설명, as the search tool's docs corpus stores the page; "
            "rows up to where the stored page stops; names and labels only; types from each row's unit: a count or an "
            "amount an integer, a rate or an area a number)")


KMA = {
    "SfcMtlyInfoService/getMmSumry": (KMA_MMSUMRY, "stnko, taavg:number, tamax:number, tamin:number"),
}


#: Envelope rows data-go-kr-client lists among a service's first eight.
_ENVELOPE = {"resultCode", "resultMsg", "numOfRows", "pageNo", "totalCount", "dataType"}

#: Request params every page lists before the operation's own (the envelope's).
_PAGE_PARAMS = {"numOfRows", "pageNo", "resultType", "serviceKey", "ServiceKey", "dataType", "type"}


def _check_portal(ops: list[dict[str, object]]) -> None:
    """A portal page belongs to the URL whose first published rows (data-go-kr-client 4.16.0
    lists the portal's first eight) open the page's list in the same order."""
    from simulator.catalog.generate.extract import read_facts

    facts = read_facts("datagokr_client")["operations"]
    client = {op["url"]: [f[0] for f in op["fields"] if f[0] not in _ENVELOPE] for op in facts}
    filters = {op["url"]: [p[0] for p in op["params"] if p[0] not in _PAGE_PARAMS] for op in facts}
    for op in ops:
        if "data.go.kr's page" not in str(op["source"]):
            continue
        url = str(op["url"])
        names = [row[0] for row in op["fields"]]  # type: ignore[attr-defined]
        first = client.get(url)
        if not first or names[: len(first)] != first:
            raise SystemExit(f"{url}: the page's rows {names[:4]} do not continue the client's {first}")
        service = url.rsplit("/", 1)[0] + "/"
        others = [u for u, f in client.items() if u.startswith(service) and u != url and f and names[: len(f)] == f]
        asked = op.get("page_params")
        if others and asked is not None:  # the page's request params choose among them
            others = [u for u in others if tuple(filters.get(u, ())) == tuple(asked)]
            if tuple(filters.get(url, ())) != tuple(asked):
                raise SystemExit(f"{url}: the page asks {asked}, the operation {filters.get(url)}")
        if others:
            raise SystemExit(f"{url}: the page's rows also continue {others}")


def _check_measured(ops: list[dict[str, object]]) -> None:
    """A measured schema belongs to the URL its file names as the operation measured, and the rows
    data-go-kr-client lists for that URL (its first eight, envelope left out), where it lists
    any, must all be among the measured names: the same operation seen twice. The URL must be
    one the client publishes."""
    from simulator.catalog.generate.extract import read_facts

    client = {op["url"]: [f[0] for f in op["fields"] if f[0] not in _ENVELOPE]
              for op in read_facts("datagokr_client")["operations"]}
    for op in ops:
        if "kloud80/datagokr-mcp" not in str(op["source"]):
            continue
        url = str(op["url"])
        names = {row[0] for row in op["fields"]}  # type: ignore[attr-defined]
        if url not in client:
            raise SystemExit(f"{url}: not an operation data-go-kr-client publishes")
        first = client[url]
        if not set(first) <= names:
            raise SystemExit(f"{url}: the measured names lack the client's {sorted(set(first) - names)}")


LABEL_FALLBACK = ("; labels it does not give: the agency's label for the same name in data-go-kr-client 4.16.0, "
                  "else on the agency's portal pages transcribed here")


def _labels_at_agency(ops: list[dict[str, object]]) -> dict[str, dict[str, str]]:
    """Agency code → field name → a Korean label: data-go-kr-client's most frequent one for the
    name at that agency (edition 8's rule), else the first a portal page transcribed here gives."""
    labels = _agency_labels()
    for op in ops:
        if "data.go.kr's page" not in str(op["source"]):
            continue
        known = labels.setdefault(str(op["url"]).split("/")[3], {})
        for name, _ftype, label in op["fields"]:  # type: ignore[attr-defined]
            if label and name not in known:
                known[name] = label
    return labels


def _labelled(op: dict[str, object], labels: dict[str, dict[str, str]]) -> dict[str, object]:
    """``op`` with each unlabelled field given the agency's label for its name (the source says so)."""
    known = labels.get(str(op["url"]).split("/")[3], {})
    rows = [list(r) for r in op["fields"]]  # type: ignore[attr-defined]
    filled = [r for r in rows if not r[2] and r[0] in known]
    for r in filled:
        r[2] = known[r[0]]
    return {**op, "fields": rows, "source": str(op["source"]) + (LABEL_FALLBACK if filled else "")}


def operations() -> list[dict[str, object]]:
    hand = [(f"{DG}/1741000/{path}", src, spec) for path, (src, spec) in MOIS.items()]
    hand += [(f"{DG}/1741000/{path}", _portal_source(ds), spec) for ds, (path, spec) in MOIS_PORTAL.items()]
    hand += [(f"{DG}/1160100/{path}", _portal_source(ds), spec) for ds, (path, spec) in FSC_PORTAL.items()]
    hand += [(f"{DG}/1360000/{path}", _portal_source(ds), spec) for ds, (path, spec) in KMA_PORTAL.items()]
    hand += [(f"{DG}/1360000/{path}", src, spec) for path, (src, spec) in KMA.items()]
    hand += [(f"{DG}/{path}", _kloud80_source(sector, ds, commit), spec) for sector, ds, commit, path, spec in KLOUD80]
    complete = {f"{DG}/1741000/{MOIS_PORTAL[ds][0]}" for ds in COMPLETE_PAGES}
    asked = {f"{DG}/1160100/{FSC_PORTAL[ds][0]}": params for ds, params in PORTAL_PARAMS.items()}
    ops = sorted(({"url": url, "source": src, "fields": field_rows(spec), **({"complete": True} if url in complete else {})}
                  for url, src, spec in hand), key=lambda o: str(o["url"]))
    labels = _labels_at_agency(ops)
    ops = [_labelled(o, labels) if "kloud80/datagokr-mcp" in str(o["source"]) else o for o in ops]
    if len({str(o["url"]) for o in ops}) != len(ops):
        raise SystemExit("an operation is given fields by two sources")
    _check_portal([dict(o, page_params=asked[o["url"]]) if o["url"] in asked else o for o in ops])
    _check_measured(ops)
    return ops


def main() -> int:
    ops = operations()
    path = write_facts("fields_edition9", {"source": "published response-field lists served from world edition 9 "
                                                     "(each operation names its source)", "operations": ops})
    print(f"{path}: {len(ops)} operations, {sum(len(o['fields']) for o in ops)} fields")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
