"""The Write tool: create a file or replace the whole of one the model has read."""

from __future__ import annotations

from claude_harness.protocol.tool import build_tool, load_prompt
from claude_harness.tools.file_common import backfill_file_path, validate_file_path
from claude_harness.tools.write.presentation import PRESENTATION
from claude_harness.tools.write.tool import WriteInput, call

TOOL = build_tool(
    name="Write",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=WriteInput,
    call=call,
    is_concurrency_safe=lambda inp: False,
    is_read_only=lambda inp: False,
    is_destructive=lambda inp: False,
    validate_input=validate_file_path,
    backfill_input=backfill_file_path,
    permission_subject=lambda inp: inp.file_path,
    key_argument=lambda inp: inp.file_path,
    to_classifier_input=lambda inp: f"{inp.file_path}: write {len(inp.content)} chars",
    search_hint="write create new file overwrite save",
)

__all__ = ["TOOL", "WriteInput"]
