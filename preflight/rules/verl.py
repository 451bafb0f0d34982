"""Stack rules around verl (ARL-C009..C013): what verl and vllm-ascend pin beyond the core matrix."""

from __future__ import annotations

from packaging.version import Version

from .. import compat
from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from ..versions import in_range
from .stack import VLLM_ASCEND_MATRIX, pkg


class VerlStack(Rule):
    id = "ARL-C009"
    title = "verl fits the installed vllm / vllm-ascend"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Checks vllm against the range verl's setup.py allows, and known-broken pairs (verl >= 0.8.0.dev with the vllm-ascend 0.11 stack)."
    why = "verl imports vllm internals that move between releases; outside its range verl fails at import or when the rollout starts."
    fix = "Use the verl release whose Ascend quick start names your stack (verl v0.7.0 for CANN 8.3.RC1 / vllm-ascend 0.11.0rc1)."
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/setup.py", "https://github.com/verl-project/verl/issues/5468")

    def evaluate(self, facts: Facts) -> Finding:
        verl = pkg(facts, "verl")
        if verl is None:
            return self.skip("verl is not installed in the checked interpreter")
        row = compat.verl_row(verl)
        if row is None:
            return self.warn(f"verl {verl} has no row in the shipped data", verl=str(verl))
        vllm, va = pkg(facts, "vllm"), pkg(facts, "vllm_ascend")
        found = dict(verl=str(verl), vllm=str(vllm) if vllm else None, vllm_ascend=str(va) if va else None)
        broken = row.get("broken_with")
        if broken and va is not None and in_range(va, broken["vllm_ascend"]):
            return self.fail(f"verl {verl} with vllm-ascend {va}: {broken['reason']} ({broken['source']})", **found)
        spec = row.get("vllm")
        if spec and vllm is not None and not in_range(vllm, spec):
            documented = (row.get("ascend") or {}).get("vllm")
            if documented and Version(vllm.public) == Version(documented):
                # 0.7.1 / 0.8.0: the [vllm] extra's range lags the Ascend guide, which builds vllm from source
                return self.warn(
                    f"verl {verl}'s setup.py [vllm] extra allows vllm {spec}, but its Ascend guide uses vllm {documented} ({row.get('ascend_source', row['source'])})",
                    **found,
                )
            return self.fail(f"verl {verl} allows vllm {spec}; found {vllm} ({row['source']})", **found)
        detail = f"verl {verl}" + (f" with vllm {vllm}" if vllm else "")
        if row.get("note"):
            detail += f" — note: {row['note']}"
        return self.passed(detail, **found)


def _pins(facts: Facts, field: str) -> list[tuple[str, str]]:
    """(who, specifier) for a package pinned by the installed vllm-ascend's row and verl's row."""
    pins = []
    va, verl = pkg(facts, "vllm_ascend"), pkg(facts, "verl")
    row = compat.vllm_ascend_row(va) if va else None
    if row and row.get(field):
        pins.append((f"vllm-ascend {va}", row[field]))
    vrow = compat.verl_row(verl) if verl else None
    if vrow and vrow.get(field):
        pins.append((f"verl {verl}", vrow[field]))
    return pins


class TransformersFits(Rule):
    id = "ARL-C010"
    title = "transformers within the pins of vllm-ascend and verl"
    severity = Severity.ERROR
    area = Area.STACK
    what = "Compares transformers with the caps in vllm-ascend's requirements (0.11.0: <=4.57.1, 0.13.0: <5) and verl's setup.py."
    why = "transformers 5.x renamed and removed APIs the 0.11-era vLLM and verl model code call; the failure shows only when the model loads."
    fix = "pip install 'transformers==4.57.1' on the vllm-ascend 0.11 stack (4.57.x on 0.13)."
    sources = (VLLM_ASCEND_MATRIX, "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0/requirements.txt")

    def evaluate(self, facts: Facts) -> Finding:
        tf = pkg(facts, "transformers")
        if tf is None:
            return self.skip("transformers is not installed")
        caps = _pins(facts, "transformers")
        va = pkg(facts, "vllm_ascend")
        for who, spec in caps:
            if not in_range(tf, spec):
                return self.warn(f"transformers {tf} is outside {spec} pinned by {who}", transformers=str(tf), pin=spec)
        if va is not None and va < Version("0.13") and tf >= Version("5"):
            return self.warn(
                f"transformers {tf} (5.x) on vllm-ascend {va}: the 0.11 line caps it at 4.57.1 and 0.13 at <5 (inferred for rows without a cap)",
                transformers=str(tf),
            )
        return self.passed(f"transformers {tf}" + (f" within {', '.join(s for _, s in caps)}" if caps else ""), transformers=str(tf))


