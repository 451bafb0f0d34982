"""Lint facts for a recipe: composed by the checked interpreter's own verl (see lint_query.py)."""

from __future__ import annotations

import json
import sys

from ..host import Host
from ..model import Fact, missing

QUERY_TIMEOUT = 600.0


def probe_recipe(host: Host) -> dict[str, Fact]:
    resolved = host.recipe
    if resolved is None:
        return {}
    recipe = resolved.recipe
    facts = {
        "lint.recipe": Fact(
            {
                "name": recipe.name,
                "origin": recipe.origin,
                "overrides": list(resolved.overrides),
                "env": dict(recipe.env),
                "hardware": dict(recipe.hardware),
                "verl": dict(recipe.verl),
            },
            recipe.origin,
        )
    }
    python = host.python or sys.executable
    source = f"{python}: compose against its verl's config"
    from importlib import resources

    program = resources.files("ascendrl.preflight").joinpath("lint_query.py").read_text(encoding="utf-8")
    args = {"overrides": list(resolved.overrides), "validate": host.validate, "root_prefix": "" if host.live else str(host.root)}
    result = host.run([python, "-c", program, json.dumps(args)], timeout=max(host.timeout, QUERY_TIMEOUT))
    if result.rc != 0:
        facts["lint.query"] = missing(source, f"the lint query failed: {result.describe()}")
        return facts
    try:
        data = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        facts["lint.query"] = missing(source, f"the lint query printed no JSON: {result.stdout[-300:]!r}")
        return facts
    if data.get("verl", {}).get("error") and "data" not in data:
        facts["lint.query"] = missing(source, f"{data['verl']['error']} ({python}); pass --python with the training interpreter")
        return facts
    facts["lint.query"] = Fact(data, source)
    return facts
