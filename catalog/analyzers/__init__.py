"""Derived diagnoses: small analyzers that reason from a failure no catalog entry names.

Each analyzer is one class in its own file with a stable id (``DRV-…``). It looks at one link of an
exception chain (the exception, its frames, the CANN lines and codes under it) plus what the log
states elsewhere (package versions, Hydra overrides), and returns a :class:`Finding` — a cause, a
concrete fix, the evidence lines — or ``None``. The registry is an explicit, ordered tuple: the
first analyzer with a finding for a link wins, so specific ones come first.

One merge rule joins analyzers and catalog: when a catalog entry names the link an analyzer
explains, the entry is the diagnosis (its cause, fix and source are curated) and every finding on
that link is folded into it as notes and evidence (the path and writer, the numbers and the knob,
the nearest keys, the two packages, the decoded codes). A finding is a diagnosis of its own only
on a link no entry names.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

from ..chain import Chain, Link
from ..entries import KnownFailure
from ...lazyre import lazy

ANALYZER_ID_PREFIX = "DRV-"


@dataclasses.dataclass(frozen=True)
class Finding:
    title: str
    cause: str
    fix: tuple[str, ...]
    evidence: tuple[str, ...]
    sources: tuple[str, ...]
    key: str  # the same failure seen twice (eight workers) is one diagnosis
    family: str = ""
    kind: str = ""  # the root-cause label (enospc, package-mismatch, process-segfault …), stable across wordings
    weak: bool = False  # a decoded code or a watchdog timeout: ranked below anything specific
    fatal: bool = True
    severity: str = "critical"
    # What to carry into a catalog diagnosis of the same link; None: the title and the fix steps.
    notes: tuple[str, ...] | None = None

    def as_notes(self, analyzer_id: str) -> list[str]:
        """The finding's specifics as notes for the catalog entry that names its link."""
        if self.notes is not None:
            return list(self.notes)
        steps = [step for step in self.fix if not step.startswith("See ")]
        return [f"{analyzer_id}: {self.title}", *steps]


@dataclasses.dataclass(frozen=True)
class Facts:
    """What the whole log states, beyond one chain."""

    versions: dict[str, str]  # import name (torch_npu, vllm_ascend), "cann", or "env:ASCEND_RT_VISIBLE_DEVICES" -> value
    overrides: dict[str, str]  # Hydra overrides seen on the command line or in "Error executing job"
    settings: Any = None  # run_settings.RunSettings: the config lines the classifier streamed past, per input
    # Compiled libraries / extension modules the log says could not be loaded, at any level (a warning the program
    # carried on after): "libvllm_ascend_kernels.so", "vllm_ascend.vllm_ascend_C". A later call into them fails.
    unloaded: tuple[str, ...] = ()
    # The log shows the Ascend stack: an NPU package's version, or NPU words in a failure's lines or frames (npu_seen).
    npu: bool = False
    # Where torch_npu printed its once-only warning that a runtime call was refused as a feature not supported
    # (ARL-E307's line: NPU_CHECK_ERROR turns ACL_ERROR_RT_FEATURE_NOT_SUPPORT into that warning and carries on): file, line.
    feature_refused: tuple[str, int] | None = None


class Analyzer:
    id: str = ""
    title: str = ""
    family: str = ""
    # Why this analyzer's fatal findings end a run, so `run` stops on them live (as on a fatal catalog
    # entry); empty: they are reported when the run ends, never stopped for. Only classes whose raised
    # exception nothing catches and retries: import and library failures are often caught (optional
    # plugins), decoded codes are printed for handled conditions too.
    stops_run: str = ""

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        return None

    def settle(self, derived: "Derived") -> None:
        """After every chain is read: relate this analyzer's items across chains (one failure's later echo printed as a
        failure of its own). Most analyzers have nothing to settle."""


def raised(link: Link) -> bool:
    """A Python exception (in a traceback, a Ray remote traceback, or pasted alone), not a CANN/process/Hydra line."""
    return link.kind in ("python", "remote", "bare")


