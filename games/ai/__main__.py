"""``python -m games.ai move …`` (see cli.py)."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
