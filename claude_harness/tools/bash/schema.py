"""The Bash tool's input: what the model may send, plus one internal field it never sees."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from claude_harness.protocol.tool import ToolInput

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000


class SimulatedSedEdit(BaseModel):
    """An approved `sed -i` computed ahead by the permission layer: write this, do not run sed.

    The user approved the edit as it was previewed; applying the previewed content (rather than
    running sed again) guarantees the file ends up exactly as shown.
    """

    model_config = ConfigDict(extra="forbid")

    file_path: str
    new_content: str


class BashInput(ToolInput):
    # Only the underscore spelling reaches the internal field, so the pipeline has one key to
    # strip from model-supplied input.
    model_config = ConfigDict(extra="forbid", populate_by_name=False)

    command: str = Field(description="The shell command to run (bash syntax).")
    timeout: int | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            f"Optional timeout in milliseconds (max {MAX_TIMEOUT_MS}); "
            f"defaults to {DEFAULT_TIMEOUT_MS} (2 minutes)."
        ),
    )
    description: str | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            "A short active-voice summary (5-10 words) of what the command does, shown to the "
            "user, e.g. 'List files in the src folder'."
        ),
    )
    run_in_background: bool = Field(
        default=False,
        description=(
            "Start the command in the background and return at once. You are told when it "
            "ends; meanwhile Read its output file (or use TaskOutput), and stop it with "
            "TaskStop."
        ),
    )
    dangerouslyDisableSandbox: bool = Field(  # noqa: N815 - Claude Code's parameter name
        default=False,
        description=(
            "Set this to true to dangerously override sandbox mode and run the command without "
            "sandboxing (the user is asked to approve)."
        ),
    )
    simulated_sed_edit: SkipJsonSchema[SimulatedSedEdit | None] = Field(
        default=None, alias="_simulated_sed_edit", exclude=True
    )

    @property
    def timeout_ms(self) -> int:
        return self.timeout if self.timeout is not None else DEFAULT_TIMEOUT_MS
