"""The scripted Messages API server that end-to-end tests, benchmarks and demos talk to.

Import `MockApiServer` for in-process use; run `python -m claude_harness.testing.mock_api` for a
separate process. See `script.py` for the turn script format and `cache.py` for how prompt
caching is accounted.

    with MockApiServer({"turns": [
        {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": "/x"}}]},
        {"content": ["All done."]},
        {"fault": {"status": 529}},
    ]}, log_path=tmp_path / "api.jsonl") as server:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        ...
        server.requests      # parsed bodies, in arrival order (rejected ones too)
        server.log           # {"event": "request"|"response_end", "t", "index", ...}
        server.remaining_turns

A request the real API would refuse gets HTTP 400 (invalid_request_error, naming the rule)
and consumes no turn; see `validation.py`.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what __getattr__ gives, for the type checker
    from claude_harness.testing.mock_api import MockApiServer
    from claude_harness.testing.script import ScriptError, load_script

__all__ = ["MockApiServer", "ScriptError", "load_script"]


def __getattr__(name: str) -> Any:
    """Import lazily, so `python -m claude_harness.testing.mock_api` runs its module once."""
    if name == "MockApiServer":
        from claude_harness.testing.mock_api import MockApiServer

        return MockApiServer
    if name in ("ScriptError", "load_script"):
        from claude_harness.testing import script

        return getattr(script, name)
    raise AttributeError(name)
