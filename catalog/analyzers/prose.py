"""A failure a person names in words: the class an issue title or sentence states, without the program's message.

A user on an air-gapped cluster often pastes only what they would title an issue ("910B4部署Qwen3出现NPU OOM问题",
"[Bug]: HCCL timeout when training with verl", "Cann软件与Ascend驱动版本不匹配"): the words name the class of the
failure, and saying nothing helps less than naming the class, what it usually means and what to paste next. The
classifier reads such a sentence of a short paste as a lone sentence (``Exception: <sentence>``, lone()) when nothing
else in the paste was read; this analyzer names the class from prose_words.yaml, whose rows are the classes' names in
the programs' own terms and in the Chinese terms of the Ascend documentation. A catalog signature or a more specific
analyzer that reads the sentence wins (this one runs last but one).
"""

from __future__ import annotations

import functools
import re

from ...lazyre import lazy
from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, lone, shipped_rows
from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs


@functools.lru_cache(maxsize=1)
def rows() -> tuple[dict, ...]:
    """The rows of prose_words.yaml, their regexes compiled."""
    loaded = shipped_rows(__file__, __package__, "prose_words.yaml", "rows",
                          frozenset(("kind", "words", "title", "cause", "fix", "sources")))
    return tuple({**r, **{k: re.compile(r[k], re.I) for k in ("words", "unless", "context") if r.get(k)}} for r in loaded)


# What a sentence names by a setting, not in words: an environment variable (HCCL_CONNECT_TIMEOUT), an assignment
# (timeout=1800) or a command-line option (--kv-cache-dtype): "export HCCL_EXEC_TIMEOUT=1800" names no failure.
SETTING = lazy(r"(?<![\w-])(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[\w.-]+=\S*|--?[A-Za-z][\w-]*)")


# A question about what a message means ('用户问："No space left" 是什么意思'): about the words, not a failure the asker has.
MEANING_QUESTION = lazy(r"(?i)是什么意思|什么意思|啥意思|的含义|\bwhat (?:does|do|is)\b.{0,80}\bmean|\bmeaning of\b")


# A negation just before the class's words ("no OOM so far", "without HCCL timeout now", "没有显存不足"): the sentence says
# the failure did not happen.
NEGATED = lazy(r"(?i)(?:\b(?:no|not|without|never|nor)\b\W{0,3}(?:[A-Za-z]+\W{1,3}){0,2}|(?:没有|未|不再)(?:出现|发生|再)?\s*)$")


def _negated(words: str, start: int) -> bool:
    return NEGATED.search(words[max(0, start - 40):start]) is not None


def named_in_words(sentence: str) -> dict | None:
    """The first row of prose_words.yaml whose words the sentence uses (and whose `unless` it does not), else None.

    The words are looked for with the sentence's settings masked (SETTING); a row's `context` may name a setting.
    """
    if MEANING_QUESTION.search(sentence) is not None:
        return None
    words = SETTING.sub(" ", sentence)
    for row in rows():
        if (found := row["words"].search(words)) is None or _negated(words, found.start()):
            continue
        if "unless" in row and row["unless"].search(words) is not None:
            continue
        if "context" in row and row["context"].search(sentence) is None:
            continue
        return row
    return None


class NamedInWords(Analyzer):
    """A lone sentence of a paste that names a failure's class in words (prose_words.yaml)."""

    id = "DRV-named-in-words"
    title = "A failure named in words"
    family = "user"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not lone(link):
            return None
        row = named_in_words(link.message)
        if row is None:
            return None
        see = ", ".join(row.get("see", ()))
        fix = tuple(row["fix"]) + ((f"Where the full error is at hand, ascendrl explain names it exactly (the catalog's {see})",) if see else ())
        return Finding(
            row["title"], f"The paste names the failure in words, not by the program's message: \"{link.message[:200]}\". "
            + " ".join(row["cause"].split()), fix, evidence(link), tuple(row["sources"]), key=f"words:{row['kind']}",
            family=row.get("family", ""), kind=row["kind"],
        )
