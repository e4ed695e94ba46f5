"""What the playoff pages show, computed from a loaded overview: stage tables with names, the
game rows with their versions, and the Armageddon knock-out bracket (seed 000 2.4–2.5) as
coordinates for an inline SVG. No queries here."""

from __future__ import annotations

from dataclasses import dataclass, field

from playoffs import rules
from playoffs.output import PAIRING_SOURCES, STAGE_TITLES, stage_citation, start_text
from playoffs.selectors import PlayoffOverview


@dataclass(frozen=True)
class GameView:
    stage: int
    number: int
    round: int
    element_id: str
    white: int | None
    black: int | None
    white_name: str
    black_name: str
    players: tuple[int, int]
    player_names: tuple[str, str]
    result: str
    version: int
    colours_pending: bool
    armageddon: bool
    toss_winner: int | None  # the lot's or the recorded toss winner
    toss_source: str
    toss_choice: str | None
    winner: int | None  # Armageddon: a draw is a win for Black (2.5.2)


@dataclass(frozen=True)
class StageView:
    number: int
    kind: str
    title: str
    clause: str
    citation: str  # the clause with its document's name
    time_control: str
    pairing_source: str
    pairing_numbers: list[tuple[int, str]]
    byes: list[str]
    games: list[GameView]
    scores: list[tuple[str, str]]
    complete: bool


@dataclass(frozen=True)
class BracketEntry:
    """One box of a bracket drawing (``templates/_bracket.html``): its lines are (text, bold),
    bold for whoever goes through; ``dashed`` for a bye or an undecided match, ``shaded`` for a
    bye. The one bracket shape of the project: playoffs and formats/gnot both draw with it."""

    x: int
    y: int
    height: int
    lines: list[tuple[str, bool]]
    dashed: bool = False
    shaded: bool = False
    width: int = 230


@dataclass(frozen=True)
class BracketColumn:
    x: int
    title: str
    entries: list[BracketEntry] = field(default_factory=list)


@dataclass(frozen=True)
class Bracket:
    title: str
    width: int
    height: int
    columns: list[BracketColumn]
    font_size: int = 13


def name_of(overview: PlayoffOverview, start_no: int | None) -> str:
    if start_no is None:
        return "?"
    return f"{start_no}. {overview.names.get(start_no, '?')}"


def _game_view(overview: PlayoffOverview, stage: rules.Stage, game: rules.PlayoffGame) -> GameView:
    armageddon = stage.kind == "armageddon"
    winner = None
    if armageddon and game.result is not None:
        winner = rules.armageddon_winner(game)
    toss = game.toss
    return GameView(
        stage=stage.number,
        number=game.number,
        round=game.round,
        element_id=f"playoff-game-{stage.number}-{game.number}",
        white=game.white,
        black=game.black,
        white_name=name_of(overview, game.white),
        black_name=name_of(overview, game.black),
        players=game.players,
        player_names=(name_of(overview, game.players[0]), name_of(overview, game.players[1])),
        result=game.result or "",
        version=overview.versions.get((stage.number, game.number), 1),
        colours_pending=game.colours_pending,
        armageddon=armageddon,
        toss_winner=toss.winner if toss else None,
        toss_source=toss.source if toss else "",
        toss_choice=toss.choice if toss else None,
        winner=winner,
    )


def stage_views(overview: PlayoffOverview) -> list[StageView]:
    if overview.plan is None:
        return []
    views = []
    for stage in overview.plan.stages:
        views.append(
            StageView(
                number=stage.number,
                kind=stage.kind,
                title=STAGE_TITLES.get(stage.kind, stage.kind),
                clause=stage.clause,
                citation=stage_citation(overview, stage),
                time_control=stage.time_control.label if stage.time_control else "",
                pairing_source=PAIRING_SOURCES.get(stage.pairing_source, stage.pairing_source),
                pairing_numbers=[(no, name_of(overview, s)) for no, s in stage.pairing_numbers],
                byes=[name_of(overview, p) for p in stage.byes],
                games=[_game_view(overview, stage, game) for game in stage.games],
                scores=[]
                if stage.kind == "armageddon"
                else [(name_of(overview, p), str(points)) for p, points in stage.scores()],
                complete=stage.complete,
            )
        )
    return views


