"""Stream a log (or a Ray session folder) through the catalog and rank what it finds.

How it stays fast and bounded on multi-GB logs:
- the input is read in large binary chunks split at newlines, never as a whole;
- one combined pattern (RE2 when the google-re2 wheel is present: linear time) finds the few
  candidate lines — catalog signatures, traceback headers, frames and exception lines — so
  ordinary lines are never decoded or looked at one by one;
- each candidate line is normalised (ANSI codes, CR, Ray's ``(Actor pid=N, ip=X)`` prefix and
  ``[repeated Nx across cluster]`` suffix removed) and matched against every signature at once
  (an RE2 set), then folded into per-entry counters. Memory is the chunk plus bounded tables.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from .entries import Catalog, KnownFailure, Signature
from .inputs import BINARY_SNIFF, Prefixed, decompressing, log_files, os_reason

try:  # google-re2: linear-time matching; only without the wheel do we use Python's re (documented in README)
    import re2 as _re2
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    _re2 = None
RE2_MAX_MEM = 256 << 20  # the combined scan of a large user catalog outgrows RE2's 8 MiB default

CHUNK = 8 << 20
MIN_MAX_LINE = 64 << 10  # lines up to this long are always judged whole, whatever the chunk size
MAX_EXCERPT = 300
MAX_UNKNOWN = 64
MAX_TRACEBACKS = 64
MAX_FRAMES = 200

ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
RAY_PREFIX = re.compile(r"^(?:\((?:[\w.:<>-]+(?: pid=\d+)?|pid=\d+)(?:, ip=[0-9a-fA-F.:]+)?\)\s?)+")
REPEATED = re.compile(r"\s*\[repeated (\d+)x across cluster\]\s*$")
TRACEBACK = "Traceback (most recent call last)"
FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?')
EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt))(?:\(([\w.]*)\))?(?::\s?(.*))?$")
# Exceptions that wrap or end a failure rather than cause it.
WRAPPERS = (
    "RayTaskError", "RayActorError", "ActorDiedError", "ActorUnavailableError", "WorkerCrashedError",
    "TaskCancelledError", "SystemExit", "KeyboardInterrupt", "InstantiationException", "ConfigCompositionException",
)
GENERIC_PREFILTER = (
    r"Traceback \(most recent call last\)",
    r'File "[^"\n]+", line \d+',
    r"[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)(?:\([\w.]*\))?(?::|\r?$)",
)
PROGRESS = b"step:"


@dataclasses.dataclass
class Hit:
    """Where an entry first matched, and how often it matched in all."""

    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    order: int
    fatal: bool
    count: int = 0


@dataclasses.dataclass(frozen=True)
class UnknownError:
    """The most relevant exception that no catalog entry explains."""

    type: str
    message: str
    file: str
    line: int
    frame: str | None  # innermost frame of user/verl code: "path:line in func"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    count: int
    fatal: bool  # the entry's, or a matched signature's override
    demoted_by: str | None  # the entry this one is a consequence of, if any

    def to_json(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id,
            "title": e.title,
            "family": e.family,
            "severity": e.severity,
            "fatal": self.fatal,
            "cause": e.cause,
            "fix": list(e.fix),
            "source": e.sources[0] if e.sources else None,
            "sources": list(e.sources),
            "fix_id": e.fix_id,
            "file": self.file,
            "line": self.line,
            "excerpt": self.excerpt,
            "count": self.count,
            "consequence_of": self.demoted_by,
        }


@dataclasses.dataclass(frozen=True)
class Explanation:
    diagnoses: tuple[Diagnosis, ...]
    unknown: UnknownError | None
    bytes_read: int
    lines_read: int
    files: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why) of every input not read, or read only in part

    @property
    def fatal(self) -> bool:
        return any(d.fatal for d in self.diagnoses) or self.unknown is not None

    @property
    def read_nothing(self) -> bool:
        """Every input was skipped: "no known failure" would be a claim about nothing."""
        return not self.files and bool(self.skipped)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "diagnoses": [d.to_json() for d in self.diagnoses],
            "unknown": self.unknown.to_json() if self.unknown else None,
            "input": {
                "files": list(self.files),
                "bytes": self.bytes_read,
                "lines": self.lines_read,
                "skipped": [{"path": path, "reason": why} for path, why in self.skipped],
            },
        }


@dataclasses.dataclass
class _Exception:
    type: str
    message: str
    file: str
    line: int
    frame: str | None
    wrapper: bool


def _prefilter_source(regex: str) -> str:
    """A signature as a line-unanchored alternative for the chunk scan (the per-line check keeps anchors)."""
    body = regex[1:] if regex.startswith("^") else regex
    if body.endswith("$") and not body.endswith("\\$"):
        body = body[:-1]
    return body


class _Matcher:
    """All signatures at once: a chunk scanner and a per-line set matcher."""

    def __init__(self, entries: tuple[KnownFailure, ...]):
        self.owners: list[tuple[KnownFailure, Signature]] = []
        patterns: list[str] = []
        for entry in entries:
            for sig in entry.signatures:
                self.owners.append((entry, sig))
                patterns.append(sig.regex)
        alternatives = [_prefilter_source(p) for p in patterns] + list(GENERIC_PREFILTER)
        combined = "(?m)" + "|".join(f"(?:{a})" for a in alternatives)
        self._set = None
        if _re2 is None:
            self.engine = "re"
            self._py_lines = [re.compile(p) for p in patterns]
            self.scan = re.compile(combined.encode())
            return
        # Signatures RE2 cannot take were rejected when the catalog loaded (entries.regex_problem);
        # one built by hand that slips through raises here, loudly, never by switching engines.
        options = _re2.Options()
        options.log_errors = False
        options.max_mem = RE2_MAX_MEM
        self.engine = "re2"
        self._py_lines = []
        self.scan = _re2.compile(combined.encode(), options)
        line_set = _re2.Set.SearchSet(options)
        for p in patterns:
            line_set.Add(p.encode())
        line_set.Compile()
        self._set = line_set

    def entries_in(self, line: str) -> list[tuple[KnownFailure, Signature]]:
        if self._set is not None:
            hits = self._set.Match(line.encode("utf-8", "replace")) or []
            return [self.owners[i] for i in sorted(hits)]
        return [self.owners[i] for i, rx in enumerate(self._py_lines) if rx.search(line)]


class Classifier:
    """Feed it files, streams or folders; then ask for the ranked explanation."""

    def __init__(self, catalog: Catalog, *, chunk_size: int = CHUNK, max_line: int | None = None):
        self.catalog = catalog
        self.matcher = _Matcher(catalog.entries)
        self.chunk_size = chunk_size
        self.max_line = max_line if max_line is not None else max(2 * chunk_size, MIN_MAX_LINE)
        self.hits: dict[str, Hit] = {}
        self.unknowns: list[_Exception] = []
        self.tracebacks: OrderedDict[tuple[str, str], list[str]] = OrderedDict()
        self.last_progress: dict[str, int] = {}
        self.order = 0
        self.bytes_read = 0
        self.lines_read = 0
        self.files: list[str] = []
        self.skipped: list[tuple[str, str]] = []
        self._streams: dict[str, tuple[bytes, int]] = {}

    # ---- input -------------------------------------------------------------------------
    def feed_path(self, path: str | os.PathLike[str]) -> None:
        """A log file (plain, .gz, .xz, .bz2; .zst when a zstd module is present) or a folder of them.

        What cannot be read is recorded in ``skipped`` with the reason, never dropped silently.
        A file named directly is read even when it is a pipe (``explain <(cmd)``); inside a folder
        only regular files are, and text-looking ones (no NUL byte in the first 8 KiB).
        """
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError as exc:
            self.skipped.append((str(path), os_reason(exc)))
            return
        if is_dir:
            self._feed_folder(Path(path))
            return
        try:
            fh = open(path, "rb")
        except OSError as exc:
            self.skipped.append((str(path), os_reason(exc)))
            return
        with fh:
            self._feed_file(fh, str(path), str(path), text_only=False)

    def feed_log(self, stream: IO[bytes], name: str) -> None:
        """A stream that may be compressed (stdin): decompressed by its magic bytes, then fed."""
        self._feed_file(stream, name, name, text_only=False)

    def _feed_folder(self, folder: Path) -> None:
        fed = len(self.files) + len(self.skipped)
        for child, problem in log_files(folder):
            shown = str(folder / child)
            if problem is not None:
                self.skipped.append((shown, problem))
                continue
            try:
                fd = os.open(folder / child, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
            except OSError as exc:
                self.skipped.append((shown, os_reason(exc)))
                continue
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    self.skipped.append((shown, "not a regular file"))
                    continue
                self._feed_file(fh, str(child), shown, text_only=True)
        if len(self.files) + len(self.skipped) == fed:
            self.skipped.append((str(folder), "no files in this folder"))

    def _feed_file(self, raw: IO[bytes], name: str, shown: str, *, text_only: bool) -> None:
        stream, kind = decompressing(raw)
        if stream is None:
            self.skipped.append((shown, kind))
            return
        reader = Prefixed(b"", stream)
        head = reader.read(BINARY_SNIFF)
        if reader.error is not None and not head:
            self.skipped.append((shown, f"not readable as {kind}: {os_reason(reader.error)}" if kind else os_reason(reader.error)))
            return
        if text_only and b"\x00" in head:
            self.skipped.append((shown, "binary (a NUL byte in the first 8 KiB)" + (f" after {kind} decompression" if kind else "")))
            return
        before = self.bytes_read
        reader.head = head
        self.feed_stream(reader, name)
        if reader.error is not None:
            self.skipped.append((shown, f"read only the first {self.bytes_read - before:,} bytes: {os_reason(reader.error)}"))

    def feed_stream(self, stream: IO[bytes], name: str) -> None:
        self.files.append(name)
        pending: list[bytes] = []  # pieces of a line that has not ended yet
        pending_len = 0
        line_no = 0
        while True:
            chunk = stream.read(self.chunk_size)
            if not chunk:
                break
            self.bytes_read += len(chunk)
            cut = chunk.rfind(b"\n")
            if cut == -1:
                pending.append(chunk)
                pending_len += len(chunk)
                if pending_len >= self.max_line:  # one enormous line: judge it in pieces, keep memory flat
                    line_no = self._scan(b"".join(pending), name, line_no)
                    pending, pending_len = [], 0
                continue
            head = chunk[: cut + 1]
            block = b"".join([*pending, head]) if pending else head
            rest = chunk[cut + 1 :]
            pending, pending_len = ([rest], len(rest)) if rest else ([], 0)
            line_no = self._scan(block, name, line_no)
        if pending:
            line_no = self._scan(b"".join(pending) + b"\n", name, line_no)
        self.lines_read += line_no

    def feed_chunk(self, chunk: bytes, name: str) -> None:
        """Live input: any piece of a stream; a line cut at the chunk's end waits for its rest."""
        carry, line_no = self._streams.get(name, (b"", 0))
        if name not in self._streams:
            self.files.append(name)
        self.bytes_read += len(chunk)
        data = carry + chunk if carry else chunk
        cut = data.rfind(b"\n")
        if cut == -1:
            if len(data) < self.max_line:
                self._streams[name] = (data, line_no)
                return
            block, carry = data, b""
        else:
            block, carry = data[: cut + 1], data[cut + 1 :]
        new_line_no = self._scan(block, name, line_no)
        self.lines_read += new_line_no - line_no
        self._streams[name] = (carry, new_line_no)

    def first_specific_fatal(self) -> Hit | None:
        """The earliest fatal, non-generic match so far: what a supervisor stops a run for."""
        found = [h for h in self.hits.values() if h.fatal and not h.entry.generic]
        return min(found, key=lambda h: h.order) if found else None

    # ---- scanning ----------------------------------------------------------------------
    def _scan(self, block: bytes, name: str, base: int) -> int:
        if b"\x1b" in block:
            block = ANSI.sub(b"", block)
        counted_to, line_no, last_line_start = 0, base, -1
        for m in self.matcher.scan.finditer(block):
            start = block.rfind(b"\n", 0, m.start()) + 1
            if start == last_line_start:
                continue  # already judged this line
            last_line_start = start
            end = block.find(b"\n", m.end())
            end = len(block) if end == -1 else end
            line_no += block.count(b"\n", counted_to, start)
            counted_to = start
            self._line(block[start:end], name, line_no + 1)
        if self.unknowns or self.hits:
            pos = block.rfind(PROGRESS)
            if pos != -1:
                self.last_progress[name] = base + block.count(b"\n", 0, pos) + 1
        return base + block.count(b"\n")

    def _line(self, raw: bytes, name: str, number: int) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        prefix_match = RAY_PREFIX.match(text)
        prefix = prefix_match.group(0).strip() if prefix_match else ""
        text = text[prefix_match.end():] if prefix_match else text
        repeats = 1
        rep = REPEATED.search(text)
        if rep:
            repeats += int(rep.group(1))
            text = text[: rep.start()]
        entries = self.matcher.entries_in(text)
        seen: set[str] = set()
        for entry, sig in entries:
            fatal = entry.fatal if sig.fatal is None else sig.fatal
            hit = self.hits.get(entry.id)
            if hit is None:
                self.order += 1
                hit = self.hits[entry.id] = Hit(entry, name, number, text.strip()[:MAX_EXCERPT], self.order, fatal)
            elif fatal and not hit.fatal:
                hit.fatal = True
            if entry.id not in seen:
                seen.add(entry.id)
                hit.count += repeats
        self._track_traceback(text, name, number, prefix, known=bool(entries))

    def _track_traceback(self, text: str, name: str, number: int, prefix: str, *, known: bool) -> None:
        key = (name, prefix)
        stripped = text.strip()
        if stripped.startswith(TRACEBACK):
            self.tracebacks[key] = []
            self.tracebacks.move_to_end(key)
            while len(self.tracebacks) > MAX_TRACEBACKS:
                self.tracebacks.popitem(last=False)
            return
        frame = FRAME.match(text)
        if frame:
            frames = self.tracebacks.get(key)
            if frames is not None and len(frames) < MAX_FRAMES:
                frames.append(f"{frame.group(1)}:{frame.group(2)}" + (f" in {frame.group(3)}" if frame.group(3) else ""))
            return
        exc = EXCEPTION.match(stripped)
        if exc is None:
            return
        frames = self.tracebacks.pop(key, None)
        if known or frames is None and not stripped.startswith(("ray.exceptions.", "hydra.errors.")):
            return  # explained by the catalog, or not a raised exception (a logged phrase)
        exc_type, message = exc.group(1), (exc.group(3) or "").strip()
        short = exc_type.rsplit(".", 1)[-1]
        if len(self.unknowns) < MAX_UNKNOWN:
            self.unknowns.append(
                _Exception(exc_type, message[:MAX_EXCERPT], name, number, _innermost_user_frame(frames or []), short in WRAPPERS)
            )

    # ---- ranking -----------------------------------------------------------------------
    def result(self) -> Explanation:
        hits = sorted(self.hits.values(), key=lambda h: h.order)
        matched = {h.entry.id for h in hits}
        cause_of: dict[str, str] = {}
        for h in hits:
            for consequence in h.entry.consequences:
                if consequence in matched and consequence != h.entry.id:
                    cause_of.setdefault(consequence, h.entry.id)

        def rank(h: Hit) -> tuple[int, int, int]:
            # Fatal before non-fatal; then specific before generic wrappers and before what another
            # match is known to cause; then the earliest.
            secondary = int(h.entry.generic) + int(h.entry.id in cause_of)
            return (0 if h.fatal else 1, secondary, h.order)

        diagnoses = tuple(
            Diagnosis(h.entry, h.file, h.line, h.excerpt, h.count, h.fatal, cause_of.get(h.entry.id))
            for h in sorted(hits, key=rank)
        )
        specific_fatal = any(d.fatal and not d.entry.generic for d in diagnoses)
        unknown = None if specific_fatal else self._relevant_unknown()
        return Explanation(diagnoses, unknown, self.bytes_read, self.lines_read, tuple(self.files), tuple(self.skipped))

    def _relevant_unknown(self) -> UnknownError | None:
        """The earliest unexplained exception the run did not survive; wrappers only as a last resort."""
        fatal = [u for u in self.unknowns if self.last_progress.get(u.file, 0) < u.line]
        if not fatal:
            return None
        chosen = next((u for u in fatal if not u.wrapper), fatal[0])
        return UnknownError(chosen.type, chosen.message, chosen.file, chosen.line, chosen.frame)


def _innermost_user_frame(frames: list[str]) -> str | None:
    """The deepest frame outside the standard library and third-party packages (verl counts as user code)."""
    for frame in reversed(frames):
        path = frame.split(":", 1)[0]
        if "/verl/" in path or ("site-packages" not in path and "/lib/python3" not in path and not path.startswith("<")):
            return frame
    return frames[-1] if frames else None


def explain_paths(catalog: Catalog, paths: Iterable[str | os.PathLike[str]]) -> Explanation:
    classifier = Classifier(catalog)
    for path in paths:
        classifier.feed_path(path)
    return classifier.result()
