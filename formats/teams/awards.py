"""What a team event gives the prizes app (issue #22, "Prize sheets for teams and boards"):
the final team ranking the place prizes are split over, the unbroken run of complete rounds,
and each board's prizes.

Decisions (docs/teams.md, "Prizes"):

- **Team prizes** follow the team standings (primary score, then the event's C.07 team
  tie-breaks), split by the event's prize settings exactly like an individual event's: teams
  level on everything share (equal split), or the Hort system splits a tie on the primary
  score using the tie-break order.
- **Board prizes** are the same amounts on every board (``TeamSetup.board_prizes``, highest
  first). A player belongs to the board of the first game they played (the board ranking's
  reading); forfeits are not games; players with fewer than the event's minimum number of
  games are left out (``board_prizes.min_board_games``: a reserve who played one game and won
  it is no board champion). Places go by the exact percentage (points / games), then by more
  games; players level on both share their places' prizes equally, rounded once under the
  event's rounding policy (``prizes.split``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import groupby
from typing import Any

from events.models import Event, Round
from events.numbers import points_text
from prizes.presenters import place_label
from prizes.split import FinalRanking, PlacedPlayer, PrizeFund, allocate_prizes
from standings.ranking import Standing


def team_complete_rounds(event: Event) -> int:
    """The last round of the unbroken run of published rounds whose every match is decided
    (``Format.complete_rounds``: closing the event and the prize sheets wait for it)."""
    from formats.teams.selectors import open_matches

    published = list(
        Round.objects.filter(event=event).order_by("number").values_list("number", "published")
    )
    counts = open_matches(event)
    complete = 0
    for number, is_published in published:
        if number != complete + 1 or not is_published or counts.get(number, (1, 0))[0]:
            break
        complete = number
    return complete


def team_close_refusal(event: Event) -> str | None:
    """A team event closes once no round is a draft and every published match is decided."""
    from formats.teams.selectors import open_matches

    draft = Round.objects.filter(event=event, published=False).order_by("number").first()
    if draft is not None:
        return f"round {draft.number} is a draft: publish or discard it before closing the event"
    for number, (waiting, _total) in sorted(open_matches(event).items()):
        if waiting:
            return (
                f"round {number} has {waiting} match card{'s' if waiting > 1 else ''} without "
                "a result: enter every match before closing the event"
            )
    return None


def team_prize_standings(event: Event) -> list[Standing]:
    """The team standings as the prize engine reads a ranking: the team's pairing number in
    place of a start number, its name, its place and its primary score."""
    from formats.teams.selectors import standings_of

    rows = standings_of(event, after_round=event.rounds)["rows"]
    return [
        Standing(
            start_no=row["team_no"],
            name=row["name"],
            rank=row["rank"],
            shared=row["shared"],
            points=Fraction(row["points"]),
            values={},
            decided_by=None,
        )
        for row in rows
    ]


def _board_order(row: dict[str, Any]) -> tuple[Fraction, int]:
    return (-Fraction(row["score"]) / row["games"], -row["games"])


def board_prizes(event: Event, settings: Any) -> list[dict[str, Any]]:
    """Each board's prize winners (the decisions above), as rows of the prize sheet's
    ``board_prizes`` key: board, place, shared, start number, name, team, games, points,
    exact percentage and amount (a string, rounded once)."""
    from formats.teams.models import RosterEntry
    from formats.teams.selectors import board_ranking, setup_of
    from formats.teams.services import board_prize_amounts

    amounts = board_prize_amounts(setup_of(event).board_prizes)
    if not amounts:
        return []
    teams = dict(
        RosterEntry.objects.filter(team__event=event).values_list("player_id", "team__name")
    )
    fund = PrizeFund.from_amounts(amounts)
    boards: list[dict[str, Any]] = []
    ranking = [row for row in board_ranking(event) if row["eligible"]]
    for board, members in groupby(ranking, key=lambda row: row["board"]):
        rows = sorted(members, key=_board_order)
        placed: list[PlacedPlayer] = []
        for _, level in groupby(rows, key=_board_order):
            group = list(level)
            first = len(placed) + 1
            placed.extend(
                PlacedPlayer(row["player"].start_no, row["player"].name, first, len(group) > 1)
                for row in group
            )
        sheet = allocate_prizes(
            FinalRanking(tuple(placed)),
            fund,
            split_rule_code="equal",
            rounding_code=settings.rounding,
            unit=settings.unit,
        )
        by_no = {row["player"].start_no: row for row in rows}
        sizes = Counter(p.rank for p in placed)
        boards.append(
            {
                "board": board,
                "rows": [
                    {
                        "rank": prize.rank,
                        "place": place_label(prize.rank, sizes[prize.rank]),
                        "shared": prize.shared,
                        "start_no": prize.start_no,
                        "name": prize.name,
                        "team": teams.get(by_no[prize.start_no]["player"].pk, ""),
                        "games": by_no[prize.start_no]["games"],
                        "points": points_text(Fraction(by_no[prize.start_no]["score"])),
                        "percent": _percent(by_no[prize.start_no]),
                        "amount": str(prize.amount),
                        "breakdown": prize.breakdown,
                    }
                    for prize in sheet.rows
                    if prize.amount > 0
                ],
            }
        )
    return boards


def _percent(row: dict[str, Any]) -> str:
    """The exact percentage, shown to one decimal (half up): ranking uses the exact value."""
    tenths = Fraction(row["score"]) * 1000 / row["games"]
    whole = int(tenths + Fraction(1, 2))
    return f"{whole // 10}.{whole % 10}"
