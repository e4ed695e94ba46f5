"""GNOT bridge teams (seed 004): page shapes for the templates (no queries here).

The bracket is an inline SVG per knock-out: one column per session (Double Knockout: 2, 3, 4;
Single Knockout: 2a, 2b, 3a, 3b, 4a, 4b, 5), one box per match with both teams, their IMPs
and the winner in bold. Choice of opponents (1.10) means a session is not a fixed tree, so the
columns show who actually met rather than connector lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from events.models import Event
from formats.gnot import draw as draw_engine
from formats.gnot import selectors
from formats.gnot.bridge import table_boards
from formats.gnot.models import MatchStatus, TeamMatch
from formats.gnot.rules import WhistLine
from formats.gnot.selectors import SESSION_TITLES
from playoffs.presenters import Bracket, BracketColumn, BracketEntry

BOX_WIDTH = 210
BOX_HEIGHT = 46
COLUMN_GAP = 24
ROW_GAP = 12
TOP = 28

DOUBLE_SESSIONS = ("2", "3", "4")
SINGLE_SESSIONS = ("2a", "2b", "3a", "3b", "4a", "4b", "5")


def _line(row: TeamMatch, home: bool) -> tuple[str, bool]:
    team = row.home if home else row.away
    imps = row.home_imps if home else row.away_imps
    score = "" if imps is None else f" {imps}"
    won = row.status == MatchStatus.DECIDED and row.winner_id == team.pk
    mark = " (playoff)" if won and row.decided_by not in ("imps", "") else ""
    return f"{team.team_no}. {team.name[:18]}{score}{mark}", won


def bracket(title: str, codes: Sequence[str], rows: Sequence[TeamMatch]) -> Bracket | None:
    columns = []
    tallest = 0
    for index, code in enumerate(codes):
        matches = [r for r in rows if r.session == code and r.kind == "match" and not r.stage]
        x = index * (BOX_WIDTH + COLUMN_GAP)
        boxes = [
            BracketEntry(
                x,
                TOP + n * (BOX_HEIGHT + ROW_GAP),
                BOX_HEIGHT,
                [_line(row, True), _line(row, False)],
                dashed=row.status != MatchStatus.DECIDED,
                width=BOX_WIDTH,
            )
            for n, row in enumerate(matches)
        ]
        tallest = max(tallest, len(boxes))
        columns.append(BracketColumn(x, SESSION_TITLES[code].split(" (")[0], boxes))
    if tallest == 0:
        return None
    width = len(codes) * (BOX_WIDTH + COLUMN_GAP)
    height = TOP + tallest * (BOX_HEIGHT + ROW_GAP)
    return Bracket(title, width, height, columns, font_size=12)


def brackets(rows: Sequence[TeamMatch]) -> list[Bracket]:
    found = [
        bracket("Double Knockout", DOUBLE_SESSIONS, rows),
        bracket("Single Knockout", SINGLE_SESSIONS, rows),
    ]
    return [b for b in found if b is not None]


def exact(value: Fraction) -> str:
    """A VP score for people: whole, two decimals, or a fraction when it is not a decimal."""
    if value.denominator == 1:
        return str(value.numerator)
    hundredths = value * 100
    if hundredths.denominator == 1:
        whole, cents = divmod(abs(hundredths.numerator), 100)
        sign = "-" if value < 0 else ""
        return f"{sign}{whole}.{cents:02d}"
    return str(value)


def session_context(event: Event, code: str) -> dict[str, object]:
    """A session page: its ceremony, the ranking with names, its matches."""
    rows = selectors.match_rows(event)
    ceremony = selectors.choice_view(event, code, rows)
    names = {t.team_no: t.name for t in selectors.teams_of(event)}
    context: dict[str, object] = {
        "ceremony": ceremony,
        "ranking": [(r, names.get(r.team_no, "?")) for r in ceremony.entrants.ranking],
        "matches": [r for r in rows if r.session == code],
    }
    if code == "2a":
        context["groups"] = selectors.pools(rows, "2a", event.lots_seed)
        context["whist"] = whist_context(event, rows, names)
    return context


def whist_context(
    event: Event, rows: Sequence[TeamMatch], names: dict[int, str]
) -> dict[str, object] | None:
    """The American Whist group of a 25-team entry (3.2.4.1): its table in rank order once
    complete (VPs, matches won, net IMPs), its matches and any playoff asked for."""
    scoring = selectors.whist_scoring(event)
    group = selectors.whist_group(rows, event.lots_seed, scoring)
    if group is None:
        return None
    table = _whist_table(group, selectors.whist_lines(group, scoring), names)
    card = _whist_card(group, names)
    used = table_boards(scoring.scale, scoring.boards)
    return {"group": group, "table": table, "scoring": scoring, "card": card, "used": used}


def _whist_table(
    group: selectors.PoolTable, lines: dict[int, WhistLine], names: dict[int, str]
) -> list[dict[str, object]]:
    """The whist table's lines, in rank order once the group is complete (its winner to
    session 3a, the others to the Swiss), by VPs so far before."""
    order = group.order or tuple(sorted(lines, key=lambda t: (-lines[t].vps, t)))
    decided = {p.team_no: p.decided_by for p in group.places}
    return [
        {
            "place": index + 1 if group.complete else None,
            "team_no": team,
            "name": names.get(team, "?"),
            "vps": exact(lines[team].vps),
            "wins": exact(lines[team].wins),
            "net_imps": lines[team].net_imps,
            "decided_by": decided.get(team) or "",
            "to": ("session 3a" if index == 0 else "Swiss") if group.complete else "",
        }
        for index, team in enumerate(order)
    ]


def _whist_card(group: selectors.PoolTable, names: dict[int, str]) -> list[dict[str, object]]:
    """The movement card: for each of the five tables, who sits North-South and East-West in
    each round, and which boards they play."""
    movement = draw_engine.whist_movement(group.teams)
    return [
        {
            "table": number,
            "seats": [
                {
                    "ns": f"{t.ns_team}. {names.get(t.ns_team, '?')}",
                    "ew": f"{t.ew_team}. {names.get(t.ew_team, '?')}",
                    "boards": f"{t.boards[0]}–{t.boards[1]}",
                }
                for t in sorted(movement, key=lambda t: t.round)
                if t.table == number
            ],
        }
        for number in range(1, 6)
    ]


def qualification_context(view: selectors.QualificationList) -> dict[str, object]:
    """The qualification page: (team number, name) lists."""

    def named(teams: Sequence[int]) -> list[tuple[int, str]]:
        return [(t, view.names.get(t, "?")) for t in teams]

    return {
        "qualification": view,
        "national": named(view.result.national if view.result else ()),
        "metropolitan": named(view.result.metropolitan if view.result else ()),
        "order": named(view.final.order if view.final else ()),
    }
