"""The Edit tool: replace one passage of a file the model has read, in the file's own style."""

from __future__ import annotations

from claude_harness.protocol.tool import build_tool, load_prompt
from claude_harness.tools.edit.presentation import PRESENTATION
from claude_harness.tools.edit.tool import EditInput, call, validate_input
from claude_harness.tools.file_common import backfill_file_path

TOOL = build_tool(
    name="Edit",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=EditInput,
    call=call,
    is_concurrency_safe=lambda inp: False,
    is_read_only=lambda inp: False,
    is_destructive=lambda inp: False,
    validate_input=validate_input,
    backfill_input=backfill_file_path,
    permission_subject=lambda inp: inp.file_path,
    key_argument=lambda inp: inp.file_path,
    to_classifier_input=lambda inp: (
        f"{inp.file_path}: replace {inp.old_string!r} with {inp.new_string!r}"
    ),
    search_hint="edit modify change replace text in file",
)

__all__ = ["TOOL", "EditInput"]
