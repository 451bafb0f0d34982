"""Similar known failures: a nearest-neighbour fallback for a fatal error no entry names.

The catalog names failures by exact signatures; a paste that words a known failure differently,
or a failure the analyzers cannot reason about, ends as an "unexplained error" (or under a generic
wrapper, or a bare decoded code). This layer compares the explanation's error lines with labelled
real failures (``data/similar_index.json``, built by ``tools/build_similar_index.py`` from the
development logs and the golden cases, never from the held-out logs) and, when one resembles it
closely enough, puts that failure on top as a *resemblance* (``basis: "similar"``), not a match.

Similarity: TF-IDF over word tokens and over character 4-grams of the normalised message
templates (numbers, paths, hex, quoted values masked by :func:`upstream.template_of`), cosine,
the two averaged; examples as near as the nearest (within TIE) vote, and the label most of them
carry answers (chosen on dev leave-one-out, `score_realworld.py --curve`; held-out 182 → 184 of 330). Pure Python, data loaded on first use: a paste costs a few milliseconds.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ..lazyre import lazy
from .chain import DIAG_ERROR
from .classify import QUOTED_WHOLE, Diagnosis, Explanation
from .codes import extract as extract_codes
from .entries import KnownFailure
from .upstream import WILD, extract_errors, strip_escapes, template_of

DATA_FILE = Path(__file__).with_name("data") / "similar_index.json"
# Chosen by leave-one-out cross-validation on the development logs (README, explain section):
# below it a neighbour is as often wrong as right.
THRESHOLD = 0.75  # the dev leave-one-out peak among points right more often than wrong: 773/940 (22 of 40 right) with round 17, against 771 at 0.80 (179/193, precision 4/4, when chosen after the analyzers2 merge); 0.50 before that
# When nothing at all explains the fatal error (no diagnosis, only the unexplained error), a nearer-than-chance neighbour
# is the only answer there is: the fallback answers from this lower similarity. Chosen on the development logs under
# leave-thread-out (each log without its own thread's entries and examples, as a held-out log is), by answer kind
# (`python bench/score_realworld.py --curve --leave-thread-out`, 2026-12-04): for an unexplained error the answers are
# right 38/54 at 0.75, 46/75 at 0.50, 48/85 at 0.35 (with rounds 27-28: 38/55, 47/79); below 0.50 the extra answers are
# right 2 times in 10, between 0.50 and 0.75 about 4 in 10 (all of them replace "unknown", which is never right).
# Under a wrapper or a bare code the lower threshold adds no right answer (0.75 stays).
# Measured again 2026-12-05 (eleventh stop, 1343 dev logs, same command): unexplained 57/85 right at 0.50, 61/107 at
# 0.30, 39/57 at 0.75 (right minus wrong: 29, 15, 21); under a diagnosis 12/19 at 0.75 (gain 7, the answers it replaces
# counted), 16/35 at 0.50 (gain 5), 6/12 at 0.80 (gain 5). Both thresholds stay where they are.
UNEXPLAINED_THRESHOLD = 0.50
# When nothing fatal is read at all, the inputs' last error-worded lines (Explanation.quiet) are compared, and a
# resemblance this close is shown as a non-fatal finding ("possibly"): a hang's timeout line or a tool's refusal in
# prose that no reader takes. Chosen on the development logs under leave-thread-out (2026-12-04, fifth stop; 77 failure
# logs with nothing fatal read, 48 healthy ones): at 0.50 11 answered, 7 right, 2 healthy logs touched; at 0.60 6
# answered, 4 right, no healthy log touched; at 0.75 1 answered.
QUIET_THRESHOLD = 0.60
SIMILAR_ID_PREFIX = "SIM-"
MAX_LINES = 8
TIE = 0.02  # neighbours this close to the nearest one count as equally near
NGRAM = 4
# Top diagnoses that explain nothing by themselves: a decoded error code (weak derived finding).
WEAK_TOPS = frozenset({"DRV-code"})

_WORD = lazy(r"[A-Za-z][A-Za-z0-9]+")
_TYPE_WORD = lazy(r"^[A-Za-z]\w*(?:Error|Exception|Exit|Interrupt)$")


# ---------------------------------------------------------------- text → features

# The heads a logger puts before a message, which say who printed it, not what failed: Ray's "(pid=raylet)" /
# "(WorkerDict pid=123, ip=…)" and glog's record head "I0807 17:00:41.812641 71814 71814 worker_pool.cc:265] " (Ray's
# raylet and GCS, TensorFlow, many C++ programs). The same message pasted without them (an issue title, a quote) is the
# same failure; kept, they make a record and its quote look less alike than two unrelated records.
LOGGER_HEAD = lazy(r"^(?:\((?:[\w.:-]+ )?pid=[^()]*\)\s*)?(?:[IWEF]\d{4} \d\d:\d\d:\d\d(?:\.\d+)?\s+\d+(?: \d+)? [\w./-]+:\d+\]\s*)?")


def templates(lines: Iterable[str]) -> list[str]:
    """The normalised templates of error lines (the error part only, variable parts masked), deduplicated."""
    out: list[str] = []
    for line in lines:
        line = strip_escapes(line).strip()
        line = line[LOGGER_HEAD.match(line).end():] or line
        if (quoted := QUOTED_WHOLE.fullmatch(line)) is not None:
            line = quoted.group(1).strip()  # a message a person quoted whole: masked with its quotes, nothing is left
        if not line:
            continue
        if (diag := DIAG_ERROR.match(line)) is not None:
            line = f"Exception: {diag.group(1)}"  # a compiler's diagnostic, as the chain reads it when no entry names it
        for message in extract_errors(line) or [line]:
            t, quoted = template_of(message)
            # A wrapper quoting the message it carries ("Worker failed with error '<the error>'") masks that message
            # whole: the message, when it is a sentence, is a template of its own, or every such wrapper looks alike.
            for t in (t, *(template_of(q)[0] for q in quoted if len(q) >= 20 and q.count(" ") >= 2)):
                if t and t not in out:
                    out.append(t)
    return out[:MAX_LINES]


def error_codes(lines: Iterable[str]) -> frozenset[str]:
    """The ACL / CANN / HCCL error codes the lines carry (catalog/codes extract), which the word features drop."""
    return frozenset(c for line in lines for c in extract_codes(line) if not c.startswith("errno:"))


def _code_table(code: str) -> str:
    """The table a code belongs to: its prefix ("dcmi", "hccl", "drv"), ERR… torch_npu, E… CANN, digits ACL."""
    if ":" in code:
        return code.split(":", 1)[0]
    return "torch_npu" if code.startswith("ERR") else "acl" if code.isdigit() else "cann"


def codes_conflict(query: frozenset[str], example: frozenset[str]) -> bool:
    """Both carry codes of one identifying table (DCMI, driver, HCCL) and share none of them: another failure.

    Words weigh more than one code feature, so "dcmi module initialize failed. ret is -8008" (device not found) would
    resemble the same line with -8005 (device held by another container) at 0.83. Not CANN's / torch_npu's tags (EZ9999,
    ERR00100: catch-alls printed beside the real code) nor ACL's runtime codes, whose neighbours name one class under a
    long message (AclrtSynchronizeStreamWithTimeout with 507048 or 507035: a task that failed on the device;
    test_devmiss_r11b).
    """
    for table in ("dcmi", "drv", "hccl"):
        mine = {c for c in query if _code_table(c) == table}
        theirs = {c for c in example if _code_table(c) == table}
        if mine and theirs and not mine & theirs:
            return True
    return False


_PART = lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@lru_cache(maxsize=8192)
def _tokens(word: str) -> tuple[str, ...]:
    """A word, lower-cased, and the parts of a camelCase name (AclmdlRICaptureBegin → aclmdl, ri, capture, begin)."""
    parts = _PART.findall(word)
    return (word.lower(), *(p.lower() for p in parts if len(p) > 1)) if len(parts) > 1 else (word.lower(),)


def _words(text: str) -> list[str]:
    return [t for w in _WORD.findall(text.replace(WILD, " ")) for t in _tokens(w)]


def features(tmpls: Iterable[str]) -> tuple[Counter, Counter]:
    """(word counts, character 4-gram counts) of a set of templates."""
    words: Counter = Counter()
    grams: Counter = Counter()
    for t in tmpls:
        ws = _words(t)
        words.update(ws)
        # The error codes are words too: "error code is 561000" and "error code is 107002" share every other word.
        words.update(f"code:{c}" for c in error_codes([t]))
        text = " " + " ".join(ws) + " "
        grams.update([text[i:i + NGRAM] for i in range(len(text) - NGRAM + 1)])
    return words, grams


# ---------------------------------------------------------------- the index

@dataclasses.dataclass(frozen=True)
class Example:
    name: str
    source: str
    label: str
    catalog_id: str | None
    resolution: str
    family: str
    lines: tuple[str, ...]


class _Space:
    """One TF-IDF space (words or n-grams): idf and the unit vector of every document."""

    def __init__(self, docs: list[Counter]):
        n = len(docs)
        df: Counter = Counter()
        for d in docs:
            df.update(d.keys())
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        self.default_idf = math.log(1 + n) + 1.0
        self.vectors = [self._weigh(d) for d in docs]

    def _weigh(self, counts: Counter) -> dict[str, float]:
        """Sublinear tf × idf, scaled to unit length."""
        idf, default, log = self.idf, self.default_idf, math.log
        vec = {t: (1.0 + log(c) if c > 1 else 1.0) * idf.get(t, default) for t, c in counts.items()}
        scale = 1.0 / (math.sqrt(sum(w * w for w in vec.values())) or 1.0)
        return {t: w * scale for t, w in vec.items()}

    def scores(self, counts: Counter) -> list[float]:
        """Cosine of the query with every document, in document order."""
        query = self._weigh(counts)
        keys = query.keys()
        return [sum(query[t] * v[t] for t in keys & v.keys()) for v in self.vectors]


def content_words(tmpls: Iterable[str]) -> frozenset[str]:
    """The word tokens of templates other than exception class names and their parts ("AssertionError" → assertion,
    error): what a message says beyond its type. An error code the template keeps (EZ9999, ERR00100) is one of them."""
    out: set[str] = set()
    for t in tmpls:
        for w in _WORD.findall(t.replace(WILD, " ")):
            if not _TYPE_WORD.match(w):
                out.update(_tokens(w))
    return frozenset(out)


class Index:
    """The labelled examples and their two TF-IDF spaces."""

    def __init__(self, examples: list[Example]):
        self.examples = examples
        feats = [features(e.lines) for e in examples]
        self.words = _Space([f[0] for f in feats])
        self.grams = _Space([f[1] for f in feats])
        self.content = [content_words(e.lines) for e in examples]
        self._codes: dict[int, frozenset[str]] = {}  # an example's codes, read when a query with codes meets it

    def codes_of(self, i: int) -> frozenset[str]:
        """Example i's error codes (computed once, on first need: most queries carry none)."""
        if i not in self._codes:
            self._codes[i] = error_codes(self.examples[i].lines)
        return self._codes[i]

    def nearest(self, tmpls: list[str], exclude_sources: Iterable[str] = ()) -> tuple[Example, float] | None:
        """The most similar example (and its cosine) to a set of templates, skipping excluded sources and examples
        whose error codes conflict with the templates' own (codes_conflict: another DCMI / driver / HCCL code)."""
        if not tmpls:
            return None
        codes = error_codes(tmpls)
        words, grams = features(tmpls)
        skip = set(exclude_sources)
        said = content_words(tmpls)
        # A resemblance rests on what the message says: an example that shares no word with it beyond exception class
        # names (an "AssertionError: <*> % <*> != <*>" against any other assertion) resembles it by its type alone.
        scored = [(s, i) for i, (sw, sg) in enumerate(zip(self.words.scores(words), self.grams.scores(grams)))
                  if (s := (sw + sg) / 2) > 0 and self.examples[i].source not in skip
                  and said & self.content[i] and not (codes and codes_conflict(codes, self.codes_of(i)))]
        if not scored:
            return None
        top = max(scored)[0]
        # Examples as close as the nearest one (the same generic message, e.g. "AttributeError: <*> object has no
        # attribute <*>", pasted in many unrelated failures) vote: the label most of them carry is the likelier cause
        # than whichever example happens to come first.
        score_of = {i: s for s, i in scored}
        tied = sorted((i for s, i in scored if s >= top - TIE), key=lambda i: -score_of[i])
        label = Counter(self.examples[i].label for i in tied).most_common(1)[0][0]
        best = next(i for i in tied if self.examples[i].label == label)
        return self.examples[best], round(score_of[best], 4)  # its own similarity, at most TIE below the nearest


