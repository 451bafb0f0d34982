"""Readings added by helper k42data (2026-12-05) for the ray / user families, from the emitting parsers' source:

- A command-line parser's refusal of words it takes no place for, read under the command's usage text (the classifier now
  keeps that usage line in the refusal's detail, so an analyzer knows which command refused): Click's
  "Got unexpected extra argument(s) (…)" (click/core.py, Command.parse_args) and argparse's "unrecognized arguments: …"
  (Lib/argparse.py). DRV-cli-extra: under ray start with JSON punctuation in the stray words, the --resources value the
  shell / KubeRay split (ray-start-resources-malformed); elsewhere a split value or words the command does not take.
"""

from __future__ import annotations

import dataclasses
import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()
WITHOUT_E1764 = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E1764"))


def _top(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    diagnoses = data.get("diagnoses") or []
    return diagnoses[0] if diagnoses else None


RAY_START = "Usage: ray start [OPTIONS]\nTry 'ray start --help' for help.\n\nError: Got unexpected extra argument{s} ({words})\n"


def test_ray_start_split_json_without_its_entry():
    for words, s in (("1})", ""), ("8} --block", "s"), ("“NPU”: 1}", ""), ('"NPU": 2}', "")):
        top = _top(RAY_START.format(s=s, words=words), WITHOUT_E1764)
        assert top is not None and top["id"] == "DRV-cli-extra", (words, top)
        assert top.get("kind") == "ray-start-resources-malformed"
        assert "ray start" in top["title"]


def test_ray_start_entry_still_first_with_full_catalog():
    top = _top(RAY_START.format(s="", words="1})"))
    assert top is not None and top["id"] == "ARL-E1764"


def test_ray_start_plain_extra_word_is_not_resources():
    top = _top(RAY_START.format(s="", words="head"), WITHOUT_E1764)
    assert top is not None and top["id"] == "DRV-cli-extra" and top.get("kind") == "cli-extra-arguments"


def test_argparse_unrecognized_arguments_names_command():
    top = _top("usage: torchrun [-h] [--nnodes NNODES]\ntorchrun: error: unrecognized arguments: --foo bar\n")
    assert top is not None and top["id"] == "DRV-cli-extra" and top.get("kind") == "cli-extra-arguments"
    assert "torchrun" in top["title"]


def test_refusal_without_usage_is_not_read():
    top = _top("Error: Got unexpected extra argument (1})\n", WITHOUT_E1764)
    assert top is None or top["id"] != "DRV-cli-extra"
