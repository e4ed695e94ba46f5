"""``pair``, ``standings`` and ``export_trf`` on a team Swiss (issue #22, design brief §4),
end to end: every round, ``pair --dry-run`` from the database equals gacrux's pairing of the
TRF-2026 team file ``export_trf`` writes from the same database; the round paired for real
equals the dry run; after the last round, ``standings --format json`` equals gacrux's
tie-break checker on the exported file."""

from __future__ import annotations

import io
import json
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command

from events.models import Round
from formats.teams import services
from formats.teams.models import TeamMatch
from tests.formats.teams.pairing.oracle import started
from tests.formats.teams.test_services import team_event
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle

pytestmark = pytest.mark.django_db(transaction=True)

RESULTS = ("1-0", "1-0", "0-1", "0-1", "1/2-1/2", "+/-", "-/+")


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _play(event, director, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Results for the round just published: board forfeits, now and then a forfeited match."""
    number = Round.objects.filter(event=event).count()
    for match in TeamMatch.objects.filter(round__event=event, round__number=number):
        forfeit = rng.choice(("+-", "-+")) if rng.randrange(12) == 0 else ""
        results = {b: rng.choice(RESULTS) for b in range(1, 4)}
        results[1] = rng.choice(RESULTS[:5])  # a board played: the match is played
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results=results,
            forfeit=forfeit,
            expected_version=match.version,
            user=director,
        )


def test_pair_and_standings_equal_gacrux_on_the_exported_file(director, tmp_path) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=9, boards=3)
    services.team_bye_request(event=event, team_no=4, round_no=3, kind="half", user=director)
    gacrux = started(tmp_path)
    rng = random.Random(22)
    try:
        for number in range(1, 6):
            dry = json.loads(_run("pair", event.slug, "--dry-run", "--format", "json"))
            assert set(dry) == {"event", "round", "matches", "byes", "notes"}
            assert dry["round"] == number
            answer = gacrux.pair(_run("export_trf", event.slug), number, "fideteam-typea-mp+gp")
            ours = tuple((m["white"], m["black"]) for m in dry["matches"])
            assert sorted(ours) == sorted(answer.matches), f"round {number}"
            pairing_bye = [b["team"] for b in dry["byes"] if b["kind"] == "pairing"]
            assert pairing_bye == ([answer.bye] if answer.bye else [])
            stored = json.loads(_run("pair", event.slug, "--format", "json"))
            assert stored["matches"] == dry["matches"]
            assert sorted(map(tuple, (b.values() for b in stored["byes"]))) == sorted(
                map(tuple, (b.values() for b in dry["byes"]))
            )
            _play(event, director, rng)
    finally:
        gacrux.close()
    codes = ("MP", "GP", "BH:MP")
    table = json.loads(
        _run("standings", event.slug, "--format", "json", "--tiebreaks", ",".join(codes))
    )
    assert table["tiebreaks"] == list(codes) and table["after_round"] == 5
    oracle = TiebreakOracle(tmp_path)
    try:
        expected = oracle.tiebreaks(_run("export_trf", event.slug), 5, codes)
    finally:
        oracle.close()
    for row in table["rows"]:
        values = tuple(Fraction(row["tiebreaks"][code]) for code in codes)
        assert values == expected[row["team_no"]], f"team {row['team_no']}"
        assert Fraction(row["points"]) == values[0]


def test_pair_refuses_in_one_line_and_changes_nothing(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=2, boards=2)
    _run("pair", event.slug, "--format", "json")
    with pytest.raises(CommandError, match="without a complete result"):
        _run("pair", event.slug, "--format", "json")
    assert Round.objects.filter(event=event).count() == 1


def test_import_trf_reads_the_exported_team_file(director, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """export_trf → import_trf → the same standings and the same next pairing."""
    event = team_event(director, teams=7, boards=3)
    rng = random.Random(7)
    for _ in range(3):
        _run("pair", event.slug, "--format", "json")
        _play(event, director, rng)
    # record 299: a penalty counted from round 2, and a final-standings-only correction
    services.team_adjustment_add(
        event=event, team_no=2, round_no=2, match_points=Decimal(-1),
        game_points=Decimal("-0.5"), reason="late line-up", user=director,
    )  # fmt: skip
    services.team_adjustment_add(
        event=event, team_no=5, round_no=1, match_points=Decimal(0),
        game_points=Decimal("0.5"), standings_only=True, reason="appeal", user=director,
    )  # fmt: skip
    path = tmp_path / "cup.trf"
    path.write_text(_run("export_trf", event.slug), encoding="latin-1")
    assert sum(line.startswith("299") for line in path.read_text("latin-1").splitlines()) == 2
    slug = _run("import_trf", str(path), "--slug", "cup-copy").strip().splitlines()[-1]
    assert slug == "cup-copy"
    codes = "MP,GP,BH:MP,EDE"

    def standings(s: str) -> dict:  # type: ignore[type-arg]
        document = json.loads(_run("standings", s, "--format", "json", "--tiebreaks", codes))
        return {k: v for k, v in document.items() if k != "event"}

    assert standings("cup-copy") == standings(event.slug)
    dry = json.loads(_run("pair", "cup-copy", "--dry-run", "--format", "json"))
    assert (
        dry["matches"]
        == json.loads(_run("pair", event.slug, "--dry-run", "--format", "json"))["matches"]
    )
    assert _run("export_trf", "cup-copy") == _run("export_trf", event.slug)


def test_import_trf_refuses_a_broken_team_file(director, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from events.models import Event

    event = team_event(director, teams=3, boards=2)
    text = _run("export_trf", event.slug).replace("310   1", "310 abc", 1)
    path = tmp_path / "bad.trf"
    path.write_text(text, encoding="latin-1")
    count = Event.objects.count()
    with pytest.raises(CommandError):
        _run("import_trf", str(path), "--slug", "bad-copy")
    assert Event.objects.count() == count
