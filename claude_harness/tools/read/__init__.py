"""The Read tool: text files as numbered lines, plus images, PDFs, notebooks and directories."""

from __future__ import annotations

from claude_harness.protocol.tool import UNBOUNDED, build_tool, load_prompt
from claude_harness.tools.file_common import backfill_file_path, validate_file_path
from claude_harness.tools.read.permissions import check_permissions
from claude_harness.tools.read.presentation import PRESENTATION
from claude_harness.tools.read.tool import (
    ReadInput,
    call,
    render_result,
)

TOOL = build_tool(
    name="Read",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=ReadInput,
    call=call,
    is_concurrency_safe=lambda inp: True,
    is_read_only=lambda inp: True,
    validate_input=validate_file_path,
    check_permissions=check_permissions,
    backfill_input=backfill_file_path,
    permission_subject=lambda inp: inp.file_path,
    key_argument=lambda inp: inp.file_path,
    to_classifier_input=lambda inp: inp.file_path,
    render_result=render_result,
    # Read bounds itself at the source (see read/text.py); persisting its result to a file
    # would only send the model back to Read that file.
    max_result_size_chars=UNBOUNDED,
    search_hint="read view open file contents image pdf notebook",
)

__all__ = ["TOOL", "ReadInput"]
