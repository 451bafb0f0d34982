"""The thin command line: parse arguments, call the core, render, choose the exit code.

`fix` follows ruff's `check --fix`: the exit status says whether failures remain (after
`--apply`: 1 when any check still fails, even if everything planned was applied; the dry run
exits 0), the text says what was applied.

`run` passes its command's status through; its own failures use `docker run`'s and `timeout`'s
codes (125 ascendrl failed or did not launch, 126 command not executable, 127 command not
found; see RUN_EXIT_TABLE).

Exit codes: 0 nothing failed, 1 a finding failed (explain: a fatal failure found), 2 usage
error, 3 ascendrl crashed, 4 explain could read none of its inputs, 120 the output could not be
written (stdout closed or full, as Python's own 120), 130 interrupted. A reader that goes away
(`explain log | head -1`) does not change the status. `main(argv)` returns the code so tests
call it directly.
"""

from __future__ import annotations

import argparse
import errno
import gc
import math
import os
import stat
import sys
from collections.abc import Callable
from typing import Any
from pathlib import Path

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_CRASH, EXIT_INTERRUPT = 0, 1, 2, 3, 130
EXIT_NO_INPUT = 4  # explain: every input was unreadable, binary or empty of files
# `run` passes the command's own status through, so its own failures use docker run's / timeout's codes
EXIT_RUN_FAILED, EXIT_NOT_EXECUTABLE, EXIT_NOT_FOUND = 125, 126, 127
RUN_EXIT_TABLE = """exit status:
  the command's own  the command ran; its status is passed through (128+N: it died of signal N)
  125                ascendrl failed or did not launch: bad arguments, preflight failures
                     without --force, a run folder it cannot write, an error while supervising
  126                the command was found but could not be executed (permission, not a program)
  127                the command was not found
  130                interrupted (the run was stopped first)"""
EXIT_OUTPUT = 120  # stdout closed, full or failing; Python exits 120 when its final flush fails
MAX_TIMEOUT = 24 * 3600.0


class UsageError(Exception):
    """Bad arguments: reported in one line, exit 2."""


class OutputError(Exception):
    """stdout cannot be written (closed, full, I/O error): one line on stderr, exit 120."""


def _seconds(text: str) -> float:
    """A timeout: a finite number of seconds, > 0 and at most a day (inf/nan would never time out)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, at most {MAX_TIMEOUT:g}: {text!r}")
    return value


def _os_reason(exc: OSError) -> str:
    """"symlink loop" for ELOOP (whose strerror reads like a puzzle); otherwise the OS's words."""
    return "symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc)).lower()


def _check_path(flag: str, value: str, *, executable: bool) -> str:
    """A path option must exist and be usable: one clear line otherwise (never a traceback)."""
    if executable and "/" not in value:
        import shutil

        found = shutil.which(value)
        if found is None:
            raise UsageError(f"{flag} {value}: not found on PATH")
        value = found
    try:
        mode = os.stat(value).st_mode
    except OSError as exc:
        raise UsageError(f"{flag} {value}: {_os_reason(exc)}") from None
    if stat.S_ISDIR(mode):
        raise UsageError(f"{flag} {value}: is a folder")
    if not executable and not stat.S_ISREG(mode):
        raise UsageError(f"{flag} {value}: not a regular file")
    if executable and not os.access(value, os.X_OK):
        raise UsageError(f"{flag} {value}: not executable (permission denied)")
    if not executable and not (os.access(value, os.R_OK) or os.access(value, os.X_OK)):
        raise UsageError(f"{flag} {value}: permission denied")
    return value


def _columns() -> int:
    """shutil.get_terminal_size().columns: $COLUMNS, else the terminal's width, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the width shutil would give, without importing shutil.

    Every add_argument builds a formatter, and the stock one imports shutil (with bz2 and lzma) for
    the terminal's width: 2-3 ms of every command, for help that a check or an explain never prints.
    """

    def __init__(self, prog: str, *args: Any, width: int | None = None, **kwargs: Any) -> None:
        super().__init__(prog, *args, width=_columns() - 2 if width is None else width, **kwargs)


