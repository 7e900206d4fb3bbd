"""AskUserQuestion's input (Claude Code's schema) and what comes back from the person.

The JSON Schema sent to the API is written out here in Claude Code's shape (everything inline,
`multiSelect` required with a default): the pydantic models validate the model's input; the
schema is the contract the model sees. `answers`, `annotations` and `metadata` are part of that
contract: a client (an SDK's permission callback) may fill `answers` in; the model's own values
are never taken as a person's answer when a person can be asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from claude_harness.protocol.tool import ToolInput

OTHER = "Other"
MAX_HEADER_CHARS = 12


class Option(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    description: str
    preview: str | None = None


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    question: str
    header: str
    options: list[Option] = Field(min_length=2, max_length=4)
    multi_select: bool = Field(default=False, alias="multiSelect")


class Annotation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preview: str | None = None
    notes: str | None = None


class Metadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str | None = None


class AskUserQuestionInput(ToolInput):
    questions: list[Question] = Field(min_length=1, max_length=4)
    answers: dict[str, str] | None = None
    annotations: dict[str, Annotation] | None = None
    metadata: Metadata | None = None


@dataclass(frozen=True)
class Answers:
    """What the person chose: question text -> answer (several labels joined by ", "), and any
    notes. `declined`: they closed the questions without answering."""

    answers: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, dict[str, str]] = field(default_factory=dict)
    declined: bool = False

    @classmethod
    def decline(cls) -> Answers:
        return cls(declined=True)


def join_labels(labels: list[str]) -> str:
    """Several answers to a multi-select question, as Claude Code writes them."""
    return ", ".join(labels)


_OPTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "label": {"type": "string", "description": (
            "What the user sees and picks: a few words that name the choice.")},
        "description": {"type": "string", "description": (
            "What choosing it means or leads to: the trade-off, in a sentence.")},
        "preview": {"type": "string", "description": (
            "Optional content shown while the option is focused (a snippet, a mock-up).")},
    },
    "required": ["label", "description"],
    "additionalProperties": False,
}

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "questions": {
            "type": "array",
            "description": "The questions to ask (1 to 4).",
            "minItems": 1,
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "question": {"type": "string", "description": (
                        "The whole question, clear on its own, ending with a question mark.")},
                    "header": {"type": "string", "description": (
                        f"A very short label shown as a chip (at most {MAX_HEADER_CHARS} "
                        "characters), e.g. \"Library\".")},
                    "options": {
                        "type": "array",
                        "description": (
                            "2 to 4 distinct choices. Do not add an 'Other' choice: the user "
                            "can always type their own answer."),
                        "minItems": 2,
                        "maxItems": 4,
                        "items": _OPTION_SCHEMA,
                    },
                    "multiSelect": {"type": "boolean", "default": False, "description": (
                        "True when several choices may be picked together.")},
                },
                "required": ["question", "header", "options", "multiSelect"],
                "additionalProperties": False,
            },
        },
        "answers": {
            "type": "object",
            "description": "The user's answers, filled in by the client that asked them.",
            "additionalProperties": {"type": "string"},
        },
        "annotations": {
            "type": "object",
            "description": "Optional notes per question (keyed by question text).",
            "additionalProperties": {
                "type": "object",
                "properties": {"preview": {"type": "string"}, "notes": {"type": "string"}},
                "additionalProperties": False,
            },
        },
        "metadata": {
            "type": "object",
            "description": "Optional tracking data; not shown to the user.",
            "properties": {"source": {"type": "string"}},
            "additionalProperties": False,
        },
    },
    "required": ["questions"],
    "additionalProperties": False,
}
