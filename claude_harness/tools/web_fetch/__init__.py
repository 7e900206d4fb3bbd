"""WebFetch: fetch a URL and answer a prompt about it (see prompt.md for what the model is
told)."""

from claude_harness.tools.web_fetch.tool import TOOL, WebFetchInput

__all__ = ["TOOL", "WebFetchInput"]
