"""Merge the verdicts of hooks that ran in parallel on one event into a single HookOutcome.

Precedence rules (documented contract, tested):
- permission decision: deny > ask > allow. An exit 2 on PreToolUse counts as deny, so a block
  from any hook wins whatever the others said.
- reason: the reasons of every hook that gave the winning decision, joined by newlines.
- updated_input: from the first hook, in configuration order, whose decision is the winning one
  (when no hook decided, the first hook that returned one); never with deny. A later hook's
  different rewrite is ignored and reported as an error, so a conflict is visible.
- additional_context, system_messages, errors: concatenated in configuration order.
- stop: any hook's `continue: false` stops; the first non-empty stopReason is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from claude_harness.hooks.events import EVENT_SPECS
from claude_harness.hooks.outcome import HookOutcome, HookResult
from claude_harness.hooks.output import Decision, Verdict
from claude_harness.protocol.permission_data import PermissionDecision

_RANK: dict[Decision, int] = {"deny": 3, "ask": 2, "allow": 1}


def combine(event: str, runs: Sequence[tuple[HookResult, Verdict]]) -> HookOutcome:
    outcome = HookOutcome(event=event, results=[r for r, _ in runs])
    for result, verdict in runs:
        if result.error:
            outcome.errors.append(result.error)
        outcome.errors.extend(verdict.errors)
        outcome.additional_context.extend(verdict.additional_context)
        outcome.watch_paths.extend(verdict.watch_paths)
        if verdict.system_message:
            outcome.system_messages.append(verdict.system_message)
        if verdict.stop:
            outcome.stop = True
            outcome.stop_reason = outcome.stop_reason or verdict.stop_reason
        if verdict.block:
            outcome.blocked = True
            outcome.block_reason = _join(outcome.block_reason, verdict.block_reason)
        if outcome.elicitation is None:
            outcome.elicitation = verdict.elicitation
    winner = _winner(v.decision for _, v in runs)
    outcome.updated_input = _updated_input(winner, runs, outcome.errors)
    if winner is not None and EVENT_SPECS[event].permission:
        reason = "\n".join(
            v.decision_reason for _, v in runs if v.decision == winner and v.decision_reason
        )
        outcome.permission_decision = PermissionDecision(
            behavior=winner,
            reason=reason,
            updated_input=outcome.updated_input,
            decided_by="hook",
        )
    return outcome


def _winner(decisions: Iterable[Decision | None]) -> Decision | None:
    best: Decision | None = None
    for decision in decisions:
        if decision is not None and (best is None or _RANK[decision] > _RANK[best]):
            best = decision
    return best


def _updated_input(
    winner: Decision | None, runs: Sequence[tuple[HookResult, Verdict]], errors: list[str]
) -> dict | None:
    if winner == "deny":
        return None
    chosen: dict | None = None
    chosen_by = ""
    for result, verdict in runs:
        if verdict.updated_input is None or verdict.decision != winner:
            continue
        if chosen is None:
            chosen, chosen_by = verdict.updated_input, result.command
        elif verdict.updated_input != chosen:
            errors.append(
                f"hook `{result.command}` returned a different updatedInput; "
                f"kept the one from `{chosen_by}` (first in configuration order)"
            )
    return chosen


def _join(current: str, more: str) -> str:
    return f"{current}\n{more}" if current else more
