"""StructuredOutput: the final answer as JSON matching the schema the program asked for.

Offered only when the run was started with `--json-schema` (the Agent SDK's
`output_format={"type": "json_schema", ...}`), with that schema as its input schema, as Claude
Code does. A valid call ends the turn at once (no further request): its input is the result's
`structured_output`. An input that does not match the schema is an error the model can correct.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolResult,
    ValidationResult,
    build_tool,
    no_prompt_needed,
)
from claude_harness.protocol.tool import Tool as ToolType

NAME = "StructuredOutput"
DONE = "Structured output provided successfully"
DESCRIPTION = ("Use this tool to return your final response in the requested structured format. "
               "You MUST call this tool exactly once at the end of your response to provide the "
               "structured output.")


class AnyObject(BaseModel):
    """Whatever object the model sends; the schema is checked in validate_input."""

    model_config = ConfigDict(extra="allow")

    def value(self) -> dict[str, Any]:
        return dict(self.__pydantic_extra__ or {})


def structured_output_tool(schema: dict[str, Any]) -> ToolType:
    """The tool for one schema (a schema that is not an object schema is wrapped as one)."""
    import jsonschema.validators  # only a --json-schema run pays for it

    api_schema = schema if schema.get("type") == "object" else {"type": "object", **schema}
    checker = jsonschema.validators.validator_for(api_schema)(api_schema)

    async def validate(inp: AnyObject, ctx: ToolUseContext) -> ValidationResult:
        problems = [f"{'/'.join(map(str, e.absolute_path)) or 'input'}: {e.message}"
                    for e in checker.iter_errors(inp.value())]
        if problems:
            return ValidationResult.fail("The output does not match the required schema:\n"
                                         + "\n".join(problems))
        return ValidationResult()

    async def call(inp: AnyObject, ctx: ToolUseContext, progress: Progress) -> ToolResult:
        return ToolResult(data=inp.value(), ends_turn=True)

    return build_tool(
        name=NAME, description=DESCRIPTION, input_model=AnyObject, json_schema=api_schema,
        needs_conversation=True,
        call=call, validate_input=validate, render_result=lambda data: DONE,
        is_read_only=lambda inp: True, is_concurrency_safe=lambda inp: True,
        check_permissions=no_prompt_needed("StructuredOutput only returns the answer"),
    )
