"""CANN rules (ARL-A*): toolkit and NNAL installed, sourced in this shell, and importable."""

from __future__ import annotations

from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from ..versions import parse_ascend

SET_ENV_DOC = "https://github.com/Ascend/cann-container-image/blob/main/cann/8.3.rc1-910b-ubuntu22.04-py3.11/Dockerfile"


def _source_line(facts: Facts) -> str:
    toolkit = facts.value("cann.set_env") or "/usr/local/Ascend/ascend-toolkit/set_env.sh"
    return f"source {toolkit}"


class CannToolkitInstalled(Rule):
    id = "ARL-A001"
    title = "CANN toolkit installed"
    severity = Severity.CRITICAL
    area = Area.CANN
    what = "Finds the CANN toolkit's install record (ascend_toolkit_install.info) in the 8.x and 8.5+/9.x layouts, $ASCEND_HOME_PATH and /etc/Ascend/ascend_cann_install.info."
    why = "torch_npu, HCCL and vllm-ascend load CANN's libraries; without the toolkit nothing on the NPU runs."
    fix = "Use a CANN image (quay.io/ascend/verl, quay.io/ascend/cann) or install the Ascend-cann-toolkit package of your stack's row."
    sources = ("https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/softwareinst/instg/instg_0044.html", "https://www.hiascend.com/document/detail/zh/canncommercial/850/softwareinst/instg/instg_0044.html")

    def evaluate(self, facts: Facts) -> Finding:
        toolkit = facts.value("cann.toolkit")
        if toolkit:
            others = [t["version"] for t in facts.value("cann.toolkits", [])[1:]]
            extra = f" (also found: {', '.join(others)})" if others else ""
            return self.passed(f"CANN {toolkit['version']} {toolkit['arch']} at {toolkit['home']}{extra}", **toolkit)
        fact = facts.get_fact("cann.toolkit")
        if facts.value("cann.toolkit.unreadable"):
            return self.fail(f"CANN install record unreadable: {fact.reason}", fix="Reinstall the toolkit or repair the named file.")
        return self.fail(f"no CANN toolkit on this host: {fact.reason}")


class CannEnvSourced(Rule):
    id = "ARL-A002"
    title = "CANN environment sourced in this shell"
    severity = Severity.CRITICAL
    area = Area.CANN
    what = "Checks what `source set_env.sh` sets: ASCEND_HOME_PATH and ASCEND_OPP_PATH pointing at existing dirs, the toolkit lib64 and the driver lib64 on LD_LIBRARY_PATH."
    why = "Without them `import torch_npu` fails with `libhccl.so: cannot open shared object file`, and since torch autoloads torch_npu even `import torch` fails — in the driver and in every Ray worker."
    fix = "source /usr/local/Ascend/ascend-toolkit/set_env.sh (CANN <= 8.3) or /usr/local/Ascend/cann/set_env.sh (8.5+), then the NNAL one, in the shell that launches the run."
    fix_id = "cann-source-env"
    sources = (SET_ENV_DOC, "https://github.com/Ascend/pytorch/blob/master/torch_npu/_init/registry/registry_manager.py")

    def evaluate(self, facts: Facts) -> Finding:
        if not facts.value("cann.toolkit"):
            return self.skip("no CANN toolkit installed (see ARL-A001)")
        env = facts.value("cann.env", {})
        problems = []
        if not env.get("ASCEND_HOME_PATH"):
            problems.append("ASCEND_HOME_PATH is not set")
        elif not env.get("home_exists"):
            problems.append(f"ASCEND_HOME_PATH={env['ASCEND_HOME_PATH']} does not exist")
        elif not env.get("toolkit_lib_on_ld_path"):
            problems.append("the toolkit's lib64 is not on LD_LIBRARY_PATH")
        if env.get("ASCEND_HOME_PATH") and not env.get("opp_exists"):
            problems.append("ASCEND_OPP_PATH is unset or missing")
        if not env.get("driver_lib_on_ld_path"):
            problems.append("the driver's lib64 (…/driver/lib64/driver, …/common) is not on LD_LIBRARY_PATH")
        if problems:
            return self.fail("; ".join(problems), fix=f"{_source_line(facts)} before launching (ascendrl fix writes it to .ascendrl/env.sh)", **env)
        return self.passed(f"sourced: ASCEND_HOME_PATH={env['ASCEND_HOME_PATH']}", **env)


class NnalInstalled(Rule):
    id = "ARL-A003"
    title = "NNAL (ATB) installed, same release as CANN"
    severity = Severity.ERROR
    area = Area.CANN
    what = "Reads nnal/atb/latest/version.info and compares its release with the toolkit's."
    why = "vllm-ascend loads libatb.so from NNAL; a missing or mismatched NNAL fails when vLLM starts (the install guides require NNAL == CANN)."
    fix = "Install the Ascend-cann-nnal package of the same version as the toolkit."
    sources = ("https://github.com/vllm-project/vllm-ascend/blob/v0.13.0/docs/source/installation.md",)

    def evaluate(self, facts: Facts) -> Finding:
        cann_text = facts.value("cann.toolkit.version")
        if not cann_text:
            return self.skip("no CANN toolkit installed (see ARL-A001)")
        nnal = facts.value("nnal.version")
        needed = facts.value("pkg.vllm_ascend") is not None
        if nnal is None:
            reason = facts.get_fact("nnal.version").reason
            verdict = self.fail if needed else self.warn
            return verdict(f"NNAL not found: {reason}" + ("; vllm-ascend needs it" if needed else ""))
        nnal_v, cann_v = parse_ascend(_release_of(nnal)), parse_ascend(cann_text)
        if nnal_v is not None and cann_v is not None and nnal_v != cann_v:
            return self.warn(f"NNAL {nnal} differs from CANN {cann_text}", nnal=nnal, cann=cann_text)
        return self.passed(f"NNAL {nnal} with CANN {cann_text}", nnal=nnal, cann=cann_text)