def lone(link: Link) -> bool:
    """A paste of the error message alone, with no type: the classifier reads it as ``Exception: <sentence>``.

    (classify._lone_sentence: one sentence, no frames, the base class for the type the person did not paste.) An
    analyzer that recognises an emitter's exact sentence but checks the exception type first takes this link as any of
    its types: the type was never pasted, so it cannot rule the sentence out.
    """
    return link.kind == "bare" and link.type == "Exception" and not link.frames


def typed(link: Link, types: tuple[str, ...]) -> bool:
    """The link was raised as one of ``types``, or it is a lone sentence whose type was not pasted (see lone)."""
    return link.short_type in types or lone(link)


def evidence(link: Link, limit: int = 6) -> tuple[str, ...]:
    lines = [link.text or f"{link.type}: {link.message}"]
    lines += [d for d in link.detail if d not in lines]
    return tuple(line[:300] for line in lines[:limit])


@dataclasses.dataclass
class DerivedItem:
    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    count: int
    fatal: bool
    demoted_by: str | None
    evidence: tuple[str, ...]
    weak: bool
    order: int
    kind: str = ""


@dataclasses.dataclass
class Derived:
    items: list[DerivedItem]
    demoted: dict[str, str]  # catalog id -> the diagnosis id it is a consequence of (in some chain)
    roots: set[str]  # catalog ids that are the most specific link of some chain
    notes: dict[str, list[str]]  # catalog id -> the specifics of the findings folded into it
    explained: set[int]  # id() of links that carry a diagnosis
    evidence: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # catalog id -> its first folded finding's lines
    kinds: dict[str, str] = dataclasses.field(default_factory=dict)  # catalog id -> the root-cause label its folded finding recognised
    matched: frozenset[str] = frozenset()  # catalog ids the log matched anywhere, in a chain or not (for settle hooks)
    handled: set[str] = dataclasses.field(default_factory=set)  # ids of exceptions caught before their handler failed


