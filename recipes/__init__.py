"""verl GRPO recipes: reviewed YAML data files, loaded, parameterised and turned into a command.

A recipe names the verl entry point, its Hydra overrides (with ``{{param}}`` placeholders for
paths), the env it needs and the hardware it expects. ``key=value`` words from the user either
set a parameter (``model_path=/x``) or replace/add a Hydra override (``trainer.total_epochs=1``).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # what `export` accepts; anything else is shell syntax
REQUIRED = ("name", "description", "entry", "overrides", "hardware")


class RecipeError(Exception):
    """A recipe that cannot be loaded or filled in; the message says which and why."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    entry: str
    overrides: tuple[str, ...]  # as written, with {{param}} placeholders
    params: Mapping[str, Mapping[str, Any]]
    env: Mapping[str, str]
    hardware: Mapping[str, Any]
    verl: Mapping[str, Any]
    notes: tuple[str, ...]
    origin: str

    def resolve(self, words: Sequence[str] = ()) -> ResolvedRecipe:
        """Apply the user's key=value words: params first, then Hydra overrides by key."""
        values = {name: str(spec.get("default", "")) for name, spec in self.params.items()}
        extra: list[str] = []
        for word in words:
            if "=" not in word:
                raise RecipeError(f"{word!r} is not key=value")
            key, value = word.split("=", 1)
            if key in self.params:
                values[key] = value
            elif "." not in key and not key.startswith(("+", "~")):
                raise RecipeError(_not_a_param(key, self))
            else:
                extra.append(word)
        overrides = []
        for raw in self.overrides:
            filled = _PLACEHOLDER.sub(lambda m: _param(values, m.group(1), self.name), raw)
            overrides.append(filled)
        for word in extra:
            key = override_key(word)
            matches = [i for i, o in enumerate(overrides) if override_key(o) == key]
            if matches:
                overrides[matches[0]] = word
            else:
                overrides.append(word)
        return ResolvedRecipe(self, tuple(overrides), dict(values))


