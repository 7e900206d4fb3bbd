"""How a WebFetch call is shown: the URL it fetches."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(title="Fetch URL", kind="fetch",
                                label=lambda inp: f"Fetch {inp.get('url', '')!s}")
