#!/usr/bin/env python3
"""Build catalog/data/api_history.json: in which releases each module of a package binds each name.

"cannot import name 'X' from 'M'" says the caller and the installed package disagree, not which one is behind. The
released wheels say it: X appears in M from one release on (the installed package is older), or disappears after
one (newer), or moved to another module. This reads the wheels of one release per minor line from the package index
pip is configured with (``pip download --no-deps``; nothing is imported or installed), parses every module with
``ast`` and records the names each module binds at import time: its top-level definitions, assignments and imports
(also inside ``if``/``try`` blocks such as ``if TYPE_CHECKING:``), ``__all__``, the names a lazy ``__init__`` lists
(transformers' ``_import_structure``), and star imports resolved as Python resolves them.

    python tools/build_api_history.py                 # all packages in PACKAGES, into catalog/data/api_history.json
    python tools/build_api_history.py --only peft     # one package (merged into the existing file)
    python tools/build_api_history.py --dates         # each release line's first upload day, from PyPI's JSON metadata
    python tools/build_api_history.py --attrs         # instance attributes of the classes in ATTRS (transformers' Trainer)

The table keeps, per module, the names whose presence differs between the releases the module exists in (as
release ranges) and the modules' own ranges; a name present in every release of its module is listed without a range.
A module that star-imports another package binds "*" (its names are not all known), and one that defines a module
``__getattr__`` may provide names no statement binds: the lookup claims no absence for either.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "catalog" / "data" / "api_history.json"
# pip name -> (import name, first minor line indexed). The first lines are where the verl / vllm-ascend era begins.
# vllm-ascend is not here: PyPI has only source archives of it, which pip would have to build.
PACKAGES = {
    "transformers": ("transformers", "4.30"),
    "vllm": ("vllm", "0.4"),
    "peft": ("peft", "0.1"),
    "accelerate": ("accelerate", "0.1"),
    "trl": ("trl", "0.1"),
    "huggingface-hub": ("huggingface_hub", "0.14"),
    "datasets": ("datasets", "2.10"),
    "megatron-core": ("megatron", "0.5"),
    "pydantic": ("pydantic", "1.8"),
    "ray": ("ray", "2.5"),  # from the first line with wheels for the Python the tool runs on (3.11)
    "tensordict": ("tensordict", "0.1"),  # verl's DataProto is built on it: "cannot import name X from 'tensordict'"
    # protobuf's modules live under the "google" namespace: import errors name google.protobuf.*
    "protobuf": ("google.protobuf", "3.19"),
    # one module; vLLM, pydantic, torch import its newest names (TypeIs, deprecated, override, TypeAliasType)
    "typing-extensions": ("typing_extensions", "3.7"),
}
IDENT = re.compile(r"[A-Za-z_]\w*\Z")


def listed_versions(pip: str, pre: bool = False) -> list[Version]:
    """Every release ``pip index versions`` lists for ``pip`` on the configured index (with ``pre``: pre-releases too)."""
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", *(["--pre"] if pre else []), pip],
                         capture_output=True, text=True).stdout
    m = re.search(r"Available versions: (.*)", out)
    if not m:
        raise SystemExit(f"pip index versions {pip}: no versions ({out.strip()[:200]})")
    found = []
    for text in m.group(1).split(", "):
        try:
            found.append(Version(text))
        except InvalidVersion:
            continue
    return found


def releases(pip: str, first: str) -> list[str]:
    """The newest final release of each minor line from ``first`` on, as the configured index lists them."""
    best: dict[tuple[int, int], Version] = {}
    for v in listed_versions(pip):
        if v.is_prerelease or v.is_devrelease or v < Version(first):
            continue
        key = (v.major, v.minor)
        if key not in best or v > best[key]:
            best[key] = v
    return [str(best[k]) for k in sorted(best)]


def module_name(path: str) -> str | None:
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(IDENT.match(p) for p in parts):
        return None
    return ".".join(parts)


def _body_nodes(body):
    """Statements run at import time: the module body and the bodies of if / try / with blocks in it."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _body_nodes(node.body)
            yield from _body_nodes(node.orelse)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            for part in (node.body, node.orelse, node.finalbody, *[h.body for h in node.handlers]):
                yield from _body_nodes(part)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            yield from _body_nodes(node.body)