@lru_cache(maxsize=4)
def load_index(path: str | None = None) -> Index:
    data = json.loads(Path(path or DATA_FILE).read_text(encoding="utf-8"))
    return Index([Example(e["name"], e["source"], e["label"], e.get("catalog_id"), e.get("resolution", ""),
                          e.get("family", "user"), tuple(e["lines"])) for e in data["examples"]])


# ---------------------------------------------------------------- the diagnosis

def _example_entry(example: Example) -> KnownFailure:
    """A labelled example that no catalog entry stands for, as the entry a resemblance shows."""
    return KnownFailure(
        id=SIMILAR_ID_PREFIX + example.label, title=f"Resembles a known failure: {example.label}",
        family=example.family, severity="critical", fatal=True, signatures=(),
        cause=example.resolution or f"The same failure as {example.source}.",
        fix=(f"See {example.source}" + (f": {example.resolution}" if example.resolution else ""),),
        sources=(example.source,), origin="catalog/data/similar_index.json",
    )


@dataclasses.dataclass(frozen=True)
class SimilarDiagnosis(Diagnosis):
    """A known failure the explanation's error resembles: a likely cause, not a signature match."""

    similarity: float = 0.0
    resembles: str = ""  # the source URL of the nearest labelled failure

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "similarity": self.similarity, "resembles": self.resembles}


