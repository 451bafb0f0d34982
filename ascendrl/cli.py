"""The thin command line: parse arguments, call the core, render, choose the exit code.

Exit codes: 0 nothing failed, 1 a finding failed, 2 usage error, 3 ascendrl crashed,
130 interrupted. `main(argv)` returns the code so tests call it directly.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_CRASH, EXIT_INTERRUPT = 0, 1, 2, 3, 130


class UsageError(Exception):
    """Bad arguments: reported in one line, exit 2."""


def _parser() -> argparse.ArgumentParser:
    from ascendrl import __version__

    parser = argparse.ArgumentParser(prog="ascendrl", description="Diagnostics for verl GRPO runs on Ascend NPUs.")
    parser.add_argument("--version", action="version", version=f"ascendrl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="check this host (or a mounted image) for everything that breaks a verl GRPO run")
    check.add_argument("--json", action="store_true", help="print one JSON document (schema 1) instead of text")
    _host_options(check)
    check.add_argument("--env-file", metavar="FILE", help="check the environment as it is after `source FILE` (e.g. .ascendrl/env.sh)")
    check.add_argument("--recipe", metavar="NAME|FILE", help="also lint this recipe against the checked interpreter's verl, its data and model")
    check.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="recipe param or Hydra override for --recipe (repeatable)")
    check.add_argument("--validate", action="store_true", help="with --recipe: also run verl's own validate_config (imports verl: a few seconds)")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    check.add_argument("--rule", metavar="ID", help="explain one rule and exit")

    fix = sub.add_parser("fix", help="fix what check finds: dry run by default, --apply to write, --undo to restore")
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

    sub.add_parser("recipes", help="list the built-in recipes")
    run = sub.add_parser("run", help="launch a recipe (or `-- COMMAND`) under supervision: preflight, live diagnosis, clean stop")
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

    data = sub.add_parser("data", help="prepare datasets in verl's RL parquet format")
    data_sub = data.add_subparsers(dest="dataset", metavar="DATASET")
    gsm8k = data_sub.add_parser("gsm8k", help="GSM8K as verl's examples/data_preprocess/gsm8k.py writes it")
    gsm8k.add_argument("--out", required=True, metavar="DIR", help="where train.parquet and test.parquet go")
    gsm8k.add_argument("--source", metavar="PATH", help="a local copy (the openai/gsm8k repo folder, or parquet/jsonl files); default: the hub")

    explain = sub.add_parser("explain", help="find the root cause of a failed run in a traceback, a log, or a Ray session folder")
    explain.add_argument("input", nargs="*", metavar="FILE|DIR|-", help="log files, Ray session log folders, or - for stdin (default: paste)")
    explain.add_argument("--json", action="store_true", help="print one JSON document (schema 1)")
    explain.add_argument("--catalog", action="append", default=[], metavar="FILE", help="also load known failures from FILE (repeatable)")
    explain.add_argument("--list", action="store_true", help="list the catalog and exit")
    explain.add_argument("--id", metavar="ID", help="show one catalog entry and exit")
    explain.add_argument("--all", action="store_true", help="show every diagnosis in full, not just the top one")
    explain.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    return parser


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", metavar="DIR", help="read every filesystem fact under DIR instead of / (a mounted image or captured host)")
    parser.add_argument("--npu-smi", metavar="PATH", help="npu-smi executable to run (or a file holding captured `npu-smi info` output)")
    parser.add_argument("--python", metavar="EXE", help="check the packages of this interpreter (the training venv or container python)")
    parser.add_argument("--deep", action="store_true", help="also import torch_npu and torch in a subprocess of the checked python")
    parser.add_argument("--checkpoint-dir", metavar="DIR", help="also check free space where checkpoints will be written")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help="timeout for npu-smi and other tools (default 10 s)")


def _host(args: argparse.Namespace):
    from ascendrl.preflight.host import Host

    root = Path(args.root) if args.root else Path("/")
    if not root.is_dir():
        raise UsageError(f"--root {args.root}: not a directory")
    for flag, value in (("--npu-smi", args.npu_smi), ("--python", args.python)):
        if value and not Path(value).exists():
            raise UsageError(f"{flag} {value}: no such file")
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    return Host(
        root=root.resolve() if args.root else Path("/"),
        env=dict(os.environ),
        npu_smi=os.path.abspath(args.npu_smi) if args.npu_smi else None,
        python=args.python,
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


def _cmd_recipes(args: argparse.Namespace) -> int:
    from ascendrl.recipes import all_recipes

    for recipe in all_recipes():
        hw = recipe.hardware
        print(f"{recipe.name:<28} {hw.get('npus_per_node')} NPU x {hw.get('nnodes')} node  {recipe.description}")
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
        if getattr(args, name) <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive")
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
    host = _host(args)
    if args.recipe:
        host = _with_recipe(host, args.recipe, args.set, validate=args.validate)
    elif args.set or args.validate:
        raise UsageError("--set and --validate go with --recipe")
    if args.env_file:
        if not os.path.isfile(args.env_file):
            raise UsageError(f"--env-file {args.env_file}: no such file")
        from ascendrl.fixes import check_as_run_sees_it

        report = check_as_run_sees_it(host, args.env_file)
    else:
        report = check(host)
    if args.json:
        print(render.to_json(report))
    elif _use_color(args.color):
        from rich.console import Console

        render.print_rich(report, Console(highlight=False, force_terminal=True if args.color == "always" else None))
    else:
        print(render.to_plain(report))
    return EXIT_FINDINGS if report.failed else EXIT_OK


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
    before = check_as_run_sees_it(host, target, shell)
    proposals = propose(before, host, data_dir=os.path.abspath(args.data_dir) if args.data_dir else None)
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
    after = check_as_run_sees_it(host, target)
    print(render_fix.outcome_json(plan, result, before, after, unresolved) if args.json else render_fix.outcome_text(plan, result, before, after))
    return EXIT_FINDINGS if after.failed else EXIT_OK


def _cmd_explain(args: argparse.Namespace) -> int:
    from ascendrl import render_explain
    from ascendrl.catalog import Classifier, load_catalog

    for path in args.catalog:
        if not os.path.isfile(path):
            raise UsageError(f"--catalog {path}: no such file")
    catalog = load_catalog(args.catalog)
    for problem in catalog.problems:
        print(f"ascendrl: catalog entry skipped: {problem}", file=sys.stderr)
    if args.list:
        print(render_explain.catalog_list(catalog))
        return EXIT_OK
    if args.id:
        entry = catalog.by_id(args.id.upper()) or catalog.by_id(args.id)
        if entry is None:
            raise UsageError(f"no catalog entry {args.id!r}; see `ascendrl explain --list`")
        print(render_explain.entry_doc(entry))
        return EXIT_OK
    inputs = args.input or ["-"]
    for item in inputs:
        if item != "-" and not os.path.exists(item):
            raise UsageError(f"{item}: no such file or directory")
    classifier = Classifier(catalog)
    for item in inputs:
        if item == "-":
            if sys.stdin is None:
                raise UsageError("no input: give a file, a folder, or pipe a log into `ascendrl explain -`")
            if sys.stdin.isatty():
                print("Paste the traceback or log, then press Ctrl-D on an empty line:", file=sys.stderr)
            classifier.feed_stream(sys.stdin.buffer, "<stdin>")
        else:
            try:
                classifier.feed_path(item)
            except OSError as exc:
                raise UsageError(f"{item}: {exc.strerror or exc}") from None
    explanation = classifier.result()
    if args.json:
        print(render_explain.to_json(explanation))
    elif _use_color(args.color):
        from rich.console import Console

        render_explain.print_rich(explanation, Console(highlight=False, force_terminal=True if args.color == "always" else None), full=args.all)
    else:
        print(render_explain.to_plain(explanation, full=args.all))
    return EXIT_FINDINGS if explanation.fatal else EXIT_OK


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
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    command_argv = None
    if argv and argv[0] == "run" and "--" in argv:  # `ascendrl run [options] -- COMMAND …`
        cut = argv.index("--")
        argv, command_argv = argv[:cut], argv[cut + 1 :]
    if argv and argv[0] == "run":
        argv = _options_first(argv, takes_value={"--python", "--stall-timeout", "--grace", "--runs-dir"})
    try:
        args = parser.parse_args(argv)
        if command_argv is not None:
            args.command_argv = command_argv
    except SystemExit as exc:  # argparse already printed the message
        return EXIT_USAGE if exc.code else EXIT_OK
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        commands = {"check": _cmd_check, "fix": _cmd_fix, "explain": _cmd_explain, "recipes": _cmd_recipes, "run": _cmd_run, "data": _cmd_data}
        return commands[args.command](args)
    except UsageError as exc:
        print(f"ascendrl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("ascendrl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except BrokenPipeError:
        return EXIT_OK
    except Exception:
        log = _write_crash_log(traceback.format_exc())
        print(f"ascendrl: an unexpected error occurred; details in {log}", file=sys.stderr)
        return EXIT_CRASH


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
