"""How a NotebookEdit call is shown."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation
from claude_harness.tools.presentation_common import path_label

PRESENTATION = ToolPresentation(title="Edit notebook", kind="edit",
                                label=lambda inp: path_label("Edit", inp))
