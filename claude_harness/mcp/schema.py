"""Validating tool input against an MCP server's own JSON Schema.

The schema is sent to the API exactly as the server gave it (`Tool.json_schema`), so validation
must follow that schema too, not a pydantic model's idea of it. The input model made here accepts
any keys (extra="allow") and runs `jsonschema` first; each violation becomes a pydantic error with
the same types the built-in tools produce ("missing", "extra_forbidden"), so the pipeline reports
it in the same words: "The required parameter `text` is missing".
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError


class McpToolInput(BaseModel):
    """Base of every generated MCP input model: keys are whatever the server's schema allows."""

    model_config = ConfigDict(extra="allow")

    def arguments(self) -> dict[str, Any]:
        """The arguments to send to the server, exactly as the model gave them."""
        return dict(self.__pydantic_extra__ or {})


def normalised_schema(raw: Any) -> dict[str, Any]:
    """The server's schema, made acceptable to the Messages API (`type: object` required)."""
    schema = dict(raw) if isinstance(raw, dict) else {}
    if schema.get("type") != "object":
        schema["type"] = "object"
    return schema


def _validator(schema: dict[str, Any]) -> Any:
    import jsonschema.validators

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError:
        # A broken schema from the server: check only that the input is an object.
        return jsonschema.Draft202012Validator({"type": "object"})
    return cls(schema)


def _line_errors(error: Any, instance: Any) -> list[InitErrorDetails]:
    loc = tuple(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [k for k in error.validator_value if k not in error.instance]
        return [{"type": "missing", "loc": (*loc, k), "input": instance} for k in missing]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = set((error.schema or {}).get("properties", {}))
        extra = [k for k in error.instance if k not in known]
        if extra:
            return [{"type": "extra_forbidden", "loc": (*loc, k), "input": error.instance[k]}
                    for k in extra]
    kind = PydanticCustomError("mcp_schema", "{detail}", {"detail": error.message})
    return [{"type": kind, "loc": loc or ("input",), "input": error.instance}]


def make_input_model(tool_name: str, schema: dict[str, Any]) -> type[McpToolInput]:
    """A model class whose `model_validate` checks the input against `schema` first."""
    validator = _validator(schema)

    class Input(McpToolInput):
        @classmethod
        def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Input:  # type: ignore[override]
            problems: list[InitErrorDetails] = []
            for error in sorted(validator.iter_errors(obj), key=lambda e: [str(p) for p in e.path]):
                problems.extend(_line_errors(error, obj))
            if problems:
                raise ValidationError.from_exception_data(cls.__name__, problems)
            return super().model_validate(obj, *args, **kwargs)

    Input.__name__ = Input.__qualname__ = f"{tool_name}_input"
    return Input
