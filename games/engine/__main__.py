"""``python -m games.engine state|legal|score|bench|verify RECORD`` (RECORD.md, "The command
line")."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
