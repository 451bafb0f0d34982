"""`python -m ascendrl` runs the CLI."""

import sys

from ascendrl.cli import main

sys.exit(main())
