"""``pair_team_round``: the teams and the competition's choices in, the round's matches out.

C.04.6 (2026) 3.3.2, the pairing process: "The first step [...] is the assignment of the
pairing-allocated-bye (if needed) by applying Article 3.4. Then, the top-scoregroup is
combined, when needed, with a set of upfloaters (selected according to Article 3.5), to form a
bracket that is paired according to Article 3.6. The previous step-2 is then repeated until
the round-pairing is complete. Colours are then assigned according to Article 4." There are
no downfloaters: every resident of the top-scoregroup is paired in its own bracket.

C.04.2 (general handling rules) 3.6 for the table order, which C.04.6 leaves to the
competition: the higher score of the two teams, then the sum of their scores, then the smaller
TPN, as gacrux prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from formats.teams.pairing.bracket import pair_bracket, pair_criteria
from formats.teams.pairing.bye import allocate_bye, pair_everyone
from formats.teams.pairing.colours import ColourChoice, allocate
from formats.teams.pairing.explain import (
    bye_note,
    concessions,
    match_reasons,
    score_group_note,
)
from formats.teams.pairing.field import Field, make_field
from formats.teams.pairing.model import (
    BYE_PAIRING,
    Match,
    ScoreGroupReport,
    TeamBye,
    TeamPairing,
    TeamPairingRequest,
)
from formats.teams.pairing.state import TeamState, team_state, validate
from formats.teams.pairing.upfloaters import UpfloaterChoice, select_upfloaters


@dataclass(frozen=True)
class _Round:
    """The procedure's outcome before colours: pairs (positions) and one report per bracket."""

    pairs: list[tuple[int, int]]
    bye: int | None
    reports: list[ScoreGroupReport]


def _teams_to_pair(request: TeamPairingRequest) -> list[TeamState]:
    not_paired = set(request.absent) | {team for team, _ in request.requested_byes}
    return [team_state(team, request) for team in request.teams if team.number not in not_paired]


def _report(
    field: Field,
    score: Fraction,
    residents: list[int],
    choice: UpfloaterChoice,
    pairs: list[tuple[int, int]],
) -> ScoreGroupReport:
    """What the bracket of ``score`` was made of and what it gave up, in team numbers."""
    criteria = [pair_criteria(field, field.teams[a], field.teams[b], score) for a, b in pairs]
    upfloaters = [field.teams[v] for v in choice.upfloaters]
    return ScoreGroupReport(
        score=score,
        residents=field.numbers(residents),
        upfloaters=field.numbers(choice.upfloaters),
        pairs=tuple((field.number(a), field.number(b)) for a, b in pairs),
        concessions=concessions(upfloaters, choice.c6_met, choice.floaters, criteria),
    )


def _pair_brackets(field: Field) -> _Round:
    """3.3.2: the bye first, then each top-scoregroup with its upfloaters."""
    vertices = list(range(len(field.teams)))
    bye = None
    if len(vertices) % 2:
        bye, mate = allocate_bye(field, vertices)
        remaining = [v for v in vertices if v != bye]
    else:
        mate = pair_everyone(field, vertices)
        remaining = vertices
    pairs: list[tuple[int, int]] = []
    reports = []
    for score in field.scores:
        residents = [v for v in remaining if field.score(v) == score]
        if not residents:
            continue  # the bye team's group, or every team of it floated up
        choice = select_upfloaters(field, residents, remaining, mate)
        bracket = sorted((*residents, *choice.upfloaters))
        bracket_pairs = pair_bracket(field, bracket, score)
        pairs += bracket_pairs
        reports.append(_report(field, score, residents, choice, bracket_pairs))
        taken = set(bracket)
        remaining = [v for v in remaining if v not in taken]
        mate = choice.rest_mate
    return _Round(pairs=pairs, bye=bye, reports=reports)


def _table_key(choice: ColourChoice) -> tuple[object, ...]:
    """C.04.2 3.6: higher score first, then the higher sum, then the smaller TPN."""
    a, b = choice.white, choice.black
    return (-max(a.score, b.score), -(a.score + b.score), min(a.number, b.number))


def _byes(request: TeamPairingRequest, field: Field, bye: int | None) -> tuple[TeamBye, ...]:
    given = [TeamBye(field.number(bye), BYE_PAIRING)] if bye is not None else []
    given += [TeamBye(team, kind) for team, kind in sorted(request.requested_byes)]
    return tuple(given)


def pair_team_round(request: TeamPairingRequest) -> TeamPairing:
    """Pair round ``request.round`` of a Swiss team event by FIDE C.04.6 (2026).

    Raises :class:`~formats.teams.pairing.model.TeamPairingError` for a malformed request and
    :class:`~formats.teams.pairing.model.PairingImpossible` when no legal round-pairing
    exists (3.3.3: the Chief Arbiter decides).
    """
    validate(request)
    field = make_field(
        _teams_to_pair(request),
        request.prohibited_pairs,
        request.colour_preferences,
        last_two_rounds=request.round > request.total_rounds - 2,
    )
    outcome = _pair_brackets(field)
    choices = sorted(
        (
            allocate(
                field.teams[a],
                field.teams[b],
                initial_colour=request.initial_colour,
                type_b=field.type_b,
                use_secondary=request.use_secondary_score,
            )
            for a, b in outcome.pairs
        ),
        key=_table_key,
    )
    matches = tuple(
        Match(
            table=table,
            white=choice.white.number,
            black=choice.black.number,
            colour_rule=choice.rule,
            reasons=match_reasons(choice, request.initial_colour),
        )
        for table, choice in enumerate(choices, start=1)
    )
    notes = [
        score_group_note(report.score, len(report.residents), report.concessions)
        for report in outcome.reports
    ]
    if outcome.bye is not None:
        notes.append(bye_note(field.teams[outcome.bye]))
    for team, kind in sorted(request.requested_byes):
        notes.append(f"Team {team} has a requested {kind}-point bye and is not paired")
    return TeamPairing(
        round=request.round,
        matches=matches,
        byes=_byes(request, field, outcome.bye),
        notes=tuple(notes),
        score_groups=tuple(outcome.reports),
    )
