"""Stack rules (ARL-C*): the versions of Python, torch, torch_npu, vllm, vllm-ascend, verl,
CANN and the HDK against the published compatibility matrices in ``data/compat.yaml``."""

from __future__ import annotations

from packaging.version import Version

from .. import compat
from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from ..versions import base, in_range, minor, parse_ascend, parse_python_pkg

VLLM_ASCEND_MATRIX = compat.source_of("vllm_ascend")
TORCH_NPU_MATRIX = compat.source_of("torch_npu_cann")


def pkg(facts: Facts, name: str) -> Version | None:
    return parse_python_pkg(facts.value(f"pkg.{name}"))


def raw(facts: Facts, name: str) -> str | None:
    return facts.value(f"pkg.{name}")


class PythonVersion(Rule):
    id = "ARL-C001"
    title = "Python version fits the stack"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Compares the checked interpreter's Python with the range the installed vllm-ascend release supports (3.10+ otherwise, as verl needs)."
    why = "vllm-ascend and torch_npu ship wheels for a fixed Python range; outside it the import fails or pip builds from source."
    fix = "Use the Python of the official image (3.11 in the CANN 8.3/8.5 images) or a venv with a supported version."
    sources = (VLLM_ASCEND_MATRIX,)

    def evaluate(self, facts: Facts) -> Finding:
        py = parse_python_pkg(facts.value("python.version"))
        if py is None:
            return self.skip(f"Python version unknown: {facts.get_fact('python.version').reason}")
        va = pkg(facts, "vllm_ascend")
        row = compat.vllm_ascend_row(va) if va else None
        if row:
            spec = row["python"]
            if in_range(py, spec):
                return self.passed(f"Python {py} within {spec} (vllm-ascend {va})", python=str(py))
            return self.fail(f"Python {py} is outside {spec}, the range of vllm-ascend {va}", python=str(py), required=spec)
        if py < Version("3.10"):
            return self.fail(f"Python {py} is older than 3.10, which verl requires", python=str(py))
        return self.passed(f"Python {py}", python=str(py))