def eligible(explanation: Explanation) -> bool:
    """Something fatal is unexplained: no diagnosis, a non-fatal one, a generic wrapper or a bare code on top."""
    if not explanation.fatal:
        return False
    if not explanation.diagnoses:
        return explanation.unknown is not None
    top = explanation.diagnoses[0]
    # A decoded code the analyzer could name a root-cause class for (aicore-exception, npu-oom) is an answer, not a bare code.
    bare = top.entry.id in WEAK_TOPS and (not top.kind or top.kind.startswith("code-"))
    return not top.fatal or top.entry.generic or bare


def _generic_patterns(catalog: Any) -> tuple[Any, ...]:
    """The compiled signatures of the catalog's generic (wrapper) entries, once per catalog."""
    import re

    if _GENERIC.get("catalog") is not catalog:  # the object itself, not its id: an id is reused once it is freed
        out = []
        for entry in getattr(catalog, "entries", ()):
            if entry.generic:
                for sig in entry.signatures:
                    try:
                        out.append(re.compile(sig.regex))
                    except re.error:
                        continue
        words = frozenset(w.lower() for entry in getattr(catalog, "entries", ()) if entry.generic
                          for sig in entry.signatures for w in _WORD.findall(sig.regex))
        _GENERIC.update(catalog=catalog, patterns=tuple(out), words=words)
    return _GENERIC["patterns"]