def _targets(target):
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            yield from _targets(t)


def _resolve(module: str, level: int, name: str | None, is_package: bool) -> str:
    if not level:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _args(fn) -> list[str]:
    a = fn.args
    out = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs) if x.arg not in ("self", "cls")]
    if a.kwarg is not None:
        out.append("**")  # takes any keyword: no argument is ever unexpected here
    return out


def parameters(body) -> dict[str, list[str]]:
    """{callable: the keyword arguments it takes} for the module's functions and classes: a class by its own __init__,
    or, for a dataclass without one, its fields ("^" added when it has base classes, whose fields it also takes)."""
    out: dict[str, list[str]] = {}
    for node in _body_nodes(body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = _args(node)
        elif isinstance(node, ast.ClassDef):
            init = next((b for b in node.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
            if init is not None:
                out[node.name] = _args(init)
            elif any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                fields = [b.target.id for b in node.body if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)
                          and "ClassVar" not in ast.unparse(b.annotation)]
                out[node.name] = fields + (["^"] if node.bases else [])
    return out


def bindings(module: str, source: str, is_package: bool) -> tuple[set[str], list[str] | None, list[str], dict[str, list[str]]]:
    """(names bound, __all__ or None, modules star-imported, parameters of its callables) of one module's source.

    Names imported from other packages (``import torch``, ``from typing import Any``) are left out: nobody imports them
    from here, and they would triple the table."""
    top = module.split(".")[0]
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set(), None, [], {}
    names: set[str] = set()
    all_names: list[str] | None = None
    stars: list[str] = []
    lazy = "_import_structure" in source or "_LazyModule" in source
    for node in _body_nodes(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                names.update(_targets(t))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                try:
                    all_names = [n for n in ast.literal_eval(node.value) if isinstance(n, str)]
                except (ValueError, TypeError, SyntaxError):
                    pass
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
            if node.target.id == "__all__" and isinstance(node, ast.AugAssign) and all_names is not None:
                try:
                    all_names += [n for n in ast.literal_eval(node.value) if isinstance(n, str)]
                except (ValueError, TypeError, SyntaxError):
                    pass
        elif isinstance(node, ast.ImportFrom):
            source_module = _resolve(module, node.level, node.module, is_package)
            own = source_module.split(".")[0] == top
            for alias in node.names:
                if alias.name == "*":
                    stars.append(source_module)
                elif own:  # re-exports of the package's own names; another package's names are that package's history
                    names.add(alias.asname or alias.name)
        if lazy and isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr)):
            # transformers' lazy __init__: _import_structure["x"] = ["Name", ...] / .extend([...]) / .append("Name")
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and IDENT.match(sub.value):
                    names.add(sub.value)
    if all_names is not None:
        names.update(all_names)
    return names, all_names, stars, parameters(tree.body)


def index_wheel(args: tuple[str, str, str]) -> tuple[str, dict[str, dict]]:
    """{module: {"names": sorted names it binds, "params": its callables' keyword arguments}} of one wheel, star
    imports resolved."""
    version, wheel, top = args
    found: dict[str, tuple[set[str], list[str] | None, list[str], dict[str, list[str]]]] = {}
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            mod = module_name(info.filename)
            if not mod or not (mod == top or mod.startswith(top + ".")):
                continue
            source = z.read(info).decode("utf-8", "replace")
            found[mod] = bindings(mod, source, info.filename.endswith("__init__.py"))
    for _ in range(8):  # star imports, to a fixed point (packages re-export their submodules' names)
        changed = False
        for mod, (names, _all, stars, _params) in found.items():
            for target in stars:
                if target not in found:  # another package's names: unknown here, so no absence can be claimed
                    if "*" not in names:
                        names.add("*")
                        changed = True
                    continue
                t_names, t_all, _, _ = found[target]
                add = set(t_all) if t_all is not None else {n for n in t_names if not n.startswith("_")}
                if not add <= names:
                    names |= add
                    changed = True
        if not changed:
            break
    return version, {mod: {"names": sorted(v[0]), "params": v[3]} for mod, v in found.items()}


def ranges(indices: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def history(versions: list[str], per_version: dict[str, dict[str, list[str]]]) -> dict:
    """{"versions": [...], "modules": {module: {"in": ranges, "names": {name: ranges}, "always": [names],
    "params": {callable: {"defined": ranges, argument: ranges}}}}}: "params" lists only the keyword arguments that a
    callable defined here took in some of its releases and not in others ("**": it took any keyword; "^": a dataclass
    with bases, which takes their fields too)."""
    modules: dict[str, dict] = {}
    present: dict[str, list[int]] = {}
    names_at: dict[str, dict[str, list[int]]] = {}
    params_at: dict[str, dict[str, dict[str, list[int]]]] = {}
    defined_at: dict[str, dict[str, list[int]]] = {}
    for i, v in enumerate(versions):
        for mod, row in per_version[v].items():
            present.setdefault(mod, []).append(i)
            for n in row["names"]:
                names_at.setdefault(mod, {}).setdefault(n, []).append(i)
            for fn, args in row["params"].items():
                defined_at.setdefault(mod, {}).setdefault(fn, []).append(i)
                for arg in args:
                    params_at.setdefault(mod, {}).setdefault(fn, {}).setdefault(arg, []).append(i)
    for mod, idx in sorted(present.items()):
        always, varying = [], {}
        for n, at in sorted(names_at.get(mod, {}).items()):
            if at == idx:
                always.append(n)
            else:
                varying[n] = ranges(at)
        changed = {}
        for fn, args in sorted(params_at.get(mod, {}).items()):
            life = defined_at[mod][fn]
            moved = {arg: ranges(at) for arg, at in sorted(args.items()) if at != life}
            if moved and len(life) > 1:
                # only a parameter that comes or goes while its callable is defined here is kept; "**" and "^" are
                # kept with it, because they bar claims
                moved.update({m: ranges(args[m]) for m in ("**", "^") if m in args})
                changed[fn] = {"defined": ranges(life), **moved}
        modules[mod] = {"in": ranges(idx), "always": always, "names": varying, **({"params": changed} if changed else {})}
    return {"versions": versions, "modules": modules}


def dumps(table: dict) -> str:
    """JSON with one module a line, so a rebuild's diff shows which modules changed."""
    out = ['{"packages": {']
    packages = sorted(table["packages"].items())
    for i, (pip, pkg) in enumerate(packages):
        head = {k: v for k, v in pkg.items() if k != "modules"}
        out.append(f"{json.dumps(pip)}: {json.dumps(head, sort_keys=True)[:-1]}, \"modules\": {{")
        mods = sorted(pkg["modules"].items())
        out += [f"{json.dumps(m)}: {json.dumps(row, sort_keys=True, separators=(',', ':'))}" + ("," if j < len(mods) - 1 else "")
                for j, (m, row) in enumerate(mods)]
        out.append("}}" + ("," if i < len(packages) - 1 else ""))
    out.append("}}")
    return "\n".join(out) + "\n"


def write(path: Path, table: dict) -> None:
    """Atomically: a reader never sees half a table."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(dumps(table))
    json.loads(tmp.read_text())
    tmp.replace(path)


PYPI_JSON = "https://pypi.org/pypi/{}/json"


def line_dates(pip: str, versions: list[str]) -> dict[str, str]:
    """For each release read (the newest of its minor line), the day the first file of that minor line's first final
    release was uploaded to PyPI (the JSON API's ``upload_time``): when the things the table says arrived with that
    line became installable. Read from PyPI's JSON metadata (one request per package)."""
    import urllib.request

    with urllib.request.urlopen(PYPI_JSON.format(pip), timeout=60) as r:
        meta = json.load(r)
    first_day: dict[tuple[int, int], str] = {}
    for text, files in meta.get("releases", {}).items():
        try:
            v = Version(text)
        except InvalidVersion:
            continue
        days = sorted(f["upload_time"][:10] for f in files if f.get("upload_time"))
        if v.is_prerelease or v.is_devrelease or not days:
            continue
        key = (v.major, v.minor)
        if key not in first_day or days[0] < first_day[key]:
            first_day[key] = days[0]
    out = {}
    for text in versions:
        v = Version(text)
        if (v.major, v.minor) in first_day:
            out[text] = first_day[(v.major, v.minor)]
    return out


# The classes whose instance attributes are recorded (--attrs): module -> class names. transformers' Trainer is the base
# of the RL trainers (TRL's GRPOTrainer, LLaMA-Factory's, verl's recipes), which read state the Trainer sets.
# The same pass records the keyword arguments of these classes' methods ("Class.method" in the module's "params"): RL
# wrappers (Unsloth, ms-swift, LLaMA-Factory) call the trainers' methods with keywords a later release renamed.
ATTRS = {
    "transformers": {"transformers.trainer": ["Trainer"]},
    "trl": {f"trl.trainer.{m}_trainer": [f"{c}Trainer"] for m, c in (("grpo", "GRPO"), ("sft", "SFT"), ("dpo", "DPO"),
                                                                         ("ppo", "PPO"), ("rloo", "RLOO"), ("reward", "Reward"))},
}


def methods(source: str, cls: str) -> dict[str, list[str]]:
    """{method: its keyword arguments} of top-level class ``cls`` (functions defined in its body)."""
    node = next((n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == cls), None)
    return {} if node is None else {f.name: _args(f) for f in _body_nodes(node.body)
                                    if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.name.startswith("__")}


def instance_attributes(source: str, cls: str) -> list[str] | None:
    """The attributes an instance of top-level class ``cls`` has from its own body: methods, class-level assignments and
    imports, nested classes, and ``self.X = ...`` (also annotated, augmented or tuple targets) in any of its methods; None where the module has no
    such class."""
    tree = ast.parse(source)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
    if node is None:
        return None
    out: set[str] = set()
    for item in _body_nodes(node.body):
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(item.name)
            for sub in ast.walk(item):
                targets = (sub.targets if isinstance(sub, ast.Assign) else
                           [sub.target] if isinstance(sub, (ast.AnnAssign, ast.AugAssign)) else [])
                stack = list(targets)
                while stack:
                    t = stack.pop()
                    if isinstance(t, (ast.Tuple, ast.List)):
                        stack.extend(t.elts)
                    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        out.add(t.attr)
        elif isinstance(item, ast.Assign):
            out.update(n for t in item.targets for n in _targets(t))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out.add(item.target.id)
        elif isinstance(item, (ast.Import, ast.ImportFrom)):  # 5.x binds helpers as methods: "from .x import f" in the body
            out.update((a.asname or a.name).split(".")[0] for a in item.names if a.name != "*")
        elif isinstance(item, ast.ClassDef):
            out.add(item.name)
    return sorted(out)


def class_attributes(pip: str, versions: list[str], wanted: dict[str, list[str]]) -> tuple[dict, dict]:
    """({module: {class: {"defined": ranges, attribute: ranges}}}, {module: {"Class.method": {"defined": ranges,
    keyword: ranges}}}) over ``versions`` (the table's releases), read from each release's wheel (downloaded as the main
    build does; only the named modules are parsed). Method keywords are kept, as "params" keeps them, only where they
    changed while the method existed ("**" where it took any keyword)."""
    per: dict[tuple[str, str], dict[int, list[str]]] = {}
    meth: dict[tuple[str, str], dict[int, list[str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, v in enumerate(versions):
            d = Path(tmp) / v
            r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d",
                                str(d), f"{pip}=={v}"], capture_output=True, text=True)
            wheels = list(d.glob("*.whl")) if d.exists() else []
            if r.returncode or not wheels:
                print(f"{pip} {v}: no wheel", file=sys.stderr)
                continue
            with zipfile.ZipFile(wheels[0]) as z:
                names = set(z.namelist())
                for mod, classes in wanted.items():
                    path = mod.replace(".", "/") + ".py"
                    path = path if path in names else mod.replace(".", "/") + "/__init__.py"
                    if path not in names:
                        continue
                    source = z.read(path).decode("utf-8", "replace")
                    for cls in classes:
                        attrs = instance_attributes(source, cls)
                        if attrs is not None:
                            per.setdefault((mod, cls), {})[i] = attrs
                            for fn, args in methods(source, cls).items():
                                meth.setdefault((mod, f"{cls}.{fn}"), {})[i] = args
            for w in wheels:
                w.unlink()
    out: dict[str, dict[str, dict]] = {}
    for (mod, cls), by_index in per.items():
        rec: dict[str, list] = {"defined": ranges(sorted(by_index))}
        for attr in sorted({a for attrs in by_index.values() for a in attrs}):
            rec[attr] = ranges([i for i in sorted(by_index) if attr in by_index[i]])
        out.setdefault(mod, {})[cls] = rec
    params: dict[str, dict[str, dict]] = {}
    for (mod, fn), by_index in meth.items():
        life = sorted(by_index)
        changed = {arg: ranges([i for i in life if arg in by_index[i]])
                   for arg in sorted({a for args in by_index.values() for a in args})
                   if arg == "**" or any(arg not in by_index[i] for i in life)}
        if changed:
            params.setdefault(mod, {})[fn] = {"defined": ranges(life), **changed}
    return out, params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="pip name of one package (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--dates", action="store_true",
                    help="only add each release line's first upload day (PyPI JSON) to the packages already in the table")
    ap.add_argument("--attrs", action="store_true",
                    help="only add the instance attributes of the classes in ATTRS, per release, to the packages in the table")
    a = ap.parse_args()
    table = json.loads(a.out.read_text()) if a.out.exists() else {"packages": {}}
    if a.attrs:
        for pip in a.only or list(ATTRS):
            pkg = table["packages"][pip]
            attrs, params = class_attributes(pip, pkg["versions"], ATTRS[pip])
            for mod, classes in attrs.items():
                pkg["modules"][mod]["attrs"] = classes
                print(f"{pip} {mod}: {', '.join(f'{c} ({len(r) - 1} attributes)' for c, r in classes.items())}", file=sys.stderr)
            for mod, fns in params.items():
                row = pkg["modules"][mod].setdefault("params", {})
                for fn in [k for k in row if "." in k]:
                    del row[fn]  # an earlier --attrs pass's methods
                row.update(fns)
                print(f"{pip} {mod}: {len(fns)} methods whose keywords changed", file=sys.stderr)
        write(a.out, table)
        return
    if a.dates:
        for pip in a.only or list(table["packages"]):
            pkg = table["packages"][pip]
            pkg["dates"] = line_dates(pip, pkg["versions"])
            pkg["dates_source"] = PYPI_JSON.format(pip) + " (upload_time of each minor line's first final release)"
            print(f"{pip}: {len(pkg['dates'])} of {len(pkg['versions'])} release lines dated", file=sys.stderr)
        write(a.out, table)
        return
    for pip in a.only or list(PACKAGES):
        top, first = PACKAGES[pip]
        versions = releases(pip, first)
        with tempfile.TemporaryDirectory() as tmp:
            jobs = []
            for v in versions:
                d = Path(tmp) / v
                r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d", str(d), f"{pip}=={v}"],
                                   capture_output=True, text=True)
                wheels = list(d.glob("*.whl")) if d.exists() else []
                if r.returncode or not wheels:
                    print(f"{pip} {v}: no wheel ({r.stderr.strip().splitlines()[-1:] or ''})", file=sys.stderr)
                    continue
                jobs.append((v, str(wheels[0]), top))
            with ProcessPoolExecutor(a.jobs) as pool:
                per_version = dict(pool.map(index_wheel, jobs))
        got = [v for v in versions if v in per_version]
        if not got:
            print(f"{pip}: no release had a wheel; left out", file=sys.stderr)
            continue
        table["packages"][pip] = {"import": top, "source": f"PyPI wheels of {pip}, the newest release of each minor line",
                                  **history(got, per_version)}
        print(f"{pip}: {len(got)} releases {got[0]}..{got[-1]}, {len(table['packages'][pip]['modules'])} modules", file=sys.stderr)
        write(a.out, table)  # after each package: a long build that stops keeps what it read
    print(f"wrote {a.out.relative_to(ROOT) if a.out.is_relative_to(ROOT) else a.out} ({a.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