class NumpyFits(Rule):
    id = "ARL-C011"
    title = "numpy major version fits the stack"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Checks numpy against numpy<2 (verl v0.7.0 setup.py, vllm-ascend 0.11.0rc1 requirements) or numpy>=2 (verl 0.9)."
    why = "Compiled extensions built for numpy 1.x fail to import under numpy 2 (and the reverse), taking down workers at start."
    fix = "pip install 'numpy<2' on the verl 0.7 / vllm-ascend 0.11 stack."
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/setup.py", "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/requirements.txt")

    def evaluate(self, facts: Facts) -> Finding:
        np = pkg(facts, "numpy")
        if np is None:
            return self.skip("numpy is not installed")
        pins = _pins(facts, "numpy")
        if not pins:
            return self.skip("no numpy pin known for the installed verl / vllm-ascend")
        for who, spec in pins:
            if not in_range(np, spec):
                return self.fail(f"numpy {np} breaks {who}, which needs numpy{spec}", fix=f"pip install 'numpy{spec}'", numpy=str(np))
        return self.passed(f"numpy {np} fits " + ", ".join(f"{w} ({s})" for w, s in pins), numpy=str(np))


class TritonConflict(Rule):
    id = "ARL-C012"
    title = "No upstream triton next to triton-ascend"
    severity = Severity.ERROR
    area = Area.STACK
    what = "Flags the upstream (CUDA) triton package installed in the same environment as triton-ascend."
    why = "Both install the `triton` module; whichever wins, verl's and vllm's triton kernels break (the verl v0.7.0 Dockerfile uninstalls both before installing triton-ascend)."
    fix = "pip uninstall -y triton triton-ascend && pip install triton-ascend==<version of your row>"
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/docker/ascend/Dockerfile.ascend_8.3.rc1_a2", "https://github.com/verl-project/verl/issues/5468")

    def evaluate(self, facts: Facts) -> Finding:
        ta, tr = pkg(facts, "triton_ascend"), pkg(facts, "triton")
        if ta is None:
            return self.skip("triton-ascend is not installed")
        if tr is not None:
            return self.warn(f"triton {tr} is installed next to triton-ascend {ta}", triton=str(tr), triton_ascend=str(ta))
        return self.passed(f"triton-ascend {ta} alone", triton_ascend=str(ta))


class TensordictFits(Rule):
    id = "ARL-C013"
    title = "tensordict within verl's range"
    severity = Severity.ERROR
    area = Area.STACK
    what = "Checks tensordict against the range verl v0.7.0's setup.py allows (>=0.8.0,<=0.10.0,!=0.9.0)."
    why = "verl's DataProto is built on tensordict; other releases change its API and verl fails when the first batch is built."
    fix = "pip install 'tensordict>=0.8.0,<=0.10.0,!=0.9.0'"
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/setup.py",)

    def evaluate(self, facts: Facts) -> Finding:
        td, verl = pkg(facts, "tensordict"), pkg(facts, "verl")
        if verl is None:
            return self.skip("verl is not installed")
        row = compat.verl_row(verl)
        spec = row.get("tensordict") if row else None
        if not spec:
            return self.skip(f"no tensordict range known for verl {verl}")
        if td is None:
            return self.fail(f"verl {verl} needs tensordict{spec}; it is not installed")
        if in_range(td, spec):
            return self.passed(f"tensordict {td} within {spec}", tensordict=str(td))
        return self.fail(f"tensordict {td} is outside {spec} (verl {verl})", tensordict=str(td))


RULES: tuple[type[Rule], ...] = (VerlStack, TransformersFits, NumpyFits, TritonConflict, TensordictFits)