class _RawFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    """The same for a command whose epilog is a table (`run`)."""


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The CLI's parser; given the command, only that command's arguments are added.

    Adding every command's options (a hundred add_argument calls, a gettext look-up per parser) cost a
    one-line `explain` or `check` more than reading its input; the other commands are then left out.
    """
    from ascendrl import __version__

    parser = argparse.ArgumentParser(prog="ascendrl", description="Diagnostics for verl GRPO runs on Ascend NPUs.", formatter_class=_Formatter)
    parser.add_argument("--version", action="version", version=f"ascendrl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add_arguments, options) in _COMMANDS.items():
        if command is None or command == name:
            add_arguments(sub.add_parser(name, **{"formatter_class": _Formatter, **options}))
    return parser


def _args_check(check: argparse.ArgumentParser) -> None:
    check.add_argument("--json", action="store_true", help="print one JSON document (schema 1) instead of text")
    _host_options(check)
    check.add_argument("--env-file", metavar="FILE", help="check the environment as it is after `source FILE` (e.g. .ascendrl/env.sh)")
    check.add_argument("--recipe", metavar="NAME|FILE", help="also lint this recipe against the checked interpreter's verl, its data and model (a .sh file is read as --script)")
    check.add_argument("--script", metavar="FILE", help="lint the verl command in this launch script as a recipe, with its exports as the env (read, never run)")
    check.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="recipe param or Hydra override for --recipe (repeatable)")
    check.add_argument("--validate", action="store_true", help="with --recipe: also run verl's own validate_config (imports verl: a few seconds)")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    check.add_argument("--rule", metavar="ID", help="explain one rule and exit")
    check.add_argument("--cluster", action="store_true", help="check every alive node of the Ray cluster and compare them (--python: an interpreter with ray)")
    check.add_argument("--address", metavar="ADDR", help="with --cluster: the Ray cluster's address (default: the one `ray status` uses)")
    check.add_argument("--node-timeout", type=_seconds, default=120.0, metavar="S", help="with --cluster: a node not answering within S seconds fails (default 120)")


def _args_fix(fix: argparse.ArgumentParser) -> None:
    mode = fix.add_mutually_exclusive_group()
    mode.add_argument("--apply", action="store_true", help="apply the safe fixes (and unsafe ones with --unsafe), then re-check")
    mode.add_argument("--undo", action="store_true", help="restore every file the last apply touched to its previous bytes")
    fix.add_argument("--force", action="store_true", help="with --undo: restore even files changed since the apply (their current bytes are kept next to the journal)")
    fix.add_argument("--unsafe", action="store_true", help="also apply unsafe fixes (stopping processes that hold NPUs)")
    fix.add_argument("--only", action="append", default=[], metavar="ID", help="only this fix (repeatable)")
    fix.add_argument("--skip", action="append", default=[], metavar="ID", help="not this fix (repeatable)")
    fix.add_argument("--script", metavar="FILE", help="edit this launch script in place instead of .ascendrl/env.sh")
    fix.add_argument("--data-dir", metavar="DIR", help="where relocated caches and temp dirs go (default: the mount with most free space)")
    fix.add_argument("--json", action="store_true", help="print the plan and the outcome as JSON")
    _host_options(fix)


def _args_recipes(recipes: argparse.ArgumentParser) -> None:
    recipes_sub = recipes.add_subparsers(dest="recipes_action", metavar="ACTION")
    imp = recipes_sub.add_parser("import", help="write the recipe YAML equivalent to a launch script's verl command (the script is read, never run)")
    imp.add_argument("script", metavar="SCRIPT", help="the launch script (train.sh)")
    imp.add_argument("--out", metavar="FILE", help="write the YAML here (default: standard output)")


def _args_run(run: argparse.ArgumentParser) -> None:
    run.add_argument("recipe", nargs="?", metavar="RECIPE", help="a built-in recipe name or a recipe file (or use -- COMMAND …)")
    run.add_argument("words", nargs="*", metavar="KEY=VALUE", help="recipe params (model_path=…) or Hydra overrides (trainer.total_epochs=1)")
    run.add_argument("--dry-run", action="store_true", help="print the command and env, start nothing")
    run.add_argument("--python", metavar="EXE", default="python3", help="the training interpreter (default python3)")
    run.add_argument("--force", action="store_true", help="launch even when preflight finds failures")
    run.add_argument("--keep-going", action="store_true", help="do not stop the run on a fatal known failure")
    run.add_argument("--stall-timeout", type=float, default=1800.0, metavar="S", help="stop after S seconds without output or step progress (default 1800)")
    run.add_argument("--grace", type=float, default=10.0, metavar="S", help="seconds between SIGTERM and SIGKILL when stopping (default 10)")
    run.add_argument("--runs-dir", default="runs", metavar="DIR", help="where run folders go (default ./runs)")
    run.add_argument("--plain", action="store_true", help="no live view: pass the output through unchanged")


def _args_data(data: argparse.ArgumentParser) -> None:
    data_sub = data.add_subparsers(dest="dataset", metavar="DATASET")
    gsm8k = data_sub.add_parser("gsm8k", help="GSM8K as verl's examples/data_preprocess/gsm8k.py writes it")
    gsm8k.add_argument("--out", required=True, metavar="DIR", help="where train.parquet and test.parquet go")
    gsm8k.add_argument("--source", metavar="PATH", help="a local copy (the openai/gsm8k repo folder, or parquet/jsonl files); default: the hub")


def _args_plan(plan: argparse.ArgumentParser) -> None:
    plan.add_argument("--model", required=True, metavar="DIR|config.json", help="a model folder or its config.json")
    plan.add_argument("--recipe", metavar="NAME|FILE", help="take the rollout and training settings from this recipe (else verl's defaults)")
    plan.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="recipe param or override (repeatable)")
    plan.add_argument("--npus", type=int, metavar="N", help="NPUs of the run (default: the recipe's, else 8)")
    plan.add_argument("--hbm-gb", type=float, metavar="GB", help="HBM per NPU (default: this host's npu-smi, else 64)")
    plan.add_argument("--vllm-ascend", metavar="VERSION", help="plan with this release's KV formula (default: the newest)")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")


def _args_stack(stack: argparse.ArgumentParser) -> None:
    for key in ("vllm-ascend", "verl", "cann", "torch-npu"):
        stack.add_argument(f"--{key}", metavar="VERSION", help=f"ask about this {key} instead of the installed one")
    stack.add_argument("--python", metavar="EXE", help="read the installed versions from this interpreter")
    stack.add_argument("--root", metavar="DIR", help="read the installed versions under DIR (a mounted image)")
    stack.add_argument("--json", action="store_true", help="print one JSON document instead of text")


def _args_report(report: argparse.ArgumentParser) -> None:
    report.add_argument("--out", default="ascendrl-report", metavar="PREFIX", help="write PREFIX.md and PREFIX.tar.gz (default ascendrl-report)")
    report.add_argument("--runs-dir", default="runs", metavar="DIR", help="take the newest run folder from here (default ./runs)")
    report.add_argument("--run", metavar="DIR", help="this run folder instead of the newest")
    report.add_argument("--yes", action="store_true", help="write without asking (what is written is still printed first)")
    report.add_argument("--cluster", action="store_true", help="also check every node of the Ray cluster (one section per node)")
    report.add_argument("--address", metavar="ADDR", help="with --cluster: the Ray cluster's address")
    _host_options(report)


def _args_explain(explain: argparse.ArgumentParser) -> None:
    explain.add_argument("input", nargs="*", metavar="FILE|DIR|-", help="log files, Ray session log folders, or - for stdin (default: paste)")
    explain.add_argument("--json", action="store_true", help="print one JSON document (schema 1)")
    explain.add_argument("--catalog", action="append", default=[], metavar="FILE", help="also load known failures from FILE (repeatable)")
    explain.add_argument("--list", action="store_true", help="list the catalog and exit")
    explain.add_argument("--id", metavar="ID", help="show one catalog entry and exit")
    explain.add_argument("--schema", action="store_true", help="print the catalog entry format (SCHEMA.md, for --catalog files) and exit")
    explain.add_argument("--all", action="store_true", help="show every diagnosis in full, not just the top one")
    explain.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    explain.add_argument("--nodes", nargs="+", metavar="DIR", help="one log folder per node: order the failures across nodes and name the first (also automatic for a folder of per-node folders)")


# Each command: the function that adds its arguments, and its add_parser options (help, usage …).
_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], dict[str, Any]]] = {
    "check": (_args_check, dict(help="check this host (or a mounted image) for everything that breaks a verl GRPO run")),
    "fix": (_args_fix, dict(help="fix what check finds: dry run by default, --apply to write, --undo to restore")),
    "recipes": (_args_recipes, dict(help="list the built-in recipes; `recipes import train.sh` turns a launch script into one")),
    "run": (_args_run, dict(
        help="launch a recipe (or `-- COMMAND`) under supervision: preflight, live diagnosis, clean stop",
        usage="ascendrl run [options] RECIPE [KEY=VALUE ...]\n       ascendrl run [options] -- COMMAND [ARG ...]   (e.g. -- bash train.sh)",
        epilog=RUN_EXIT_TABLE, formatter_class=_RawFormatter,
    )),
    "data": (_args_data, dict(help="prepare datasets in verl's RL parquet format")),
    "plan": (_args_plan, dict(help="memory plan per NPU: what vLLM will log (KV cache, concurrency) and whether the actor fits")),
    "stack": (_args_stack, dict(help="which versions go together: the documented stacks for the installed (or a named) vllm-ascend, verl, CANN or torch_npu")),
    "report": (_args_report, dict(help="a redacted Markdown report and .tar.gz to attach to an issue on verl or vllm-ascend")),
    "explain": (_args_explain, dict(help="find the root cause of a failed run in a traceback, a log, or a Ray session folder")),
}


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", metavar="DIR", help="read every filesystem fact under DIR instead of / (a mounted image or captured host)")
    parser.add_argument("--npu-smi", metavar="PATH", help="npu-smi executable to run (or a file holding captured `npu-smi info` output)")
    parser.add_argument("--python", metavar="EXE", help="check the packages of this interpreter (the training venv or container python)")
    parser.add_argument("--deep", action="store_true", help="also import torch_npu and torch in a subprocess of the checked python")
    parser.add_argument("--checkpoint-dir", metavar="DIR", help="also check free space where checkpoints will be written")
    parser.add_argument("--timeout", type=_seconds, default=10.0, metavar="S", help="timeout for npu-smi and other tools (default 10 s, at most a day)")


def _host(args: argparse.Namespace):
    from ascendrl.preflight.host import Host

    root = Path(args.root) if args.root else Path("/")
    try:
        if not stat.S_ISDIR(os.stat(root).st_mode):
            raise UsageError(f"--root {args.root}: not a directory")
    except OSError as exc:
        raise UsageError(f"--root {args.root}: not a directory ({_os_reason(exc)})") from None
    npu_smi = _check_path("--npu-smi", args.npu_smi, executable=False) if args.npu_smi else None
    python = _check_path("--python", args.python, executable=True) if args.python else None
    return Host(
        root=root.resolve() if args.root else Path("/"),
        env=dict(os.environ),
        npu_smi=os.path.abspath(npu_smi) if npu_smi else None,
        python=python,
        checkpoint_dir=args.checkpoint_dir,
        deep=args.deep,
        timeout=args.timeout,
    )


def _with_recipe(host, name: str, words: list[str], *, validate: bool):
    import dataclasses

    from ascendrl.recipes import RecipeError, load_recipe

    try:
        resolved = load_recipe(name).resolve(words)
    except RecipeError as exc:
        raise UsageError(str(exc)) from None
    return dataclasses.replace(host, recipe=resolved, validate=validate)


def read_launch_script(host, path: str):
    """``path`` read as a launch script (never run); what could not be determined goes to stderr."""
    from ascendrl import render_fix
    from ascendrl.preflight.launch import read_script

    _check_path("--script", path, executable=False)
    try:
        read = read_script(host, path)
    except OSError as exc:
        raise UsageError(f"--script {path}: {_os_reason(exc)}") from None
    if read.unresolved:
        print(render_fix.unresolved_text(path, read.unresolved), file=sys.stderr)
    return read


def _with_script(host, path: str, words: list[str], *, validate: bool):
    """The host as the script's verl command sees it: its env, and its overrides linted as a recipe."""
    import dataclasses

    from ascendrl.recipes import RecipeError, recipe_from_launch

    read = read_launch_script(host, path)
    if read.launch is None:
        print(f"ascendrl: {path} starts no verl training (no `python -m verl…` or `-m recipe…` that runs); checking the host with its exports", file=sys.stderr)
        return dataclasses.replace(host, env=read.env)
    try:
        resolved = recipe_from_launch(read.launch, path).resolve(words)
    except RecipeError as exc:
        raise UsageError(str(exc)) from None
    return dataclasses.replace(host, env=read.launch.env, recipe=resolved, validate=validate)