_GENERIC: dict[str, Any] = {}


def _wrapper_only(explanation: Explanation, catalog: Any) -> bool:
    """Every line the answer rests on is generic wrappers' words and nothing else ("Worker failed with error 'Engine core
    initialization failed. See root cause above.'"): such a paste resembles, word for word, any labelled failure that
    kept only its wrapper, whatever the cause was, so a resemblance has nothing to go on."""
    if catalog is None or explanation.unknown is not None:
        return False
    fatal = [d for d in explanation.diagnoses if d.fatal]
    if not fatal or not all(d.entry.generic for d in fatal):
        return False
    patterns = _generic_patterns(catalog)
    for line in explanation.error_lines():
        rest = line
        for pattern in patterns:
            rest = pattern.sub(" ", rest)
        if rest.strip() and content_words(templates([rest])) - _GENERIC["words"]:
            return False  # words of its own beside the wrappers' (an inner message the wrapper quotes)
    return True


def informative(tmpls: Iterable[str]) -> bool:
    """Whether the templates say anything beyond exception types: a bare "RuntimeError:" (a traceback whose message was
    empty or cut off) resembles every other bare RuntimeError, whatever caused it. A masked value counts ("KeyError:
    <*>" is a missing key, which says more than nothing)."""
    return any(WILD in t or not _TYPE_WORD.match(w) for t in tmpls for w in _WORD.findall(t) or [WILD])


