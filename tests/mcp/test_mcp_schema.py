"""Input validation against a server's own JSON Schema, worded like the built-in tools' errors."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from claude_harness.mcp.schema import make_input_model, normalised_schema
from claude_harness.protocol.tool import build_tool
from claude_harness.tools.pipeline import format_validation_error

SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "n": {"type": "integer", "minimum": 1},
                   "opts": {"type": "object", "properties": {"deep": {"type": "boolean"}}}},
    "required": ["q"],
    "additionalProperties": False,
}


def _errors(args: dict) -> str:
    model = make_input_model("mcp__s__t", SCHEMA)
    tool = build_tool(name="mcp__s__t", description="d", input_model=model, call=None,
                      json_schema=SCHEMA)
    with pytest.raises(ValidationError) as info:
        model.model_validate(args)
    return format_validation_error(tool, info.value)


def test_valid_input_keeps_every_argument_as_sent() -> None:
    model = make_input_model("mcp__s__t", SCHEMA)
    parsed = model.model_validate({"q": "x", "n": 2, "opts": {"deep": True}})
    assert parsed.arguments() == {"q": "x", "n": 2, "opts": {"deep": True}}


def test_missing_unexpected_wrong_type_and_nested_errors() -> None:
    text = _errors({"n": 0, "zzz": 1, "opts": {"deep": "yes"}})
    assert "The required parameter `q` is missing" in text
    assert "An unexpected parameter `zzz` was provided" in text
    assert "The parameter `n` is invalid: 0 is less than the minimum of 1" in text
    assert "The parameter `opts.deep` is invalid: 'yes' is not of type 'boolean'" in text


def test_schema_without_type_object_is_fixed_for_the_api() -> None:
    assert normalised_schema({"properties": {}})["type"] == "object"
    assert normalised_schema(None) == {"type": "object"}
    assert normalised_schema(SCHEMA) == SCHEMA


def test_a_broken_server_schema_still_validates_objects() -> None:
    model = make_input_model("mcp__s__t", {"type": "object", "properties": {"a": {"type": 5}}})
    assert model.model_validate({"a": 1}).arguments() == {"a": 1}
    with pytest.raises(ValidationError):
        model.model_validate("not an object")