def _cmd_recipes(args: argparse.Namespace) -> int:
    from ascendrl.recipes import all_recipes

    if args.recipes_action == "import":
        return _import_script(args)

    for recipe in all_recipes():
        hw = recipe.hardware
        print(f"{recipe.name:<28} {hw.get('npus_per_node')} NPU x {hw.get('nnodes')} node  {recipe.description}")
    return EXIT_OK


def _import_script(args: argparse.Namespace) -> int:
    from ascendrl.preflight.host import Host
    from ascendrl.recipes import recipe_from_launch, recipe_yaml

    read = read_launch_script(Host(env=dict(os.environ)), args.script)
    if read.launch is None:
        print(f"ascendrl: {args.script} starts no verl training; nothing to import", file=sys.stderr)
        return EXIT_FINDINGS
    text = recipe_yaml(recipe_from_launch(read.launch, args.script, [f"not determined when imported: {u}" for u in read.unresolved]))
    if args.out is None:
        _emit(lambda: print(text, end=""))
        return EXIT_OK
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--out {args.out}: {_os_reason(exc)}") from None
    print(f"wrote {args.out} ({len(read.launch.overrides)} overrides, {len(read.launch.exports)} env); check it with `ascendrl check --recipe {args.out}`", file=sys.stderr)
    return EXIT_OK


