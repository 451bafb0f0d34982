"""torch_npu refuses the chip it runs on: is a newer torch_npu able to run it, or none?

torch_npu sets its SoC version at device init (torch_npu/csrc/core/npu/NpuVariables.cpp, SetSocVersion) from the name
CANN reports (aclrtGetSocName): a name in its table, or (from the 26.0 line) any name starting "Ascend950", is
accepted; any other raises ``RuntimeError: Unsupported soc version: <name>`` with the name's underscores printed as
spaces ("Ascend950PR_9579" is printed "Ascend950PR 9579"). So the message says the installed build's table lacks the
chip. Whether that is torch_npu being too old or the chip having no torch_npu at all is read from the newest table:
a chip the current torch_npu accepts needs a newer torch_npu build; one it does not (Ascend310, Ascend610 …) is not a
torch_npu target, whichever release is installed.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence

NPU_VARIABLES = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/torch_npu/csrc/core/npu/NpuVariables.cpp"
ASCEND950_PREFIX = "https://github.com/Ascend/pytorch/commit/1c45fe4d0"
COMPATIBILITY = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/COMPATIBILITY.en.md"

UNSUPPORTED_SOC = lazy(r"\bUnsupported soc version: (Ascend[\w-]+(?: \w+)?)")
# socVersionMap of torch_npu master 9e73e708 (2026-08-21), NpuVariables.cpp; names starting "Ascend950" are accepted by
# prefix since commit 1c45fe4d ("rename 910_95->950", first tags 26.0.0.alpha001 / v26.1.0-beta.1).
KNOWN_SOCS = frozenset((
    "Ascend910PremiumA", "Ascend910ProA", "Ascend910A", "Ascend910ProB", "Ascend910B", "Ascend310P1", "Ascend310P2",
    "Ascend310P3", "Ascend310P4", "Ascend310P5", "Ascend310P7", "Ascend910B1", "Ascend910B2", "Ascend910B2C",
    "Ascend910B3", "Ascend910B4", "Ascend910B4-1", "Ascend310B1", "Ascend310B2", "Ascend310B3", "Ascend310B4",
    "Ascend910_9391", "Ascend910_9392", "Ascend910_9381", "Ascend910_9382", "Ascend910_9372", "Ascend910_9362",
    "Ascend910_9363",
))
PREFIXES = ("Ascend950",)


class TorchNpuSoc(Analyzer):
    """torch_npu's 'Unsupported soc version': the installed build's SoC table lacks the chip."""

    id = "DRV-torch-npu-soc"
    title = "torch_npu does not know the NPU chip it runs on"
    family = "compat"
    stops_run = "torch_npu cannot initialise the device: nothing runs on the NPU"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind in ("cann", "process", "hydra"):
            return None
        m = UNSUPPORTED_SOC.search(link.message if link.type else link.text)
        if m is None:
            return None
        printed = m.group(1)
        soc = printed.replace(" ", "_")  # SetSocVersion prints the name's underscores as spaces
        have = f" (the log shows torch_npu {facts.versions['torch_npu']})" if "torch_npu" in facts.versions else ""
        if soc in KNOWN_SOCS or soc.startswith(PREFIXES):
            return Finding(
                f"torch_npu too old for the {printed} chip: its SoC table does not list it"[:160],
                f"{link.short_type}: {m.group(0)}. torch_npu reads the chip's name from CANN at device init and accepts only "
                f"the names its build lists (NpuVariables.cpp, SetSocVersion); the installed torch_npu{have} does not list "
                f"{soc}, while the current torch_npu does"
                + (" (every Ascend950 name, by prefix, from the 26.0 release line)" if soc.startswith(PREFIXES) else "")
                + ": the chip is newer than the torch_npu build.",
                (f"Install a torch_npu release that supports {soc}, with the torch and CANN it pairs with (Ascend/pytorch's "
                 "compatibility table; newer chips need a newer CANN too): pip show torch torch-npu, ascendrl stack",
                 "Match the framework's pin to it (vllm-ascend / verl / the project's install script may pin an older torch-npu)"),
                evidence(link), (NPU_VARIABLES, ASCEND950_PREFIX, COMPATIBILITY), key=f"soc:{soc}", family="compat",
                kind="torch-npu-too-old",
            )
        return Finding(
            f"torch_npu does not support the {printed} chip (no torch_npu release lists it)"[:160],
            f"{link.short_type}: {m.group(0)}. torch_npu reads the chip's name from CANN at device init and accepts only the "
            f"names its build lists (NpuVariables.cpp, SetSocVersion); {soc} is not among them in the current torch_npu "
            "either, so no torch_npu release runs on it: PyTorch on this NPU is not a supported path (or CANN reports "
            "another chip than the one installed: check npu-smi info).",
            ("Run on a chip torch_npu supports (Atlas training / A2 / A3 series; Atlas 300I Duo is Ascend310P), or use the "
             "inference stack made for this chip (its CANN offline-model / ACL samples, MindSpore Lite)",
             "Check what CANN reports: npu-smi info (Name column) and python -c \"import acl; print(acl.get_soc_name())\""),
            evidence(link), (NPU_VARIABLES, COMPATIBILITY), key=f"soc:{soc}", family="compat",
            kind="soc-unsupported-by-torch-npu",
        )
