"""A config value verl looks up in one of its registries by name, and no such name is registered.

verl resolves several config values by name (the advantage estimator, the policy loss mode, the reward manager, the agent
loop, the tool parser) and raises its own message when the name is not registered: a typo, a
name from another verl release, or a custom one whose module was never imported in the worker. The message names the
value but not the config key; the table (``verl_registries.yaml``, data with its sources) gives the key and the names
verl registers, and the nearest of them is offered when the value looks like a typo of one.
"""

from __future__ import annotations

import re
from typing import Any

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, shipped_rows, typed
from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs

VERL_CONFIG = "https://verl.readthedocs.io/en/latest/examples/config.html"


def lookups() -> tuple[tuple[re.Pattern[str], dict[str, Any]], ...]:
    return tuple((re.compile(row["message"]), row) for row in shipped_rows(
        __file__, __package__, "verl_registries.yaml", "lookups", frozenset(("message", "what", "key", "names", "names_in", "source"))))


def listed_names(text: str | None) -> list[str]:
    """The names a message prints ("['vanilla', 'gspo']", "dict_keys(['single_turn_agent'])"), or none."""
    if not text:
        return []
    import ast  # here: only a message of this shape needs it

    inner = text[text.index("["):] if "[" in text else text
    try:
        value = ast.literal_eval(inner.rstrip(")"))
    except (ValueError, SyntaxError):
        return re.findall(r"'([^']+)'", text)
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


class VerlRegistryName(Analyzer):
    id = "DRV-verl-name"
    title = "A config value verl looks up by name is not registered"
    family = "verl-config"
    stops_run = "verl cannot resolve the name: it fails the same way on every start until the config changes"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not typed(link, ("ValueError", "NotImplementedError", "AssertionError")):
            return None
        msg = link.message
        if not ("not registered" in msg or "Unknown " in msg or "Unsupported loss mode" in msg):
            return None  # a substring test first: the table is read only for a message of this shape
        paths = [f.path for f in link.frames]
        for pattern, row in lookups():
            m = pattern.search(msg)
            if m is None or (row.get("frame") and not any(row["frame"] in path for path in paths)):
                continue
            import difflib  # here, not at import: a one-line explain of anything else must not load it

            name = m.group("name").strip("'\",")
            known = listed_names(m.groupdict().get("listed")) or list(row["names"])
            near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            guess = f" ('{name}' looks like a typo of '{near[0]}')" if near and near[0] != name else ""
            listed = "the message's own list of" if m.groupdict().get("listed") else f"verl {row.get('names_in', '')}'s"
            return Finding(
                f"verl has no {row['what']} named '{name}': set {row['key'].split(' ')[0]} to a registered one",
                f"{link.type}: {msg[:200]}. verl resolves {row['key']} by name in its registry of {row['what']}s, and "
                f"'{name}' is not registered there{guess}: a typo, a name from another verl release, or a custom "
                f"{row['what']} whose module was never imported in the process that looks it up.",
                (f"Set {row['key']} to one of {listed} names: {', '.join(known[:16])}"
                 + (f" (probably '{near[0]}')" if guess else ""),
                 "A custom one must be registered by a module imported in every worker (verl's register decorator for it, "
                 "loaded through the config's custom module path), not only in the driver",
                 "A name added in a newer verl needs that release: pip show verl"),
                evidence(link), (row["source"], VERL_CONFIG), key=f"verl-name:{row['what']}:{name}",
                family="verl-config", kind="verl-config-unknown-name",
            )
        return None