def game_view(overview: PlayoffOverview, stage_no: int, game_no: int) -> GameView | None:
    for stage in stage_views(overview):
        for game in stage.games:
            if (stage.number, game.number) == (stage_no, game_no):
                return game
    return None


def still_tied(overview: PlayoffOverview) -> list[tuple[int, str]]:
    """The players the chief arbiter orders (3.5): the top score of the last round robin."""
    plan = overview.plan
    if plan is None or not plan.stages:
        return []
    scores = dict(plan.stages[-1].scores())
    best = max(scores.values())
    return [(p, name_of(overview, p)) for p in plan.stages[-1].players if scores[p] == best]


STATUS_LABELS = {
    "none": "no playoff",
    "scheduled": "scheduled",
    "in_progress": "in progress",
    "decided": "decided",
    "arbiter_decides": "the chief arbiter decides",
}
COLUMN_WIDTH = 230
COLUMN_GAP = 30
GAME_HEIGHT = 48
BYE_HEIGHT = 28
ROW_GAP = 12
TOP = 30


def _game_entry(overview: PlayoffOverview, game: GameView, x: int, y: int) -> BracketEntry:
    if game.colours_pending:
        lines = [(f"{name} ?", False) for name in game.player_names]
    else:
        result = game.result or "–"
        lines = [
            (f"♔ {game.white_name}", game.winner == game.white),
            (f"♚ {game.black_name}   {result}", game.winner == game.black),
        ]
    return BracketEntry(x, y, GAME_HEIGHT, lines)


def bracket(overview: PlayoffOverview) -> Bracket | None:
    """The Armageddon knock-out, one column per round (2.4), byes shown (2.4.1), then the
    winner. None when the plan has no Armageddon round."""
    plan = overview.plan
    stages = [s for s in stage_views(overview) if s.kind == "armageddon"]
    if plan is None or not stages:
        return None
    columns, height = [], 0
    for index, stage in enumerate(stages):
        x = index * (COLUMN_WIDTH + COLUMN_GAP)
        column = BracketColumn(x, f"Armageddon round {index + 1}")
        y = TOP
        for game in stage.games:
            column.entries.append(_game_entry(overview, game, x, y))
            y += GAME_HEIGHT + ROW_GAP
        for name in stage.byes:
            bye = BracketEntry(
                x, y, BYE_HEIGHT, [(f"{name} · bye", True)], dashed=True, shaded=True
            )
            column.entries.append(bye)
            y += BYE_HEIGHT + ROW_GAP
        columns.append(column)
        height = max(height, y)
    if plan.winner is not None:
        x = len(columns) * (COLUMN_WIDTH + COLUMN_GAP)
        winner = BracketEntry(x, TOP, BYE_HEIGHT, [(name_of(overview, plan.winner), True)])
        columns.append(BracketColumn(x, "Winner", [winner]))
    width = len(columns) * (COLUMN_WIDTH + COLUMN_GAP) - COLUMN_GAP
    return Bracket(title="Armageddon", width=width, height=height, columns=columns)


def page_context(overview: PlayoffOverview) -> dict[str, object]:
    """The context both playoff pages share."""
    return {
        "event": overview.event,
        "overview": overview,
        "status_label": STATUS_LABELS.get(overview.plan.status, "") if overview.plan else "",
        "still_tied": still_tied(overview),
        "plan": overview.plan,
        "stages": stage_views(overview),
        "bracket": bracket(overview),
        "start": start_text(overview),
        "tied_names": [name_of(overview, p) for p in overview.tied],
        "confirmed_names": [name_of(overview, p) for p in overview.state.tied]
        if overview.state
        else [],
        "winner_name": name_of(overview, overview.plan.winner)
        if overview.plan and overview.plan.winner
        else "",
        "order_names": [
            [name_of(overview, p) for p in group] for group in overview.plan.order_groups
        ]
        if overview.plan
        else [],
    }
