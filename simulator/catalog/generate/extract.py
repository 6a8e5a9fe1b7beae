"""Read published facts out of third-party sources, without importing their code.

Each ``extract_*`` function reads one source (a PyPI wheel through ``zipfile`` and ``ast``,
or a git mirror through ``git show``) and returns **facts only**: URLs, operation names,
parameter names, types and required flags, official Korean labels of parameters and fields.
No sentence, code or layout of the source is kept. The result is written to
``simulator/catalog/generated/facts/<source>.json`` by :func:`write_facts`; the generator
(:mod:`.build`) reads only those files, so it re-runs offline.

Sources and what they may be used for: ``shared/reference/catalog_sources.md``.
"""

from __future__ import annotations

import ast
import gzip
import io
import json
import re
import subprocess
import zipfile
from pathlib import Path
from typing import Any

__all__ = [
    "FACTS_DIR",
    "extract_all",
    "extract_assembly",
    "extract_datagokr_client",
    "extract_datagokr_mcp",
    "extract_field_lists",
    "extract_kpubdata",
    "extract_measured_stats",
    "extract_lawgokr_fields",
    "extract_lawgokr_layout",
    "extract_neispy",
    "extract_opendart",
    "field_rows",
    "read_assembly_codes",
    "read_facts",
    "write_facts",
]

try:  # a core dependency (three times faster on the 10,000-operation facts); json otherwise
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    _loads = json.loads

FACTS_DIR = Path(__file__).resolve().parent.parent / "generated" / "facts"

_PY_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
_ARG_RE = re.compile(r"^\s*(\w+) \((\w+)(?:, optional)?\): (.*)$")
_FIELD_RE = re.compile(r"^\s*(\S+) \((\w+)\): (.*)$")


def _label(text: str) -> str:
    """A short label: the text before any sentence punctuation, trimmed to 40 characters."""
    text = re.split(r"\s[—-]\s|[.。]\s|\n", text.strip(), maxsplit=1)[0].strip()
    return text[:40]


# ---- data-go-kr-client (PyPI wheel, no licence declared: facts only) -------------------
def extract_datagokr_client(wheel: Path) -> dict[str, Any]:
    """Every operation of ``data_go_kr_client/http/client.py`` as facts.

    Per operation: the full URL, the operation's Korean label (its docstring's name part
    only), request parameters ``[wire name, type, required, Korean label]`` and the response
    fields the client documents ``[name, type, Korean label]`` (the client lists at most 8).
    """
    with zipfile.ZipFile(wheel) as zf:
        src = zf.read("data_go_kr_client/http/client.py").decode("utf-8")
    tree = ast.parse(src)
    consts = {
        n.targets[0].id: n.value.value
        for n in tree.body
        if isinstance(n, ast.Assign)
        and isinstance(n.targets[0], ast.Name)
        and isinstance(n.value, ast.Constant)
        and isinstance(n.value.value, str)
    }
    ops: list[dict[str, Any]] = []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and not fn.name.startswith("_"):
                op = _datagokr_op(fn, consts)
                if op is not None:
                    ops.append(op)
    ops = [o for o in ops if o["url"].startswith("https://apis.data.go.kr/")]
    ops.sort(key=lambda o: o["url"])
    return {"source": f"pypi:data-go-kr-client=={_wheel_version(wheel)}", "operations": ops}


def _wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def _datagokr_op(fn: ast.FunctionDef, consts: dict[str, str]) -> dict[str, Any] | None:
    ret = fn.body[-1]
    if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Call) and ret.value.args):
        return None
    call = ret.value
    url_node = call.args[0]
    if not isinstance(url_node, ast.Name) or url_node.id not in consts:
        return None
    payload = call.args[1] if len(call.args) > 1 else None
    if isinstance(payload, ast.Call) and payload.args:
        payload = payload.args[0]
    wire: dict[str, str] = {}
    if isinstance(payload, ast.Dict):
        for k, v in zip(payload.keys, payload.values):
            if isinstance(k, ast.Constant) and isinstance(v, ast.Name):
                wire[v.id] = str(k.value)
    doc = ast.get_docstring(fn) or ""
    labels: dict[str, str] = {}
    fields: list[list[Any]] = []
    section = ""
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith("Args:"):
            section = "args"
            continue
        if stripped.startswith("Returns:"):
            section = "returns"
            continue
        if section == "args" and (m := _ARG_RE.match(line)):
            labels[m.group(1)] = _label(m.group(3))
        elif section == "returns" and (m := _FIELD_RE.match(line)):
            fields.append([m.group(1), _json_type(m.group(2)), _label(m.group(3))])
    args = fn.args.args[1:]
    defaults: list[ast.expr | None] = [None] * (len(args) - len(fn.args.defaults))
    defaults += list(fn.args.defaults)
    params: list[list[Any]] = []
    for arg, default in zip(args, defaults):
        name = wire.get(arg.arg)
        if name is None:
            continue
        ann = ast.unparse(arg.annotation) if arg.annotation is not None else "str"
        base = ann.split("|")[0].strip()
        required = default is None and "None" not in ann
        label = "" if name in ("pageNo", "numOfRows") else labels.get(arg.arg, "")
        params.append([name, _PY_TYPES.get(base, "string"), required, label])
    first = doc.strip().splitlines()[0] if doc.strip() else ""
    return {
        "url": consts[url_node.id],
        "label": _label(first.split(" — ")[0]),
        "params": params,
        "fields": fields,
    }


