"""`python -m pymem.cli`: the same as the `pymem` command."""

import sys

from pymem.cli import main

sys.exit(main())