def _not_a_param(key: str, recipe: Recipe) -> str:
    """A word without a dot that names no parameter: a typo far more often than a top-level Hydra key."""
    import difflib

    names = sorted(recipe.params)
    near = difflib.get_close_matches(key, names, n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    listed = f"parameters: {', '.join(names)}" if names else "it has no parameters"
    return f"{key} is not a parameter of recipe {recipe.name}; {hint}({listed}; a Hydra override has a dotted key, or +key=value)"


def _param(values: Mapping[str, str], name: str, recipe: str) -> str:
    if name not in values:
        raise RecipeError(f"recipe {recipe}: placeholder {{{{{name}}}}} has no param of that name")
    return values[name]


def override_key(override: str) -> str:
    """The config key an override sets, without + / ++ / ~ prefixes."""
    return override.split("=", 1)[0].lstrip("+~")


@dataclasses.dataclass(frozen=True)
class ResolvedRecipe:
    recipe: Recipe
    overrides: tuple[str, ...]
    params: Mapping[str, str]

    def argv(self, python: str = "python3") -> list[str]:
        return [python, "-m", self.recipe.entry, *self.overrides]

    def command_line(self, python: str = "python3") -> str:
        return shlex.join(self.argv(python))

    def value(self, key: str) -> str | None:
        """The value an override gives ``key`` (as text), if any."""
        for o in self.overrides:
            if override_key(o) == key and "=" in o:
                return o.split("=", 1)[1]
        return None


def builtin_names() -> list[str]:
    folder = resources.files(__package__)
    return sorted(item.name[: -len(".yaml")] for item in folder.iterdir() if item.name.endswith(".yaml"))


def load_recipe(name_or_path: str) -> Recipe:
    """A built-in recipe by name, or a user's recipe file by path."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecipeError(f"{name_or_path}: {exc.strerror or exc}") from None
        return parse_recipe(text, str(path))
    if name_or_path not in builtin_names():
        raise RecipeError(f"no recipe {name_or_path!r}; built-in: {', '.join(builtin_names())} (or give a path to a .yaml)")
    text = resources.files(__package__).joinpath(f"{name_or_path}.yaml").read_text(encoding="utf-8")
    return parse_recipe(text, f"recipes/{name_or_path}.yaml")


def parse_recipe(text: str, origin: str) -> Recipe:
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{origin}:{mark.line + 1}" if mark is not None else origin
        raise RecipeError(f"{where}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict):
        raise RecipeError(f"{origin}: a recipe is a mapping with {', '.join(REQUIRED)}")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise RecipeError(f"{origin}: missing {', '.join(missing)}")
    overrides = data["overrides"]
    if not isinstance(overrides, list) or not all(isinstance(o, str) and "=" in o or isinstance(o, str) and o.startswith("~") for o in overrides):
        raise RecipeError(f"{origin}: overrides must be a list of key=value strings")
    params = data.get("params") or {}
    if not isinstance(params, dict) or not all(isinstance(v, dict) for v in params.values()):
        raise RecipeError(f"{origin}: params must map a name to {{default, help}}")
    env = _env(data.get("env"), origin)
    recipe = Recipe(
        name=str(data["name"]),
        description=str(data["description"]),
        entry=str(data["entry"]),
        overrides=tuple(overrides),
        params=params,
        env=env,
        hardware=dict(data["hardware"]),
        verl=dict(data.get("verl") or {}),
        notes=tuple(str(n) for n in data.get("notes") or ()),
        origin=origin,
    )
    recipe.resolve()  # every placeholder must have a param
    return recipe


def _env(raw: Any, origin: str) -> dict[str, str]:
    """The recipe's env, checked: names that `export` takes, scalar values without NUL bytes."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RecipeError(f"{origin}: env must map variable names to values")
    env = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not ENV_NAME.fullmatch(key):
            raise RecipeError(f"{origin}: env key {key!r} is not a variable name (letters, digits and _, not starting with a digit)")
        if isinstance(value, (dict, list)) or value is None:
            raise RecipeError(f"{origin}: env {key} must be a string or a number (quote it: {key}: \"...\")")
        value = str(value)
        if "\0" in value:
            raise RecipeError(f"{origin}: env {key} contains a NUL byte")
        env[key] = value
    return env


def all_recipes() -> Iterable[Recipe]:
    for name in builtin_names():
        yield load_recipe(name)


def recipe_from_launch(launch: Any, origin: str, notes: Sequence[str] = ()) -> Recipe:
    """A launch script's verl command (:class:`ascendrl.preflight.launch.Launch`) as a recipe.

    The overrides are the words bash would pass; the env is what the script itself exports.
    """
    from ascendrl.preflight.redact import secret_name

    from ascendrl.preflight.launch import config_name_overrides

    name = Path(origin).stem
    engine, given = config_name_overrides(launch.options)
    options = [o for o in launch.options if o not in given]
    extra = [f"the script also passes {' '.join(options)}; a recipe composes verl's default config, so add them to your command by hand"] if options else []
    if engine:
        extra.append(f"{' '.join(given)} is verl's default config with {' '.join(engine)}: composed that way")
    secrets = sorted(k for k in launch.exports if secret_name(k))
    if secrets:
        extra.append(f"left out of env (secrets are not written to a recipe): {', '.join(secrets)}; export them in the shell that runs it")
    hardware = {
        "npus_per_node": _int_or_text(launch.value("trainer.n_gpus_per_node")),
        "nnodes": _int_or_text(launch.value("trainer.nnodes") or "1"),
    }
    return Recipe(
        name=name, description=f"imported from {Path(origin).name}", entry=launch.entry,
        overrides=tuple(o.replace("{{", "{ {") for o in (*engine, *launch.overrides)), params={},
        env={k: v for k, v in launch.exports.items() if k not in secrets},
        hardware=hardware, verl={}, notes=tuple([*extra, *notes]), origin=origin,
    )


def _int_or_text(value: str | None) -> int | str | None:
    return int(value) if value is not None and value.isdigit() else value


def recipe_yaml(recipe: Recipe) -> str:
    """The recipe as a YAML file :func:`load_recipe` reads back unchanged."""
    doc: dict[str, Any] = {
        "name": recipe.name, "description": recipe.description, "entry": recipe.entry,
        "hardware": dict(recipe.hardware), "env": dict(recipe.env), "overrides": list(recipe.overrides),
    }
    if recipe.notes:
        doc["notes"] = list(recipe.notes)
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1 << 16)
