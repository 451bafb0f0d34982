"""`ascendrl run`: preflight, the env the run gets, the exact command, then the supervisor."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

from ascendrl.recipes import Recipe, RecipeError, load_recipe

ENV_FILE = os.path.join(".ascendrl", "env.sh")
MAIN_PPO = "verl.trainer.main_ppo"
EXIT_RUN_FAILED, EXIT_NOT_EXECUTABLE, EXIT_NOT_FOUND = 125, 126, 127  # as docker run / timeout


class RunSetupError(Exception):
    """Bad arguments for a run (reported as a usage error)."""


def launch_from_command(argv: list[str], env: dict[str, str] | None = None) -> tuple[str, list[str]] | None:
    """(entry, Hydra overrides) of the verl command: ``python3 -m verl…`` given directly, or the
    one a launch script (``bash train.sh``, ``./train.sh``) runs, read statically (never run)."""
    from ascendrl.preflight.host import Host
    from ascendrl.preflight.launch import config_name_overrides, entry_index, read_script

    at = entry_index(list(argv))
    if at is not None:
        engine, _ = config_name_overrides(argv[at + 1 :])
        return argv[at], [*engine, *(a for a in argv[at + 1 :] if not a.startswith("-") and ("=" in a or a.startswith("~")))]
    script = next((a for a in argv[:2] if a.endswith((".sh", ".bash")) and os.path.isfile(a)), None)
    if script is None:
        return None
    try:
        read = read_script(Host(env=dict(os.environ if env is None else env)), script)
    except OSError:
        return None
    if read.launch is None:
        return None
    return read.launch.entry, [*config_name_overrides(read.launch.options)[0], *read.launch.overrides]


def command_recipe(argv: list[str], overrides: list[str], entry: str = MAIN_PPO) -> Recipe:
    return Recipe(
        name="command-line", description=shlex.join(argv), entry=entry, overrides=tuple(overrides),
        params={}, env={}, hardware={}, verl={}, notes=(), origin="command line",
    )


def run_env(recipe: Recipe | None) -> tuple[dict[str, str], list[str]]:
    """This shell's env, then what .ascendrl/env.sh exports (read, never run), then the recipe's env, then run defaults."""
    from ascendrl.preflight.host import Host
    from ascendrl.preflight.shellenv import read_environment

    notes = []
    env = dict(os.environ)
    if os.path.isfile(ENV_FILE):
        shell = read_environment(Host(env=env), ENV_FILE)
        env = shell.env
        notes.append(f"read the exports of {ENV_FILE} (the file is read, never run)")
        notes += [f"{ENV_FILE}: could not determine {item}" for item in shell.unresolved]
    if recipe is not None:
        env.update(recipe.env)
    env.setdefault("PYTHONUNBUFFERED", "1")  # verl's prints arrive as they happen
    env.setdefault("RAY_DEDUP_LOGS", "0")  # every worker's error reaches the driver's output
    return env, notes


def _preflight(env: dict[str, str], recipe_words: tuple[Recipe, list[str]] | None, python: str | None):
    from ascendrl.preflight import check
    from ascendrl.preflight.host import Host

    host = Host(env=env, python=python)
    if recipe_words is not None:
        recipe, words = recipe_words
        host = dataclasses.replace(host, recipe=recipe.resolve(words))
    return check(host)


def _comment(text: str) -> str:
    """Text for a `#` line of shell output: one line, control characters escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def dry_run_text(recipe: Recipe | None, argv: list[str]) -> str:
    """What would run, as shell a user can read and paste: every word quoted, secrets shown as ***."""
    from ascendrl.preflight.redact import redact_argv, redact_text, secret_name

    lines = [f"# recipe {_comment(recipe.name)} ({_comment(recipe.origin)})" if recipe else "# command"]
    if os.path.isfile(ENV_FILE):
        lines.append(f"source {shlex.quote(ENV_FILE)}")
    for key, value in (recipe.env if recipe else {}).items():
        shown = "***" if secret_name(key) else redact_text(value)
        lines.append(f"export {shlex.quote(key)}={shlex.quote(shown)}")
    words = [shlex.quote(a) for a in redact_argv(argv)]
    head = 3 if len(words) >= 3 and argv[1] == "-m" else 1  # `python3 -m verl.trainer.main_ppo` stays together
    lines.append(" \\\n    ".join([" ".join(words[:head]), *words[head:]]))
    return "\n".join(lines)


