"""NotebookEdit: cell-level edits of Jupyter notebooks (see prompt.md for the model's view)."""

from claude_harness.tools.notebook_edit.tool import TOOL, NotebookEditInput

__all__ = ["TOOL", "NotebookEditInput"]