def _release_of(version: str) -> str:
    """'8.3.RC1.B030' -> '8.3.RC1': drop the build suffix ATB adds."""
    parts = version.split(".")
    return ".".join(p for p in parts if not (p[:1] in "Bb" and p[1:].isdigit()))


class NnalSourced(Rule):
    id = "ARL-A004"
    title = "NNAL environment sourced"
    severity = Severity.CRITICAL
    area = Area.CANN
    what = "Checks ATB_HOME_PATH (set by nnal/atb/set_env.sh) and that libatb.so exists under it."
    why = "vllm-ascend imports libatb.so at start-up; unsourced, vLLM fails with `libatb.so: cannot open shared object file` or cannot infer the device type."
    fix = "source /usr/local/Ascend/nnal/atb/set_env.sh after the toolkit's set_env.sh."
    fix_id = "cann-source-env"
    sources = ("https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/faqs.md",)

    def evaluate(self, facts: Facts) -> Finding:
        if facts.value("nnal.version") is None and not facts.value("nnal.set_env"):
            return self.skip("NNAL is not installed (see ARL-A003)")
        if facts.value("pkg.vllm_ascend") is None:
            return self.skip("vllm-ascend is not installed; nothing here loads ATB")
        env = facts.value("nnal.env", {})
        if not env.get("ATB_HOME_PATH"):
            return self.fail("ATB_HOME_PATH is not set", fix=f"source {facts.value('nnal.set_env') or '/usr/local/Ascend/nnal/atb/set_env.sh'}")
        if not env.get("libatb_exists"):
            return self.fail(f"no libatb.so under ATB_HOME_PATH={env['ATB_HOME_PATH']}/lib")
        return self.passed(f"ATB_HOME_PATH={env['ATB_HOME_PATH']}", **env)


class TorchNpuImports(Rule):
    id = "ARL-A005"
    title = "`import torch_npu` works"
    severity = Severity.CRITICAL
    area = Area.CANN
    what = "With --deep, imports torch_npu in a subprocess of the checked interpreter (with a timeout) and reports the real error."
    why = "Every verl worker imports torch_npu; if it cannot load CANN's libraries the whole run dies at start, after Ray has spent a minute starting."
    fix = "Source the CANN and NNAL set_env.sh; check that CANN is the release torch_npu was built for (ARL-C005)."
    fix_id = "cann-source-env"
    sources = ("https://github.com/Ascend/pytorch/blob/master/torch_npu/npu/utils.py",)

    def evaluate(self, facts: Facts) -> Finding:
        if facts.value("pkg.torch_npu") is None:
            return self.skip("torch_npu is not installed")
        outcome = facts.value("import.torch_npu")
        if outcome is None:
            return self.skip(facts.get_fact("import.torch_npu").reason or "not run")
        if outcome.ok:
            return self.passed("import torch_npu succeeded")
        if outcome.timed_out:
            return self.fail("import torch_npu hung past the timeout", fix="Check for a hung driver (npu-smi info) or a stale lock.")
        fix = None
        if outcome.error and ".so" in outcome.error:
            fix = f"{_source_line(facts)}; then source /usr/local/Ascend/nnal/atb/set_env.sh"
        return self.fail(f"import torch_npu failed: {outcome.error}", fix=fix, error=outcome.error)


class TorchImports(Rule):
    id = "ARL-A006"
    title = "`import torch` works with torch_npu installed"
    severity = Severity.CRITICAL
    area = Area.CANN
    what = "With --deep, imports plain torch in a subprocess: torch autoloads the torch_npu backend, so a broken torch_npu breaks torch itself."
    why = "verl, Ray workers and data tools all import torch; `RuntimeError: Failed to load the backend extension: torch_npu` stops all of them."
    fix = "Fix torch_npu's import (ARL-A005). TORCH_DEVICE_BACKEND_AUTOLOAD=0 only hides it for CPU-only tools."
    fix_id = "cann-source-env"
    sources = ("https://github.com/pytorch/pytorch/blob/main/torch/__init__.py",)  # _import_device_backends

    def evaluate(self, facts: Facts) -> Finding:
        if facts.value("pkg.torch") is None:
            return self.skip("torch is not installed")
        outcome = facts.value("import.torch")
        if outcome is None:
            return self.skip(facts.get_fact("import.torch").reason or "not run")
        if outcome.ok:
            return self.passed("import torch succeeded")
        return self.fail(f"import torch failed: {outcome.error}", error=outcome.error)


RULES: tuple[type[Rule], ...] = (CannToolkitInstalled, CannEnvSourced, NnalInstalled, NnalSourced, TorchNpuImports, TorchImports)