def _json_type(t: str) -> str:
    t = t.lower()
    if t in ("integer", "int", "long"):
        return "integer"
    if t in ("number", "float", "double"):
        return "number"
    return "string"


# ---- OpenDART (chrisryugj/korean-dart-mcp KNOWN_OPS, ChangooLee/mcp-opendart; MIT) ------
def _git_show(repo: Path, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8")


def _git_head(repo: Path) -> str:
    out = subprocess.run(
        ["git", "--git-dir", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True
    )
    return out.stdout.decode().strip()


def extract_opendart(ops_repo: Path, spec_repo: Path) -> dict[str, Any]:
    """OpenDART's operations (names, groups), guide ids, request params and response fields.

    ``ops_repo``: a git mirror of chrisryugj/korean-dart-mcp (the 85 operation names by
    group, ``src/tools/dart-raw.ts``); ``spec_repo``: of ChangooLee/mcp-opendart (guide page
    per operation and request param names in ``apis/ds00*.py``; response field names with
    their Korean names in ``parsed_response_structures.json``).
    """
    ts = _git_show(ops_repo, "src/tools/dart-raw.ts")
    body = ts[ts.index("KNOWN_OPS") :]
    body = body[: body.index("]);")]
    ops: dict[str, dict[str, Any]] = {}
    group = ""
    for line in body.splitlines():
        if m := re.search(r"//\s*(DS\d{3})\s*(\S.*?)\s*\(\d+\)", line):
            group = m.group(1)
            continue
        for name in re.findall(r'"([A-Za-z0-9]+)"', line):
            ops[name] = {"op": name, "group": group, "label": "", "guide": "", "params": [], "fields": []}
    guide_of: dict[str, str] = {}
    for n in range(1, 7):
        src = _git_show(spec_repo, f"src/mcp_opendart/apis/ds00{n}.py")
        for fn in ast.walk(ast.parse(src)):
            if not isinstance(fn, ast.FunctionDef):
                continue
            doc = ast.get_docstring(fn) or ""
            m = re.search(r"apiGrpCd=(DS\d{3})&apiId=(\d+)", doc)
            endpoint = None
            params: list[str] = []
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    tgt = node.targets[0].id
                    if tgt == "endpoint" and isinstance(node.value, ast.Constant):
                        endpoint = str(node.value.value)
                    if tgt == "params" and isinstance(node.value, ast.Dict):
                        params = [str(k.value) for k in node.value.keys if isinstance(k, ast.Constant)]
                elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                      and node.func.attr == "get" and node.args
                      and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                      and re.fullmatch(r"\w+\.(json|xml)", node.args[0].value)):
                    # the operation named inline: ``self.client.get("fnlttSinglAcntAll.json", params={…})``
                    endpoint = node.args[0].value
                    for kw in node.keywords:
                        if kw.arg == "params" and isinstance(kw.value, ast.Dict):
                            params = [str(k.value) for k in kw.value.keys if isinstance(k, ast.Constant)]
            if endpoint is None or m is None:
                continue
            name = endpoint.rsplit(".", 1)[0]
            if name not in ops:
                continue
            ops[name]["label"] = _label(doc.strip().splitlines()[0])
            ops[name]["guide"] = f"{m.group(1)}/{m.group(2)}"
            ops[name]["params"] = params
            ops[name]["binary"] = endpoint.endswith(".xml")
            guide_of[f"apiGrpCd={m.group(1)}&apiId={m.group(2)}"] = name
    specs = json.loads(_git_show(spec_repo, "src/mcp_opendart/utils/data/parsed_response_structures.json"))
    for url, spec in specs.items():
        key = url.split("?", 1)[1] if "?" in url else url
        name = guide_of.get(key)
        if name is None:
            continue
        result = (spec.get("fields") or {}).get("result") or {}
        lst = result.get("list")
        # A guide page whose rows sit beside an empty ``list`` (fnlttSinglIndx) lists them at the top.
        table = lst if isinstance(lst, dict) and lst else {
            k: v for k, v in result.items() if k not in ("name", "description", "status", "message", "group", "list")
            and isinstance(v, dict)
        }
        ops[name]["fields"] = [[k, str((v or {}).get("name", ""))[:40]] for k, v in table.items() if isinstance(v, dict)]
        ops[name]["paged"] = "page_no" in result
    return {
        "source": f"github:chrisryugj/korean-dart-mcp@{_git_head(ops_repo)[:12]} + "
        f"github:ChangooLee/mcp-opendart@{_git_head(spec_repo)[:12]}",
        "operations": [ops[k] for k in sorted(ops)],
    }


# ---- law.go.kr DRF (ChangooLee/mcp-kr-legislation api_layout, CC BY-NC: names only) -----
def extract_lawgokr_layout(repo: Path) -> dict[str, Any]:
    """Targets of law.go.kr's DRF API: target, search or detail, param names and flags.

    The source is CC BY-NC: only names are read (target, parameter names, whether the guide
    marks a parameter required, its declared type), never its titles or descriptions.
    """
    base = "src/mcp_kr_legislation/utils/api_layout"
    listing = subprocess.run(
        ["git", "--git-dir", str(repo), "ls-tree", "--name-only", f"HEAD:{base}"],
        check=True,
        capture_output=True,
    ).stdout.decode().split()
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for name in sorted(listing):
        if not name.endswith(".json") or name.startswith("_"):
            continue
        doc = json.loads(_git_show(repo, f"{base}/{name}"))
        for api in doc.get("apis", []):
            url = str(api.get("request_url", ""))
            target = str(api.get("target", "")).strip()
            m = re.search(r"/DRF/(law\w+)\.do", url)
            if not target or m is None or not re.fullmatch(r"[A-Za-z0-9]+", target):
                continue
            params = []
            for p in api.get("parameters", []):
                pname = str(p.get("name", "")).strip()
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", pname) or pname in ("OC", "target", "type"):
                    continue
                decl = str(p.get("type", ""))
                ptype = "integer" if decl.startswith("int") else "string"
                params.append([pname, ptype, "필수" in decl])
            seen.setdefault((m.group(1), target), {"service": m.group(1), "target": target,
                                                    "group": name[:-5], "params": params})
    return {"source": f"github:ChangooLee/mcp-kr-legislation@{_git_head(repo)[:12]} (names only)",
            "operations": [seen[k] for k in sorted(seen)]}


#: The guide copy in ChangooLee/mcp-kr-legislation's history that holds the output tables
#: ("출력 결과 필드") of every target (removed from the tree by a later commit).
LAW_GUIDE_PATH = "src/mcp_kr_legislation/utils/korean_law_api_complete_guide.md"
#: Envelope members of a DRF answer (not record fields).
_LAW_ENVELOPE = frozenset({"target", "키워드", "section", "totalCnt", "page", "numOfRows", "resultCode",
                           "resultMsg", "검색어", "검색범위", "검색건수", "결과페이지번호"})
_LAW_URL_RE = re.compile(r"요청 URL : https?://www\.law\.go\.kr/DRF/(law\w+)\.do\?target=(\w+)")


def extract_lawgokr_fields(repo: Path, commit: str) -> dict[str, Any]:
    """Response field **names** of law.go.kr DRF targets from the guide's output tables.

    The source is CC BY-NC: only the element names are read (facts: what the XML/JSON answer
    calls its fields), never the descriptions. Each output table (``| 필드 | 값 | 설명 |``)
    belongs to the next ``요청 URL : …/DRF/<service>.do?target=<target>`` line; envelope
    members and the item tag (``law id``) are dropped.
    """
    text = subprocess.run(["git", "--git-dir", str(repo), "show", f"{commit}:{LAW_GUIDE_PATH}"],
                          check=True, capture_output=True).stdout.decode("utf-8")
    ops: dict[tuple[str, str], list[str]] = {}
    table: list[str] = []
    in_fields = False
    for line in text.splitlines():
        if line.startswith("| 필드 |"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            table, in_fields = ([cells[3]] if len(cells) > 3 else []), True
            continue
        if in_fields and line.startswith("|"):
            name = line.strip().strip("|").split("|")[0].strip()
            if name and not set(name) <= {"-", " "}:
                table.append(name)
            continue
        in_fields = False
        if (m := _LAW_URL_RE.search(line)) is not None:
            key = (m.group(1), m.group(2))
            names = [n for n in dict.fromkeys(table)
                     if n not in _LAW_ENVELOPE and re.fullmatch(r"[0-9A-Za-z_가-힣]+", n)]
            if names and key not in ops:
                ops[key] = names
            table = []
    return {"source": f"github:ChangooLee/mcp-kr-legislation@{commit[:12]} {LAW_GUIDE_PATH} (field names only)",
            "operations": [{"service": k[0], "target": k[1], "fields": v} for k, v in sorted(ops.items())]}


LAWPY_SPEC_DIR = "specs/kr"


def extract_lawgokr_specs(repo: Path) -> list[dict[str, Any]]:
    """Response field **names** of law.go.kr DRF targets from lawpy's scrape of the guide pages
    (``specs/kr/<htmlName>.json``: ``request_url`` and the output table ``response[].필드``).

    As with :func:`extract_lawgokr_fields` only element names are taken (the guide is CC BY-NC),
    envelope members dropped, and a name that is no element name (one with a space) left out.
    A target whose page has no output table is left out."""
    commit = _git_head(repo)
    listing = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only", "HEAD", "--",
                              LAWPY_SPEC_DIR], check=True, capture_output=True, text=True).stdout.split()
    ops: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(p for p in listing if p.endswith("Guide.json")):
        spec = json.loads(_git_show(repo, path))
        url = str(spec.get("request_url", ""))
        m = re.search(r"/DRF/(law\w+?)\.do\?target=([A-Za-z]+)", url)
        if m is None or "mobileYn" in url or not isinstance(spec.get("response"), list):
            continue  # the mobile pages repeat a target's page (or give sample URLs only)
        # the output table's first column: headed 필드, on a few pages 요청변수 as scraped
        names = [n for n in dict.fromkeys(str(r.get("필드", r.get("요청변수", ""))).strip() for r in spec["response"])
                 if n not in _LAW_ENVELOPE and n not in ("id", "검색결과개수") and re.fullmatch(r"[0-9A-Za-z_가-힣]+", n)]
        key = (m.group(1), m.group(2))
        if names and key not in ops:
            ops[key] = {"service": key[0], "target": key[1],
                        "source": f"github:StatPan/lawpy@{commit[:12]}:{path} (the law.go.kr guide page as "
                                  "scraped, MIT; element names only)",
                        "fields": [[n, "string", n] for n in names]}
    return [ops[k] for k in sorted(ops)]


