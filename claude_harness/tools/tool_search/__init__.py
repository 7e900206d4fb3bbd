"""ToolSearch: load deferred tools' schemas on demand."""

from claude_harness.tools.tool_search.tool import TOOL, loaded_by_call, loaded_from_history

__all__ = ["TOOL", "loaded_by_call", "loaded_from_history"]
