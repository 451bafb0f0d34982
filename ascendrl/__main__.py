"""`python -m ascendrl` runs the CLI."""

import sys

from ascendrl.cli import entry

sys.exit(entry())