def shipped_rows(module_file: str, package: str, name: str, key: str, required: frozenset[str]) -> tuple[dict[str, Any], ...]:
    """The rows under ``key`` of a YAML data file shipped beside an analyzer (own_checks.yaml, hccl_classes.yaml …).

    Parsed once, then read from the parsed-data cache (ascendrl/cache.py), keyed by the file's text and the analyzer's source;
    a row without the ``required`` keys makes the cached copy be rebuilt (and a shipped file fail its tests).
    """
    from ascendrl import cache

    text = cache.shipped_text(module_file, package, name)
    kind = Path(name).stem.replace("_", "-")

    def parse() -> list[dict[str, Any]]:
        import yaml

        return yaml.safe_load(text)[key]

    def load(rows: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
        if not all(isinstance(r, dict) and required <= r.keys() for r in rows):
            raise ValueError(f"{name}: rows lack their keys")
        return tuple(rows)

    return cache.cached(kind, cache.content_key(kind, cache.own_source(module_file), text), parse, load)


def entry_for(cls: type[Analyzer], finding: Finding) -> KnownFailure:
    return KnownFailure(
        id=cls.id,
        title=finding.title,
        family=finding.family or cls.family,
        severity=finding.severity,
        fatal=finding.fatal,
        signatures=(),
        cause=finding.cause,
        fix=finding.fix,
        sources=finding.sources,
        origin=f"catalog/analyzers/{Path(sys.modules[cls.__module__].__file__ or cls.__module__).name}",
    )


def registry() -> tuple[Analyzer, ...]:
    from . import cannrt, cliargs, codes, data, device, divisible, emitted, hccl, hub, launchargs, lengths, library, memory, mindspore, modelarch, names, opbuild, operator, oserror, package, pluginname, process, prose, pythonver, quantload, rendezvous, ropekeys, socsupport, torchdtype, tracker, triton, verl, verlname, versions, weightname, wire

    return tuple(cls() for cls in (
        emitted.NpuStreamNoDevice,  # before ProcessDeath: its assert often ends the process via std::terminate
        process.ProcessDeath,
        memory.SharedMemory,
        memory.Memory,
        oserror.FileLockFs,
        oserror.OSErrors,
        oserror.CheckpointWrite,
        device.DeviceVisibility,
        device.CudaOnNpu,
        socsupport.TorchNpuSoc,
        mindspore.MindSporeDeviceMemory,  # before MindSporeDevice: the runtime-init message often carries its reason
        mindspore.MindSporeDevice,
        library.CustomOpp,  # before SharedLibrary: libcust_opapi.so is a custom package's, not CANN's own
        library.SharedLibrary,
        opbuild.CannPython,
        versions.VersionPairs,
        triton.TritonOnNpu,
        triton.TritonLauncherBuild,
        triton.TritonOutOfResources,
        library.CudaOnlyPackage,
        data.DataFile,
        data.PromptLength,
        lengths.EngineLengths,
        data.TensorDevices,
        data.RewardArguments,
        data.RewardNone,
        data.DatasetColumns,
        data.EmptyEpoch,
        data.EmptyPickle,
        data.ChatTemplateContent,
        rendezvous.Rendezvous,
        hub.HubUnreachable,
        hub.RepoIdInvalid,
        tracker.TrackerUnreachable,
        hub.WeightsOnly,
        wire.HubRateLimited,
        wire.HostUnresolvable,
        wire.JsonLines,
        modelarch.ModelArchitecture,
        modelarch.VerlModelArchitecture,
        modelarch.ModelPathMissing,
        ropekeys.RopeScalingKey,  # a KeyError whose source line indexes rope_scaling
        quantload.QuantizedWeights,
        weightname.VllmWeightName,  # after QuantizedWeights: on the NPU a quantized tensor is vllm-ascend's question
        weightname.MindieWeightMissing,
        weightname.WeightShape,
        pythonver.PythonTooOld,  # before MissingImport / PackageMismatch: the interpreter barred the release they would name
        names.MissingImport,
        package.PackageMismatch,
        emitted.VllmV1Unsupported,
        emitted.VllmNoPlatform,
        pluginname.PluginNameUnknown,
        emitted.RayMechanisms,
        emitted.OwnCheck,
        emitted.TrlCheck,  # after OwnCheck: a TRL check with a row of its own keeps that row's reading
        emitted.CustomModelType,
        torchdtype.TorchSameType,  # a convolution's input and weight / bias types (device and dtype)
        torchdtype.TorchDtypeDispatch,  # ATen's dtype dispatch ('"<kernel>" not implemented for \'<dtype>\'')
        verlname.VerlRegistryName,
        verl.VerlCondition,
        verl.ParallelDivisibility,
        verl.HydraKey,
        verl.MergerConcat,
        launchargs.LaunchArguments,  # Megatron / MindSpeed validate_args: after verl's own conditions
        divisible.SizeDivisibility,  # any other framework's divisibility check, by the names of its two sizes
        cliargs.UnusedArguments,
        cliargs.ExtraArguments,
        cliargs.InvalidChoice,  # argparse's refusal of an option value not among its choices
        operator.NpuOpOnCpuTensors,
        operator.OpNoDeviceKernel,
        operator.MindSporeOpPrototype,
        operator.OperatorParams,
        operator.OpArgumentParser,  # the Python argument parser's refusal of an operator call (type / schema)
        operator.VllmAscendRefusal,  # vllm-ascend's own refusals of a feature / setting no entry names
        opbuild.OpMissing,
        opbuild.OpCompile,
        opbuild.BuildHeader,
        opbuild.AscendCKernelCompile,
        opbuild.NativeBuild,
        opbuild.CMakeConfigure,
        hccl.HcclLog,
        hccl.HcclDataType,
        cannrt.KernelFunctionMissing,  # the runtime's own words name the class the code under them (107000, 207000) does not
        cannrt.RuntimeFeatureUnsupported,
        cannrt.AclnnInnerErrorOnly,
        cannrt.AfterRefusedFeature,  # before DRV-code: a null aclnn executor / torch_npu internal assert after torch_npu's
                                     # feature-refused warning is that refusal's consequence, not its code's class
        cannrt.CaptureRefused,  # the runtime's words for a call refused under ACL graph capture, pasted without its code;
                                # torch_npu's capture_begin assert that the stream is not capturing
        prose.NamedInWords,  # a lone sentence's words, when no analyzer above reads the sentence itself
        codes.ErrorCodes,
    ))


MAX_NOTES = 8
# torch_npu's warning that a runtime call was refused as a feature not supported, the entry whose line Facts.feature_refused holds
FEATURE_REFUSED_ENTRY = "ARL-E307"


def derive(
    chains: list[Chain], fatal_chain: dict[int, bool], versions: dict[str, str], entries: dict[str, KnownFailure],
    positions: dict[str, tuple[str, int]] | None = None, analyzers: tuple[Analyzer, ...] | None = None, settings: Any = None,
    unloaded: tuple[str, ...] = (),
) -> Derived:
    """Run the analyzers over every chain; fold findings into the catalog entry naming the same link.

    ``positions`` (catalog id -> file and line of its match) tells when a wrapper (generic) entry
    matched the link's own line rather than a line under it: then it names that link, too.
    """
    analyzers = analyzers if analyzers is not None else registry()
    # vLLM's "Platform plugin ascend is activated" (run_settings.PLATFORM) says the engine runs on the NPU too.
    # torch_npu's own error tag (ARL-E332: "ERR00100 PTA call acl api failed", "ERR99999 UNKNOWN applicaiton exception")
    # matched on a line of its own, outside the chains, says the same (vllm-ascend#183: a Ray worker's KeyError, then the tag).
    npu = (npu_seen(chains, versions) or (settings is not None and "ascend" in settings.platforms())
           or any(i in (positions or {}) for i in NPU_TAG_ENTRIES))
    facts = Facts(dict(versions), _overrides(chains), settings, unloaded, npu, (positions or {}).get(FEATURE_REFUSED_ENTRY))
    positions = positions or {}
    out = Derived([], {}, set(), {}, set(), matched=frozenset(positions))
    by_key: dict[tuple[str, str], DerivedItem] = {}
    for chain in chains:
        fatal = fatal_chain.get(id(chain), True)
        best: tuple[int, str] | None = None  # (tier, id) of the deepest diagnosis so far
        weak: list[DerivedItem] = []  # catch-all codes read in this chain: below anything specific it also holds
        best_item: DerivedItem | None = None
        best_roots: list[str] = []  # the ids the best link made roots (no earlier chain had)
        best_from: tuple[Link, list[tuple[Analyzer, Finding]]] | None = None  # the best derived item's link and findings
        for link in chain.links:
            catalog = [entries[i] for i in link.hits if i in entries]
            specific = [e for e in catalog if not e.generic]
            namer = specific[0] if specific else _names_own_line(catalog, link, positions)
            # On a link no entry names, an analyzer may defer to a wrapper entry of its family (codes).
            link.families = () if namer is not None else tuple(e.family for e in catalog)
            findings = _findings(analyzers, link, chain, facts)
            if specific and all(_refined(e, findings) for e in specific):
                # every entry naming the link reads it more broadly than a finding's class (ARL-E330's AI Core exception
                # for a kernel the report says timed out): that finding names the link, the entries become its echo
                findings.sort(key=lambda found: not any(found[1].kind in e.refined_by for e in specific))
                specific, namer = [], None
            elif not specific and namer is not None and _refined(namer, findings):
                # the same for a wrapper entry naming its own line (ARL-E009's std::terminate over the what() it carries)
                findings.sort(key=lambda found: found[1].kind not in namer.refined_by)
                namer = None
            item: DerivedItem | None = None
            if namer is not None:
                tier, top = 3, namer.id
                if not specific and findings:
                    tier = 2 if findings[0][1].weak else 3
                for named in specific or [namer]:  # every entry naming the link carries its specifics, whichever ranks first
                    _fold(out, named.id, findings)
            elif findings:
                analyzer, finding = findings[0]
                key = (analyzer.id, finding.key)
                item = by_key.get(key)
                if item is None:
                    ends_run = finding.fatal and fatal and not ray_daemon_log(link.file)
                    item = by_key[key] = DerivedItem(
                        entry_for(type(analyzer), dataclasses.replace(finding, fatal=ends_run)),
                        link.file, link.line, (link.text or link.message)[:300], 0, ends_run,
                        None, finding.evidence, finding.weak, link.seq, finding.kind,
                    )
                    out.items.append(item)
                item.count += chain.count
                if item.weak:
                    weak.append(item)
                tier, top = (2 if finding.weak else 3), analyzer.id
                for e in catalog:  # a wrapper entry on a link the analyzers explained
                    out.demoted.setdefault(e.id, top)
            elif catalog:
                tier, top = 1, catalog[0].id
            else:
                continue
            out.explained.add(id(link))
            if specific and best_item is not None and best_from is not None and best_item.count == chain.count and (
                    _same_report(best_from[0], best_item, specific[0]) or _narrowed(best_item, specific)):
                _unfold_into(out, by_key, best_item, specific[0].id, best_from[1])
                best = best_item = best_from = None
            # An exception raised while handling another ("During handling of the above exception …", no ``from``) is
            # the handler's own failure: the earlier one was caught and a fallback ran (datasets' pandas reader after
            # Arrow's refusal). When both are named specifically, the fallback's failure is what stopped the run. A handler
            # whose raise only a wrapper entry names (SGLang's "torch_npu is required when run on npu device." over the
            # ImportError it caught) re-raised the handled exception in other words: that one stays the cause.
            handler_failed = (link.joined == "context" and best is not None and best[0] == 3 and tier == 3
                              and (bool(specific) or item is not None)
                              and top != best[1] and (item is None or item is not best_item))
            if best is not None and not handler_failed and (best[0] >= tier or (item is not None and item.weak)):
                for e in catalog:
                    out.demoted.setdefault(e.id, best[1])
                if item is not None and item.demoted_by is None and item.count == chain.count:
                    item.demoted_by = best[1]
            else:
                if handler_failed:
                    for earlier in best_roots:
                        out.roots.discard(earlier)
                        out.demoted.setdefault(earlier, top)
                        out.handled.add(earlier)
                    if best_item is not None and best_item.demoted_by is None:
                        best_item.demoted_by = top
                        out.handled.add(best_item.entry.id)
                named_here = [e.id for e in specific] + ([namer.id] if namer is not None else [])
                best_roots = [i for i in named_here if i not in out.roots]  # a root of an earlier chain stays one
                out.roots.update(named_here)
                best, best_item = (tier, top), item
                best_from = (link, findings) if item is not None else None
        if best is not None and best[0] == 3:  # a wrapper's code never outranks the specific link of its own chain
            for weak_item in weak:
                if weak_item.demoted_by is None and weak_item.count == chain.count and weak_item is not best_item:
                    weak_item.demoted_by = best[1]
    for analyzer in analyzers:
        if type(analyzer).settle is not Analyzer.settle:
            analyzer.settle(out)
    return out


# Logs of Ray's own daemons in a session folder (logs/raylet.out, dashboard_agent.log …): they log a
# traceback and carry on (a dashboard port taken by another cluster, a metrics agent that retries), so
# what an analyzer reads there is reported, never taken as what ended the run. Workers and the driver
# (worker-*.err, python-core-*, the run's own output) are not daemons.
_RAY_DAEMON_LOG = lazy(r"(?:^|/)(?:raylet|gcs_server|dashboard\w*|log_monitor|monitor|runtime_env_agent)[.\w-]*\.(?:log|out|err)$")


def ray_daemon_log(name: str) -> bool:
    """A file name (as the classifier was given it) of one of Ray's daemon logs."""
    return bool(_RAY_DAEMON_LOG.search(name.removeprefix("ray:")))


# What says a log comes from an Ascend run: the NPU packages' versions (logversions' keys), or these words in the lines and
# frame paths of its failures (torch_npu / vllm_ascend code, CANN and HCCL reports, the davinci device nodes).
NPU_PACKAGES = ("torch_npu", "cann", "vllm_ascend", "mindspore", "mindie")
# torch_npu's error tag ("[ERROR] <time> (PID:n, Device:n, RankID:n) ERRnnnnn <submodule> <text>", torch_npu/utils/
# _error_code.py and csrc/core/npu/NPUException.cpp) names no NPU word but is printed by torch_npu alone.
NPU_WORDS = lazy(r"(?i)torch_npu|vllm_ascend|\bnpu\b|\bascend|\bcann\b|\bhccl\b|davinci|\b(?:910[ABC]\d?|310P\d?)\b"
                 r"|\(PID:\d+, Device:-?\d+, RankID:-?\d+\) ERR\d{5}\b")


NPU_TAG_ENTRIES = ("ARL-E332",)


def npu_seen(chains: list[Chain], versions: dict[str, str]) -> bool:
    """Whether the log shows the Ascend stack anywhere the classifier read it."""
    if any(p in versions for p in NPU_PACKAGES):
        return True
    return any(NPU_WORDS.search(text) for chain in chains for link in chain.links
               for text in (link.text, link.message, *link.detail, *(f.path for f in link.frames)) if text)


def _findings(analyzers: tuple[Analyzer, ...], link: Link, chain: Chain, facts: Facts) -> list[tuple[Analyzer, Finding]]:
    """Every analyzer's finding on one link, in registry order."""
    found = []
    for analyzer in analyzers:
        try:
            finding = analyzer.analyze(link, chain, facts)
        except Exception:  # noqa: BLE001 - one analyzer's bug must not hide the others' answers
            finding = None
        if finding is not None:
            found.append((analyzer, finding))
    return found


def _refined(entry: KnownFailure, findings: list[tuple[Analyzer, Finding]]) -> bool:
    """Whether an analyzer's finding on the link recognises a class the entry lists as narrower than its own reading."""
    return bool(entry.refined_by) and any(finding.kind in entry.refined_by for _, finding in findings)


def _names_own_line(catalog: list[KnownFailure], link: Link, positions: dict[str, tuple[str, int]]) -> KnownFailure | None:
    """A wrapper (generic) entry that matched the link's own line, on a link that wraps nothing: it names that failure."""
    if link.wrapper:
        return None
    return next((e for e in catalog if positions.get(e.id) == (link.file, link.line)), None)


# HCCL's and HCCP's own log lines ("[ERROR] HCCP(...) ... ra rdev init failed") printed with the exception
# whose code an entry names ("EJ0002 ... The network port is down"): one report of one failure, and the entry
# already names it; the analyzer's reading of those lines becomes the entry's notes.
REPORT_LINES = frozenset({"HCCL", "HCCP"})


def _same_report(link: Link, item: DerivedItem, entry: KnownFailure) -> bool:
    return link.kind == "cann" and link.type in REPORT_LINES and item.entry.family == entry.family and item.demoted_by is None


def _narrowed(item: DerivedItem, specific: list[KnownFailure]) -> bool:
    """A deeper finding whose class an entry naming the wrapping link reads more narrowly (the entry's ``narrows``)."""
    return bool(item.kind) and item.demoted_by is None and any(item.kind in e.narrows for e in specific)


def _unfold_into(out: Derived, by_key: dict, item: DerivedItem, entry_id: str, findings: list[tuple[Analyzer, Finding]]) -> None:
    """A derived item that an entry on a later link of its chain names after all: it becomes that entry's notes."""
    if item in out.items:
        out.items.remove(item)
    for key in [k for k, v in by_key.items() if v is item]:
        del by_key[key]
    _fold(out, entry_id, findings)


def _fold(out: Derived, entry_id: str, findings: list[tuple[Analyzer, Finding]]) -> None:
    """The findings on a link a catalog entry names: its notes, evidence and root-cause label."""
    for analyzer, finding in findings:
        try:
            notes = finding.as_notes(analyzer.id)
        except Exception:  # noqa: BLE001 - a note is never worth a crash
            notes = []
        bucket = out.notes.setdefault(entry_id, [])
        for note in notes:
            if note and note not in bucket and len(bucket) < MAX_NOTES:
                bucket.append(note)
        if finding.evidence:
            out.evidence.setdefault(entry_id, finding.evidence)
        if finding.kind:
            out.kinds.setdefault(entry_id, finding.kind)


def _overrides(chains: list[Chain]) -> dict[str, str]:
    import re

    found: dict[str, str] = {}
    pair = re.compile(r"['\s\[,]\+{0,2}([A-Za-z_][\w.]*)=([^'\s,\]]+)")
    for chain in chains:
        for link in chain.links:
            if link.kind == "hydra":
                for key, value in pair.findall(" " + link.message):
                    found.setdefault(key, value)
    return found
