"""One redaction for everything ascendrl writes or prints: env maps, command lines, JSON, free text.

A secret is hidden and its name kept: ``OPENAI_KEY=***``, ``--api-key ***``,
``https://user:***@host/x``. Names are judged by words, not substrings, so verl's
``ppo_max_token_len_per_gpu``, ``max_num_batched_tokens``, ``data.prompt_key``, ``--tokenizer``
and ``TOKENIZERS_PARALLELISM`` stay readable: the command must still say what ran.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

MASK = "***"

# Anywhere in the name (separators removed): these never name anything but a secret.
_SECRET_PARTS = ("PASSWORD", "PASSWD", "SECRET", "CREDENTIAL", "APIKEY", "ACCESSKEY", "PRIVATEKEY")
# As the name's last word: OPENAI_KEY, HF_TOKEN, --api-key, --token, RAY_AUTH_TOKEN, NPM_AUTH.
_SECRET_LAST = ("KEY", "TOKEN", "AUTH")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")

# scheme://user:password@  (and a bare long token as the user: https://ghp_xxx@github.com)
_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/@:'\"]*):[^\s/@'\"]+@")
_URL_TOKEN_USER = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://)[A-Za-z0-9_\-.~]{20,}@")
_VALUE = r"""(?:'[^']*'|"[^"]*"|[^\s'"]+)"""
# Inside free text: --name=value, --name value (a value is not an option), NAME=value.
_OPTION_NAME = re.compile(r"(?<![\w-])--?[A-Za-z][\w.-]*")
_OPTION_VALUE = re.compile(r"(=|[ \t]+(?=[^\s-]))" + _VALUE)
_ASSIGN_NAME = re.compile(r"(?<![\w.+~/-])[+~]{0,2}[A-Za-z_][\w.]*(?==)")
_ASSIGN_VALUE = re.compile("=" + _VALUE)


def secret_name(name: str) -> bool:
    """Does this env name, option (``--api-key``) or override key (``+trainer.wandb_api_key``) hold a secret?"""
    bare = name.lstrip("-+~")
    if any(part in re.sub(r"[^A-Za-z0-9]", "", bare).upper() for part in _SECRET_PARTS):
        return True
    words = [w.upper() for w in _WORD.findall(bare)]
    if not words or words[-1] not in _SECRET_LAST:
        return False  # RAY_AUTH_MODE, SSL_KEY_FILE, ppo_max_token_len_per_gpu
    # In a dotted Hydra key a trailing `_key` names a data column (data.prompt_key, data.image_key).
    return not ("." in bare and words[-1] == "KEY")


def redact_text(text: str) -> str:
    """Credentials in URLs, and values of secret options and assignments, anywhere in a string."""
    text = _URL_PASSWORD.sub(lambda m: f"{m['head']}:{MASK}@", text)
    text = _URL_TOKEN_USER.sub(lambda m: f"{m['head']}{MASK}@", text)
    text = _mask_values(text, _OPTION_NAME, _OPTION_VALUE)
    return _mask_values(text, _ASSIGN_NAME, _ASSIGN_VALUE)


def _mask_values(text: str, names: re.Pattern[str], values: re.Pattern[str]) -> str:
    """Replace the value after each secret name; a harmless name's value is left for the next match to see."""
    out, pos = [], 0
    for m in names.finditer(text):
        if m.start() < pos or not secret_name(m[0]):
            continue
        value = values.match(text, m.end())
        if value is None:
            continue
        out += [text[pos : m.end()], value[1] if value.lastindex else "=", MASK]
        pos = value.end()
    return "".join(out) + text[pos:]


def redact_argv(argv: Iterable[str]) -> list[str]:
    """A command line with secrets hidden word by word: ``--api-key X``, ``--api-key=X``, ``KEY=X``, URLs."""
    out: list[str] = []
    hide_next = False
    for word in argv:
        if hide_next and not word.startswith("-"):
            out.append(MASK)
            hide_next = False
            continue
        hide_next = False
        name, eq, _ = word.partition("=")
        if word.startswith("-") and secret_name(name):
            out.append(f"{name}={MASK}" if eq else word)
            hide_next = not eq
        elif eq and re.fullmatch(r"[+~]{0,2}[A-Za-z_][\w.]*", name) and secret_name(name):
            out.append(f"{name}={MASK}")
        else:
            out.append(redact_text(word))
    return out


def redact_env(env: Mapping[str, str]) -> dict[str, str]:
    """Env sorted by name: a secret name's value hidden, credentials in any other value hidden."""
    return {k: (MASK if secret_name(k) else redact_text(v)) for k, v in sorted(env.items())}


def redact_json(data: Any) -> Any:
    """A JSON-shaped document with every string redacted and the values of secret-named keys hidden."""
    if isinstance(data, str):
        return redact_text(data)
    if isinstance(data, Mapping):
        return {k: (MASK if isinstance(k, str) and secret_name(k) and isinstance(v, str) else redact_json(v)) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [redact_json(v) for v in data]
    return data