# ---- NEIS (neispy, PyPI wheel, MIT) ------------------------------------------------------
def extract_neispy(wheel: Path) -> dict[str, Any]:
    """NEIS hub services: service name, row fields with their Korean labels, and the fields
    every row of the service carries (``common``: neispy's row base class, office and school)."""
    ops = []
    with zipfile.ZipFile(wheel) as zf:
        client = zf.read("neispy/client.py").decode("utf-8")
        services = re.findall(r"async def (\w+)\(", client)
        bases = _annotated_classes(ast.parse(zf.read("neispy/domain/abc.py").decode("utf-8")))
        row_base: dict[str, list[list[str]]] = {}
        for member in sorted(zf.namelist()):
            if re.fullmatch(r"neispy/domain/\w+\.py", member):
                for cls in ast.parse(zf.read(member).decode("utf-8")).body:
                    if isinstance(cls, ast.ClassDef) and cls.name.endswith("Row") and cls.bases:
                        base = cls.bases[0]
                        name = base.id if isinstance(base, ast.Name) else ""
                        row_base[cls.name[: -len("Row")].lower()] = _inherited(name, bases)
        for member in sorted(zf.namelist()):
            if not re.fullmatch(r"neispy/types/\w+\.py", member) or member.endswith(("base.py", "__init__.py")):
                continue
            tree = ast.parse(zf.read(member).decode("utf-8"))
            for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("RowDict")):
                fields = _class_fields(cls)
                stem = cls.name[: -len("RowDict")].lower()
                service = next((s for s in services if s.lower() == stem), None)
                if service is not None:
                    ops.append({"service": service, "fields": fields, "common": row_base.get(stem, [])})
        ops += _neis_archives(zf.read("neispy/http.py").decode("utf-8"), ops)
    ops.sort(key=lambda o: o["service"])
    return {"source": f"pypi:neispy=={_wheel_version(wheel)}", "operations": ops}


