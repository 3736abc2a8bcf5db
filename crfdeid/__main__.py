"""``python -m crfdeid`` is the same as the ``crfdeid`` command."""

import sys

from .cli import main

sys.exit(main())