def with_similar(explanation: Explanation, catalog: Any = None, *, exclude_sources: Iterable[str] = (),
                 threshold: float | None = None, index: Index | None = None, data_file: str | None = None) -> Explanation:
    """The explanation with the most similar known failure on top, when one is close enough.

    ``threshold``: by default THRESHOLD, or UNEXPLAINED_THRESHOLD when no diagnosis at all names the fatal error.
    ``exclude_sources`` leaves examples out of the search (leave-one-out evaluation). A missing or
    damaged data file leaves the explanation as it is.
    """
    if not eligible(explanation):
        return _quiet_resemblance(explanation, catalog, exclude_sources, threshold, index, data_file)
    if threshold is None:
        threshold = UNEXPLAINED_THRESHOLD if not explanation.diagnoses else THRESHOLD
    try:
        index = index or load_index(data_file)
    except (OSError, ValueError, KeyError):
        return explanation
    tmpls = templates(explanation.error_lines())
    if not informative(tmpls) or _wrapper_only(explanation, catalog):
        return explanation
    found = index.nearest(tmpls, exclude_sources)
    if found is None or found[1] < threshold:
        return explanation
    example, score = found
    entry = catalog.by_id(example.catalog_id) if catalog is not None and example.catalog_id else None
    if entry is not None and any(d.entry.id == entry.id for d in explanation.diagnoses):
        return explanation  # it resembles what the classifier already named: nothing to add
    at = explanation.diagnoses[0] if explanation.diagnoses else None
    u = explanation.unknown
    file, line, excerpt = (u.file, u.line, f"{u.type}: {u.message}") if u is not None else (at.file, at.line, at.excerpt)
    evidence = (f"resembles {example.source} (similarity {score:.2f})",)
    notes: tuple[str, ...] = (f"in that thread: {example.resolution}",) if example.resolution else ()
    if entry is None:
        entry = _example_entry(example)
        notes = ()
    d = SimilarDiagnosis(entry, file, line, excerpt[:300], 1, True, None, basis="similar", evidence=evidence,
                         notes=notes, kind=example.label, similarity=score, resembles=example.source)
    return dataclasses.replace(explanation, diagnoses=(d, *explanation.diagnoses))


def _quiet_resemblance(explanation: Explanation, catalog: Any, exclude_sources: Iterable[str], threshold: float | None,
                       index: Index | None, data_file: str | None) -> Explanation:
    """Nothing read at all: a known failure the inputs' last error-worded lines resemble, as a non-fatal finding."""
    if explanation.diagnoses or explanation.unknown is not None or not explanation.quiet:
        return explanation
    tmpls = templates(text for _, _, text in explanation.quiet)
    if not informative(tmpls):
        return explanation
    try:
        index = index or load_index(data_file)
    except (OSError, ValueError, KeyError):
        return explanation
    found = index.nearest(tmpls, exclude_sources)
    if found is None or found[1] < (QUIET_THRESHOLD if threshold is None else threshold):
        return explanation
    example, score = found
    entry = catalog.by_id(example.catalog_id) if catalog is not None and example.catalog_id else None
    if entry is None:
        entry = _example_entry(example)
    evidence = (f"resembles {example.source} (similarity {score:.2f})",)
    file, line, text = explanation.quiet[-1]
    d = SimilarDiagnosis(entry, file, line, text[:300], 1, False, None, basis="similar", evidence=evidence, kind=example.label, similarity=score,
                         resembles=example.source)
    return dataclasses.replace(explanation, diagnoses=(d,))
