"""WebSearch: a web search run by the API's own search tool (see prompt.md for what the model
is told)."""

from claude_harness.tools.web_search.tool import TOOL, WebSearchInput

__all__ = ["TOOL", "WebSearchInput"]
