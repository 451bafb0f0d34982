"""Versions the log states, checked as pairs against the compatibility matrices.

Pastes often carry the versions (``pip list`` lines, ``torch-npu: 2.8.0``, an image tag, a CANN
path; see ``catalog/logversions.py``). When the failure is one a mismatched stack produces — an
import, attribute or symbol error, an operator the CANN does not have — and a logged pair is one
the matrices (``preflight/data/compat.yaml``, what ``ascendrl check`` and ``ascendrl stack`` use) do
not document, the pair is the diagnosis: "unsupported pair X vY with Z vW; documented: …".
pip's own resolver line ("X requires Y==a, but you have Y b which is incompatible") states such a
pair outright; it is reported as an error, not as what ended the run.
"""

from __future__ import annotations


from ..chain import Chain, Link
from ..logversions import pip_conflict
from . import Analyzer, Facts, Finding, evidence, raised
from .package import CANNOT_IMPORT, NO_ATTR, NO_MODULE, NO_OBJ_ATTR, NO_OP, UNDEFINED, UNEXPECTED_KW, dist
from ...lazyre import lazy

OPERATOR = lazy(r"\baclnn[A-Z]\w+|not in libopapi\.so|Failed to compile Op")
MATRIX = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/community/versioning_policy.md"
TORCH_NPU = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/COMPATIBILITY.en.md"
PIP = "https://pip.pypa.io/en/stable/topics/dependency-resolution/"
PIP_FACTORY = "https://github.com/pypa/pip/blob/26.2.1/src/pip/_internal/resolution/resolvelib/factory.py"
# pip's resolver when no set of versions satisfies every requirement (factory.py, get_installation_error): a CRITICAL
# "Cannot install <triggers> because these package versions have conflicting dependencies.", then the causes, one a line
# under "The conflict is caused by:": "<parent> <version> depends on <requirement>" or "The user requested <requirement>"
# ("The user requested (constraint) <name><spec>" for a constraints file).
CANNOT_INSTALL = lazy(r"Cannot install (.+?) because these package versions have conflicting dependencies")
CAUSE = lazy(r"^\s*(?:(\S+) (\S+) depends on|The user requested(?: \(constraint\))?) ([A-Za-z0-9][\w.-]*)(?:\[[^\]]*\])?\s*([^;]*)")


def _v(text: str | None):
    from ascendrl.preflight.versions import parse_python_pkg

    return parse_python_pkg((text or "").split("+")[0])


def _base(text: str | None) -> str:
    from ascendrl.preflight.versions import base

    v = _v(text)
    return base(v) if v is not None else ""


def _row(vllm_ascend: str) -> dict | None:
    from ascendrl.preflight import compat

    have = _v(vllm_ascend)
    if have is None:
        return None
    rows = compat.matrices()["vllm_ascend"]["rows"]
    exact = [r for r in rows if _v(r["vllm_ascend"]) == have]
    if exact:
        return exact[0]
    # a dev/local build of a release: the row of the same release (0.11.0rc1.dev → 0.11.0rc1)
    same = [r for r in rows if (rv := _v(r["vllm_ascend"])) is not None and rv.release == have.release and rv.pre == have.pre]
    return same[0] if same else None


def unsupported(versions: dict[str, str]) -> tuple[str, str, str] | None:
    """The first logged pair the matrices do not document: (kind, the pair, what is documented)."""
    if not (versions.get("torch") and versions.get("torch_npu")) and not versions.get("vllm_ascend"):
        return None  # no pair to check: the matrices (and packaging) stay unloaded, as on most short pastes
    try:
        from ascendrl.preflight.versions import parse_ascend
    except ImportError:  # pragma: no cover - the catalog used on its own
        return None
    torch, npu = versions.get("torch"), versions.get("torch_npu")
    if torch and npu and _base(torch) and _base(npu) and _base(torch) != _base(npu):
        return "package-mismatch", f"torch {torch} with torch-npu {npu}", f"a torch-npu build pairs with the torch of the same base version (torch {_base(npu)} for torch-npu {npu})"
    va = versions.get("vllm_ascend")
    row = _row(va) if va else None
    if row is None:
        return None
    documented = f"vllm-ascend {row['vllm_ascend']} is documented with vllm {', '.join(row['vllm'])}, torch {row['torch']}, torch-npu {row['torch_npu']}, CANN {row['cann']}"
    if (vllm := versions.get("vllm")) and _base(vllm) and _base(vllm) not in {_base(x) for x in row["vllm"]}:
        newer = _v(_base(vllm)) > max(_v(_base(x)) for x in row["vllm"])
        return ("vllm-ascend-too-old" if newer else "package-mismatch"), f"vllm-ascend {va} with vllm {vllm}", documented
    if npu and _base(npu) and _base(npu) != _base(row["torch_npu"]):
        kind = "torch-npu-too-old" if _v(_base(npu)) < _v(_base(row["torch_npu"])) else "package-mismatch"
        return kind, f"vllm-ascend {va} with torch-npu {npu}", documented
    if torch and _base(torch) and _base(torch) != _base(row["torch"]):
        return "package-mismatch", f"vllm-ascend {va} with torch {torch}", documented
    cann = versions.get("cann")
    have, want = parse_ascend(cann), parse_ascend(str(row["cann"]))
    if have is not None and want is not None and have < want:
        return "cann-too-old", f"vllm-ascend {va} with CANN {cann}", documented
    return None