def _cmd_run(args: argparse.Namespace) -> int:
    from ascendrl import run_cmd

    command = getattr(args, "command_argv", None)
    if command is not None and (args.recipe or args.words):
        raise UsageError("give either a recipe or -- COMMAND, not both")
    if command is None and not args.recipe:
        raise UsageError("usage: ascendrl run RECIPE [KEY=VALUE …] | ascendrl run [options] -- COMMAND …")
    if command == []:
        raise UsageError("nothing after --")
    for name in ("stall_timeout", "grace"):
        value = getattr(args, name)
        if not math.isfinite(value) or value <= 0:  # nan never stalls, inf never escalates to SIGKILL
            raise UsageError(f"--{name.replace('_', '-')} must be a positive number of seconds, not {value}")
    try:
        return run_cmd.run(args, command)
    except run_cmd.RunSetupError as exc:
        raise UsageError(str(exc)) from None


def _cmd_data(args: argparse.Namespace) -> int:
    if args.dataset != "gsm8k":
        raise UsageError("usage: ascendrl data gsm8k --out DIR [--source PATH]")
    from ascendrl.recipes.data import DataError, prepare_gsm8k

    try:
        written = prepare_gsm8k(args.out, source=args.source)
    except DataError as exc:
        print(f"ascendrl data: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    for split, (path, rows) in written.items():
        print(f"{split}: {rows} rows -> {path}")
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    from ascendrl import render
    from ascendrl.preflight import check
    from ascendrl.preflight.rules import all_rules, rule_by_id

    if args.list_rules:
        print(render.rule_list(all_rules()))
        return EXIT_OK
    if args.rule:
        rule = rule_by_id(args.rule)
        if rule is None:
            raise UsageError(f"no rule {args.rule!r}; see `ascendrl check --list-rules`")
        print(render.rule_doc(rule))
        return EXIT_OK
    if args.cluster:
        return _cmd_check_cluster(args)
    if args.address:
        raise UsageError("--address goes with --cluster")
    host = _host(args)
    script = args.script or (args.recipe if args.recipe and args.recipe.endswith((".sh", ".bash")) else None)
    if args.script and args.recipe:
        raise UsageError("give either --recipe or --script, not both")
    if script:
        host = _with_script(host, script, args.set, validate=args.validate)
    elif args.recipe:
        host = _with_recipe(host, args.recipe, args.set, validate=args.validate)
    elif args.set or args.validate:
        raise UsageError("--set and --validate go with --recipe or --script")
    if args.env_file:
        _check_path("--env-file", args.env_file, executable=False)
        from ascendrl import render_fix
        from ascendrl.fixes import check_as_run_sees_it, read_env_file

        shell = read_env_file(host, args.env_file)  # read, never run
        if shell is not None and shell.unresolved:
            print(render_fix.unresolved_text(args.env_file, shell.unresolved), file=sys.stderr)
        report = check_as_run_sees_it(host, args.env_file, shell)
    else:
        report = check(host)
    if not args.json and (note := _verl_note(report, host)):
        print(note, file=sys.stderr)
    if args.json:
        _emit(lambda: print(render.to_json(report)))
    elif _use_color(args.color):
        from rich.console import Console

        _emit(lambda: render.print_rich(report, Console(highlight=False, force_terminal=True if args.color == "always" else None)))
    else:
        _emit(lambda: print(render.to_plain(report)))
    return EXIT_FINDINGS if report.failed else EXIT_OK


def _cmd_check_cluster(args: argparse.Namespace) -> int:
    """`check --cluster`: a Ray driver in the --python interpreter asks every node; rules compare them."""
    from ascendrl import render_cluster
    from ascendrl.preflight.cluster import ClusterError, check_cluster

    if args.root or args.npu_smi or args.env_file or args.validate:
        raise UsageError("--root, --npu-smi, --env-file and --validate check one host; each node is checked as it is (ASCENDRL_NODE_CHECK_ARGS on a node adds options there)")
    python = _check_path("--python", args.python, executable=True) if args.python else sys.executable
    n_gpus, paths = None, []
    if args.recipe:
        resolved = _with_recipe(_host(args), args.recipe, args.set, validate=False).recipe
        raw = resolved.value("trainer.n_gpus_per_node") or str(resolved.recipe.hardware.get("npus_per_node") or "")
        n_gpus = int(raw) if raw.isdigit() else None
        for key in ("actor_rollout_ref.model.path", "data.train_files", "data.val_files"):
            value = (resolved.value(key) or "").strip("[]'\" ")
            paths += [p.strip("'\" ") for p in value.split(",") if p.strip("'\" ").startswith("/")]
    node_args = [*(["--deep"] if args.deep else []), "--timeout", f"{args.timeout:g}",
                 *(["--checkpoint-dir", args.checkpoint_dir] if args.checkpoint_dir else [])]
    try:
        report = check_cluster(python, address=args.address, check_args=node_args, bound=args.node_timeout,
                               env=dict(os.environ), n_gpus_per_node=n_gpus, paths=paths)
    except ClusterError as exc:
        print(f"ascendrl check --cluster: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    if args.json:
        import json

        _emit(lambda: print(json.dumps(report.to_json(), indent=1)))
    else:
        _emit(lambda: print(render_cluster.to_plain(report)))
    return EXIT_FINDINGS if report.failed else EXIT_OK


def _cmd_report(args: argparse.Namespace) -> int:
    """`ascendrl report`: collect, redact, show, then (asked or --yes) write PREFIX.md and PREFIX.tar.gz."""
    from ascendrl import report_cmd
    from ascendrl.preflight import check

    if args.run and not os.path.isdir(args.run):
        raise UsageError(f"--run {args.run}: not a folder")
    host = _host(args)
    check_doc = check(host).to_json()
    path_fact = check_doc["facts"].get("npu_smi.path") or {}
    npu_smi = path_fact.get("value") if "under --root" not in str(path_fact.get("source")) else None
    cluster_doc = None
    if args.cluster:
        from ascendrl.preflight.cluster import ClusterError, check_cluster

        try:
            cluster_doc = check_cluster(args.python or sys.executable, address=args.address, check_args=["--timeout", f"{args.timeout:g}"],
                                        bound=120.0, env=dict(os.environ)).to_json()
        except ClusterError as exc:
            cluster_doc = {"error": str(exc), "nodes": [], "findings": []}
    run_dir = Path(args.run) if args.run else report_cmd.latest_run(args.runs_dir)
    files = report_cmd.collect(check_doc, python=host.python or sys.executable, npu_smi=npu_smi, run_dir=run_dir,
                               cluster_doc=cluster_doc, timeout=args.timeout)
    _emit(lambda: print(report_cmd.preview(files, args.out)))
    if not args.yes:
        if sys.stdin is None or not sys.stdin.isatty():
            print("ascendrl report: nothing written; add --yes to write without asking", file=sys.stderr)
            return EXIT_USAGE
        if not report_cmd.confirm(input):
            print("ascendrl report: nothing written", file=sys.stderr)
            return EXIT_OK
    try:
        md_path, tar_path = report_cmd.write_bundle(files, args.out)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: {_os_reason(exc)}") from None
    print(f"wrote {md_path} and {tar_path}")
    return EXIT_OK


def _verl_note(report, host) -> str | None:
    """Once, above the report: which lint rules need verl, and a Python here that has it (if any)."""
    query = report.facts.value("lint.query") if "lint.query" in report.facts else None
    if not query or not (query.get("verl") or {}).get("error"):
        return None
    skipped = [f.rule_id for f in report.findings if f.rule_id.startswith("ARL-L") and f.status.value == "skip"]
    checked = query.get("python") or host.python or sys.executable
    line = f"ascendrl: {len(skipped)} recipe lint rules need verl, which {checked} does not have: pass --python with the training interpreter"
    found = _python_with_verl(checked)
    return line + (f" (this one has verl: --python {found})" if found else "")


def _python_with_verl(not_this: str) -> str | None:
    """A Python on PATH or in the active venv/conda env whose site-packages hold verl.

    Looked up on disk, never by running the interpreter: a hint must not start programs the user
    did not name (starting Python runs that environment's .pth files and sitecustomize).
    """
    import glob
    import shutil

    candidates = [os.path.join(os.environ[v], "bin", "python") for v in ("VIRTUAL_ENV", "CONDA_PREFIX") if os.environ.get(v)]
    candidates += [p for p in (shutil.which("python3"), shutil.which("python")) if p]
    seen = {os.path.dirname(os.path.dirname(os.path.abspath(not_this)))}
    for exe in candidates:
        env_root = os.path.dirname(os.path.dirname(os.path.abspath(exe)))  # <env>/bin/python -> <env>
        if env_root in seen or not os.access(exe, os.X_OK):
            continue
        seen.add(env_root)
        pattern = os.path.join(env_root, "lib", "python3*", "*-packages", "verl", "__init__.py")
        if glob.glob(pattern):
            return exe
    return None


def _cmd_plan(args: argparse.Namespace) -> int:
    """`ascendrl plan`: the memory plan for a model (and a recipe) on this host or a given HBM."""
    import json

    from ascendrl.preflight import memplan_cli as advice

    try:
        card, text, overrides = advice.plan_inputs(args.model, recipe=args.recipe, words=args.set, hbm_gb=args.hbm_gb)
        lines, data = advice.plan_report(card, text, overrides, npus=args.npus, vllm_ascend=args.vllm_ascend)
    except advice.PlanInputError as exc:
        raise UsageError(str(exc)) from None
    print(json.dumps(data, indent=2) if args.json else "\n".join(lines))
    return EXIT_OK


def _cmd_fix(args: argparse.Namespace) -> int:
    from ascendrl import render_fix
    from ascendrl.fixes import check_as_run_sees_it, npu_holders, propose, read_env_file, unknown_ids
    from ascendrl.fixes.engine import ENV_FILE, STATE_DIR, FixError, apply_plan, build_plan, undo_last

    unknown = unknown_ids(args.only + args.skip)
    if unknown:
        raise UsageError(f"no fix {', '.join(unknown)}; see `ascendrl check --list-rules` for fix ids")
    if args.force and not args.undo:
        raise UsageError("--force goes with --undo")
    if args.undo:
        try:
            journal, doc = undo_last(STATE_DIR, force=args.force)
        except FixError as exc:
            print(f"ascendrl fix: {exc}", file=sys.stderr)
            return EXIT_FINDINGS
        print(render_fix.undo_text(journal, doc))
        return EXIT_OK
    if args.script and not os.path.isfile(args.script):
        raise UsageError(f"--script {args.script}: no such file")
    host = _host(args)
    target = args.script or os.path.join(STATE_DIR, ENV_FILE)
    shell = read_env_file(host, target)  # read, never run
    launch, notes = (_script_launch(host, args.script) if args.script else (None, []))
    if launch is not None:
        host = _with_launch(host, launch, args.script)
    before = check_as_run_sees_it(host, target, shell)
    forced = _forced(before, args.only, launch, notes)
    proposals = propose(before, host, data_dir=os.path.abspath(args.data_dir) if args.data_dir else None, script=args.script, launch=launch, forced=forced)
    for note in notes:
        print(f"ascendrl fix: {note}", file=sys.stderr)
    try:
        plan = build_plan(proposals, target=target, managed=not args.script, unsafe=args.unsafe, only=args.only, skip=args.skip)
    except FixError as exc:
        raise UsageError(str(exc)) from None
    if shell is not None and shell.unresolved and not args.json:
        print(render_fix.unresolved_text(target, shell.unresolved), file=sys.stderr)
    unresolved = list(shell.unresolved) if shell is not None else []
    if not args.apply:
        print(render_fix.plan_json(plan, before, unresolved) if args.json else render_fix.plan_text(plan, before))
        return EXIT_OK
    try:
        result = apply_plan(plan, state_dir=STATE_DIR, holders=npu_holders(host))
    except FixError as exc:
        print(f"ascendrl fix: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    if args.script:
        relaunch = _script_launch(host, args.script)[0]
        host = _with_launch(host, relaunch, args.script) if relaunch is not None else host
    after = check_as_run_sees_it(host, target)
    print(render_fix.outcome_json(plan, result, before, after, unresolved) if args.json else render_fix.outcome_text(plan, result, before, after))
    return EXIT_FINDINGS if after.failed else EXIT_OK


def _script_launch(host, script: str):
    """The --script's verl command (read, never run), and what that means for the fixes."""
    from ascendrl.preflight.launch import read_script

    try:
        launch = read_script(host, script).launch
    except OSError as exc:
        raise UsageError(f"--script {script}: {_os_reason(exc)}") from None
    if launch is None:
        return None, [f"{script} starts no verl training: the vLLM settings (nz-off) are not proposed"]
    if launch.rollout != "vllm":
        return launch, [f"{script}'s rollout is {launch.rollout}, not vllm: the vLLM settings (nz-off) are not proposed"]
    return launch, []


def _with_launch(host, launch, script: str):
    """The host with the script's verl command as its recipe (so rules see its overrides)."""
    import dataclasses

    from ascendrl.recipes import RecipeError, recipe_from_launch

    try:
        return dataclasses.replace(host, recipe=recipe_from_launch(launch, script).resolve())
    except RecipeError:
        return host


def _forced(report, only: list[str], launch, notes: list[str]) -> list[str]:
    """Fixes asked for by --only whose rules do not fail here: say why, and which the script lets apply anyway."""
    from ascendrl.preflight.rules import all_rules

    forced = []
    for fix_id in only:
        rules = {r.id for r in all_rules() if getattr(r, "fix_id", None) == fix_id}
        found = [f for f in report.findings if f.rule_id in rules]
        if any(f.status.value in ("fail", "warn") for f in found):
            continue
        why = "; ".join(f"{f.rule_id} {f.status.value}: {f.detail}" for f in found) or "no rule of it ran"
        if fix_id == "nz-off" and launch is not None and launch.rollout == "vllm" and all(f.status.value == "skip" for f in found):
            notes.append(f"--only {fix_id}: its rules do not judge this host ({why}); applying it to the script anyway, which launches a vllm rollout")
            forced.append(fix_id)
        else:
            notes.append(f"--only {fix_id}: nothing to do ({why})")
    return forced


def _cmd_stack(args: argparse.Namespace) -> int:
    import json

    from ascendrl.preflight import stacks
    from ascendrl.preflight.host import Host
    from ascendrl.preflight.model import Facts
    from ascendrl.preflight.probes.cann import probe_cann
    from ascendrl.preflight.probes.packages import probe_packages

    if args.root and not Path(args.root).is_dir():
        raise UsageError(f"--root {args.root}: not a directory")
    python = _check_path("--python", args.python, executable=True) if args.python else None  # a name is looked up on PATH
    host = Host(root=Path(args.root).resolve() if args.root else Path("/"), env=dict(os.environ), python=python)
    facts = Facts({**probe_packages(host), **probe_cann(host)})
    keys = ("cann", "torch", "torch_npu", "triton_ascend", "transformers", "vllm", "vllm_ascend", "verl")
    installed = {k: facts.value("cann.toolkit.version" if k == "cann" else f"pkg.{k}") for k in keys}
    query = {k: getattr(args, k) for k in stacks.KEYS if getattr(args, k)}
    from_host = not query
    query = query or stacks.installed_query(facts)
    if not query:
        raise UsageError("nothing installed to ask about: name a version (--vllm-ascend, --verl, --cann, --torch-npu)")
    try:
        found, note = stacks.matching(query)
    except stacks.QueryError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(stacks.to_json(query, found, note, installed, from_host=from_host), indent=2))
    else:
        print(stacks.render(query, found, note, installed, from_host=from_host), end="")
    return EXIT_OK if found else EXIT_FINDINGS


def _explain_nodes(args: argparse.Namespace, catalog) -> int | None:
    """`explain --nodes DIR …` (or a folder of per-node folders): the first failure across nodes; None: not multi-node."""
    import json

    from ascendrl import render_timeline
    from ascendrl.catalog.timeline import explain_nodes, node_folders

    if args.nodes:
        if args.input:
            raise UsageError("give the node folders after --nodes only")
        folders = list(args.nodes)
        for folder in folders:
            if not os.path.isdir(folder):
                raise UsageError(f"--nodes {folder}: not a folder")
    else:
        found = node_folders(args.input[0])
        if found is None:
            return None
        folders = [str(f) for f in found]
    timeline = explain_nodes(catalog, folders)
    if timeline.first is None and not timeline.events and len(timeline.skipped) >= len(folders) and all(
            "no files" in why for _, why in timeline.skipped):
        return EXIT_NO_INPUT
    if args.json:
        _emit(lambda: print(json.dumps(timeline.to_json(), indent=1)))
    else:
        _emit(lambda: print(render_timeline.to_plain(timeline)))
    return EXIT_FINDINGS if timeline.first is not None else EXIT_OK


def _cmd_explain(args: argparse.Namespace) -> int:
    from ascendrl import render_explain
    from ascendrl.catalog import Classifier, load_catalog

    if args.schema:  # shipped in the wheel: the format of a --catalog file
        from importlib import resources

        text = resources.files("ascendrl.catalog").joinpath("SCHEMA.md").read_text(encoding="utf-8")
        _emit(lambda: print(text, end=""))
        return EXIT_OK
    for path in args.catalog:
        _check_path("--catalog", path, executable=False)
    catalog = load_catalog(args.catalog)
    for problem in catalog.problems:
        print(f"ascendrl: catalog {problem.what} skipped: {problem}", file=sys.stderr)
    if args.list:
        _emit(lambda: print(render_explain.catalog_list(catalog)))
        return EXIT_OK
    if args.id:
        entry = catalog.by_id(args.id.upper()) or catalog.by_id(args.id)
        if entry is None:
            raise UsageError(f"no catalog entry {args.id!r}; see `ascendrl explain --list`")
        _emit(lambda: print(render_explain.entry_doc(entry)))
        return EXIT_OK
    if args.nodes or (len(args.input) == 1 and args.input[0] != "-" and os.path.isdir(args.input[0])):
        code = _explain_nodes(args, catalog)
        if code is not None:
            return code
    inputs = args.input or ["-"]
    for item in inputs:
        try:
            if item != "-":
                os.lstat(item)
        except (FileNotFoundError, NotADirectoryError):
            raise UsageError(f"{item}: no such file or directory") from None
        except OSError:
            pass  # unreadable, or a folder on the way is: reported as skipped with the reason
    classifier = Classifier(catalog)
    if classifier.matcher.engine != "re2":
        print("ascendrl: warning: google-re2 is not installed; signatures are matched with Python's re, "
              "which can be slow on some lines (pip install google-re2)", file=sys.stderr)
    for item in inputs:
        if item == "-":
            if sys.stdin is None:
                raise UsageError("no input: give a file, a folder, or pipe a log into `ascendrl explain -`")
            if sys.stdin.isatty():
                print("Paste the traceback or log, then press Ctrl-D on an empty line:", file=sys.stderr)
            classifier.feed_log(sys.stdin.buffer, "<stdin>")
        else:
            classifier.feed_path(item)
    explanation = with_upstream_fixes(with_similar(classifier.result(), catalog))
    if args.json:  # the text report lists them itself
        for path, why in explanation.skipped:
            print(f"ascendrl: skipped {path}: {why}", file=sys.stderr)
    if explanation.read_nothing:
        code = EXIT_NO_INPUT
    else:
        code = EXIT_FINDINGS if explanation.fatal else EXIT_OK
    if args.json:
        _emit(lambda: print(render_explain.to_json(explanation)))
    elif _use_color(args.color):
        from rich.console import Console

        console = Console(highlight=False, force_terminal=True if args.color == "always" else None)
        _emit(lambda: render_explain.print_rich(explanation, console, full=args.all))
    else:
        _emit(lambda: print(render_explain.to_plain(explanation, full=args.all)))
    return code


def _emit(write: Callable[[], None]) -> None:
    """Write the command's report; a reader that left (`| head -1`) keeps the status the report earned."""
    try:
        write()
        sys.stdout.flush()
    except BrokenPipeError:
        _detach_stdout()
    except OSError as exc:
        _detach_stdout()
        raise OutputError(exc.strerror or str(exc)) from None


def _detach_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush cannot fail again (Python's SIGPIPE note)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _escape(exc: UnicodeError) -> tuple[str, int]:
    """Error handler: an undecodable byte kept as a surrogate prints as ``\\xff`` (as in --json), anything else unprintable as ``\\u2014``."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    text = "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else c.encode("ascii", "backslashreplace").decode() for c in bad)
    return text, exc.end


def _tolerant_streams() -> None:
    """Never crash on an encoding: `PYTHONIOENCODING=ascii`, a C locale, or undecodable env bytes
    print as backslash escapes instead of raising UnicodeEncodeError."""
    import codecs

    codecs.register_error("ascendrl-escape", _escape)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="ascendrl-escape")
            except (ValueError, OSError):
                pass


def with_similar(explanation, catalog):
    """Put the most similar labelled known failure on top when nothing specific explains a fatal error."""
    from ascendrl.catalog.similar import with_similar as similar

    return similar(explanation, catalog)


def with_upstream_fixes(explanation):
    """Add the upstream fix commits whose error template matches a diagnosed line (a cheap lookup on those lines only)."""
    import dataclasses

    from ascendrl.catalog import upstream

    lines = explanation.error_lines()
    if not lines:
        return explanation
    try:
        fixes = upstream.match(lines, limit=3, log_versions=dict(explanation.versions))
    except (OSError, ValueError) as exc:  # a damaged data file must not cost the diagnosis
        print(f"ascendrl: known upstream bugs not checked: {exc}", file=sys.stderr)
        return explanation
    return dataclasses.replace(explanation, upstream=tuple(fixes))


def _use_color(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _options_first(argv: list[str], *, takes_value: set[str]) -> list[str]:
    """`run RECIPE k=v --force k=v` → options before positionals, which argparse needs for nargs='*'."""
    options, positionals = [], []
    i = 1
    while i < len(argv):
        token = argv[i]
        if token in takes_value:
            options += argv[i : i + 2]
            i += 2
            continue
        (options if token.startswith("-") else positionals).append(token)
        i += 1
    return [argv[0], *options, *positionals]


def main(argv: list[str] | None = None) -> int:
    if sys.stderr is None:  # started with 2>&-: messages go nowhere rather than crash
        sys.stderr = open(os.devnull, "w")
    if sys.stdout is None:  # started with >&-: there is nowhere to put the report
        print("ascendrl: standard output is closed; nothing can be reported", file=sys.stderr)
        return EXIT_OUTPUT
    _tolerant_streams()
    code = _main(argv)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _detach_stdout()
    except OSError as exc:
        _detach_stdout()
        print(f"ascendrl: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_OUTPUT
    return code


# The catalog, its indexes and the data tables are some 10^5 objects that live until the process ends. With CPython's
# default first-generation threshold (700 allocations) the collector walked them over a hundred times while they loaded,
# and the interpreter's last collections walked them again at exit: together 7 % of a one-line `explain` (callgrind).
GC_FIRST_GENERATION = 20_000


def entry() -> int:
    """The process's entry (console script, ``python -m ascendrl``): main() with the collector set for a short run.

    Not main() itself: tests call main() in one long process, where freezing every object would keep their garbage.
    """
    gc.set_threshold(GC_FIRST_GENERATION, *gc.get_threshold()[1:])
    try:
        return main()
    finally:
        gc.freeze()  # nothing left to collect that matters: spare the exit its walk over the catalog


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    command_argv = None
    if argv and argv[0] == "run" and "--" in argv:  # `ascendrl run [options] -- COMMAND …`
        cut = argv.index("--")
        argv, command_argv = argv[:cut], argv[cut + 1 :]
    if argv and argv[0] == "run":
        argv = _options_first(argv, takes_value={"--python", "--stall-timeout", "--grace", "--runs-dir"})
    running = bool(argv) and argv[0] == "run"
    try:
        args = parser.parse_args(argv)
        if command_argv is not None:
            args.command_argv = command_argv
    except SystemExit as exc:  # argparse already printed the message
        return (EXIT_RUN_FAILED if running else EXIT_USAGE) if exc.code else EXIT_OK
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        commands = {
            "check": _cmd_check, "fix": _cmd_fix, "explain": _cmd_explain, "recipes": _cmd_recipes, "run": _cmd_run,
            "data": _cmd_data, "plan": _cmd_plan, "stack": _cmd_stack, "report": _cmd_report,
        }
        return commands[args.command](args)
    except UsageError as exc:
        print(f"ascendrl: error: {exc}", file=sys.stderr)
        return EXIT_RUN_FAILED if running else EXIT_USAGE
    except KeyboardInterrupt:
        print("ascendrl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except OutputError as exc:
        print(f"ascendrl: cannot write the output: {exc}", file=sys.stderr)
        return EXIT_OUTPUT
    except BrokenPipeError:  # a command without its own status for this: say the output was cut
        _detach_stdout()
        return EXIT_OUTPUT
    except Exception:
        import traceback  # only for a crash: its import (linecache, tokenize) is a cost every run paid

        log = _write_crash_log(traceback.format_exc())
        print(f"ascendrl: an unexpected error occurred; details in {log}", file=sys.stderr)
        return EXIT_RUN_FAILED if running else EXIT_CRASH


def _write_crash_log(text: str) -> str:
    """Keep the traceback for a bug report instead of showing it to the user."""
    import platform
    import tempfile

    from ascendrl import __version__

    body = f"### ascendrl {__version__}, Python {platform.python_version()}, {platform.platform()}\n\n```\n{text}```\n"
    try:
        fd, path = tempfile.mkstemp(prefix="ascendrl-crash-", suffix=".md")
        with os.fdopen(fd, "w") as fh:
            fh.write(body)
        return path
    except OSError:
        sys.stderr.write(body)
        return "stderr"
