#!/usr/bin/env python3
"""Build the similar-known-failure index from labelled examples that are NOT held out (maintainer tool).

Not shipped in the package. Reads the development real-world logs
(tests/explain/realworld/dev/) and the golden cases (tests/explain/cases/<ID>/*.log with their
.expect), runs each through the classifier, and keeps the error lines a user would paste (the
explanation's error lines; the exception / CANN code lines of the log where the classifier found
none), normalised to templates. Writes ``catalog/data/similar_index.json``, which
``ascendrl.catalog.similar`` searches:

    python tools/build_similar_index.py [-o catalog/data/similar_index.json]

The held-out logs are never opened: only dev/ and cases/ are read, and every example whose source
URL falls in the held-out split (bench/score_realworld.py's ``held_out`` rule) is refused.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import sys
from pathlib import Path

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.similar import DATA_FILE, templates
from ascendrl.catalog.upstream import extract_errors

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT / "tests" / "explain" / "realworld" / "dev"
CASES = ROOT / "tests" / "explain" / "cases"
HEALTHY = "healthy"
MAX_RESOLUTION = 400


def scorer():
    """bench/score_realworld.py: its header reader, label map and split rule."""
    spec = importlib.util.spec_from_file_location("score_realworld", ROOT / "bench" / "score_realworld.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def error_lines(catalog, body: bytes, name: str, entry_id: str = "", result=None) -> list[str]:
    """What a user would paste of this failure, as templates: the classifier's error lines, else the log's own.

    ``entry_id``: a golden case's own entry. Only the lines its diagnosis rests on: a case built around one message
    carries constructed context (a wrapper such as vLLM's EngineDeadError under a health-check failure), and a paste of
    that wrapper alone must not resemble the case's specific class (k51hccl, stop 19). ``result``: the classifier's
    explanation of this body, where the caller has it already."""
    if result is None:
        classifier = Classifier(catalog)
        classifier.feed_stream(io.BytesIO(body), name)
        result = classifier.result()
    own = [line for d in result.diagnoses if d.entry.id == entry_id for line in (d.excerpt, *d.evidence)] if entry_id else []
    found = templates(list(dict.fromkeys(own)) if own else result.error_lines())
    if found:
        return found
    lines = body.decode("utf-8", "replace").splitlines()
    return templates([m for line in lines for m in extract_errors(line)][-8:])


def _header_free(body: bytes) -> bytes:
    lines = body.splitlines(keepends=True)
    start = next((i for i, raw in enumerate(lines) if not raw.startswith(b"# ")), len(lines))
    return b"".join(lines[start:])


def build(out: Path = DATA_FILE, catalog=None, sr=None) -> dict:
    """``catalog`` / ``sr``: the shipped catalog and the loaded scorer, where the caller has them (the test does: the
    scorer keeps its readings of the dev logs, which are the ones made here)."""
    sr = sr if sr is not None else scorer()
    catalog = catalog if catalog is not None else load_catalog(user_dir=ROOT / "no-user-catalog")
    examples = []
    for path in sorted(DEV.glob("*.log")):
        log = sr.read_log(path, "dev")
        assert "heldout" not in path.parts and not sr.held_out(log.source), f"{path}: a held-out source"
        label = next((x for x in log.expected if x != HEALTHY), None)
        if label is None:
            continue  # healthy logs: nothing fatal to resemble
        # The catalog entry only when the log is labelled with it: labels.yaml relates a label to entries
        # that state that root cause in one of its forms (package-mismatch -> the torch/torch_npu one),
        # whose fix would be wrong for another form; the thread's own resolution is right for it.
        mapped = [x for x in log.expected if x.startswith("ARL-") and catalog.by_id(x) is not None]
        lines = error_lines(catalog, log.body, path.name, result=sr.reading(log, catalog))
        if lines:
            examples.append({"name": f"dev/{path.name}", "source": log.source, "label": label,
                             "catalog_id": mapped[0] if mapped else None,
                             "resolution": log.resolution[:MAX_RESOLUTION], "family": log.family, "lines": lines})
    for path in sorted(CASES.glob("*/*.log")):
        expect = path.with_suffix(".expect")
        if not expect.exists():
            continue
        entry = catalog.by_id(expect.read_text().strip())
        if entry is None:
            continue
        raw = path.read_bytes()
        first = raw.splitlines()[0].decode("utf-8", "replace") if raw.strip() else ""
        source = first.split(":", 1)[1].strip() if first.startswith("# source:") else (entry.sources[0] if entry.sources else "")
        if not source or sr.held_out(source):
            continue  # a thread in the held-out split, or no thread to point to
        lines = error_lines(catalog, _header_free(raw), path.name, entry.id)
        if lines:
            examples.append({"name": f"cases/{path.parent.name}/{path.name}", "source": source, "label": entry.id,
                             "catalog_id": entry.id, "resolution": entry.title, "family": entry.family, "lines": lines})
    data = {
        "about": "Labelled failures for `explain`'s similar-known-failure fallback; built by tools/build_similar_index.py "
                 "from tests/explain/realworld/dev and tests/explain/cases only (never the held-out logs).",
        "examples": examples,
    }
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=DATA_FILE)
    args = parser.parse_args(argv)
    data = build(args.output)
    print(f"{len(data['examples'])} examples -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