class VllmMatchesVllmAscend(Rule):
    id = "ARL-C002"
    title = "vllm matches vllm-ascend"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Checks that vllm is the exact release the installed vllm-ascend was built against (the same row of vllm-ascend's matrix)."
    why = "vllm-ascend patches vllm internals of one release; any other vllm fails at import or at the first rollout."
    fix = "Install the vllm of the matrix row (e.g. vllm 0.11.0 with vllm-ascend 0.11.0rc1), built with VLLM_TARGET_DEVICE=empty."
    sources = (VLLM_ASCEND_MATRIX,)

    def evaluate(self, facts: Facts) -> Finding:
        va, vl = pkg(facts, "vllm_ascend"), pkg(facts, "vllm")
        if va is None:
            return self.skip("vllm-ascend is not installed")
        row = compat.vllm_ascend_row(va)
        if row is None:
            newer = va > compat.newest_vllm_ascend()
            return self.warn(
                f"vllm-ascend {va} has no row in the matrix ({'newer than' if newer else 'not listed in'} the shipped data); vllm {vl or 'not installed'}",
                fix="Check vllm-ascend's versioning policy page for this release.",
                vllm_ascend=str(va),
            )
        wanted = row["vllm"]
        if vl is None:
            return self.fail(f"vllm-ascend {va} is installed but vllm is not (wants vllm {' or '.join(wanted)})", vllm_ascend=str(va))
        if any(Version(vl.public) == Version(w) for w in wanted):
            if row.get("silent"):
                return self.warn(
                    f"vllm {vl} matches vllm-ascend {va}, a silent release: {row['silent']}",
                    fix="Prefer a production release of vllm-ascend (0.23.0, or the 0.26 line) for long runs.",
                    vllm=str(vl),
                    vllm_ascend=str(va),
                )
            note = f" — note: {row['note']}" if row.get("note") else ""
            return self.passed(f"vllm {vl} matches vllm-ascend {va}{note}", vllm=str(vl), vllm_ascend=str(va))
        return self.fail(
            f"vllm-ascend {va} wants vllm {' or '.join(wanted)}, found {vl}",
            fix=f"pip install vllm=={wanted[0]} (built from source with VLLM_TARGET_DEVICE=empty), or the vllm-ascend release matching vllm {vl}.",
            vllm=str(vl),
            vllm_ascend=str(va),
        )


class TorchMatchesTorchNpu(Rule):
    id = "ARL-C003"
    title = "torch matches torch_npu"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Checks that torch and torch_npu share major.minor.patch (torch_npu 2.7.1.post1 goes with torch 2.7.1)."
    why = "torch_npu is a compiled extension of one torch release; another torch fails at import with undefined symbols."
    fix = "pip install torch==<torch_npu base version> (CPU wheel) next to torch_npu."
    sources = (TORCH_NPU_MATRIX,)

    def evaluate(self, facts: Facts) -> Finding:
        torch, npu = pkg(facts, "torch"), pkg(facts, "torch_npu")
        if npu is None:
            return self.skip("torch_npu is not installed")
        if torch is None:
            return self.fail(f"torch_npu {npu} is installed without torch", fix=f"pip install torch=={base(npu)}")
        if base(torch) == base(npu):
            return self.passed(f"torch {torch} with torch_npu {npu}", torch=str(torch), torch_npu=str(npu))
        return self.fail(
            f"torch {torch} does not match torch_npu {npu} (needs torch {base(npu)})",
            fix=f"pip install torch=={base(npu)}, or the torch_npu build for torch {base(torch)}.",
            torch=str(torch),
            torch_npu=str(npu),
        )


class VllmAscendTorch(Rule):
    id = "ARL-C004"
    title = "torch / torch_npu fit vllm-ascend"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Compares torch and torch_npu with the versions the vllm-ascend release's matrix row names."
    why = "vllm-ascend's custom ops are compiled against one torch_npu; a different torch base fails at import, a different build of the same base may miss fixes."
    fix = "Install the torch and torch_npu of the vllm-ascend row."
    sources = (VLLM_ASCEND_MATRIX,)

    def evaluate(self, facts: Facts) -> Finding:
        va = pkg(facts, "vllm_ascend")
        if va is None:
            return self.skip("vllm-ascend is not installed")
        row = compat.vllm_ascend_row(va)
        if row is None:
            return self.skip(f"vllm-ascend {va} has no matrix row (see ARL-C002)")
        torch, npu = pkg(facts, "torch"), pkg(facts, "torch_npu")
        want_torch, want_npu = row["torch"], row["torch_npu"]
        if torch is None or npu is None:
            return self.fail(
                f"vllm-ascend {va} needs torch {want_torch} and torch_npu {want_npu}; found torch {torch or 'none'}, torch_npu {npu or 'none'}",
                fix=f"pip install torch=={want_torch} torch-npu=={want_npu}",
            )
        if base(torch) != want_torch or base(npu) != base(Version(want_npu)):
            return self.fail(
                f"vllm-ascend {va} needs torch {want_torch} / torch_npu {want_npu}; found {torch} / {npu}",
                fix=f"pip install torch=={want_torch} torch-npu=={want_npu}",
                torch=str(torch),
                torch_npu=str(npu),
            )
        if Version(npu.public) != Version(want_npu):
            return self.warn(
                f"torch_npu {npu} is another build of {base(npu)} than the {want_npu} vllm-ascend {va} lists",
                fix=f"pip install torch-npu=={want_npu} unless you chose this build on purpose.",
                torch_npu=str(npu),
            )
        return self.passed(f"torch {torch} / torch_npu {npu} as vllm-ascend {va} lists", torch=str(torch), torch_npu=str(npu))


class TorchNpuCann(Rule):
    id = "ARL-C005"
    title = "torch_npu supports the installed CANN"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = (
        "Looks for a published statement that this torch_npu build runs on this CANN: Ascend/pytorch's compatibility table, "
        "the TorchNPU release notes' set of compatible CANN releases, a vllm-ascend matrix row or a verl release's Ascend stack."
    )
    why = (
        "torch_npu calls CANN runtime and operator APIs of its release; a CANN nobody tested it with can lack them "
        "(undefined symbols, aclnn errors at the first op). No source lists incompatible pairs, so an unlisted pair is a warning, not a failure."
    )
    fix = "Install a torch_npu build documented for your CANN (same torch base), or the CANN (toolkit + NNAL) documented for your build."
    sources = (TORCH_NPU_MATRIX, compat.source_of("torch_npu_builds"), VLLM_ASCEND_MATRIX)

    def evaluate(self, facts: Facts) -> Finding:
        npu = pkg(facts, "torch_npu")
        cann_text = facts.value("cann.toolkit.version")
        cann = parse_ascend(cann_text)
        if npu is None:
            return self.skip("torch_npu is not installed")
        if cann is None:
            return self.skip("no CANN toolkit version was read (see ARL-A001)")
        found = dict(torch_npu=str(npu), cann=cann_text)
        evidence = compat.torch_npu_supports(npu, cann)
        if evidence:
            return self.passed(f"torch_npu {npu} on CANN {cann_text}: {evidence.says} ({evidence.source})", **found, source=evidence.source)
        known = compat.torch_npu_evidence(npu)
        builds = compat.torch_npu_builds_for(cann, base(npu))
        fix = (
            f"If the first NPU op fails, install a build documented for CANN {cann_text}: pip install torch-npu=={builds[0]}"
            if builds
            else f"If the first NPU op fails, move to a CANN documented for torch_npu {npu}, or a torch_npu build documented for CANN {cann_text}."
        )
        if not known:
            return self.warn(f"torch_npu {npu} is in no release note or matrix shipped here: its CANN support is unknown", fix=fix, **found)
        listed = sorted({e.cann for e in known}, key=lambda c: parse_ascend(c.replace(".X", ".0").replace(".x", ".0")) or Version("0"))
        sources = sorted({e.source for e in known})
        return self.warn(
            f"no release note or official matrix pairs torch_npu {npu} with CANN {cann_text}; it is documented with CANN {', '.join(listed)} ({'; '.join(sources)})",
            fix=fix,
            documented=listed,
            **found,
        )


class VllmAscendCann(Rule):
    id = "ARL-C006"
    title = "CANN fits vllm-ascend"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Compares the CANN toolkit with the CANN release of the vllm-ascend matrix row."
    why = "vllm-ascend's kernels and ATB calls need at least the CANN of its row; older CANN fails at load or at the first custom op."
    fix = "Install the CANN toolkit and NNAL of the vllm-ascend row (both the same version)."
    sources = (VLLM_ASCEND_MATRIX,)

    def evaluate(self, facts: Facts) -> Finding:
        va = pkg(facts, "vllm_ascend")
        cann_text = facts.value("cann.toolkit.version")
        cann = parse_ascend(cann_text)
        if va is None:
            return self.skip("vllm-ascend is not installed")
        if cann is None:
            return self.skip("no CANN toolkit version was read (see ARL-A001)")
        row = compat.vllm_ascend_row(va)
        if row is None:
            return self.skip(f"vllm-ascend {va} has no matrix row (see ARL-C002)")
        want = parse_ascend(row["cann"])
        found = dict(cann=cann_text, vllm_ascend=str(va), wanted=row["cann"])
        if want is None or cann == want:
            return self.passed(f"CANN {cann_text} as vllm-ascend {va} lists", **found)
        if cann < want:
            verl_rows = compat.verl_stacks_with(va, cann)
            if verl_rows:
                vrow = verl_rows[0]
                return self.warn(
                    f"vllm-ascend {va}'s matrix row names CANN {row['cann']}; verl {vrow['verl']}'s Ascend guide runs it on CANN {cann_text} "
                    f"({vrow.get('ascend_source', vrow['source'])})",
                    fix=f"Move to CANN {row['cann']} if an op fails that the release notes of vllm-ascend {va} fixed.",
                    **found,
                )
            return self.fail(f"vllm-ascend {va} needs CANN {row['cann']}; found {cann_text}", **found)
        return self.warn(f"CANN {cann_text} is newer than the {row['cann']} vllm-ascend {va} was released for", **found)


class CannDriver(Rule):
    id = "ARL-C007"
    title = "NPU driver (HDK) supports the CANN release"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Compares the driver version (driver/version.info) with the HDK range the CANN release notes accept."
    why = "The CANN runtime talks to the driver through versioned interfaces; too old a driver fails device init (e.g. rtSetDevice errors)."
    fix = "Upgrade the NPU driver and firmware on the host to the HDK paired with your CANN (containers use the host's driver)."
    sources = ("https://www.hiascend.com/document/detail/en/CANNCommunityEdition/910/softwareinst/releasenote/9.1.0/release-notes.md",)

    def evaluate(self, facts: Facts) -> Finding:
        cann_text = facts.value("cann.toolkit.version")
        cann = parse_ascend(cann_text)
        driver_info = facts.value("hdk.driver")
        if cann is None:
            return self.skip("no CANN toolkit version was read (see ARL-A001)")
        if not driver_info:
            return self.skip(f"no driver version: {facts.get_fact('hdk.driver').reason}")
        driver = parse_ascend(driver_info["version"])
        row = compat.cann_hdk_row(cann)
        found = dict(cann=cann_text, driver=driver_info["version"])
        if driver is None:
            return self.warn(f"driver version {driver_info['version']!r} is not a version number", **found)
        if row is None:
            return self.warn(f"no HDK table for CANN {cann_text} in the shipped data", **found)
        low, high = parse_ascend(row["min_driver"]), parse_ascend(row["max_driver"])
        assert low is not None and high is not None
        unsourced = "; the range around the paired HDK has no source" if row.get("range_confirmed") is False else ""
        note = f" ({row['note']}{unsourced}; {row['source']})"
        if driver < low:
            verdict = self.fail if row["confirmed"] else self.warn
            return verdict(f"driver {driver_info['version']} is older than CANN {cann_text} accepts (from {row['min_driver']}){note}", **found)
        if driver > high:
            return self.warn(f"driver {driver_info['version']} is newer than the HDK releases listed for CANN {cann_text}{note}", **found)
        if not row["confirmed"] and driver != parse_ascend(row["paired"]):
            return self.warn(
                f"driver {driver_info['version']} with CANN {cann_text} is probably fine but unconfirmed: the paired HDK is {row['paired']}{note}",
                fix=f"If device init fails, move the host to HDK {row['paired']}.",
                **found,
            )
        return self.passed(f"driver {driver_info['version']} supports CANN {cann_text}", **found)


class DriverFirmware(Rule):
    id = "ARL-C008"
    title = "Firmware fits the driver"
    severity = Severity.ERROR
    area = Area.STACK
    what = "Checks the firmware version against the range the driver's own version.info declares (compatible_version_fw)."
    why = "A driver upgraded without its firmware (or the reverse) leaves NPUs unhealthy or failing to start."
    fix = "Install the firmware package of the same HDK release as the driver, then reboot."
    sources = ("https://github.com/Ascend/mind-cluster/blob/master/docs/en/faultdiag/user_guide/03_collecting_logs.md",)

    def evaluate(self, facts: Facts) -> Finding:
        driver, firmware = facts.value("hdk.driver"), facts.value("hdk.firmware")
        if not driver or not firmware:
            return self.skip("driver or firmware version.info not read")
        window = driver.get("compatible_firmware")
        fw = parse_python_pkg(firmware["version"]) or parse_ascend(firmware["version"])
        if not window or fw is None:
            return self.skip("the driver's version.info declares no firmware range")
        low, high = (parse_python_pkg(v) or parse_ascend(v) for v in window)
        found = dict(firmware=firmware["version"], driver=driver["version"], accepted=window)
        if low is None or high is None:
            return self.skip(f"cannot read the range {window}")
        if low <= fw <= high:
            return self.passed(f"firmware {firmware['version']} within [{window[0]}, {window[1]}]", **found)
        return self.fail(f"firmware {firmware['version']} is outside the driver's accepted range [{window[0]}, {window[1]}]", **found)


class CudaTorchNextToNpu(Rule):
    id = "ARL-C014"
    title = "No CUDA build of torch next to torch_npu"
    severity = Severity.CRITICAL
    area = Area.STACK
    what = "Looks for a CUDA torch (a +cuXXX local version) or NVIDIA CUDA runtime wheels (nvidia-*) in the environment that has torch_npu."
    why = (
        "torch_npu needs the CPU build of its torch; a PyPI vllm, flash-attn or plain `pip install torch` swaps in a CUDA build "
        "and its nvidia-* wheels, and torch_npu then refuses to load ('Two accelerators cannot be used at the same time in PyTorch')."
    )
    fix = "pip install --force-reinstall torch==<torch_npu base> --index-url https://download.pytorch.org/whl/cpu, uninstall the nvidia-* wheels, and install vllm from source with VLLM_TARGET_DEVICE=empty."
    sources = (
        "https://github.com/Ascend/pytorch/blob/v7.2.0-pytorch2.7.1/torch_npu/__init__.py",
        "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/docs/source/installation.md",
    )

    def evaluate(self, facts: Facts) -> Finding:
        npu, torch = pkg(facts, "torch_npu"), pkg(facts, "torch")
        if npu is None:
            return self.skip("torch_npu is not installed")
        cuda = dict(facts.value("pkg.cuda_dists") or {})
        local = (torch.local or "") if torch else ""
        fix = f"pip install --force-reinstall torch=={base(npu)} --index-url https://download.pytorch.org/whl/cpu" + (
            f" && pip uninstall -y {' '.join(cuda)}" if cuda else ""
        )
        if local.startswith("cu"):
            return self.fail(f"torch {torch} is a CUDA build (+{local}) next to torch_npu {npu}", fix=fix, torch=str(torch), cuda_dists=cuda)
        if cuda:
            shown = ", ".join(f"{k} {v}" for k, v in list(cuda.items())[:4]) + (" …" if len(cuda) > 4 else "")
            return self.warn(
                f"{len(cuda)} NVIDIA CUDA wheel(s) next to torch_npu {npu} ({shown}): a CUDA torch or vllm was installed from PyPI at some point",
                fix=fix,
                cuda_dists=cuda,
            )
        return self.passed(f"torch {torch} is not a CUDA build; no nvidia-* wheels", torch=str(torch) if torch else None)


RULES: tuple[type[Rule], ...] = (
    PythonVersion,
    VllmMatchesVllmAscend,
    TorchMatchesTorchNpu,
    VllmAscendTorch,
    TorchNpuCann,
    VllmAscendCann,
    CannDriver,
    DriverFirmware,
    CudaTorchNextToNpu,
)
