"""GNOT bridge teams (seed 004): undoing a match's result and marking a final spot (issue 8).

Writes (HackSoft style: keyword-only, one transaction, one audit entry, one results-version
bump; a :class:`~events.errors.UserError` leaves the database unchanged):

- :func:`match_result_undo` puts a match back as it was before an audited result
  (``gnot.result``) or playoff (``gnot.playoff``) change, as a new audited change
  (``gnot.result.undo`` / ``gnot.playoff.undo``) that the undone entry points to
  (``AuditEntry.undone_by``), like the chess ``events.services.audit_undo``.
- :func:`match_final_spot_set` marks or unmarks a match whose tie decides a spot in the
  National or Metropolitan final (the second 1.9.3: a four-board playoff, then successive
  one-board playoffs).

Reads for the match page: :func:`match_changes` (the match's audited changes, which one an
undo would take back and why it may not) and :func:`match_dependents` (what has been built on
the match's result).

Decisions (listed in docs/gnot.md):

1. **Only the latest change is undone**, and only while the match still reads what that change
   saved; undoing again walks further back. An undo is not undone in turn: the result is
   entered again (the audit log keeps both).
2. **Refused once something was built on the result**: a session it feeds has been drawn or
   its choice of opponents has started, a team of the match (of the pool, for pools and
   triangles) has entered the Swiss, a later Swiss round has been paired, a follow-up it
   scheduled (a pool playoff, a pool of four's second half) has a result, or the director let
   the Double Knockout winner play the Swiss (3.1.8). Session-level on purpose: a changed IMP
   margin already changes the ranking for choice (1.10.2–1.10.4) and the Swiss entry scores
   (1.8.3), so "the winner stays the same" is not enough.
3. **Follow-ups scheduled automatically and still unplayed are removed with the undo** and
   scheduled again from the restored result (:func:`formats.gnot.services.schedule_follow_ups`);
   the undo's audit entry names what was removed and what was scheduled. A follow-up
   scheduled again gets a new match number.
4. The result is restored (the final-spot mark is not: it is a change of its own) and decided
   again under the match's current tie rule; if that decision differs from the one recorded
   before the change (the final-spot mark changed in between), the undo is refused: change
   the mark back first.
5. **Which match an audit entry belongs to.** Entries name it (``"match"`` in ``before`` and
   ``after``). Older result and playoff entries of :mod:`formats.gnot.services`, written
   before the snapshot carried the match, are tied to a match by their summary,
   which starts with the match's label (session, stage, teams), and, when several matches
   share a label (a pool playoff between two teams of the same pool, a Swiss rematch), by
   walking the entries back from each match's current values (each entry's ``after`` must be
   the next older state). An entry that cannot be told apart this way is shown nowhere and
   cannot be undone; the result is then corrected by entering it again.
6. **Final spot.** Only matches that must have a winner can be marked (pool, triangle, whist and
   Swiss matches may be drawn). Session 5 decides the second National place and stays marked.
   Refused once playoff boards were played or the tie was decided by a rescore or lot under
   the rule in force: the outcome would change under the other rule (undo the playoff or the
   result first). A tied match still waiting for its playoff is asked for the new rule's
   playoff instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from events.errors import UserError
from events.models import AuditEntry, Event, EventSystem
from events.services import UserLike, event_changed, event_require_open
from formats.gnot import draw as draw_engine
from formats.gnot import selectors, services
from formats.gnot.models import (
    ChoiceRecord,
    GnotSetup,
    MatchKind,
    MatchStatus,
    SwissBye,
    SwissEntry,
    TeamMatch,
)

RESULT_ACTIONS = ("gnot.result", "gnot.playoff")  # written by formats.gnot.services
UNDO_ACTIONS = {"gnot.result": "gnot.result.undo", "gnot.playoff": "gnot.playoff.undo"}
FINAL_SPOT_ACTION = "gnot.final_spot"
MATCH_ACTIONS = (*RESULT_ACTIONS, *UNDO_ACTIONS.values(), FINAL_SPOT_ACTION)
# The values of formats.gnot.services._snapshot: what a result change saves.
RESULT_KEYS = ("home_imps", "away_imps", "board_nets", "playoffs", "status", "winner", "decided_by")


def _gnot(event: Event) -> None:
    if event.system != EventSystem.GNOT:
        raise UserError(f"{event.name} is not a GNOT bridge teams event")


def match_state(row: TeamMatch) -> dict[str, Any]:
    """What the audit entries keep of a match: ``gnot_services._snapshot`` (the result values,
    the match's id and its final-spot mark)."""
    return services._snapshot(row)


def _same(saved: Any, state: Any) -> bool:
    """Do two stored states agree on the result? The final-spot mark is a change of its own
    (``gnot.final_spot``); an undo across a changed mark is caught when the restored result is
    decided again (decision 2)."""
    if not isinstance(saved, dict) or not isinstance(state, dict):
        return False
    return all(saved.get(key) == state.get(key) for key in RESULT_KEYS)


def _named_match(entry: AuditEntry) -> int | None:
    for values in (entry.after, entry.before):
        if isinstance(values, dict) and type(values.get("match")) is int:
            return int(values["match"])
    return None


def _prefix(row: TeamMatch) -> str:
    return f"{services._label(row)}: "


def _entries_of(event: Event, twins: Sequence[TeamMatch]) -> list[AuditEntry]:
    """Every entry that may concern one of ``twins`` (matches sharing a label), newest first."""
    ids = [t.pk for t in twins]
    found = Q(after__match__in=ids) | Q(before__match__in=ids)
    for prefix in {_prefix(t) for t in twins}:
        found |= Q(summary__startswith=prefix)
    return list(
        AuditEntry.objects.filter(event=event, action__in=MATCH_ACTIONS)
        .filter(found)
        .select_related("user", "undone_by")
        .order_by("-id")
    )


def _owners(entries: Sequence[AuditEntry], twins: Sequence[TeamMatch]) -> dict[int, int]:
    """Entry id → match id (decision 5): named, the only match with its label, or the only
    twin whose state the entry saved.

    Walks from the newest entry back; each entry attributed to a match moves that match's
    expected state to the entry's ``before``. A label of one match needs no walk: a change
    made since without an entry (an import) then shows as "changed since", not as unknown.
    """
    expected: dict[int, Any] = {t.pk: match_state(t) for t in twins}
    owners = {}
    for entry in entries:
        owner = _named_match(entry)
        if owner is None:
            fits = [
                pk
                for pk, state in expected.items()
                if len(expected) == 1 or _same(entry.after, state)
            ]
            owner = fits[0] if len(fits) == 1 else None
        if owner in expected:
            owners[entry.pk] = owner
            expected[owner] = entry.before
    return owners


def _twins(row: TeamMatch, rows: Sequence[TeamMatch]) -> list[TeamMatch]:
    label = services._label(row)
    return [r for r in rows if r.pk == row.pk or services._label(r) == label]


def match_history(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> list[AuditEntry]:
    """The audited changes of one match, newest first."""
    twins = _twins(row, rows)
    entries = _entries_of(event, twins)
    owners = _owners(entries, twins)
    return [e for e in entries if owners.get(e.pk) == row.pk]


def _longest_labelled(entry: AuditEntry, rows: Sequence[TeamMatch]) -> list[TeamMatch]:
    """The matches whose label begins the entry's summary; two labels can both fit only if a
    team name continues another, and the longer one is meant."""
    labelled = [r for r in rows if entry.summary.startswith(_prefix(r))]
    if not labelled:
        return []
    longest = max(len(_prefix(r)) for r in labelled)
    return [r for r in labelled if len(_prefix(r)) == longest]


def _entry_match(event: Event, entry: AuditEntry, rows: Sequence[TeamMatch]) -> TeamMatch | None:
    named = _named_match(entry)
    if named is not None:
        return next((r for r in rows if r.pk == named), None)
    twins = _longest_labelled(entry, rows)
    if not twins:
        return None
    owner = _owners(_entries_of(event, twins), twins).get(entry.pk)
    return next((r for r in twins if r.pk == owner), None)


def _latest_live(history: Sequence[AuditEntry]) -> AuditEntry | None:
    """The change an undo would take back: the newest result change not undone yet (undo
    entries and final-spot marks in between are not result changes)."""
    return next((e for e in history if e.action in RESULT_ACTIONS and e.undone_by_id is None), None)


# --- what depends on a result ---------------------------------------------------------------


def _describe(row: TeamMatch) -> str:
    what = "pool playoff" if row.kind == MatchKind.POOL_PLAYOFF else "second-half match"
    return f"the {what} {row.home.name} v {row.away.name} ({row.session} {row.stage})"


def _next_sessions(row: TeamMatch) -> tuple[str, ...]:
    """The sessions drawn from this match's result (formats.gnot.selectors decision 2)."""
    if row.session == "1":
        return ("2", "2a")
    if row.session == "swiss":
        return ()
    if row.session == "2a" and row.stage:
        return ("3a",)
    spec = draw_engine.SESSIONS[row.session]
    return tuple(c for c in (spec.winners_to, spec.losers_to) if c in draw_engine.SESSIONS)


def _session_dependents(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> list[str]:
    found = []
    codes = _next_sessions(row)
    started = set(
        ChoiceRecord.objects.filter(event=event, session__in=codes).values_list(
            "session", flat=True
        )
    )
    for code in codes:
        if any(r.session == code for r in rows):
            found.append(f"session {code} has been drawn")
        elif code in started:
            found.append(f"the choice of opponents for session {code} has started")
    return found


def _swiss_paired_after(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> bool:
    """A later Swiss round has been paired: its matches, entries or bye exist."""
    return (
        any(r.session == "swiss" and r.round > row.round for r in rows)
        or SwissEntry.objects.filter(event=event, round__gt=row.round).exists()
        or SwissBye.objects.filter(event=event, round__gt=row.round).exists()
    )


def _placed_teams(row: TeamMatch, rows: Sequence[TeamMatch]) -> set[int]:
    """The teams the result places: the match's two, and a pool's result places all its teams."""
    teams = {row.home_id, row.away_id}
    if row.session in selectors.POOL_SESSIONS and row.stage:
        teams |= {
            t
            for r in rows
            if (r.session, r.stage) == (row.session, row.stage)
            for t in (r.home_id, r.away_id)
        }
    return teams


def _swiss_dependents(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> list[str]:
    if row.session == "swiss":
        later = _swiss_paired_after(event, row, rows)
        return [f"Swiss round {row.round + 1} has been paired"] if later else []
    teams = _placed_teams(row, rows)
    entered = SwissEntry.objects.filter(event=event, team_id__in=teams).select_related("team")
    return [f"{e.team.name} entered the Swiss in round {e.round}" for e in entered]


def _dko_option(event: Event, row: TeamMatch) -> list[str]:
    setup = GnotSetup.objects.filter(event=event).first() if row.session == "4" else None
    if setup is not None and getattr(setup, "dko_winner_swiss", False):
        return ["the director let the Double Knockout winner play the Swiss (3.1.8)"]
    return []


def match_dependents(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> list[str]:
    """What has been built on this match's result (decision 2), each said for the director;
    empty when nothing has."""
    played = [
        f"{_describe(f)} has a result"
        for f in selectors.follow_ups(row, rows)
        if f.status != MatchStatus.SCHEDULED
    ]
    return [
        *played,
        *_session_dependents(event, row, rows),
        *_swiss_dependents(event, row, rows),
        *_dko_option(event, row),
    ]


@dataclass(frozen=True)
class MatchChanges:
    """A match's audited changes (newest first) for the match page."""

    history: tuple[AuditEntry, ...]
    undoable: AuditEntry | None  # the change an undo would take back
    blocked: tuple[str, ...]  # why it cannot be undone now; empty: it can
    dependents: tuple[str, ...]  # what has been built on the result
    pending: tuple[str, ...]  # unplayed follow-ups an undo would remove


def _undo_blocked(row: TeamMatch, latest: AuditEntry | None, dependents: list[str]) -> list[str]:
    if latest is None:
        return []
    if not _same(latest.after, match_state(row)):
        return [f"the match has changed since (it now reads {services._score_text(row)})"]
    return dependents


def match_changes(event: Event, row: TeamMatch, rows: Sequence[TeamMatch]) -> MatchChanges:
    row = next((r for r in rows if r.pk == row.pk), row)  # as loaded with ``rows``
    history = match_history(event, row, rows)
    latest = _latest_live(history)
    dependents = match_dependents(event, row, rows)
    pending = [
        _describe(f) for f in selectors.follow_ups(row, rows) if f.status == MatchStatus.SCHEDULED
    ]
    return MatchChanges(
        tuple(history),
        latest,
        tuple(_undo_blocked(row, latest, dependents)),
        tuple(dependents),
        tuple(pending),
    )


def match_of(event: Event, match_id: int) -> TeamMatch | None:
    return (
        TeamMatch.objects.filter(event=event, pk=match_id)
        .select_related("home", "away", "winner")
        .first()
    )


# --- undo -----------------------------------------------------------------------------------


def _undoable_entry(event: Event, entry_id: int) -> AuditEntry:
    entry = AuditEntry.objects.select_for_update().filter(pk=entry_id, event=event).first()
    if entry is None:
        raise UserError("that audit entry does not exist")
    if entry.action in UNDO_ACTIONS.values():
        raise UserError("an undo is not undone in turn: enter the result again")
    if entry.action == FINAL_SPOT_ACTION:
        raise UserError("a final-spot mark is changed back with its own button")
    if entry.action not in RESULT_ACTIONS:
        raise UserError("only match results and playoff boards can be undone here")
    if entry.undone_by_id is not None:
        raise UserError("this change has already been undone")
    return entry


def _locked_match(event: Event, entry: AuditEntry, match_id: int | None) -> TeamMatch:
    row = _entry_match(event, entry, selectors.match_rows(event))
    if row is None:
        raise UserError(
            "this change cannot be tied to one match any more (an older entry of two matches "
            "between the same teams); correct the result by entering it again"
        )
    if match_id is not None and row.pk != match_id:
        raise UserError("that change belongs to another match")
    return services._locked_row(event, row.pk, None, "undo")


def _check_undo(event: Event, entry: AuditEntry, row: TeamMatch) -> None:
    rows = selectors.match_rows(event)
    latest = _latest_live(match_history(event, row, rows))
    if latest is None or latest.pk != entry.pk:
        later = f": {latest.summary}" if latest is not None else ""
        raise UserError(f"a later change of this match must be undone first{later}")
    if not _same(entry.after, match_state(row)):
        raise UserError(
            "the match has changed since this entry; it now reads "
            f"{services._score_text(row)}: correct it by entering the result again"
        )
    dependents = match_dependents(event, row, rows)
    if dependents:
        raise UserError(
            f"{services._label(row)} cannot be undone: {'; '.join(dependents)}. Undo those "
            "first, or enter the corrected result (after an appeal, swap the two teams' "
            "positions in the next session, 1.10.7)"
        )


def _decision(state: dict[str, Any]) -> tuple[Any, Any, Any]:
    return state.get("status"), state.get("winner"), state.get("decided_by") or ""


def _restore(event: Event, row: TeamMatch, before: dict[str, Any]) -> None:
    row.home_imps, row.away_imps = before.get("home_imps"), before.get("away_imps")
    row.board_nets = list(before.get("board_nets") or [])
    row.playoffs = list(before.get("playoffs") or [])
    # The final-spot mark is not put back: it is a change of its own (gnot.final_spot).
    services.match_decide(event=event, row=row)
    now = _decision(services._snapshot(row))
    if now != _decision(before):
        raise UserError(
            f"{services._label(row)}: put back, this result would now be decided "
            f"{_decision_text(now)} (tie rule {selectors.tie_rule(row)}), not "
            f"{_decision_text(_decision(before))} as when it was entered: change the "
            "final-spot mark back first"
        )


def _decision_text(decision: tuple[Any, Any, Any]) -> str:
    status, winner, decided_by = decision
    if status == MatchStatus.DECIDED:
        return f"for team {winner} by {decided_by}"
    return f"as {MatchStatus(status).label.lower()}" if status in MatchStatus.values else "?"


def _follow_up_key(row: TeamMatch) -> tuple[Any, ...]:
    return (row.session, row.stage, row.round, row.kind, row.home_id, row.away_id, row.boards)


def _replace_follow_ups(event: Event, row: TeamMatch, pending: list[TeamMatch]) -> dict[str, Any]:
    """Decision 3: remove the unplayed follow-ups, schedule what the restored result needs."""
    removed = {_follow_up_key(f): _describe(f) for f in pending}
    TeamMatch.objects.filter(pk__in=[f.pk for f in pending]).delete()  # slots cascade
    services.schedule_follow_ups(event=event)
    now = selectors.follow_ups(row, selectors.match_rows(event))
    scheduled = {_follow_up_key(f): _describe(f) for f in now}
    return {
        "removed": [text for key, text in removed.items() if key not in scheduled],
        "scheduled": [text for key, text in scheduled.items() if key not in removed],
    }


@transaction.atomic
def match_result_undo(
    *, event: Event, entry_id: int, user: UserLike, match_id: int | None = None
) -> AuditEntry:
    """Undo an audited match result or playoff change (``gnot.result``, ``gnot.playoff``):
    the match gets back the values it had before, decided again under 1.9; the undo is a new
    audited change. ``match_id`` (optional) is the match the user is looking at.

    Refused (nothing changes) when the entry is not the match's latest change, the match has
    changed since, or anything has been built on the result (module decisions 1–4).
    """
    event_require_open(event)
    _gnot(event)
    entry = _undoable_entry(event, entry_id)
    row = _locked_match(event, entry, match_id)
    _check_undo(event, entry, row)
    before = match_state(row)
    pending = selectors.follow_ups(row, selectors.match_rows(event))
    _restore(event, row, entry.before if isinstance(entry.before, dict) else {})
    row.version += 1
    row.save()
    changed = _replace_follow_ups(event, row, pending)
    summary = f"Undid: {entry.summary}"
    if changed["removed"]:
        summary += f"; removed {', '.join(changed['removed'])}"
    undo = event_changed(
        event=event,
        user=user,
        action=UNDO_ACTIONS[entry.action],
        summary=summary,
        before=before,
        after={**match_state(row), "undoes": entry.pk, "follow_ups": changed},
    )
    entry.undone_by = undo
    entry.save(update_fields=["undone_by"])
    return undo


# --- the final spot (the second 1.9.3) ------------------------------------------------------


def final_spot_refusal(row: TeamMatch, final_spot: bool) -> str:
    """Why the mark cannot be set to ``final_spot`` now (decision 6); empty if it can."""
    if not selectors.needs_winner(row):
        return (
            "a pool, triangle, whist or Swiss match may be drawn: 1.9's match tie rules do not "
            "apply to it"
        )
    if row.session == "5" and not final_spot:
        return "session 5, the Single Knockout final, decides the second National place"
    if row.playoffs:
        return f"playoff boards have been played under {selectors.tie_rule(row)}: undo them first"
    if row.status == MatchStatus.DECIDED and row.decided_by != "imps":
        return (
            f"the tie was decided by {row.decided_by} under {selectors.tie_rule(row)}: undo "
            "the result first"
        )
    return ""


@transaction.atomic
def match_final_spot_set(
    *,
    event: Event,
    match_id: int,
    final_spot: bool,
    user: UserLike,
    expected_version: int | None = None,
) -> TeamMatch:
    """Mark (or unmark) a match whose tie decides a spot in the National or Metropolitan
    final: its tie is then broken by the second 1.9.3 (a four-board playoff, then successive
    one-board playoffs). Nothing is written when the mark is already so."""
    event_require_open(event)
    _gnot(event)
    attempted = "final spot" if final_spot else "no final spot"
    row = services._locked_row(event, match_id, expected_version, attempted)
    if row.final_spot == final_spot:
        return row
    refusal = final_spot_refusal(row, final_spot)
    if refusal:
        raise UserError(f"{services._label(row)}: {refusal}")
    before = match_state(row)
    row.final_spot = final_spot
    services.match_decide(event=event, row=row)  # a tie waiting for its playoff: the new size
    row.version += 1
    row.save()
    services.schedule_follow_ups(event=event)
    what = (
        "marked as deciding a spot in the National or Metropolitan final"
        if final_spot
        else "no longer marked as deciding a final spot"
    )
    summary = f"{services._label(row)}: {what}; ties broken under {selectors.tie_rule(row)}"
    if row.status == MatchStatus.PLAYOFF_NEEDED:
        summary += f" (a {row.playoff_boards}-board playoff is needed)"
    event_changed(
        event=event,
        user=user,
        action=FINAL_SPOT_ACTION,
        summary=summary,
        before=before,
        after=match_state(row),
    )
    return row
