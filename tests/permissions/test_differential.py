"""The differential test: run what the checker ALLOWS and look for what it left behind.

Every command the chain allows, from every corpus and configuration, runs as the Bash tool
would run it, with bash inside bubblewrap, in a fresh copy of the fixture world (see
sandbox_fixture.py). An allowed command that leaves a trace the configuration promises it
cannot leave (a marker, a change outside the project or under a protected path, a wiped
directory, a printed secret) fails with its family, configuration, decision and trace.

Every new adversarial command also runs unchecked once: each must leave a trace in at least
one of its configurations, or it proves nothing about the checker.
"""

from __future__ import annotations

import pytest

from tests.permissions.chain import Verdict
from tests.permissions.conftest import Decisions
from tests.permissions.corpus.catalog import EVERYDAY, NEW_FAMILIES, SEQUENCES, SINGLE
from tests.permissions.corpus.configs import CONFIGS
from tests.permissions.corpus.model import FAMILIES, Attack
from tests.permissions.harness import CorpusWorld
from tests.permissions.sandbox_fixture import SandboxRun, bwrap_problem
from tests.permissions.traces import violations

Runs = dict[str, SandboxRun]

# The first test pays for the session's sandboxed runs (several hundred bwrap processes): 40 s
# on an idle 2-core machine, several minutes with a hog on each core beside a second worker.
pytestmark = pytest.mark.timeout(900)

# Families whose allowed commands still leave traces, while the checker catches up:
# {family: "family N: why"}; each makes that family's differential test xfail(strict=True).
TRACES_NOT_YET_FIXED: dict[int, str] = {}
# Multi-call attacks that still get through: {steps: "family 7: why"}.
SEQUENCES_NOT_YET_REFUSED: dict[tuple[str, ...], str] = {}


@pytest.fixture(scope="session", autouse=True)
def _bubblewrap() -> None:
    problem = bwrap_problem()
    assert problem is None, (
        f"bubblewrap cannot run here ({problem}): the permission checker is proven by running "
        "what it allows. Install it (apt-get install bubblewrap; .ci/run does) on a machine "
        "that allows user namespaces.")


@pytest.fixture(scope="session")
def executions(corpus_world: CorpusWorld, corpus_decisions: Decisions) -> Runs:
    """One sandboxed run per command: every allowed one (its decision's sed preview applied as
    the tool would), every everyday one, and every new attack (unchecked, to prove it)."""
    todo: dict[str, Verdict] = {}
    for (command, _config), verdict in corpus_decisions.items():
        if verdict.allowed:
            todo.setdefault(command, verdict)
    for command in EVERYDAY:
        todo.setdefault(command, Verdict("allow", "everyday"))
    for attacks in NEW_FAMILIES.values():
        for attack in attacks:
            if len(attack.steps) == 1:
                todo.setdefault(attack.steps[0], Verdict("allow", "unchecked"))
    return corpus_world.execute_many(todo)


def _failures(attacks: list[Attack], decisions: Decisions, runs: Runs) -> list[str]:
    lines = []
    for attack in attacks:
        command = attack.steps[0]
        for config in attack.configs:
            verdict = decisions[(command, config)]
            if not verdict.allowed:
                continue
            run = runs[command]
            traces = violations(run.changes, run.stdout + run.stderr, CONFIGS[config])
            if traces:
                lines.append(f"family {attack.family} [{config}] {command!r}\n"
                             f"    allowed: {verdict.reason}\n    TRACE: {'; '.join(traces)}")
    return lines


def _family_param(family: int) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=TRACES_NOT_YET_FIXED[family])] \
        if family in TRACES_NOT_YET_FIXED else []
    return pytest.param(family, id=f"family{family}", marks=marks)


@pytest.mark.parametrize("family", [_family_param(f) for f in sorted({a.family for a in SINGLE})])
def test_allowed_attacks_leave_no_trace(family: int, corpus_decisions: Decisions,
                                        executions: Runs) -> None:
    attacks = [a for a in SINGLE if a.family == family]
    failures = _failures(attacks, corpus_decisions, executions)
    assert not failures, f"{FAMILIES[family]}:\n" + "\n".join(failures)


def test_allowed_everyday_commands_leave_no_trace(corpus_decisions: Decisions,
                                                  executions: Runs) -> None:
    """Default mode, no rules: an allowed command must change nothing and print no secret."""
    failures = []
    for command in EVERYDAY:
        verdict = corpus_decisions[(command, "default")]
        if not verdict.allowed:
            continue
        run = executions[command]
        traces = violations(run.changes, run.stdout + run.stderr, CONFIGS["default"])
        if traces:
            failures.append(f"everyday [default] {command!r}: TRACE: {'; '.join(traces)}")
    assert not failures, "\n".join(failures)


def test_every_new_attack_is_real(executions: Runs) -> None:
    """Run unchecked, each new single-call attack leaves a trace in one of its configurations
    (a command that cannot do harm here proves nothing about the checker)."""
    harmless = []
    for family, attacks in NEW_FAMILIES.items():
        for attack in attacks:
            if len(attack.steps) > 1:
                continue
            run = executions[attack.steps[0]]
            output = run.stdout + run.stderr
            if not any(violations(run.changes, output, CONFIGS[c]) for c in attack.configs):
                harmless.append(f"family {family}: {attack.steps[0]!r} "
                                f"(exit {run.returncode}: {run.stderr.strip()[:120]})")
    assert not harmless, "\n".join(harmless)


def _sequence_param(attack: Attack, index: int) -> object:
    marks = []
    if attack.steps in SEQUENCES_NOT_YET_REFUSED:
        marks.append(pytest.mark.xfail(strict=True, reason=SEQUENCES_NOT_YET_REFUSED[attack.steps]))
    return pytest.param(attack, id=f"f7-{index:03d}", marks=marks)


@pytest.mark.parametrize("attack", [_sequence_param(a, i) for i, a in enumerate(SEQUENCES)])
def test_multi_call_attack_is_stopped(attack: Attack, corpus_world: CorpusWorld) -> None:
    """Each step decided against the copy as the previous steps left it, from the directory the
    previous step ended in; some step must be refused, and nothing may leave a trace."""
    outcomes = [corpus_world.run_sequence(attack, config) for config in attack.configs]
    bad = [o for o in outcomes if not o.refused or o.traces]
    assert not bad, "\n".join(o.describe() for o in bad)


def test_nothing_ran_outside_the_sandbox(corpus_world: CorpusWorld, executions: Runs) -> None:
    """After every decision (multi-call attacks included, decided against copies as they
    went) the fixture is untouched and no marker appeared in this machine's /tmp."""
    assert executions
    assert corpus_world.template_changes() == []
