"""The playoff as JSON (design.md §4) and as a human-readable schedule, for the ``playoff``
command. Works on a loaded :class:`~playoffs.selectors.PlayoffOverview`; no queries here."""

from __future__ import annotations

from typing import Any

from playoffs import rules
from playoffs.selectors import PlayoffOverview

STAGE_TITLES = {
    "rapid_match": "Rapid mini-match",
    "rapid_round_robin": "Rapid round robin",
    "blitz_round_robin": "Blitz round robin",
    "blitz_match": "Blitz mini-match",
    "armageddon": "Armageddon",
    "extra_game": "Extra game",
    "extra_round": "Extra round",
}
PAIRING_SOURCES = {
    "lot": "pairing numbers by lot",
    "reversed": "same pairing numbers, colours reversed (3.6)",
    "fresh_lot": "fresh draw of pairing numbers (3.7)",
    "coin_toss": "byes and pairings by lot, colours by coin toss (2.4.1, 2.5.3)",
    "ranking": "colours by ranking",
}


def stage_citation(overview: PlayoffOverview, stage: rules.Stage) -> str:
    """The stage's clause with the name of the rule's document ("GCT 2019 Tiebreak Regulations
    2.3, 2.3.2", "Cohen Chess rules, Final Four rule 3 (slot four); colour rule 3")."""
    assert overview.plan is not None
    return rules.cite_clause(overview.plan.regulation, stage.clause)


def start_text(overview: PlayoffOverview) -> str:
    """When the playoff starts: the confirmed start, else what the clause says."""
    state = overview.state
    if state is not None:
        when = state.not_before.strftime("%Y-%m-%d %H:%M %Z") if state.not_before else ""
        return f"{when or state.start_day.isoformat()} ({state.start_clause})"
    if overview.rule == rules.GCT_RAPID_BLITZ:
        return "the same day, thirty minutes after the end of the last game (2.2)"
    if overview.rule == rules.GCT_CLASSICAL:
        return "the reserve day after the last scheduled round (3.2)"
    return "after the last round"


def to_json(overview: PlayoffOverview) -> dict[str, Any]:
    """design.md §4's keys first (exactly), then extensions: the engine's extended keys, the
    confirmation and the start."""
    document: dict[str, Any] = {"event": overview.event.slug}
    if overview.plan is None:
        document.update(status="none", tied=[], winner=None, order=[], stages=[])
        return document
    document.update(rules.to_json(overview.plan, extended=True))
    state = overview.state
    document["confirmation"] = (
        None
        if state is None
        else {
            "tied": list(state.tied),
            "confirmed_at": state.confirmed_at.isoformat(),
            "confirmed_by": state.confirmed_by.get_username() if state.confirmed_by else None,
            "current": not overview.stale,
        }
    )
    document["start"] = (
        None
        if state is None
        else {
            "day": state.start_day.isoformat(),
            "not_before": state.not_before.isoformat() if state.not_before else None,
            "clause": state.start_clause,
        }
    )
    return document


def _name(overview: PlayoffOverview, start_no: int | None) -> str:
    if start_no is None:
        return "?"
    return f"{start_no}. {overview.names.get(start_no, '?')}"


def _game_line(overview: PlayoffOverview, stage: rules.Stage, game: rules.PlayoffGame) -> str:
    result = game.result or "not played"
    if game.colours_pending:
        pair = " v ".join(_name(overview, p) for p in game.players)
        toss = game.toss
        detail = f"toss won by {toss.winner} ({toss.source})" if toss else "toss pending"
        return f"    game {game.number}: {pair}, colours pending: {detail}"
    where = f"round {game.round}, " if stage.kind != "armageddon" else ""
    white, black = _name(overview, game.white), _name(overview, game.black)
    return f"    {where}game {game.number}: {white} – {black}  {result}"


def _stage_lines(overview: PlayoffOverview, stage: rules.Stage) -> list[str]:
    control = stage.time_control.label if stage.time_control else "the event's time control"
    lines = [
        f"Stage {stage.number}: {STAGE_TITLES.get(stage.kind, stage.kind)} · {control} · "
        f"{stage_citation(overview, stage)}",
        f"    {PAIRING_SOURCES.get(stage.pairing_source, stage.pairing_source)}",
    ]
    if stage.pairing_numbers:
        numbers = ", ".join(f"{no} = {_name(overview, s)}" for no, s in stage.pairing_numbers)
        lines.append(f"    pairing numbers: {numbers}")
    if stage.byes:
        lines.append("    byes: " + ", ".join(_name(overview, p) for p in stage.byes))
    lines += [_game_line(overview, stage, game) for game in stage.games]
    if stage.kind != "armageddon":
        scores = ", ".join(f"{_name(overview, p)} {points}" for p, points in stage.scores())
        lines.append(f"    scores: {scores}")
    return lines


def to_text(overview: PlayoffOverview) -> str:
    plan = overview.plan
    lines = [f"Playoff: {overview.event.name} ({overview.event.slug})"]
    if plan is None or plan.status == "none":
        lines.append("No playoff: " + ("no tie for first" if plan else "the regulation has none"))
        return "\n".join(lines) + "\n"
    lines += [
        f"Rule: {overview.rule_label}",
        f"Status: {plan.status}",
        "Tied for first: " + ", ".join(_name(overview, p) for p in plan.tied),
        f"Starts: {start_text(overview)}",
    ]
    if overview.state is None:
        lines.append("Not confirmed by the director yet.")
    elif overview.stale:
        lines.append(
            "WARNING: the tie changed since the director confirmed it "
            f"({', '.join(map(str, overview.state.tied))}); confirm again."
        )
    for stage in plan.stages:
        lines += ["", *_stage_lines(overview, stage)]
    lines.append("")
    if plan.status == "arbiter_decides":
        lines.append("Four round robins held: the chief arbiter decides by other means (3.5).")
    if plan.winner is not None:
        lines.append(f"Winner: {_name(overview, plan.winner)} (decided by {plan.decided_by})")
        groups = " / ".join(", ".join(map(str, group)) for group in plan.order_groups)
        lines.append(f"Order: {groups}")
    if plan.arbiter_decision is not None:
        lines.append(f"Chief arbiter's decision: {plan.arbiter_decision.reason}")
    return "\n".join(lines) + "\n"
