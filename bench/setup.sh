#!/usr/bin/env bash
# Build the benchmark environment: ascendrl next to the real heavy stack (CPU torch 2.13.0 from
# the local wheel, verl 0.9.1 with verl-core, which brings ray, transformers, tensordict, hydra).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=bench/.work/venv
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q torch==2.13.0
"$VENV/bin/pip" install -q "verl[verl-core]==0.9.1"
"$VENV/bin/pip" install -q -e .
"$VENV/bin/python" -c "import importlib.metadata as m; print('torch', m.version('torch'), 'verl', m.version('verl'))"
