"""A norm event for the page tests: a 10-player round robin whose player 1 (NOR) meets the
field of ``test_norms.GM_FIELD`` (three GMs, three IMs, two FMs; five federations) and scores 7
of 9: a GM and an IM norm (Ra 2392, Rp 2612). The other games are draws. Written as TRF with
its tournament records (the chief arbiter with a FIDE id, the host federation) and imported
as an organiser does, so the pages are tested on what ``import_trf`` makes."""

from __future__ import annotations

import datetime as dt
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from events.models import Event
from events.records import Crosstable, Entrant, RoundResult
from events.services import PairingInput, round_pairings_set
from events.trf import TournamentRecords, write_trf
from tests.fiderating.test_norms import GM_FIELD
from tests.standings.generate import berger_rounds

START = dt.date(2026, 4, 4)
CHIEF_ARBITER = "IA Arne Arbiter 1500000"


def _codes(white: int, black: int) -> tuple[str, str]:
    if 1 not in (white, black):
        return "=", "="
    opponent = black if white == 1 else white
    code = GM_FIELD[opponent - 2][3]
    theirs = {"1": "0", "=": "=", "0": "1"}[code]
    return (code, theirs) if white == 1 else (theirs, code)


def norm_crosstable(played: int) -> Crosstable:
    schedule = berger_rounds(10)
    results: dict[int, list[RoundResult]] = {n: [] for n in range(1, 11)}
    for number, pairs in enumerate(schedule[:played], start=1):
        for white, black in pairs:
            code_w, code_b = _codes(white, black)
            results[white].append(RoundResult(number, black, "w", code_w))
            results[black].append(RoundResult(number, white, "b", code_b))
    seeker = Entrant(1, "Seeker, Nora", 2450, "NOR", fide_id="1503014", sex="m")
    entrants = [replace_results(seeker, results[1])]
    for start_no in range(2, 11):
        rating, title, federation, _ = GM_FIELD[start_no - 2]
        opponent = Entrant(
            start_no,
            f"Opponent, {title or 'Untitled'} {start_no}",
            rating,
            federation,
            fide_id=str(1600000 + start_no),
            title=title,
            sex="m",
        )
        entrants.append(replace_results(opponent, results[start_no]))
    return Crosstable("Norm Invitational", played, tuple(entrants), START, round_robin=True)


def replace_results(entrant: Entrant, results: list[RoundResult]) -> Entrant:
    from dataclasses import replace

    return replace(entrant, results=tuple(results))


def norm_event(
    tmp_path: Path, *, played: int = 9, slug: str = "norm-rr", arbiter: str = CHIEF_ARBITER
) -> Event:
    """The event imported from TRF; with ``played`` below 9, round ``played + 1`` is paired
    (published, no result) as the Berger table says."""
    text = write_trf(
        norm_crosstable(played),
        site="Oslo",
        federation="NOR",
        end_date=START + dt.timedelta(days=8),
        scheduled_rounds=9,
        records=TournamentRecords(
            chief_arbiter=arbiter,
            rate_of_play="90'/40+30'+30\"",
            round_dates=tuple(START + dt.timedelta(days=n) for n in range(9)),
        ),
    )
    path = tmp_path / f"{slug}.trf"
    path.write_text(text)
    call_command("import_trf", str(path), "--slug", slug, stdout=StringIO(), stderr=StringIO())
    event = Event.objects.get(slug=slug)
    if played < 9:
        pairs = berger_rounds(10)[played]
        round_pairings_set(
            event=event,
            round_no=played + 1,
            pairings=[PairingInput(board, w, b) for board, (w, b) in enumerate(pairs, start=1)],
            user=None,
        )
        event.refresh_from_db()
    return event