def _class_fields(cls: ast.ClassDef) -> list[list[str]]:
    """``[name, label]`` of a class's annotated fields (the label: the docstring after each)."""
    fields = []
    body = cls.body
    for i, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            label = ""
            nxt = body[i + 1] if i + 1 < len(body) else None
            if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
                label = _label(str(nxt.value.value))
            fields.append([node.target.id, label])
    return fields


def _annotated_classes(tree: ast.Module) -> dict[str, tuple[str, list[list[str]]]]:
    """Class name → (its first base's name, its own annotated fields)."""
    out = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        base = cls.bases[0].id if cls.bases and isinstance(cls.bases[0], ast.Name) else ""
        out[cls.name] = (base, _class_fields(cls))
    return out


def _inherited(name: str, classes: dict[str, tuple[str, list[list[str]]]]) -> list[list[str]]:
    """The fields of class ``name`` and its bases, the base's first."""
    if name not in classes:
        return []
    base, own = classes[name]
    return _inherited(base, classes) + own


def _neis_archives(http: str, ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The past-year services (``elsTimetablebgs``, …): the hub answers them under the
    envelope key of the current service, which neispy parses with the same row type."""
    current = {o["service"]: o for o in ops}
    out = []
    for archive, envelope in re.findall(r'request\(\s*"GET",\s*"/((\w+)bgs)"', http):
        if envelope in current:
            out.append({"service": archive, "envelope": envelope, "fields": current[envelope]["fields"],
                        "common": current[envelope]["common"]})
    return out


# ---- National Assembly (assembly-api-client wheel, MIT; hollobit/assembly-api-mcp, MIT) --
def read_assembly_codes(path: Path) -> dict[str, str]:
    """infId → endpoint code, from ``docs/discovered-all-codes.json`` or ``infId code`` lines."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("{"):
        return {a["infId"]: a["code"] for a in json.loads(text)["apis"] if a.get("code")}
    pairs = (line.split() for line in text.splitlines() if line.strip())
    return {inf: code for inf, code in pairs if code != "-"}


def extract_assembly(wheel: Path, codes: dict[str, str], codes_source: str) -> dict[str, Any]:
    """The Assembly's APIs: endpoint code (``codes``), name, request params and response fields.

    ``assembly_client/generated/services.py`` names each API (``Service`` enum: name → infId);
    ``models.py`` holds ``Params_<infId>`` and ``Model_<infId>`` classes whose ``Field``
    descriptions are the portal's Korean labels.
    """
    with zipfile.ZipFile(wheel) as zf:
        services = ast.parse(zf.read("assembly_client/generated/services.py").decode("utf-8"))
        models = ast.parse(zf.read("assembly_client/generated/models.py").decode("utf-8"))
    names: dict[str, str] = {}
    for node in ast.walk(services):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.targets[0], ast.Name):
            # Enum names are the Korean names with spaces as ``_`` and an ``S`` before a digit.
            names[str(node.value.value)] = re.sub(r"^S(?=\d)", "", node.targets[0].id).replace("_", " ")
    tables: dict[str, list[list[str]]] = {}
    for cls in (n for n in models.body if isinstance(n, ast.ClassDef)):
        rows = []
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and isinstance(stmt.value, ast.Call):
                kw = {k.arg: k.value.value for k in stmt.value.keywords if isinstance(k.value, ast.Constant)}
                rows.append([str(kw.get("alias", stmt.target.id)), _label(str(kw.get("description", "")))])
        tables[cls.name] = rows
    ops = []
    for inf in sorted(set(names) & set(codes)):
        ops.append({"infId": inf, "code": codes[inf], "label": names[inf],
                    "params": tables.get(f"Params_{inf}", []), "fields": tables.get(f"Model_{inf}", [])})
    return {"source": f"pypi:assembly-api-client=={_wheel_version(wheel)} + {codes_source}", "operations": ops}


# ---- response field lists of the portal's guides (data.go.kr) -------------------------
_LIST_ITEM_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\*?\(([^()]*)\)")


def extract_field_lists(path: Path, agency: str, source: str, known: list[dict[str, Any]]) -> dict[str, Any]:
    """Response fields of data.go.kr operations from a plain field list of the portal's guides.

    ``path`` holds, per service, a line ``@<Service>`` and then one line per operation:
    ``<operation>: name(한국어 이름), name(…), …`` (the guide's response items, envelope
    members left out). Only names and Korean labels are read (facts). An operation is kept
    when ``known`` (the data.go.kr operations the other facts list) has it under agency
    ``agency`` and that service (operation names compared without case, as the guides and
    the gateway spell some of them differently); its URL is the known one.
    """
    urls: dict[tuple[str, str], str] = {}
    for op in known:
        parts = op["url"].split("/")
        if len(parts) > 5 and parts[3] == agency:
            urls[(parts[-2].lower(), parts[-1].lower())] = op["url"]
    ops: dict[str, dict[str, Any]] = {}
    service = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("@"):
            service = line[1:].strip()
            continue
        if ":" not in line or not service:
            continue
        name, _, rest = line.partition(":")
        url = urls.get((service.lower(), name.strip().lower()))
        if url is None:
            continue
        fields = [[n, "string", _label(lab)] for n, lab in _LIST_ITEM_RE.findall(rest)]
        if fields and url not in ops:
            ops[url] = {"url": url, "source": source, "fields": fields}
    return {"source": source, "operations": [ops[k] for k in sorted(ops)]}


# ---- kpubdata (PyPI wheel, MIT): response fields of data.go.kr datasets ----------------
#: kpubdata's providers whose catalogue lists data.go.kr operations with their fields.
_KPUBDATA_PROVIDERS = ("datago", "localdata", "semas")


def extract_kpubdata(wheel: Path) -> dict[str, Any]:
    """Response fields (name, type, Korean title where given) of the data.go.kr operations
    ``kpubdata/providers/{datago,localdata,semas}/catalogue.json`` list (its ``fields``),
    keyed by the operation URL (``base_url`` + ``default_operation``)."""
    ops: dict[str, dict[str, Any]] = {}
    with zipfile.ZipFile(wheel) as zf:
        for prov in _KPUBDATA_PROVIDERS:
            for ds in json.loads(zf.read(f"kpubdata/providers/{prov}/catalogue.json")):
                base, op = str(ds.get("base_url", "")), str(ds.get("default_operation") or "")
                fields = ds.get("fields") or []
                if "apis.data.go.kr/" not in base or not op or not fields:
                    continue
                url = "https://apis.data.go.kr/" + base.split("apis.data.go.kr/", 1)[1].strip("/") + "/" + op
                rows = [[str(f["name"]), _json_type(str(f.get("type", "string"))), _label(str(f.get("title", "")))]
                        for f in fields if f.get("name")]
                ops.setdefault(url, {"url": url, "fields": rows})
    source = f"pypi:kpubdata=={_wheel_version(wheel)}"
    return {"source": source, "operations": [dict(ops[k], source=source) for k in sorted(ops)]}


# ---- kloud80/datagokr-mcp (GitHub, MIT): measured response schemas --------------------
def extract_measured_stats(paths: list[Path], source: str) -> dict[str, Any]:
    """Record field names of data.go.kr operations as measured by kloud80/datagokr-mcp
    (``probe/stats/<dataset>.json``: operation URL → field → statistics of the values seen).
    Only the names are kept (the measured value shapes are not copied); types stay strings."""
    ops: dict[str, dict[str, Any]] = {}
    for path in sorted(paths):
        for url, fields in json.loads(path.read_text(encoding="utf-8")).items():
            if not str(url).startswith("https://apis.data.go.kr/") or not isinstance(fields, dict):
                continue
            ops.setdefault(url, {"url": url, "source": source, "fields": [[str(n), "string", ""] for n in fields]})
    return {"source": source, "operations": [ops[k] for k in sorted(ops)]}


#: Where ``scripts/extract_fields.py --datagokr-mcp`` reads kloud80/datagokr-mcp's dataset
#: files from: ``<root>/<commit>/knowledge/datasets/<sector>/<id>.yaml``, the text the search
#: tool's ``read_file`` answered for that path at that commit (the repository cannot be
#: mirrored here). Git-ignored: only the facts drawn from them are committed.
DATAGOKR_MCP_CACHE = Path(__file__).resolve().parents[3] / ".cache" / "datagokr-mcp"
DATAGOKR_MCP_REPO = "kloud80/datagokr-mcp"


def extract_datagokr_mcp(root: Path = DATAGOKR_MCP_CACHE) -> dict[str, Any]:
    """Response fields of data.go.kr operations as kloud80/datagokr-mcp (MIT) measured them on
    live answers: per dataset file ``knowledge/datasets/<sector>/<id>.yaml``, its
    ``schema.fields`` (name, Korean ``title``, measured ``type``) attached to the operation of
    ``services`` the measurement was made on: each field's ``op`` where the dataset was measured
    on several operations, else its one ``verified_ok: true`` operation (a dataset with several
    verified operations and fields without ``op`` is left out: its schema cannot be tied to one).

    Kept per field: ``[name, "string", title, measured type]`` (the measured type describes the
    values seen, ``number`` for ``'010719'`` too, not the wire type: data.go.kr answers these as
    strings). Sample values and statistics are not kept. Each operation names its source: the
    repository, the commit and the path of the file it came from."""
    import yaml

    ops: dict[str, dict[str, Any]] = {}
    for path in sorted(root.glob("*/knowledge/datasets/*/*.yaml")):
        commit = path.relative_to(root).parts[0]
        rel = path.relative_to(root / commit).as_posix()
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        services = [s for s in doc.get("services") or [] if isinstance(s, dict)]
        verified = {str(s.get("op")): s for s in services if s.get("verified_ok")}
        fields = [f for f in (doc.get("schema") or {}).get("fields") or [] if isinstance(f, dict) and f.get("name")]
        by_op: dict[str, list[dict[str, Any]]] = {}
        if any(f.get("op") for f in fields):  # measured on several operations: each field names its own
            for f in fields:
                by_op.setdefault(str(f.get("op")), []).append(f)
        elif len(verified) == 1:
            by_op[next(iter(verified))] = fields
        source = f"github:{DATAGOKR_MCP_REPO}@{commit[:12]}:{rel}"
        for op, group in by_op.items():
            if op not in verified:
                continue
            url = str(verified[op].get("endpoint", "")).replace("http://", "https://")
            if not url.startswith("https://apis.data.go.kr/"):
                continue
            rows: list[list[str]] = []
            for f in group:
                if str(f["name"]) not in {r[0] for r in rows}:
                    rows.append([str(f["name"]), "string", _label(str(f.get("title") or "")), str(f.get("type") or "")])
            ops.setdefault(url, {"url": url, "source": source, "dataset": str(doc.get("id", path.stem)),
                                 "title": str(doc.get("title", "")), "fields": rows})
    return {"source": f"github:{DATAGOKR_MCP_REPO} knowledge/datasets (MIT): response schemas measured on live "
                      "answers (names, Korean titles, measured types; no sample values)",
            "operations": [ops[k] for k in sorted(ops)]}


# ---- facts files -----------------------------------------------------------------------
def _swagger_items(schema: Any, definitions: dict[str, Any], depth: int = 0) -> dict[str, Any] | None:
    """The record properties of a data.go.kr swagger response schema: the object under
    ``response``/``body``/``items``/``item`` (an array's element), ``None`` if none."""
    if not isinstance(schema, dict) or depth > 8:
        return None
    if "$ref" in schema:
        return _swagger_items(definitions.get(schema["$ref"].rsplit("/", 1)[-1]), definitions, depth + 1)
    if schema.get("type") == "array":
        return _swagger_items(schema.get("items"), definitions, depth + 1)
    props = schema.get("properties") or {}
    for key in ("response", "body", "items", "item"):
        if key in props:
            return _swagger_items(props[key], definitions, depth + 1)
    if props and "header" not in props:
        return props  # type: ignore[no-any-return]
    return None


def extract_swagger_fields(docs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Response record fields of data.go.kr swagger documents (``[(source, text)]``): per
    operation URL the item properties' names, JSON types and descriptions (the portal's own
    labels). Nested objects and arrays are left out (no flat record field); an operation whose
    schema names no record property is left out."""
    out = []
    for source, text in docs:
        doc = json.loads(text)
        host, base = doc.get("host", ""), doc.get("basePath", "")
        for path, methods in sorted((doc.get("paths") or {}).items()):
            op = (methods or {}).get("get") or (methods or {}).get("post") or {}
            schema = ((op.get("responses") or {}).get("200") or {}).get("schema")
            props = _swagger_items(schema, doc.get("definitions") or {})
            fields = [[name, (p or {}).get("type", "string"), _label((p or {}).get("description", ""))]
                      for name, p in (props or {}).items()
                      if (p or {}).get("type", "string") in ("string", "integer", "number", "boolean")]
            if fields:
                out.append({"url": f"https://{host}{base}{path}", "source": source, "fields": fields})
    return out


def write_facts(name: str, facts: dict[str, Any], *, directory: Path = FACTS_DIR, compress: bool = False) -> Path:
    """Write one source's facts, compact and in a stable order (gzip with a fixed mtime)."""
    directory.mkdir(parents=True, exist_ok=True)
    text = json.dumps(facts, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    lines = text.replace('},{"', '},\n{"').encode("utf-8") + b"\n"
    if compress:
        path = directory / f"{name}.json.gz"
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as gz:
            gz.write(lines)
        path.write_bytes(buf.getvalue())
    else:
        path = directory / f"{name}.json"
        path.write_bytes(lines)
    return path


def read_facts(name: str, *, directory: Path = FACTS_DIR) -> dict[str, Any]:
    """One source's facts (``name.json`` or ``name.json.gz``)."""
    plain = directory / f"{name}.json"
    data = plain.read_bytes() if plain.exists() else gzip.decompress((directory / f"{name}.json.gz").read_bytes())
    return _loads(data)  # type: ignore[no-any-return]


#: data.go.kr agency codes whose facts ship uncompressed-equivalent in ``datagokr_client``
#: (the paper's agencies); every other agency goes to ``datagokr_client_other``.
_PAPER_CODES = ("9760000", "1160100", "1613000", "1611000", "1741000", "1360000", "B552584",
                "1230000", "B090041")


def extract_all(
    *,
    datagokr_wheel: Path | None = None,
    neispy_wheel: Path | None = None,
    dart_ops_repo: Path | None = None,
    dart_spec_repo: Path | None = None,
    law_repo: Path | None = None,
    law_guide_commit: str | None = None,
    assembly_wheel: Path | None = None,
    assembly_codes: Path | None = None,
    kpubdata_wheel: Path | None = None,
    directory: Path = FACTS_DIR,
) -> list[Path]:
    """Re-extract the facts of every source given (the others keep their committed files)."""
    written = []
    if datagokr_wheel is not None:
        facts = extract_datagokr_client(datagokr_wheel)
        ops = facts["operations"]
        for name, keep in (("datagokr_client", True), ("datagokr_client_other", False)):
            part = [o for o in ops if (o["url"].split("/")[3] in _PAPER_CODES) == keep]
            written.append(write_facts(name, {"source": facts["source"], "operations": part},
                                       directory=directory, compress=True))
    if dart_ops_repo is not None and dart_spec_repo is not None:
        written.append(write_facts("opendart", extract_opendart(dart_ops_repo, dart_spec_repo), directory=directory))
    if law_repo is not None:
        written.append(write_facts("lawgokr", extract_lawgokr_layout(law_repo), directory=directory))
        if law_guide_commit is not None:  # the guide copy's commit (9b9527254b7f: before its removal)
            written.append(write_facts("lawgokr_fields", extract_lawgokr_fields(law_repo, law_guide_commit),
                                       directory=directory))
    if neispy_wheel is not None:
        written.append(write_facts("neis", extract_neispy(neispy_wheel), directory=directory))
    if assembly_wheel is not None and assembly_codes is not None:
        source = "github:hollobit/assembly-api-mcp docs/discovered-all-codes.json (infId → code)"
        facts = extract_assembly(assembly_wheel, read_assembly_codes(assembly_codes), source)
        written.append(write_facts("assembly", facts, directory=directory))
    if kpubdata_wheel is not None:
        written.append(write_facts("kpubdata_fields", extract_kpubdata(kpubdata_wheel), directory=directory))
    return written


def field_rows(spec: str) -> list[list[str]]:
    """A hand-transcribed field list ``"name:type:label, …"`` (type and label optional; type
    defaults to string) as a facts file's ``fields`` rows ``[name, type, label]``
    (``scripts/extract_fields8.py``, ``extract_fields9.py``)."""
    out = []
    for item in spec.split(","):
        parts = [p.strip() for p in item.strip().split(":")]
        name, ftype, label = (parts + ["", ""])[:3]
        out.append([name, ftype or "string", label])
    return out
