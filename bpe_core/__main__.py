"""``python -m bpe_core``: see :mod:`bpe_core.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
