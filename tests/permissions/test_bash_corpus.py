"""The Bash permission chain against the adversarial corpus and the everyday list.

Every decision goes through `resolve_permission` with the real Bash tool, settings loaded from
real files and the mode set (see chain.py). Adversarial: every entry is refused (ask or deny)
in every configuration it lists. Everyday: with no rules in default mode, at least 97 % run
without a prompt. Multi-call attacks (family 7) need execution between their steps; they are
tested in test_differential.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.permissions.conftest import Decisions
from tests.permissions.corpus.catalog import ADVERSARIAL, EVERYDAY, NEW_FAMILIES, SINGLE
from tests.permissions.corpus.everyday import ISSUE_FALSE_POSITIVES
from tests.permissions.corpus.model import FAMILIES, Attack
from tests.permissions.harness import CorpusWorld

EVERYDAY_TARGET = 97.0

# Entries the checker does not refuse yet: {command: "family N: why"}. Each is an
# xfail(strict=True), so a fix shows up as XPASS and the entry must leave this table.
NOT_YET_REFUSED: dict[str, str] = {}


def _param(attack: Attack, index: int) -> object:
    marks = []
    if attack.steps[0] in NOT_YET_REFUSED:
        marks.append(pytest.mark.xfail(strict=True, reason=NOT_YET_REFUSED[attack.steps[0]]))
    return pytest.param(attack, id=f"f{attack.family}-{index:03d}", marks=marks)


def test_every_family_has_forty_new_attacks() -> None:
    sizes = {family: len(attacks) for family, attacks in NEW_FAMILIES.items()}
    assert all(size >= 40 for size in sizes.values()), sizes
    assert len(EVERYDAY) >= 300
    commands = [a.steps for a in ADVERSARIAL]
    assert len(set(commands)) == len(commands), "an attack listed twice"
    assert not set(EVERYDAY) & {steps[0] for steps in commands if len(steps) == 1}


@pytest.mark.parametrize("attack", [_param(a, i) for i, a in enumerate(SINGLE)])
def test_attack_is_refused_in_every_configuration(attack: Attack,
                                                  corpus_decisions: Decisions) -> None:
    command = attack.steps[0]
    through = {config: corpus_decisions[(command, config)] for config in attack.configs
               if not corpus_decisions[(command, config)].refused}
    assert not through, "\n".join(
        f"family {attack.family} ({FAMILIES[attack.family]}): {command!r} in {config}: "
        f"{v.behavior} ({v.reason})" for config, v in through.items())


def test_report_per_family(corpus_decisions: Decisions) -> None:
    """Not a gate (the per-entry tests are): the figures the issue asks for, printed."""
    commands, decisions, through = Counter(), Counter(), Counter()
    for attack in SINGLE:
        commands[attack.family] += 1
        for config in attack.configs:
            decisions[attack.family] += 1
            through[attack.family] += not corpus_decisions[(attack.steps[0], config)].refused
    print()
    for family in sorted(commands):
        print(f"family {family}: {commands[family]} commands, {decisions[family]} decisions, "
              f"{decisions[family] - through[family]} refused, {through[family]} got through "
              f"({FAMILIES[family]})")
    assert sum(decisions.values()) > 0


def test_everyday_commands_run_without_a_prompt(corpus_decisions: Decisions) -> None:
    asked = [(c, corpus_decisions[(c, "default")]) for c in EVERYDAY
             if not corpus_decisions[(c, "default")].allowed]
    rate = 100 * (len(EVERYDAY) - len(asked)) / len(EVERYDAY)
    print(f"\neveryday: {len(EVERYDAY) - len(asked)}/{len(EVERYDAY)} run unprompted ({rate:.1f} %)")
    for command, verdict in asked:
        print(f"  asked: {command!r}: {verdict.reason}")
    assert rate >= EVERYDAY_TARGET


def test_issue_false_positives_run_without_a_prompt(corpus_decisions: Decisions) -> None:
    asked = [c for c in ISSUE_FALSE_POSITIVES if not corpus_decisions[(c, "default")].allowed]
    assert asked == []


def test_deciding_changes_nothing(corpus_world: CorpusWorld, corpus_decisions: Decisions) -> None:
    """Deciding runs nothing of the command or the repository (a `sed -i` preview runs sed on
    a copy only; git queries run with fsmonitor, pagers and external diffs off)."""
    assert corpus_decisions
    assert corpus_world.template_changes() == []
