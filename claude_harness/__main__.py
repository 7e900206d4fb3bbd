"""`python -m claude_harness`."""

import sys

from claude_harness.cli import main

sys.exit(main())
