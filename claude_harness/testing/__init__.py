"""The scripted Messages API server that end-to-end tests, benchmarks and demos talk to.

Import `MockApiServer` for in-process use; run `python -m claude_harness.testing.mock_api` for a
separate process. See `script.py` for the turn script format and `cache.py` for how prompt
caching is accounted.
"""

from claude_harness.testing.mock_api import MockApiServer
from claude_harness.testing.script import ScriptError, load_script

__all__ = ["MockApiServer", "ScriptError", "load_script"]
