"""Re-derive ``facts/fields_edition8.json``: response fields published for generated endpoints
that were thin (declaring <= 3 record fields) after edition 7, served from world edition 8
(option ``late_fields`` ``{name: 8}``, so the versions recorded from editions 2–7 re-record
byte for byte; ``build.PUBLISHED8_EDITION``).

Sources (facts only: field names, Korean labels where the source gives one, JSON types; no
code or prose is kept). Each was read with the search tool's ``read_file``; the index names no
repository for them, so each is cited by its search-index file id and what it is:

* ``NEC_DOC``: a public markdown inventory of the NEC (중앙선거관리위원회) OpenAPI fields, one
  "Response item" list per operation of the 20 services (checked 2026-05-25 by its author);
* ``FSC_FICC``: a generated FSC MCP server (채권·단기자금 desk) whose tool docs list, per
  operation, the response fields its author collected from live calls;
* the portal's technical guides (기술문서 / 오픈API활용가이드, .docx/.hwp/.pdf) as the text extractions
  the public mirror umyunsang/UMMAYA (Apache-2.0) keeps beside the swagger documents edition 7
  read (``docs/api/data-go-kr-candidate-docs/<dataset>/…txt``): per "Call Back URL" the response
  message table's rows (항목명(영문), 항목명(국문)); read from a local git mirror (``--ummaya``);
* ``KMA_GUIDE``: a public markdown copy of KMA API hub guide pages (출력결과 tables) for the
  방재기상연보/월보 services (APIHub ``typ02/openApi/<service>/<op>`` is the same service as
  ``apis.data.go.kr/1360000/<service>/<op>``).

    python scripts/extract_fields8.py --ummaya /work/.mirror/umyunsang+UMMAYA/repo
    python -m simulator catalog generate
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.catalog.generate.extract import field_rows, read_facts, write_facts  # noqa: E402

DG = "https://apis.data.go.kr"

NEC_DOC = ("search-index file 59491790900 (a public markdown inventory, '선관위 OpenAPI 필드 인벤토리', of the "
           "NEC OpenAPI's response items per operation; the index names no repository; names and labels only)")
FSC_FICC = ("search-index file 60014755604 (a generated FSC MCP server, 채권·단기자금 desk: the response fields "
            "its tool docs list per operation, collected from live calls; the index names no repository; names only)")
KMA_GUIDE = ("search-index file 65818918263 (a public markdown copy of KMA API hub guide pages, the 출력결과 tables "
             "of AwsYearlyInfoService/AwsMtlyInfoService; the index names no repository; names and labels only)")

Row = list[str]


# --- NEC (9760000): the inventory's response items ------------------------------------------

_NEC_CANDIDATE = ("num::순번, sgId::선거ID, sgTypecode::선거종류코드, sdName, wiwName::구시군명, jdName::정당명, "
                  "name, hanjaName, gender, birthday, age, jobId::직업ID, job, "
                  "eduId::학력ID, edu, career1, career2")
#: 선거인수 정보: the inventory lists one set of item fields for the service's five operations;
#: each operation here gets the counts and the region names down to its own level.
_ELCNT_COUNTS = ("wiwCount::구시군수, emdCount::읍면동수, tpgCount::투표구수, ppltCnt::인구수, ntabPpltCnt::재외국민 인구수, "
                 "frgnrPpltCnt::외국인 인구수, cfmtnElcnt::확정선거인수 계, cfmtnRacnt::확정선거인수 재외국민, "
                 "cfmtnFrgnrCnt::확정선거인수 외국인, cfmtnManElcnt::남성 확정선거인수, cfmtnManRacnt::남성 재외국민, "
                 "cfmtnManFrgnrCnt::남성 외국인, cfmtnFmlElcnt::여성 확정선거인수, cfmtnFmlRacnt::여성 재외국민, "
                 "cfmtnFmlFrgnrCnt::여성 외국인, cfmtnRdvtDccnt::거소투표신고인수, cfmtnNtabRdvtDccnt::재외국민 거소투표신고인수, "
                 "cfmtnRdvtManDccnt::남성 거소투표신고인수, cfmtnNtabRdvtManDccnt::남성 재외국민 거소투표신고인수, "
                 "cfmtnRdvtFmlDccnt::여성 거소투표신고인수, cfmtnNtabRdvtFmlDccnt::여성 재외국민 거소투표신고인수")
_ELCNT_NAMES = {
    "getGsigElcntInfoInqire": "num::순번, sgId::선거ID, sdName, wiwName::구시군명",
    "getElpcElcntInfoInqire": "num::순번, sgId::선거ID, sdName, wiwName::구시군명, sggName::선거구명",
    "getEmdElcntInfoInqire": "num::순번, sgId::선거ID, sdName, wiwName::구시군명, emdName",
    "getVtdsElcntInfoInqire": "num::순번, sgId::선거ID, sdName, wiwName::구시군명, emdName, tpgName",
}
_XMNTCK = ("num::순번, sgId::선거ID, sgTypecode::선거종류코드, sggName::선거구명, sdName, wiwName::구시군명, "
           "sunsu::선거인수, tusu::투표수, yutusu::유효투표수, mutusu::무효투표수, gigwonsu::기권수, "
           + ", ".join(f"jd{i:02d}::정당명, hbj{i:02d}::후보자명, dugsu{i:02d}::득표수" for i in range(1, 51))
           + ", crOrder::순서")
_PRMS = ("num::순번, sgId::선거ID, partyName::정당명, prmsCnt, "
         + ", ".join(f"prmsOrd{i}, prmsRealmName{i}, prmsTitle{i}, prmsCont{i}" for i in range(1, 11)))

NEC: dict[str, str] = {
    "CountingSttnInfoInqireService/getCountingSttnInfoInqire":
        "num::순번, sgId::선거ID, countingSttnName::개표소명, sdName, wiwName::구시군명, "
        "countingSttnSeq::개표소순번, placeName, placeAddr, placeFloor",
    "ErVotingSttusInfoInqireService/getErVotingSttusInfoInqire":
        "num::순번, sgId::선거ID, erVotingDiv::사전투표구분, sdName, wiwName::구시군명, votersCnt::선거인수, "
        "erVotingCnt::사전투표자수, erTurnout::사전투표율, sortOrd::순서",
    "PartyPlcInfoInqireService/getPartyPlcInfoInqire": _PRMS,
    "PolplcInfoInqireService2/getPolplcOtlnmapTrnsportInfoInqire":
        "num::순번, sgId::선거ID, psName::선거일투표소명, sdName, wiwName, emdName, "
        "placeName, addr, floor",
    "PolplcInfoInqireService2/getPrePolplcOtlnmapTrnsportInfoInqire":
        "num::순번, sgId::선거ID, evPsName::사전투표소명, sdName, wiwName, emdName, "
        "evOrder, placeName, addr, floor",
    "VoteXmntckInfoInqireService2/getXmntckSttusInfoInqire": _XMNTCK,
    # 무투표선거구: one item list under the service's 후보자 and 당선인 operations
    "WtvtelpcInfoInqireService/getWtvtelpccndaInfoInqire": _NEC_CANDIDATE.replace("jdName::정당명", "sggName::선거구명, jdName::정당명"),
    "WtvtelpcInfoInqireService/getWtvtelpcsccnInfoInqire": _NEC_CANDIDATE.replace("jdName::정당명", "sggName::선거구명, jdName::정당명"),
    **{f"ElcntInfoInqireService/{op}": f"{names}, {_ELCNT_COUNTS}" for op, names in _ELCNT_NAMES.items()},
}

# --- FSC (1160100): the MCP server's live-collected field lists ------------------------------

def _fsc_desk(file_id: str, desk: str) -> str:
    return (f"search-index file {file_id} (a generated FSC MCP server, {desk} desk: the response fields its tool "
            "docs list per operation, collected from live calls; the index names no repository; names only)")


FSC_MARKET = _fsc_desk("59955285140", "시세 통합")
FSC_RESEARCH = _fsc_desk("66445185882", "기업분석·공시")
FSC_INSURANCE = _fsc_desk("66524633101", "보험")
FSC_INDUSTRY = _fsc_desk("59943816204", "상품·업계")
FSC_ASSETS = ("search-index file 63384210853 (a Python parser of the 재무현황 rows of FSC's 저축은행 (dataset 15061316) and "
              "농협 (15061344) services, 요약재무상태표(자산) table: the keys it reads; the index names no repository; names only)")
FSC_CARD = ("search-index files 68937739639, 69234661384 and 69224040207 (a Python proxy, a browser dashboard and a "
            "Python server of public dashboards of FSC's 신용카드사 service (dataset GetCredCardCompInfoService): the "
            "record keys they read; the index names no repository; names only)")
FSC_PROBE = ("search-index file 70081820394 (a public diagnostic report of live calls to FSC 금융통계 services, 2026-09-28: "
             "the opening 300 characters of each answer; the keys of its first record; the index names no repository; "
             "names only)")
_GENE = "title, basYm, crno, fncoCd, fncoNm, xcsmCnt, xcsmDcd, xcsmDcdNm"
#: 보험 desk: one list for the life and non-life 주요경영지표; its doc says the value field is
#: cpaqItemAmt for 생명보험 and cpaqItemValCtt for 손해보험.
_INSU_INDI = "title, basYm, {value}, cpaqItemCd, cpaqItemCdNm, crno, fncoCd, fncoNm"
FSC: dict[str, tuple[str, str]] = {
    "service/GetBondInfoService/getBondSecurityBenefitRate": (FSC_FICC, "basDt, bnfRt::수익률, crdtSc::신용등급, ctg::잔존만기"),
    "service/GetSecuritiesProductInfoService/getETNPriceInfo": (
        FSC_MARKET, "basDt, bssIdxClpr, bssIdxIdxNm, clpr, fltRt, hipr, indcVal::지표가치, indcValTotAmt, isinCd, itmsNm, "
                    "lopr, lstgScrtCnt, mkp, mrktTotAmt, srtnCd, trPrc, trqu, vs"),
    "service/GetRetirementPensionInfoService/getFundInfo": (
        "search-index file 57933097629 (TypeScript types of a client of FSC's insurance disclosures: its "
        "RetirementPensionFundItem, keys and their comments as labels; the index names no repository; names and labels "
        "only)",
        "cmpyCd::회사코드, cmpyNm::회사명, fndNm::펀드명, fndCd::펀드코드, basDt::기준일자, basprc::기준가, "
        "nPptAmt::순자산금액, ofrInstNm::제공기관명"),
    "service/GetCorpGoveInfoService/getExecutivesInfo": (
        FSC_RESEARCH, "basDt, crno, dataSqno, exutFnm, exutBornYm, exutJbttNm, rgstExutYn, rgstExutCtt, fltmsvYn, fltmsvCtt, "
                      "exutChrgBzwrNm, exutMainCrrCtt, ownOnskCnt, ownPfstCnt, exutHdfTermCtt, exutJbttXpryDt, sexCd, "
                      "sexCdNm, exutOwnOnskCnt, exutOwnPfstCnt"),
    "service/GetOfficialNoticeInfoService/getStockTradingFeeInfo": (
        FSC_INDUSTRY, "basDt, brofOpnActCtg, bzds, cfe, cmpyNm, ctg, trAmt"),
    "service/GetVariableInsuranceInfoService/getFundInfo": (
        FSC_INSURANCE, "cmpyCd, cmpyNm, fndNm, fndCd, basDt, basprc::기준가, nPptAmt::순자산"),
    # 저축은행 (dataset 15061316) and 농협 (15061344) 재무현황: the rows of their 요약재무상태표(자산) table
    "service/GetMutuSaviBankInfoService/getMutuSaviBankFinaInfo": (
        FSC_ASSETS, "fncoCd, fncoNm, basYm, crno, astSmryStfnpsAcitCd, astSmryStfnpsAcitCdNm, astSmryStfnpsAcitCdAmt"),
    "service/GetAgriCoopInfoService/getAgriCoopFinaInfo": (
        FSC_ASSETS, "fncoCd, fncoNm, basYm, crno, astSmryBlnshDcd, astSmryBlnshDcdNm, astSmryBlnshClsfAmt"),
    "service/GetNonlInsuCompInfoService/getNonlInsuCompFinaInfo": (
        FSC_INSURANCE, "title, astSmryStfnpsAcitAmt, astSmryStfnpsAcitCd, astSmryStfnpsAcitCdNm, astSmryStfnpsAcitCmpsRto, "
                       "basYm, crno, fncoCd, fncoNm"),
    # 신용카드사 (GetCredCardCompInfoService): the keys a proxy and a dashboard of it read
    "service/GetCredCardCompInfoService/getCredCardCompFinaInfo": (FSC_CARD, "fncoCd, fncoNm, basYm, astSmryStfnpsAcitAmt"),
    "service/GetCredCardCompInfoService/getCredCardCompKeyManaIndi": (FSC_CARD, "fncoNm, cpaqItemValCtt"),
    "service/GetCredCardCompInfoService/getCredCardCompMajoBusiActi": (
        FSC_CARD, "fncoCd, fncoNm, basYm, crcdUzAtrsItemCdNm, crcdUzAtrsItemCmtlAmt, crcdUzAtrsItemThqrAmt"),
    # 일반현황 (임직원현황 table) of four 금융통계 services: the record keys of a live answer's opening
    **{f"service/Get{svc}InfoService/get{svc}GeneInfo": (FSC_PROBE, _GENE) for svc in (
        "InveAdviComp", "CredUnio", "AgriCoop", "FishCoop")},
    "service/GetLifeInsuCompInfoService/getLifeInsuCompKeyManaIndi": (FSC_INSURANCE, _INSU_INDI.format(value="cpaqItemAmt")),
    "service/GetNonlInsuCompInfoService/getNonlInsuCompKeyManaIndi": (FSC_INSURANCE, _INSU_INDI.format(value="cpaqItemValCtt")),
}

#: sykang169/google-python-sample's FSC MCP catalogue (mcp/fsc-common/catalog.json): per
#: operation, the response fields its author collected from live calls. The operations of it
#: that were thin here; the names as listed (one line per operation: ``Service/operation: names``).
FSC_CAT = ("github:sykang169/google-python-sample@470eda9ae700 mcp/fsc-common/catalog.json (an FSC MCP server's "
           "catalogue: per operation, the response fields collected from live calls; names only)")
_FSC_CAT_TEXT = """
GetSecuritiesProductInfoService/getELWPriceInfo: basDt clpr hipr isinCd itmsNm lopr lstgScrtCnt mkp mrktTotAmt srtnCd trPrc trqu udasAstClpr udasAstNm vs
GetSecuCompInfoService/getSecuCompFinaInfo: title astSmryStfnpsAcitAmt astSmryStfnpsAcitCd astSmryStfnpsAcitCdNm astSmryStfnpsAcitCmpsRto basYm crno fncoCd fncoNm
GetSecuCompInfoService/getSecuCompKeyManaIndi: title basYm crno fncoCd fncoNm lqdtItemCd lqdtItemCdNm lqdtItemValCtt
GetSecuCompInfoService/getSecuCompMajoBusiActi: title basYm crno fncoCd fncoNm scrsTrTcotCfeMrktClsfCmtlAmt scrsTrTcotCfeMrktClsfThqrAmt scrsTrTcotCfeMrktDcd scrsTrTcotCfeMrktDcdNm
GetSecuCompInfoService/getSecuCompPresReleStat: title basYm crno fncoCd fncoNm froprNcptRtoItemCd froprNcptRtoItemCdNm froprNcptRtoItemVal
GetOfficialNoticeInfoService/getRetirementPensionBenefitRate: basDt bnfRt10yr bnfRt3yr bnfRt5yr bnfRt7yr bzds cmpyNm ctg qtrBnfRt rsvgAm rtmpnsCtg
GetAsseManaCompInfoService/getAsseManaCompFinaInfo: title basYm crno fncoCd fncoNm smryStfnpsAcitAmt smryStfnpsAcitCd smryStfnpsAcitCdNm smryStfnpsAcitCmpsRto
GetAsseManaCompInfoService/getAsseManaCompKeyManaIndi: title basYm cpaqLqdtItemCd cpaqLqdtItemCdNm cpaqLqdtItemVal crno fncoCd fncoNm
GetFnCoDiscInfoService_V2/getFnCoAmorCoCoBondDiscInfo_V2: amtpCpscIssuMthCtt audpnAtndYn basDt basExrt bodRsolDt bondIssuAreaNm bondIssuDcnt ccbKindNm ccbSbscDt cpbdExprDt cpbdTfcvlAmt crno cvtpCcbTfcvlAmt etcCptlAmt exprInrt fctfndAt grnInstNm imarTrCmteDclTrgtYn intPayMthNm ivsRefCtt lblarbRngDecsMthCtt lblarbRngNm lblarbRsnCtt maxSthdRltNm mgmCptAt optnCtt otcoScrtAcqAmt otdrAbncNopeCnt otdrAtndNopeCnt ovseIssuLnbTrCtt ovseLstgMrktNm pamtRdptMthNm rprsSptdCmpyNm rptFileCtt sbmsExemRsnCtt scrtDclrptSbmsTrgtYn shcpPymtDt spcfIssuTrprNm srfcInrt tisuFcvlAmt
GetFnCoDiscInfoService_V2/getFnCoAsseTranPutBackOptiDiscInfo_V2: basDt crno fncoCorpNm rptFileCtt
GetFnCoDiscInfoService_V2/getFnCoBonuIssuDiscInfo_V2: audtCmbrAtndYn basDt bfciOnskTisuStckCnt bfciOtshTisuStckCnt bodRsolDt crno ivsRefCtt nrfsHndvSchDt nstAlctBasDt nstDvdnRckDt nstLstgSchDt onskNstAlctStckCnt onskNstCnt otdrAbncNopeCnt otdrAtndNopeCnt otshNstAlctStckCnt otshNstCnt rptFileCtt
GetFnCoDiscInfoService_V2/getFnCoBusiConvDiscInfo_V2: astAmtRto audtCmbrAtndYn basDt bodRsolDt buynSchPric bzopCnvPric cmpyRltNm cntrCclDt cntrCtt cntrEfctCtt cnvBasDt cnvBzopCtt cnvBzopTrgtYn cnvInfcCtt cnvMnpbPayCtt cnvPrpsCtt cnvRsnCtt cnvTrgtBzopAstAmt cnvTrgtBzopSaleAmt crno extnEvlEdDt extnEvlInstNm extnEvlOpnnCtt extnEvlSttgDt extnEvlYn gmshSchDt gmshSpclRsolYn imarTrCmteDclTrgtYn ivsRefCtt otdrAbncNopeCnt otdrAtndNopeCnt paySchCtt pbanCtt poptCntrCclYn rgtExertCtt rptFileCtt saleAmtRto stckBuynRgclExertRqrmCtt stckBuynRgclRstcCtt tastAmt trCnptCptlAmt trCnptHdofAdr trCnptMainBizNm trCnptNm tsleAmt
GetFnCoDiscInfoService_V2/getFnCoBusiSuspDiscInfo_V2: audpnAtndYn basDt bodRsolDt bzopStopAmt bzopStopAmtRto bzopStopCtpnCtt bzopStopCtt bzopStopDt bzopStopFildNm bzopStopInfcCtt bzopStopRsnCtt crno ivsRefCtt lgscCorpYn ltstTsleAmt otdrAbncNopeCnt otdrAtndNopeCnt rptFileCtt xchgLblPbanYn
GetFnCoDiscInfoService_V2/getFnCoBwRighIssuDiscInfo_V2: audpnAtndYn basDt basExrt bodRsolDt bondIssuAreaNm bondIssuDcnt bwIssuMthCtt bwrExertPrc bwrExertRto bwrFcvlAmt bwrIssuDecsRmkCtt bwrKindNm bwrSbscDt bwrThryPric bwrThryPricMdelNm corRsnCtt cpbdExprDt crno dsslCnptMaxSthdRltNm dsslSchDt etcCptlAmt exertPricAdjCtt exertPricDecsMthNm exprInrt fctfndAt grnInstNm hcfhPlanCtt imarTrCmteDclTrgtYn intPayMthNm issuStckKindNm issuStckRto ivsRefCtt maxSthdRltNm mgmCptAt mracCtt nstUndtScrtDsslAmt optnCtt otcoScrtAcqAmt otdrAbncNopeCnt otdrAtndNopeCnt ovseCpbdTfcvlAmt ovseIssuLnbTrCtt ovseLstgMrktNm pamtRdptMthNm prmrDsslCnptNm prmrIssuStckCnt prmrScrtTdslAmt prmrSprtYn prmrValuCtt rgtExertEdDt rgtExertSttgDt rprsSptdCmpyNm rptFileCtt sbmsExemRsnCtt scrtDclrptSbmsTrgtYn shcpPymtDt shcpPymtMthNm spcfIssuTrprNm srfcInrt tcpbFcvlAmt tisuFcvlAmt
GetFnCoDiscInfoService_V2/getFnCoCapiIncrWithConsDiscInfo_V2: acthInvtYn arasBsisCtt audpnAtndYn basDt basStprDcXchrRt bfSthdSbscSchEdDt bfSthdSbscSchSttgDt bfciOnskIssuStckCnt bfciPfstIssuStckCnt bodRsolDt capiMthoNm cnvrIssuStckCnt cnvrStckKindNm corRsnCtt crno dturLstgPsblYn dturLstgYn emstowUnnFoalAlctRto emstowUnnSbscSchEdDt emstowUnnSbscSchSttgDt etcAgrmCtt etcCptlAmt etcCtt fctfndAt frstPcPlanCtt hcfhPlanCtt imarTrCmteDclTrgtYn issuPricCmpuMthCtt ivsRefCtt mgmCptAt nrfsHndvSchDt nstAlctBasDt nstAlctStckCnt nstDvdnRckDt nstLstgSchDt onskFrmIssuPricSchDt onskIssuFrmPric onskIssuSchPric onskNstCnt otcoScrtAcqAmt otdrAbncNopeCnt otdrAtndNopeCnt otshFrmIssuPricSchDt otshIssuFrmPric otshIssuSchPric pbsbSbscSchEdDt pbsbSbscSchSttgDt pfstNstCnt pftDvdnCtt prmrCnvYn prmrCrtfLstgYn pymtSchActhInvtAmt pymtSchActhInvtRto pymtSchStckCnt rd3ptAlctArasBsisCtt rgscUnltStckYn rprsSptdCmpyNm rptFileCtt sbmsExemRsnCtt scrtDclrptSbmsTrgtYn shcpPymtDt stckCnvrClmTermMnthCnt stckCnvrCondCtt stckCtt stckParPrc stckRdptAmt stckRdptCondNm stckRdptMthNm stckRdptTermMnthCnt stckVtrgCtt trdMdatFinInvsNm wt1yRdptSchYn
GetFnCoDiscInfoService_V2/getFnCoEbRighIssuDiscInfo_V2: audpnAtndYn basDt basExrt bodRsolDt bondIssuAreaNm bondIssuDcnt cpbdExprDt crno ebExchPric ebExchPricAdjCtt ebExchPricDecsMthCtt ebFcvlAmt ebrIssuMthCtt ebrKindNm ebrSbscDt etcCptlAmt exchClmEdDt exchClmSttgDt exchTrgtStckCnt exchTrgtStckKindNm exchTrgtStckRto exprInrt fctfndAt grnInstNm imarTrCmteDclTrgtYn intPayMthNm ivsRefCtt maxSthdRltNm mgmCptAt optnCtt otcoScrtAcqAmt otdrAbncNopeCnt otdrAtndNopeCnt ovseIssuLnbTrCtt ovseLstgMrktNm pamtRdptMthNm rprsSptdCmpyNm sbmsExemRsnCtt scrtDclrptSbmsTrgtYn shcpPymtDt spcfIssuTrprNm srfcInrt tcpbFcvlAmt tisuFcvlAmt
GetFnCoDiscInfoService_V2/getFnCoMnaDiscInfo_V2: actnAudpnNm astVsTrstCtt audtCmbrAtndYn basDt bodRsolDt buynSchPric cmpyRltNm cntrCtt cntrEfctCtt crno dsceSbmsEdDt dsceSbmsSttgDt dturLstgYn edRptgGmengDt extnEvlEdDt extnEvlInstNm extnEvlOpnnCtt extnEvlSttgDt extnEvlYn gmshSchDt ivsRefCtt mngItmsDsntYn mracCntrDt mracDecsBsisRsnCtt mracDlnDt mracFrmtNm mracInfcEfftCtt mracMthNm mracNstClshCnt mracNstOnskCnt mracOpntCmpyAudtOpnnCtt mracOpntCmpyCptlAmt mracOpntCmpyCrtmNpf mracOpntCmpyCtt mracOpntCmpyMainBizNm mracOpntCmpyNm mracOpntCmpySaleAmt mracOpntCmpyTastAmt mracOpntCmpyTcptAmt mracOpntCmpyTdbtAmt mracOtlCtt mracPrpsCtt mracRgstSchDt mracRstcYn mracRto mracRtoCalcBsisCtt newBizSaleAmt nrfsHndvSchDt nstLstgSchDt nwesMracCmpyCptlAmt nwesMracCmpyEstbBasDt nwesMracCmpyMainBizNm nwesMracCmpyNm nwesMracCmpyRlstPropYn nwesMracCmpyTastAmt nwesMracCmpyTcptAmt nwesMracCmpyTdbtAmt oppsItntNtcRcptEdDt oppsItntNtcRcptSttgDt optnExertRqrmCtt orfsSbmsEdDt orfsSbmsSttgDt otcoDturLstgPsblYn otdrAbncNopeCnt otdrAtndNopeCnt paySchCtt pbanCtt poptCntrCclYn rgscUnltMracYn rgtExertCtt sbmsExemRsnCtt scrtDclrptSbmsTrgtYn stckBuynRgclExertEdDt stckBuynRgclExertSttgDt stckBuynRgclRstcCtt sthdFrmBasDt sthdNmlsLckEdDt sthdNmlsLckSttgDt trStopSchEdDt trStopSchSttgDt
GetFnCoDiscInfoService_V2/getFnCoOffsSecuMarkDeliDiscInfo_V2: arasBsisCtt basDt crno etcCtt ivsRefCtt lstgAbolHcfhScedCtt lstgAbolOnskCnt lstgAbolOtshCnt lstgAbolRsnCtt lstgXchgDwplNtnlNm lwstAfrmDt stckCtt trEdDt
GetFnCoDiscInfoService_V2/getFnCoOutsDireAffaRepoDiscInfo_V2: basDt crno ivsRefCtt lgscCorpYn otdrCrrCtt otdrDsmsDt otdrDsmsRsnCtt otdrFnm otdrMngCtt otdrNewDsgnYn otdrNowOcptNm otdrRto otdrTrmSttgDt otdrTrmXpryDt tdrtCnt totdCnt
GetFnCoDiscInfoService_V2/getFnCoReviProcDiscInfo_V2: basDt corvAplpnFnm corvCtpnCtt corvJurdCurtNm corvPropDt corvPropRsnCtt crno ivsRefCtt
GetFnCoDiscInfoService_V2/getFnCoSpilUpDiscInfo_V2: afdvLstgMatnYn audtCmbrAtndYn basDt bodRsolDt cntrCtt crno divBfCmpyCtt divCmpyEstbBasDt divDlnDt divEstbCmpyCptlAmt divEstbCmpyNm divEstbCmpyTastAmt divEstbCmpyTcptAmt divEstbCmpyTdbtAmt divInfcEfftCtt divMthNm divPrpsCtt divRgstSchDt divRto divSubtBizSaleAmt divSubtCmpyCptlAmt divSubtCmpyFnafBasDt divSubtCmpyMainBizNm divSubtCmpyNm divSubtCmpyTastAmt divSubtCmpyTcptAmt divSubtCmpyTdbtAmt dsceSbmsEdDt dsceSbmsSttgDt gmshSchDt ivsRefCtt mainBizNm newBizSaleAmt nrfsHndvSchDt nstAlctBasDt nstAlctCondCtt nstLstgSchDt nstPronRsnCtt orfsSbmsEdDt orfsSbmsSttgDt otdrAbncNopeCnt otdrAtndNopeCnt pbanCtt poptCntrCclYn rdcpRto rlstPropYn sbmsExemRsnCtt scrtDclrptSbmsTrgtYn trStopSchEdDt trStopSchSttgDt
GetFnCoDiscInfoService_V2/getFnCoStocExchTranDiscInfo_V2: audtCmbrAtndYn basDt bodRsolDt buynSchPric cmpyRltNm cntrCtt cntrEfctCtt crno decsTastAmt dturLstgPsblYn dturLstgYn exchAftsPrcoNm exchBfCntrDt exchBfDt exchBfInfcEfftCtt exchBfPrpsCtt exchBfRto exchBfRtoCalcBsisCtt exchTrnsFrmtNm exchTrnsTrgtCorpNm extnEvlEdDt extnEvlInstNm extnEvlOpnnCtt extnEvlSttgDt extnEvlYn fncoCptlAmt fncoTcptAmt gmshSchDt ivsRefCtt mainBizNm nrfsHndvSchDt nstLstgSchDt oppsItntNtcRcptEdDt oppsItntNtcRcptSttgDt orfsSbmsEdDt orfsSbmsSttgDt otdrAbncNopeCnt otdrAtndNopeCnt paySchCtt pbanCtt poptCntrCclYn rgtExertCtt rprNm sbmsExemRsnCtt scrtDclrptSbmsTrgtYn stckBuynRgclExertEdDt stckBuynRgclExertRqrmCtt stckBuynRgclExertSttgDt stckBuynRgclRstcCtt stckExchClsfNm stckExchEnpTdbtAmt stckTrnsDecsBsisRsnCtt sthdFrmBasDt sthdNmlsLckEdDt sthdNmlsLckSttgDt tisuClshCnt tisuOnskCnt trStopSchTermMnthCnt
GetFnCoDiscInfoService_V2/getFnCoStocOptiRepoDiscInfo_V2: arasBsisCtt audpnAtndYn basDt bodRsolDt crno etcCtt ivsRefCtt onskCnt onskExertPrc onskGranStckCnt otdrAbncNopeCnt otdrAtndNopeCnt otshCnt otshExertPrc otshGranStckCnt rltCmpyLbrrCnt stckCtt stckFrvuCtt stoptExertEdDt stoptExertSttgDt stoptGranBsisCtt stoptGranDt stoptGranMthNm stoptGranRsolInstNm stoptTrprFnm stoptTrprRltNm
GetFnCoDiscInfoService_V2/getFnCoStocSubsCertConvDiscInfo_V2: actnAudpnNm afcnShrRat afcnStckCnt audtCmbrAtndYn audtOpnnCtt basDt bodRsolDt cmpyRltNm cntrCtt cnvAmt cnvDecsRsnCtt cnvPrpsCtt cnvSchDt cnvStckCnt corpCrtmNpf corpRltNm corpTastAmt corpTdbtAmt crno enpSaleAmt extnEvlEdDt extnEvlInstNm extnEvlOpnnCtt extnEvlSttgDt extnEvlYn fnafCrcmClsfNm fncoCptlAmt fncoTcptAmt imarTrCmteDclTrgtYn issuCmpyCptlAmt issuCmpyMainBizNm issuCmpyNm issuCmpyNtnlNm issuCmpyRprNm ivsRefCtt oselfCptlAm oselfCptlRto otdrAbncNopeCnt otdrAtndNopeCnt pbanCtt poptCntrCclYn tastAmt tastRto tisuStckCnt trCnptCptlAmt trCnptExutNm trCnptHdofAdr trCnptMainBizNm trMnpbPayCtt
GetFnCoDiscInfoService_V2/getFnCoStocSubsCertInheDiscInfo_V2: actnAudpnNm1 actnAudpnNm2 afinOwnStckCnt afinShrRat audtCmbrAtndYn audtOpnnCtt1 audtOpnnCtt2 basDt bodRsolDt cmpyRltNm cnptRltNm cntrCtt corpRltNm crno crtmNpal csbzYn csobYn dturLstgYn enpSaleAmt1 enpSaleAmt2 enpTrCnptRltNm extnEvlEdDt extnEvlInstNm extnEvlOpnnCtt extnEvlSttgDt extnEvlYn exutNm fnafCrcmClsfNm fncoCptlAmt1 fncoCptlAmt2 fncoCrtmNpf fncoTastAmt1 fncoTastAmt2 fncoTcptAmt1 fncoTcptAmt2 fncoTdbtAmt1 fncoTdbtAmt2 hcfhScedCtt imarTrCmteDclTrgtYn inhtAmt inhtDecsRsnCtt inhtPrpsCtt inhtSchDt inhtStckCnt issuCmpyCptlAmt issuCmpyMainBizNm issuCmpyNm issuCmpyNtnlNm issuCmpyRprNm ivsRefCtt lsyrTrCtt ltstBizYear oselfCptlAm oselfCptlRto otcoDturLstgPsblYn otdrAbncNopeCnt otdrAtndNopeCnt pbanCtt poptCntrCclYn stacTermMnthCnt tastAmt tastRto tisuStckCnt trCnptBsadr trCnptClsfNm trCnptCorpNm1 trCnptCorpNm2 trCnptCptlAmt trCnptHdofAdr trCnptMainBizNm trCnptNm trCnptNtntNm trCnptOcptNm trCnptRltNm trCnptShrRat trCnptStckCnt trMnpbPayCtt tyrTrCtt wt6mNstAcqYn yra2TrCtt
GetFnCoDiscInfoService_V2/getFnCoTreaStocRepuDiscInfo_V2: acqDecsDt acqMthCtt acqOnskCnt acqOnskStotCnt acqOtshStotCnt acqOtshTsumCnt acqPrpsCtt acqSchOnskCnt acqSchOtshCnt acqXpctEdDt acqXpctSttgDt audtCmbrAtndYn basDt brkBrkrNm bssActhHoldOnskCnt bssHoldOnskCnt bssOnskStotCnt bssOnskTsumCnt bssOppbBuynOnskCnt bssOppbBuynOtshCnt bssOtshAcqCnt bssOtshAcqStckCnt bssOtshCntTsumCnt bssOtshStotCnt crno dspOnskCnt dspOnskStotCnt dspOtshStotCnt dspOtshTsumCnt dvdnPftPftPrprAm dvdnPsblAmt dvdnPsblWtpftOnskCnt dvdnPsblWtpftOnskRto dvdnPsblWtpftOtshCnt dvdnPsblWtpftOtshRto eolyNtprAmt eoteOnskAcqStckCnt eoteOnskCnt eoteOnskHoldStckCnt eoteOnskPusaCnt eoteOnskStotCnt eoteOnskTsumCnt eoteOppbBuynOtshCnt eoteOtshAcqStckCnt eoteOtshStotCnt eoteOtshTsumCnt etcAcqOnskCnt etcAcqOnskRto etcAcqOtshCnt etcAcqOtshRto holdXpctEdDt holdXpctSttgDt icnrOnskCnt icnrOnskStotCnt icnrOtshStotCnt icnrOtshTsumCnt ivsRefCtt mainSbjcRptStotAmt midDvdnPftPrprAm mvavDspStckAcqOpr nrlztPftAmt onbdBssOnskAcqCnt onbdBssOtshAcqCnt onbdEoteOnskAcqCnt onbdEoteOtshAcqCnt onbdOnskAcqCnt onbdOnskDspCnt onbdOnskIcnrCnt onbdOtshAcqCnt onbdOtshDspCnt onbdOtshIcnrCnt onskAcqSchAmt onskAcqStckCnt onskAcqTsumCnt onskBuynOrdgLmtCnt onskDspStckCnt onskDspTsumCnt onskIcnrStckCnt onskIcnrTsumCnt oppbBuynOnskAcqCnt oppbBuynOnskDspCnt oppbBuynOnskIcnrCnt oppbBuynOtshAcqCnt oppbBuynOtshDspCnt oppbBuynOtshIcnrCnt otcBssOnskAcqCnt otcBssOtshAcqCnt otcEoteOnskAcqCnt otcEoteOtshAcqCnt otcOnskAcqCnt otcOnskDspCnt otcOnskIcnrCnt otcOtshAcqCnt otcOtshDspCnt otcOtshIcnrCnt otdrAbncNopeCnt otdrAtndNopeCnt otshAcqSchAmt otshAcqStckCnt otshBuynOrdgCntLmtCnt otshDspStckCnt otshIcnrStckCnt rbfEbzyrCptlAmt trsstcAcqAmt trsstcAcqLmtAmt trstCntrAmt trteOnskAcqStckCnt trteOnskDspStckCnt trteOnskIcnrStckCnt
GetFnCoDiscInfoService_V2/getFnCoTreaStocSellDiscInfo_V2: audtCmbrAtndYn basDt bfdsTrsstcHoldCtt1 bfdsTrsstcHoldCtt2 bfdsTrsstcHoldCtt3 bfdsTrsstcHoldCtt4 bfdsTrsstcHoldCtt5 bfdsTrsstcHoldCtt6 bfdsTrsstcHoldCtt7 bfdsTrsstcHoldCtt8 brkBrkrKrnFnm bssEtcAcqOnskCnt bssEtcAcqOtshCnt bssOnskStotCnt bssOnskTstcCnt bssOppbBuynOnskCnt bssOppbBuynOtshCnt bssOtshStotCnt bssOtshTstcCnt crno dspDecsDt dspPrpsCtt dspSchEdDt dspSchSttgDt dspStckCnt dspTrgtOnskPric dspTrgtOtshPric dspTrprCtt etcAcqOnskAcqChngCnt etcAcqOnskDspChngCnt etcAcqOnskIcnrChngCnt etcAcqOtshAcqChngCnt etcAcqOtshDspChngCnt etcAcqOtshIcnrChngCnt fncoCorpNm ivsRefCtt maxSthdRltNm onbdBssDrctAcqOnskCnt onbdBssDrctAcqOtshCnt onbdDrctAcqOnskAcqChngCnt onbdDrctAcqOnskDspChngCnt onbdDrctAcqOnskIcnrChngCnt onbdDrctAcqOtshAcqChngCnt onbdDrctAcqOtshDspChngCnt onbdDrctAcqOtshIcnrChngCnt onskDspSchAmt onskDspSchCnt onskOrdgLmtCnt onskTacqChngCnt onskTdspChngCnt onskTincChngCnt oppbBuynOnskAcqChngCnt oppbBuynOnskDspChngCnt oppbBuynOnskIcnrChngCnt oppbBuynOtshAcqChngCnt oppbBuynOtshDspChngCnt oppbBuynOtshIcnrChngCnt otcBssDrctAcqOnskCnt otcBssDrctAcqOtshCnt otcDrctAcqOnskAcqChngCnt otcDrctAcqOnskDspChngCnt otcDrctAcqOnskIcnrChngCnt otcDrctAcqOtshAcqChngCnt otcDrctAcqOtshDspChngCnt otcDrctAcqOtshIcnrChngCnt otdrAbncNopeCnt otdrAtndNopeCnt otshDspSchAmt otshDspSchCnt otshOrdgLmtCnt otshTacqChngCnt otshTdspChngCnt otshTincChngCnt selWhccCtt stotOnskAcqChngCnt stotOnskDspChngCnt stotOnskIcnrChngCnt stotOtshAcqChngCnt stotOtshDspChngCnt stotOtshIcnrChngCnt trsstcDspCtt1 trsstcDspCtt2 trsstcDspCtt3 trsstcDspCtt4 trsstcDspDecsRmkCtt
GetFutuCompInfoService/getFutuCompFinaInfo: title astSmryStfnpsAcitAmt astSmryStfnpsAcitCd astSmryStfnpsAcitCdNm astSmryStfnpsAcitCmpsRto basYm crno fncoCd fncoNm
GetFutuCompInfoService/getFutuCompGeneInfo: basYm crno fncoCd fncoNm xcsmPresCnt xcsmPresDcd xcsmPresDcdNm
GetFutuCompInfoService/getFutuCompKeyManaIndi: title basYm cpaqBzopNcptRatCtt cpaqDcd cpaqDcdNm crno fncoCd fncoNm
GetFutuCompInfoService/getFutuCompMajoBusiActi: title basYm crno finIvsPrdCsgnCfeItemCd finIvsPrdCsgnCfeItemCdNm finIvsPrdCsgnCfeItemCfeAmt finIvsPrdCsgnCfeItemTrAmt fncoCd fncoNm
GetFutuCompInfoService/getFutuCompPresReleStat: title basYm cpaqNcptItemClsfVal cpaqNcptItemDcd cpaqNcptItemDcdNm crno fncoCd fncoNm
GetDeriBusiInfoService/getDeriBusiTrusBusi: title basYm crno drvpTrClsfAmt drvpTrDcd drvpTrDcdNm fncoCd fncoNm
GetDeriBusiInfoService/getDeriBusiTrusExclTota: basYm bnkOnbdDrvpTrAmt crno etcOnbdDrvpTrAmt fncoCd fncoNm isuOnbdDrvpTrAmt onbdDrvpTrDcd onbdDrvpTrDcdNm scrtOnbdDrvpTrAmt
GetTrusBusiInfoService/getTrusBusiBank: basYm crno fncoCd fncoNm nopeCnt nopeDcd nopeDcdNm
GetTrusBusiInfoService/getTrusBusiInsu: title basYm crno fncoCd fncoNm nopeCnt nopeDcd nopeDcdNm
GetTrusBusiInfoService/getTrusBusiRealEstaTrus: title basYm crno fncoCd fncoNm nopeCnt nopeDcd nopeDcdNm
GetTrusBusiInfoService/getTrusBusiSecu: title basYm crno fncoCd fncoNm nopeCnt nopeDcd nopeDcdNm
GetTrusBusiInfoService/getTrusBusiTrusFee: title basYm crno fncoCd fncoNm trstRmrAmt trstRmrDcd trstRmrDcdNm
GetTrusBusiInfoService/getTrusBusiTrusInfo: title basYm cnfmUnitNm crno fncoBzdsClsfNm fncoBzdsFncoNm fncoBzdsNm fncoCd
GetLifeInsuCompInfoService/getLifeInsuCompMajoBusiActi: title basYm crno fncoCd fncoNm spacsbClsfThqrAmt spacsbClsfThqrCcnt spacsbDcd spacsbDcdNm
GetCorpGoveInfoService/getExecRemuStat: basDt crno rgstDrtrCnt rgstDrtrTrmrAmt rgstDrtrAvgRmrAmt rgstDrtrRmkCtt otdrCnt otdrTrmrAmt otdrAvgRmrAmt otdrRmkCtt corpAudtNopeCnt audpnTrmrAmt audpnAvgRmrAmt audtRmkCtt
"""
FSC.update({f"service/{line.split(':')[0].strip()}": (FSC_CAT, ", ".join(line.split(":", 1)[1].split()))
            for line in _FSC_CAT_TEXT.strip().splitlines()})

# --- KECO (B552584, AirKorea's agency) ------------------------------------------------------

KECO: dict[str, tuple[str, str]] = {
    "pbnstFstChrgrChgcpcyInfo/getYrMnChgcpcyInfo": (
        "search-index file 60933095338 (a public Jeju data module's aggregator of this operation's rows: the item keys "
        "it reads; the index names no repository; names only)",
        "chgstnId, sggNm, chrgrFrm, chrgrCpct, rlvtYr"),
    "kecoapi/ncissbstn/chemSbstnList": (
        "search-index file 31412812614 (a Python client of kecoapi/ncissbstn/chemSbstnList: the flat item keys it "
        "reads; the index names no repository; names only)",
        "casNo, korexst, sbstnNmKor, sbstnNmEng, sbstnNm2Kor, mlcfrm, mlcwgt"),
}

# --- MOLIT (1613000): K-apt's 단지 목록 (AptListService3) -------------------------------------

_APTLIST = "kaptCode::단지코드, kaptName::단지명, as1::시도, as2::시군구, as3::읍면동, as4::리, bjdCode::법정동코드"
KISCON_DOC = ("search-index file 62335597911 (a public design document syncing KISCON's ConAdminInfoSvc1 GongsiReg "
              "and GongsiAdmi into tables: its table schemas' API field column, labels from their 설명 column, "
              "ncrMasterNum an integer as it says the answer gives it; the index names no repository; names, labels and "
              "that type only)")
KISCON_MCP = ("search-index file 62006514252 (public-data-portal-mcp lib/kiscon_client.js, an MCP server's client of "
              "ConStatInfoSvc: the record keys it reads from StatCnt and StatAmt; the index names no repository; "
              "names only)")
#: the two tables share these columns; the firm's name, representative and address differ by operation
_KISCON_COMMON = ("ncrGsSeq::공시일련번호, ncrMasterNum:integer:사업자등록번호, {name}::업체명, {master}::대표자, "
                  "ncrItemName::{item}, ncrItemregno::업종등록번호, {addr}::소재지, ncrAreaName::시도, "
                  "ncrAreaDetailName::시군구, ncrGsDate, ncrGsRegdate, ncrGsFlag::공시구분, ncrOffTel::전화번호")
_KAPT_BID = ("bidNum, aptCode, bidKaptname, bidTitle, bidContent, bidReason, bidRegdate, bidDeadline, amount, bidState, "
             "bidFileSeq, codeKind, codeClassifyType1, codeClassifyType2, codeClassifyType3")
KAPT_MNT = ("search-index file 60646175269 (a Bun script collecting the six operations of K-apt's 유지관리이력 service "
            "ApHusMntMngHistInfoOfferServiceV2: the record keys it reads, the comments of the fields it maps them to "
            "as labels; the index names no repository; names and labels only)")
_MNT = ("parentParentName::대분류, parentName::공사종별, subject::수선방법, mnthEtime::공사완료일, costType::비용 유형, "
        "useYear::경과기간(년), remainingYear::잔여기간(년)")
MOLIT: dict[str, tuple[str, str]] = {
    **{f"AptListService3/{op}": (
        "search-index file 62687481499 (a TypeScript client of AptListService3/getSidoAptList3 and "
        "getLegaldongAptList3: the record keys it reads; the index names no repository; names only)",
        "kaptCode, kaptName, bjdCode, as1, as2, as3, as4") for op in ("getSidoAptList3", "getLegaldongAptList3")},
    "AptListService3/getTotalAptList3": (
        "search-index file 53396878272 (a Node script building a code map from AptListService3/getTotalAptList3: the "
        "record keys it reads; the index names no repository); labels from search-index file 55916237243 (a public "
        "planning document's table of AptListService3's response fields)", _APTLIST),
    "AptListService3/getRoadnameAptList3": (
        "search-index files 29444820463 (a Java client of AptListService3/getRoadnameAptList3: the record keys it "
        "reads) and 54752028462 (a sync script whose comment gives this operation's answer format: the item's "
        "elements); the index names no repository; labels from search-index file 55916237243 (a public planning "
        "document's table of AptListService3's response fields)", _APTLIST + ", doroJuso"),
    "LuLawInfoService/DTluLawInfo": (
        "search-index file 53234613271 (a public markdown summary of land APIs: this operation's 출력결과 table, "
        "with a quoted real answer whose items hold the same five elements; the index names no repository; names and "
        "labels only)",
        "UCODE::지역지구코드, UNAME::지역지구명, LAW_CONTENTS::법령 내용, LAW_LEVEL::법령 내용 표기 순서, "
        "LAW_FULL_CD::법령 내용 코드"),
    "btiData/getTunlList": (
        "search-index file 45622197680 (a Java client of btiData/getTunlList: the start and end coordinates it reads "
        "from each item; the index names no repository; names only)",
        "sLatitude, sLongitude, eLatitude, eLongitude"),
    # 키스콘 건설업체정보 (ConAdminInfoSvc1) and 건설공사대장 통보 통계 (ConStatInfoSvc)
    "ConAdminInfoSvc1/GongsiReg": (KISCON_DOC, _KISCON_COMMON.format(
        name="ncrGsKname", master="ncrGsMaster", addr="ncrGsAddr", item="등록업종")),
    "ConAdminInfoSvc1/GongsiAdmi": (KISCON_DOC, _KISCON_COMMON.format(
        name="ncrAdmiKname", master="ncrAdmiMaster", addr="ncrAdmiAddr", item="처분업종") + ", "
        "ncrAdmiDename::행정처분명, ecodeAdmiCon::위반내용, ncrAdmiReason::위반내용(상세), ecodeAdmiGround::처분근거, "
        "ncrAdmiFine::과징금, ncrAdmiPenalty::과태료, ncrAdmiStopSdate::영업정지시작일, ncrAdmiStopEdate::영업정지종료일, "
        "ncrAdmiCanceldate::등록말소일, ncrAdmiCorrect::시정내용, ncrPdStatus::가처분 존재여부"),
    "ConStatInfoSvc/StatCnt": (KISCON_MCP, "notiDate, areaCode, areaName, baljuCode, baljuGubun, dogubCode, dogubGubun, cnt"),
    "ConStatInfoSvc/StatAmt": (KISCON_MCP, "notiDate, areaCode, baljuCode, dogubCode, amt"),
    # 유지관리이력 (ApHusMntMngHistInfoOfferServiceV2): the six operations' record keys
    **{f"ApHusMntMngHistInfoOfferServiceV2/{op}": (KAPT_MNT, _MNT) for op in (
        "getBuldInnerMntncHistInfoSearchV2", "getElctyExtgElvtrMntncHistInfoSearchV2",
        "getWspSnitatGasMntncHistInfoSearchV2", "getHeatHotWtrEqpMntncHistInfoSearchV2",
        "getOutHousSbrsMntncHistInfoSearchV2")},
    # 입찰결과공지 by 단지명 and by 공고일: the record keys versions of one public worker read
    "ApHusBidResultNoticeInfoOfferServiceV2/getHsmpNmSearchV2": (
        "search-index files 51919147587, 51785760247 and 51922658521 (versions of a public Cloudflare worker checking "
        "K-apt bid results: the record keys it maps from this operation's answer; the index names no repository; "
        "names only)", _KAPT_BID),
    "ApHusBidResultNoticeInfoOfferServiceV2/getPblAncDeSearchV2": (
        "search-index file 51922658521 (a public Cloudflare worker collecting K-apt bid results by 공고일: the record "
        "keys it maps from this operation's answer; the index names no repository; names only)", _KAPT_BID),
    "ApHusMntMngHistInfoOfferServiceV2/getBuldExtrlMntncHistInfoSearchV2": (
        KAPT_MNT + "; and search-index file 55348689852 (a TypeScript K-apt client: the raw keys of this operation's "
        "answer its comment lists as found by a diagnosis, labels from its comments; names and labels only)",
        _MNT + ", year, useDate"),
}

# --- MOIS (1741000): 행정안전통계연보 services some clients model ----------------------------

MOIS: dict[str, tuple[str, str]] = {
    "AirRaidShelterRegion/getAirRaidShelterRegionList": (
        "search-index files 48071122138 (an ERD of a public app caching this service's rows: its api_shelters "
        "columns) and 28665653382 (a Streamlit dashboard of it: the numeric columns it converts); the index names no "
        "repository; names only",
        "bas_yy, regi, target_popl, accpt_rt, shelt_abl_popl_smry, shelt_abl_popl_gov_shelts, "
        "shelt_abl_popl_pub_shelts, gov_shelts_shelts, gov_shelts_area, pub_shelts_shelts, pub_shelts_area"),
    "StanOrgCd2/getStanOrgCdList2": (
        "search-index file 68627327999 (a Python connector of 행정표준코드 기관코드 (StanOrgCd2): the row keys it "
        "reads into its typed record; the index names no repository; names only)",
        "org_cd, full_nm, low_nm, stop_selt, abbr_nm, gap_no, rank_no, sub_chasu, high_cd, highst_cd, rep_cd, "
        "typebig_nm, typemid_nm, typesml_nm, locatstd_cd, use_cd, crt_de, cls_de, chg_de, base_date, adpt_date, "
        "preorg_cd"),
    "DaysHeatWavesMajorCitiesYear/getDaysHeatWavesMajorCitiesYearList": (
        "search-index file 26776525896 (a Python client of this service: the row elements it reads, labels from the "
        "CSV column names it gives them; the index names no repository; names and labels only)",
        "bas_yy::기준년도, lseoul::서울, lgangneung::강릉, ldaejeon::대전, ldaegu::대구, lgwangju::광주, lbusan::부산, "
        "anat_dd_avg::전국일평균"),
    "RegionalSafetyGrade/getRegionalSafetyGradeList": (
        "search-index file 66997903108 (a public chat bot reading this service's rows: the keys it reads; the index "
        "names no repository; names only)",
        "bas_yy, regi, suicid"),
    "ElevatorSafetyAccidentsByYear/getElevatorSafetyAccidentsByYear": (
        "search-index file 60258989340 (a public app's server summarising this service's latest row: the keys it "
        "reads, labels from the message it builds; the index names no repository; names and labels only)",
        "wrttimeid::연도, safe_acci_smry::전체 사고, safe_acci_only_passenger::승객용 엘리베이터, "
        "safe_acci_only_freight::화물용 엘리베이터, safe_acci_escalator::에스컬레이터, expcas_death::사망, "
        "expcas_serious_injury::중상"),
    "HeatWaveCasualtiesRegion/getHeatWaveCasualtiesRegionList": (
        "search-index file 14409358536 (a Java client's Row class for this service's rows, all String; the index "
        "names no repository; names only)",
        "bas_yy, regi, tot, otdoor_subtot, indoor_subtot"),
}

# --- KMA (1360000): the guide pages' 출력결과 tables -----------------------------------------

KMA_WRN_GUIDE = ("search-index file 65864593849 (a markdown conversion of KMA's 기상특보 조회서비스 (WthrWrnInfoService) "
                 "OpenAPI 활용가이드: its 응답 메시지 명세 tables per operation; the index names no repository; names and "
                 "labels only)")
_WRN_LIST = "title::제목, stnId::지점코드, tmSeq::발표번호(월별), tmFc::발표시각(년월일시분)"
_STN_LIST = "stn_id::지역코드, stn_ko::지역명(국문), stn_en::지역명(영문), lat::북위, lon::동경, ht::해발고도"
KMA_AVIATION = ("search-index file 69619107017 (a public weather page's source module: the row keys its normalizers "
                "read from KMA's aviation operations; the index names no repository; names only)")
KMA: dict[str, tuple[str, str]] = {
    # 항공기상: the keys a public weather page's normalizers read from these operations' rows
    "AirInfoService/getAirInfo": (
        KMA_AVIATION + "; and search-index file 7778708386 (a Python client of the same operation: the keys it "
        "returns)", "icaoCode, tmFc, ta, wd, ws, qnh"),
    "AirPortService/getAirPort": (KMA_AVIATION, "title, summary, outlook, forecast, warn"),
    # 작물별 농업주산지 상세날씨: clients' record keys
    "FmlandWthrInfoService/getDayStatistics": (
        "search-index file 15301200379 (a Python client of FmlandWthrInfoService/getDayStatistics: the column names it "
        "gives an answer item's values, labels from its docstring; the index names no repository; names and labels "
        "only)",
        "areaId, areaName, dayAvgRhm::평균 상대습도, dayAvgTa::평균 기온, dayAvgWs::평균 풍속, dayMaxTa::최고 기온, "
        "dayMinRhm::최저 상대습도, dayMinTa::최저 기온, daySumRn::일강수량, daySumSs::누적일조시간, paCropName, "
        "paCropSpeId, paCropSpeName, wrnCd, wrnCount, ymd::날짜"),
    "FmlandWthrInfoService/getMmStatistics": (
        "search-index files 65718822375 (a Java service reading FmlandWthrInfoService/getMmStatistics: the record "
        "keys it averages) and 31371469381 (a Python client of the same operation: the keys it reads); the index "
        "names no repository; names only",
        "mnhAvgTa, mnhMaxTa, mnhMinTa, mnhAvgRhm, mnhAvgWs, mnhSumRn, mnhSumSs, paCropName, areaName"),
    "AwsYearlyInfoService/getAwsStnLstTbl": (KMA_GUIDE, _STN_LIST),
    "AwsMtlyInfoService/getAwsStnLstTbl": (KMA_GUIDE, _STN_LIST),
    "AwsYearlyInfoService/getYearSumry": (
        KMA_GUIDE, "stn_id::지점번호, stn_ko::지점명(국문), taDay::기온 평균, taMaxAvg::최저 기온의 평균, "
                   "taMaxDay::연최고기온 나타난날, taMax::연최고기온, taMinAvg::연최저기온 평균, taMin::기온-최저, "
                   "taMinDay::연최저기온 나타난 날, wsDay::연평균풍속, wsInsMax::연최대순간풍속, "
                   "wdInsMax::연최대순간풍속 풍향, wsInsMaxTm::연최대순간풍속 나타난, rnDay::연 총 강수량, "
                   "rn1hrMax::연 시간 최다 강수량"),
    "AwsYearlyInfoService/getStnbyMmSumry": (
        KMA_GUIDE, "stn_id::관측 지점 번호, stn_ko::관측 지점명(국문), stn_en::관측 지점명(영문), str::항목이름"),
    "VilageFcstMsgService/getLandFcst": (
        "github:minsu591/JavaClass@6d0d09c9ad9e openapi/src/main/java/com/yedam/forecast/service/ForecastService.java "
        "and service/vo/WeatherInfo.java (the keys it reads from getLandFcst's JSON items, their JSON types as it casts "
        "them, its comments' labels; names, types and labels only)",
        "announceTime:integer:발표시간, numEf:integer:발표번호, regId::예보구역코드, rnSt:integer:강수확률, "
        "rnYn:integer:강수형태, ta::예상기온, wf::날씨, wfCd::하늘상태, wsIt::풍속 강도코드"),
    "TyphoonInfoService/getTyphoonInfo": (
        "search-index file 1604100692 (a Python client of TyphoonInfoService/getTyphoonInfo: the keys it reads from the "
        "JSON items and its comments' labels; the index names no repository; names and labels only)",
        "tmFc::통보문 발표 시각, typSeq::태풍번호, tmSeq::통보문 발표 호수, typTm::태풍시각, typLat, typLon, typLoc, "
        "typDir, typSp, typPs, typWs, typ15, typ25, typName, typEn"),
    "EqkInfoService/getEqkMsg": (
        "search-index file 5915275859 (a web page script that embeds a getEqkMsg JSON answer: its item's keys and JSON "
        "types; the index names no repository; names and types only)",
        "cnt:integer, fcTp:integer, img, inT, lat:number, loc, lon:number, mt:number, rem, stnId:integer, "
        "tmEqk:integer, tmFc:integer, tmSeq:integer, dep:integer"),
    "WthrWrnInfoService/getPwnStatus": (
        "github:steamb23/openclaw-skill-monorepo kma-weather/references/api-warnings.md (its Response Fields table for "
        "getPwnStatus, as the search corpus holds it; names only)",
        "tmFc, tmEf, tmSeq, t6, t7, other"),
    "VilageFcstMsgService/getSeaFcst": (
        "search-index file 52532315683 (a TypeScript client of VilageFcstMsgService/getSeaFcst: the keys of its item "
        "type SeaFcstItem; the index names no repository; names only)",
        "tmFc, numEf, wh1, wh2"),
    "VilageFcstMsgService/getWthrSituation": (
        "search-index files 60361433331 and 4784615425 (two clients of VilageFcstMsgService/getWthrSituation: the item "
        "keys they read, tmFc, wn, wr and wfSv1; the index names no repository; names only)",
        "tmFc, wfSv1, wn, wr"),
    "TyphoonInfoService/getTyphoonFcst": (
        "search-index file 45352742855 (a Java client of TyphoonInfoService/getTyphoonFcst: the item keys it reads; "
        "the index names no repository; names only)",
        "tm, lat, lon, radPr, ws, ps, fcLocKo, rad15, dir, sp, tmFc, seq"),
    "MidFcstInfoService/getMidSeaFcst": (
        "search-index file 11960286886 (a Node.js client's key list for the mid-term sea forecast items of "
        "MidFcstInfoService/getMidSeaFcst; the index names no repository; names only)",
        "regId, wf3Am, wf3Pm, wf4Am, wf4Pm, wf5Am, wf5Pm, wf6Am, wf6Pm, wf7Am, wf7Pm, wf8, wf9, wf10, wh3AAm, wh3APm, wh3BAm, wh3BPm, wh4AAm, wh4APm, wh4BAm, wh4BPm, wh5AAm, wh5APm, wh5BAm, wh5BPm, wh6AAm, wh6APm, wh6BAm, wh6BPm, wh7AAm, wh7APm, wh7BAm, wh7BPm, wh8A, wh8B, wh9A, wh9B, wh10A, wh10B"),
    **{f"WthrWrnInfoService/{op}": (KMA_WRN_GUIDE, spec) for op, spec in {
        "getWthrWrnMsg": "stnId::지점코드, tmFc::발표시각, tmSeq::발표번호(월별), warFc::특보발표코드, t1::제목, "
                         "t2::해당구역, t3::발효시각, t4::내용, t5::특보발효현황시각, t6::특보발효현황내용, t7::예비특보, "
                         "other::참고사항",
        "getWthrInfoList": _WRN_LIST,
        "getWthrInfo": "stnId::지점코드, tmFc::발표시각, tmSeq::발표번호(월별), t1::기상정보",
        "getWthrBrkNewsList": _WRN_LIST,
        "getWthrBrkNews": "stnId::지점코드, tmFc::발표시간, tmSeq::발표번호, cnt::참조번호, ann::내용",
        "getWthrPwnList": _WRN_LIST,
        "getWthrPwn": "stnId::지점코드, tmFc::발표시간(년월일시분), tmSeq::발표번호, pwn::예비특보현황, rem::참고사항",
    }.items()},
    # AwsMtlyInfoService/getDailyAwsData: its table's other names (info-tm, info-ta_day, …) are no
    # identifiers the generator serves; with three left it would read as small by its spec: left out
}


#: Where a source gives a field no label: the label the agency's other operations give the same
#: name in data-go-kr-client 4.16.0's method docs (``facts/datagokr_client``), said in the source.
FALLBACK = "; labels it does not give: the agency's label for the same name in data-go-kr-client 4.16.0"


def _agency_labels() -> dict[str, dict[str, str]]:
    """Agency code → field name → its most frequent Korean label in ``facts/datagokr_client``."""
    from collections import Counter

    counts: dict[str, dict[str, Counter[str]]] = {}
    for op in read_facts("datagokr_client")["operations"]:
        agency = op["url"].split("/")[3]
        for name, _ftype, label in op["fields"]:
            if label:
                counts.setdefault(agency, {}).setdefault(name, Counter())[label] += 1
    return {a: {n: c.most_common(1)[0][0] for n, c in names.items()} for a, names in counts.items()}


def _labelled(op: dict[str, object], labels: dict[str, dict[str, str]]) -> dict[str, object]:
    known = labels.get(str(op["url"]).split("/")[3], {})
    rows = op["fields"]
    filled = False
    for row in rows:  # type: ignore[attr-defined]
        if not row[2] and row[0] in known:
            row[2] = known[row[0]]
            filled = True
    if filled:
        op["source"] = str(op["source"]) + FALLBACK
    return op


UMMAYA = "github:umyunsang/UMMAYA"
_GUIDE_DIR = "docs/api/data-go-kr-candidate-docs"
_URL_RE = re.compile(r"Call Back URL\s+(https?://apis\.data\.go\.kr/\S+)")
_HEAD = "항목명(영문)"
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True, capture_output=True).stdout.decode(
        "utf-8", "replace")


def guide_tables(text: str) -> dict[str, list[Row]]:
    """Operation URL → the response rows ``[name, "string", label]`` of a guide's text: after
    each "Call Back URL" the first table whose header is ``항목명(영문)`` is the request, the
    second the response; rows run while their first cell is an identifier."""
    out: dict[str, list[Row]] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _URL_RE.search(line)
        if m is None:
            continue
        url = m.group(1).split("?")[0].replace("http://", "https://").rstrip("/")
        heads = 0
        j = i + 1
        while j < len(lines) and heads < 2 and not _URL_RE.search(lines[j]):
            heads += lines[j].startswith(_HEAD)
            j += 1
        if heads < 2:
            continue
        rows: list[Row] = []
        while j < len(lines):
            cells = [c.strip() for c in lines[j].split("    ")]
            if len(cells) < 3 or not _NAME_RE.fullmatch(cells[0]):
                break
            rows.append([cells[0], "string", cells[1].replace(" / ", " ").strip()])
            j += 1
        if rows and url not in out:
            out[url] = rows
    return out


def ummaya_guides(repo: Path, wanted: set[str]) -> list[dict[str, object]]:
    """The response rows of the operations ``wanted`` (URLs) that a guide text in the mirror has."""
    commit = _git(repo, "rev-parse", "HEAD").strip()
    paths = [p for p in _git(repo, "ls-tree", "-r", "--name-only", "-z", "HEAD", "--", _GUIDE_DIR).split("\0")
             if p.endswith(".txt")]
    ops: dict[str, dict[str, object]] = {}
    for path in sorted(paths):
        for url, rows in guide_tables(_git(repo, "show", f"HEAD:{path}")).items():
            if url in wanted and url not in ops:
                ops[url] = {"url": url, "fields": rows,
                            "source": f"{UMMAYA}@{commit[:12]}:{path} (the portal's technical guide as text, "
                                      "its response message table; Apache-2.0 mirror; names and labels only)"}
    return list(ops.values())


def operations(ummaya: Path | None = None, wanted: set[str] = frozenset()) -> list[dict[str, object]]:  # type: ignore[assignment]
    labels = _agency_labels()
    ops: list[dict[str, object]] = ummaya_guides(ummaya, wanted) if ummaya is not None else []
    have = {str(op["url"]) for op in ops}
    hand = [(f"{DG}/9760000/{path}", NEC_DOC, spec) for path, spec in NEC.items()]
    hand += [(f"{DG}/1160100/{path}", src, spec) for path, (src, spec) in FSC.items()]
    hand += [(f"{DG}/1360000/{path}", src, spec) for path, (src, spec) in KMA.items()]
    hand += [(f"{DG}/1613000/{path}", src, spec) for path, (src, spec) in MOLIT.items()]
    hand += [(f"{DG}/B552584/{path}", src, spec) for path, (src, spec) in KECO.items()]
    hand += [(f"{DG}/1741000/{path}", src, spec) for path, (src, spec) in MOIS.items()]
    ops += [{"url": url, "source": src, "fields": field_rows(spec)} for url, src, spec in hand if url not in have]
    return sorted((_labelled(op, labels) for op in ops), key=lambda o: str(o["url"]))


def _thin_urls() -> set[str]:
    """The URLs of the generated data.go.kr endpoints that serve <= 3 fields without these facts."""
    from unittest import mock

    from simulator.catalog.generate import build

    read = build.read_facts
    with mock.patch.object(build, "read_facts", lambda n: {"operations": []} if n == "fields_edition8" else read(n)):
        plats = build.build_platforms()[0]
    out = set()
    for plat in plats:
        if plat.get("host") != "apis.data.go.kr":
            continue
        for ep in plat["endpoints"]:
            opts = ep.get("options") or {}
            gone = set(opts.get("retired_fields") or ()) | set(opts.get("dropped_fields") or {})
            if len([f for f in ep["fields"] if f["name"] not in gone]) <= 3:
                out.add(DG + ep["path"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ummaya", type=Path, required=True, help="git dir of a umyunsang/UMMAYA mirror")
    args = ap.parse_args(argv)
    ops = operations(args.ummaya, _thin_urls())
    path = write_facts("fields_edition8", {"source": "published response-field lists served from world edition 8 "
                                                     "(each operation names its source)", "operations": ops})
    print(f"{path}: {len(ops)} operations, {sum(len(o['fields']) for o in ops)} fields")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