def _mismatch_failure(link: Link) -> bool:
    """A failure a mismatched stack produces."""
    if link.kind in ("python", "remote", "bare"):
        msg = link.message
        if any(p.search(msg) for p in (CANNOT_IMPORT, NO_ATTR, NO_OBJ_ATTR, NO_OP, UNDEFINED, UNEXPECTED_KW)):
            return True
        if (m := NO_MODULE.search(msg)) and "." in m.group(1):
            return True
    return bool(OPERATOR.search("\n".join([link.message, *link.detail])))


class VersionPairs(Analyzer):
    id = "DRV-versions"
    title = "The log's versions are a pair the compatibility matrices do not document"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind == "cann" and link.type == "pip":
            return self._pip(link, facts)
        if raised(link) and (m := CANNOT_INSTALL.search(link.message)):
            return self._resolution(link, m.group(1))
        if not _mismatch_failure(link):
            return None
        found = unsupported(facts.versions)
        if found is None:
            return None
        kind, pair, documented = found
        what = f"{link.short_type}: {link.message[:160]}" if link.type else link.text[:160]
        return Finding(
            f"Unsupported pair: {pair}",
            f"{what}. The log shows {pair}, a pair the compatibility matrices do not document ({documented}). A failed import, "
            "a missing attribute or symbol, or an operator the CANN lacks is what a mismatched stack produces.",
            (f"Install a documented combination: {documented}",
             "Check the whole stack against the matrix: ascendrl check --python $(which python)  (or ascendrl stack)"),
            evidence(link), (MATRIX, TORCH_NPU), key=f"pair:{pair}", family="compat", kind=kind,
            notes=(f"{self.id}: unsupported pair {pair}", documented),
        )

    def _pip(self, link: Link, facts: Facts) -> Finding | None:
        conflict = pip_conflict(link.message)
        if conflict is None:
            return None
        pkg, version, requirement, other, installed = conflict
        found = unsupported({pkg.lower().replace("-", "_"): version, other.lower().replace("-", "_"): installed, **facts.versions})
        documented = found[2] if found else f"{pkg} {version} needs {requirement}"
        return Finding(
            f"Unsupported pair: {dist(pkg)} {version} with {dist(other)} {installed}",
            f"pip installed {other} {installed}, but {pkg} {version} requires {requirement}: pip reports the conflict and "
            f"installs anyway, so {pkg} later fails to load or misbehaves against the {other} it finds ({documented}).",
            (f"Install what {pkg} requires: pip install '{requirement}' (for torch on an NPU host: the CPU build, "
             f"--extra-index-url https://download.pytorch.org/whl/cpu/), or the {pkg} build made for {other} {installed}",
             "Install vllm first and vllm-ascend after it, so the torch / torch-npu pair vllm-ascend pins wins; then check: ascendrl check"),
            (link.text or link.message,), (PIP, MATRIX), key=f"pip:{pkg}:{other}", family="compat",
            kind=found[0] if found else "package-mismatch", fatal=False, severity="error",
        )

    def _resolution(self, link: Link, triggers: str) -> Finding:
        """pip's ResolutionImpossible: the pins its conflict report names, two of them on one package when it lists them."""
        pins: dict[str, list[str]] = {}
        for line in link.detail:
            if (m := CAUSE.match(line)) is not None:
                req = f"{m.group(3)}{m.group(4).strip() or ' (any version)'}"
                said = f"{m.group(1)} {m.group(2)} requires {req}" if m.group(1) else f"you requested {req}"
                pins.setdefault(m.group(3).lower().replace("_", "-"), []).append(said)
        clash = next(((name, said) for name, said in pins.items() if len(said) > 1), None)
        if clash is not None:
            title = f"pip cannot install: two pins on {clash[0]} conflict"
            stated = "; ".join(clash[1][:3])
        else:
            title = f"pip cannot install {triggers[:80]}: their pins conflict"
            stated = "; ".join(s for said in pins.values() for s in said[:1]) or "the lines under 'The conflict is caused by:'"
        fix = ("Install the pair that goes together first (torch with its torch-npu build, vllm with its vllm-ascend release: "
               "ascendrl stack), then the framework without re-resolving them: pip install --no-deps <framework>",
               "Or loosen or drop the pin that disagrees (the extra, the requirements line, the constraints file) as the report names it")
        return Finding(
            title[:160],
            f"pip's resolver found no set of versions that meets every requirement at once ({link.message[:160].rstrip('.')}), "
            f"so it installed nothing: {stated}. Two packages (or a package and your own pin) require versions of one "
            "package that no release satisfies together; on an NPU host most often torch-npu's exact torch build (torch==2.x.y+cpu) "
            "against a framework or extra that pins plain torch==2.x.y, or vllm-ascend against vllm's torch.",
            fix, evidence(link), (PIP_FACTORY, PIP), key=f"pip-resolution:{clash[0] if clash else triggers[:60]}", family="compat",
            kind="package-mismatch", notes=(f"{self.id}: {title[:160]}", f"pip's conflict report: {stated}", *fix),
        )
