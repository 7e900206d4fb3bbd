"""The conversation-wide result budget: past it, the oldest large results are persisted; each
turn counts only what is new, and a changed message replaces the old one (never edited in
place, so what was already sent or shown is not rewritten under it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.protocol.context import ContentReplacementState
from claude_harness.tools.budget import enforce_aggregate_budget

BUDGET = 30_000


def results_turn(n: int, size: int) -> list[dict[str, Any]]:
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": f"t{n}", "name": "Bash",
                                               "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}",
                                          "content": f"{n}:" + "x" * size}]}]


def sizes(messages: list[dict[str, Any]]) -> list[int]:
    return [len(b["content"]) for m in messages if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def test_the_oldest_large_results_are_persisted_first(tmp_path: Path) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    state = ContentReplacementState()
    originals = []
    for n in range(8):
        messages += results_turn(n, 9_000 if n % 2 == 0 else 2_000)
        originals.append(messages[-1])
        enforce_aggregate_budget(messages, state, tmp_path, budget=BUDGET)
    assert state.total_chars <= BUDGET
    persisted = [m for m in messages if "<persisted-output>" in str(m["content"])]
    assert persisted and persisted[0]["content"][0]["tool_use_id"] == "t0"
    assert all("<persisted-output>" not in b["content"] for m in messages[-4:] if m["role"] == "user"
               for b in m["content"])
    # replaced, not edited: the message objects the transcript and the screen got are intact
    assert all("x" * 2_000 in m["content"][0]["content"] for m in originals)
    saved = (tmp_path / "tool-results").glob("*.txt")
    assert any(p.read_text().startswith("0:") for p in saved)


def test_turn_by_turn_counts_as_from_scratch(tmp_path: Path) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    state = ContentReplacementState()
    for n in range(12):
        messages += results_turn(n, 5_000 + 1_000 * (n % 4))
        enforce_aggregate_budget(messages, state, tmp_path, budget=BUDGET)
    fresh = ContentReplacementState(replaced=dict(state.replaced))
    again = list(messages)
    assert enforce_aggregate_budget(again, fresh, tmp_path, budget=BUDGET) == 0
    assert fresh.total_chars == state.total_chars == sum(sizes(messages))
    # a compaction (or /clear, /resume) gives a new history: counted anew
    messages[:] = [{"role": "user", "content": "summary"}, *results_turn(99, 100)]
    enforce_aggregate_budget(messages, state, tmp_path, budget=BUDGET)
    assert state.total_chars == 103


def test_a_result_persisted_before_stays_persisted_when_it_comes_back(tmp_path: Path) -> None:
    """A resumed (or rewound) history holds the full text again: it gets the same preview as
    before, so the model sees one consistent conversation."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    state = ContentReplacementState()
    for n in range(6):
        messages += results_turn(n, 9_000)
        enforce_aggregate_budget(messages, state, tmp_path, budget=BUDGET)
    preview = state.replaced["t0"]
    reloaded: list[dict[str, Any]] = [{"role": "user", "content": "go"}, *results_turn(0, 9_000)]
    enforce_aggregate_budget(reloaded, state, tmp_path, budget=BUDGET)
    assert reloaded[2]["content"][0]["content"] == preview