def _not_runnable(program: str, env: dict[str, str]) -> tuple[int, str] | None:
    """(127, why) when the command is not found, (126, why) when it cannot be executed; None when it can."""
    if "/" not in program:
        if shutil.which(program, path=env.get("PATH", os.defpath)) is None:
            return EXIT_NOT_FOUND, f"{program}: command not found (not on PATH)"
        return None
    if not os.path.exists(program):
        return EXIT_NOT_FOUND, f"{program}: no such file"
    if os.path.isdir(program) or not os.access(program, os.X_OK):
        return EXIT_NOT_EXECUTABLE, f"{program}: not executable ({'a folder' if os.path.isdir(program) else 'permission denied'})"
    return None


def run(args, command: list[str] | None) -> int:
    from ascendrl.catalog import load_catalog
    from ascendrl.preflight.redact import redact_argv, redact_json, redact_text
    from ascendrl.supervisor import RunOptions, Supervisor, summary_text
    from ascendrl.supervisor.runfolder import RunFolder, RunFolderError

    python = shutil.which(args.python) or args.python
    if command is None:
        try:
            recipe = load_recipe(args.recipe)
            resolved = recipe.resolve(args.words)
        except RecipeError as exc:
            from ascendrl.preflight.redact import redact_text

            raise RunSetupError(redact_text(str(exc))) from None
        argv = resolved.argv(python)
        name, lint = recipe.name, (recipe, list(args.words))
    else:
        recipe, argv = None, command
        name = Path(command[0]).name if len(command) == 1 else "-".join(Path(c).name for c in command[:2])
        found = launch_from_command(command)
        lint = (command_recipe(command, found[1], found[0]), []) if found and found[1] else None
    env, notes = run_env(recipe)
    missing = _not_runnable(argv[0], env)
    if missing is not None and not args.dry_run:
        print(f"ascendrl: {missing[1]}", file=sys.stderr)
        return missing[0]
    if args.dry_run:
        print(dry_run_text(recipe, argv))
        return 0
    try:
        folder = RunFolder.create(args.runs_dir, name)
        run_dir = folder.path
        report = _preflight(env, lint, python if (recipe is not None or lint) else None)
        folder.write("preflight.json", json.dumps(redact_json(report.to_json()), indent=1, default=str), required=True)
    except RunFolderError as exc:
        raise RunSetupError(str(exc)) from None
    failed = [f for f in report.findings if f.status.value == "fail"]
    for note in notes:
        print(f"ascendrl: {note}", file=sys.stderr)
    if failed:
        print(f"ascendrl: preflight found {len(failed)} failure(s):", file=sys.stderr)
        for f in failed:
            print(f"  FAIL {f.rule_id} {f.title}: {redact_text(f.detail)}", file=sys.stderr)
        if not args.force:
            print(f"ascendrl: not launching (fix them, or add --force); details in {run_dir}/preflight.json", file=sys.stderr)
            return EXIT_RUN_FAILED
        print("ascendrl: launching anyway (--force)", file=sys.stderr)
    print(f"ascendrl: {shlex.join(redact_argv(argv))}", file=sys.stderr)
    print(f"ascendrl: run folder {run_dir}", file=sys.stderr)
    use_live = not args.plain and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    if use_live:
        from rich.console import Console

        from ascendrl.render_run import LiveView

        view = LiveView(Console(highlight=False))
    else:
        from ascendrl.render_run import PlainView

        view = PlainView()
    options = RunOptions(
        argv=argv, env=env, name=name, runs_dir=args.runs_dir, stall_timeout=args.stall_timeout,
        grace=args.grace, keep_going=args.keep_going, python=python if recipe is not None or lint else None,
        folder=folder,
    )
    supervisor = Supervisor(options, load_catalog(), view)
    try:
        result = supervisor.run()
    except RunFolderError as exc:  # before the launch: nothing was started
        raise RunSetupError(str(exc)) from None
    finally:
        supervisor.close_view()
    try:
        print(summary_text(result), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # the terminal is gone; summary.txt has it
    return result.exit_code
