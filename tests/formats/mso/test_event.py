"""MSO multi-player games in the product (formats/mso/services.py,
formats/mso/selectors.py, formats/mso/views.py): seating, result entry with
every seat's score in one go, the standings command and page (seed 003 multi-player rules 1–5,
clarifications 1–2)."""

from __future__ import annotations

import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from events.errors import ResultConflict, UserError
from events.forms import EventForm
from events.models import AuditEntry, Event
from events.services import ByeInput, access_grant, audit_undo, event_update
from formats.mso.models import MultiGame, MultiGameScore
from formats.mso.presets import MSO_POINTS_TABLE
from formats.mso.rules import MultiEvent, MultiPlayer, PointsTable, rank_multiplayer
from formats.mso.rules import MultiGame as GameRecord
from formats.mso.selectors import multi_last_complete_round, multi_standings
from formats.mso.services import (
    TableInput,
    multi_game_scores_record,
    multi_round_tables_set,
)
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

# Two rounds of two tables of four (8 players), scores as a game would give them.
ROUNDS = {
    1: [((1, 2, 3, 4), ("10", "7", "7", "2")), ((5, 6, 7, 8), ("12", "3", "9", "9"))],
    2: [((1, 5, 7, 3), ("8", "11", "4", "6")), ((2, 6, 4, 8), ("5", "5", "10", "1.5"))],
}


def mso_event(director, players: int = 8, rounds: int = 2) -> Event:  # type: ignore[no-untyped-def]
    return make_event(
        director,
        name="MSO Tables",
        rounds=rounds,
        players=players,
        system="swiss",
        preset="mso-2021-multi-player",
    )


def seat(event: Event, director, round_no: int, byes=()) -> list[MultiGame]:  # type: ignore[no-untyped-def]
    tables = [TableInput(board, players) for board, (players, _) in enumerate(ROUNDS[round_no], 1)]
    multi_round_tables_set(event=event, round_no=round_no, tables=tables, byes=byes, user=director)
    return list(MultiGame.objects.filter(round__event=event, round__number=round_no))


def record_table(event: Event, game: MultiGame, players, scores, user) -> MultiGame:  # type: ignore[no-untyped-def]
    """Every seat's score of one table, the seats in ``players``' order."""
    return multi_game_scores_record(
        event=event,
        game_id=game.pk,
        scores=list(zip(players, scores, strict=True)),
        expected_version=None,
        user=user,
    )


def play(event: Event, director) -> None:  # type: ignore[no-untyped-def]
    for round_no, tables in ROUNDS.items():
        games = seat(event, director, round_no)
        for game, (players, scores) in zip(games, tables, strict=True):
            record_table(event, game, players, scores, director)


def engine_event() -> MultiEvent:
    games = tuple(
        GameRecord(round_no, board, tuple((p, Fraction(s)) for p, s in zip(ps, ss, strict=True)))
        for round_no, tables in ROUNDS.items()
        for board, (ps, ss) in enumerate(tables, start=1)
    )
    return MultiEvent(
        "MSO Tables",
        tuple(MultiPlayer(n, f"Player {n}") for n in range(1, 9)),
        games,
        PointsTable(MSO_POINTS_TABLE),
    )


def test_standings_match_the_engine_and_the_command_keys_are_exact(director) -> None:
    """seed003 multi-player rules 1–5: the product ranks exactly as rank_multiplayer does."""
    event = mso_event(director)
    play(event, director)
    assert multi_last_complete_round(event) == 2
    expected = rank_multiplayer(engine_event())
    table = multi_standings(event)
    assert [(r.start_no, r.rank, r.points, r.decided_by) for r in table.rows] == [
        (r.start_no, r.rank, r.points, r.decided_by) for r in expected
    ]
    out = StringIO()
    call_command("standings", event.slug, "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert set(data) == {"event", "after_round", "tiebreaks", "rows"}
    assert data["after_round"] == 2
    assert data["tiebreaks"][:4] == ["LRB", "LRR", "PBO", "WON"]
    assert set(data["rows"][0]) == {
        "rank",
        "shared",
        "start_no",
        "name",
        "points",
        "tiebreaks",
        "decided_by",
    }
    assert data["rows"][0]["start_no"] == expected[0].start_no
    assert data["rows"][0]["points"] == str(expected[0].points)
    csv_text = StringIO()
    call_command("standings", event.slug, "--format", "csv", "--after-round", "1", stdout=csv_text)
    assert csv_text.getvalue().startswith("rank,shared,start_no,name,points,LRB")
    text = StringIO()
    call_command("standings", event.slug, "--tiebreaks", "PBO,WON", stdout=text)
    assert "PBO" in text.getvalue() and "LRB" not in text.getvalue()


def test_unknown_multi_player_code_is_a_command_error(director) -> None:
    from django.core.management.base import CommandError

    event = mso_event(director)
    with pytest.raises(CommandError, match="unknown multi-player tie-break code"):
        call_command("standings", event.slug, "--tiebreaks", "SB", stdout=StringIO())


def test_byes_count_and_half_scored_rounds_are_not_complete(director) -> None:
    event = mso_event(director, players=9)
    games = seat(event, director, 1, byes=[ByeInput(start_no=9, kind="zero")])
    assert multi_last_complete_round(event) == 0
    players, scores = ROUNDS[1][0]
    multi_game_scores_record(
        event=event,
        game_id=games[0].pk,
        scores=list(zip(players, scores, strict=True)),
        expected_version=None,
        user=director,
    )
    assert multi_last_complete_round(event) == 0  # table 2 has no scores yet
    assert multi_standings(event, after_round=1).rows  # ranks on the complete tables


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        pytest.param([(1, "10"), (2, "7"), (3, "7")], "player 4 has no score", id="missing-seat"),
        pytest.param([(1, "10"), (2, "7"), (3, "7"), (4, "")], "player 4 has no score", id="blank"),
        pytest.param(
            [(1, "10"), (1, "7"), (3, "7"), (4, "2")], "listed twice", id="duplicate-player"
        ),
        pytest.param([(1, "10"), (2, "seven"), (3, "7"), (4, "2")], "not a number", id="text"),
        pytest.param([(1, "10"), (2, "7"), (3, "7"), (5, "2")], "does not sit", id="stranger"),
        pytest.param([(1, "nan"), (2, "7"), (3, "7"), (4, "2")], "not a game score", id="nan"),
    ],
)
def test_score_entry_is_validated_and_nothing_is_saved(director, scores, message) -> None:
    event = mso_event(director)
    game = seat(event, director, 1)[0]
    with pytest.raises(UserError, match=message):
        multi_game_scores_record(
            event=event, game_id=game.pk, scores=scores, expected_version=1, user=director
        )
    assert not MultiGameScore.objects.filter(game=game, score__isnull=False).exists()
    assert not AuditEntry.objects.filter(event=event, action__startswith="multi.scores").exists()


def test_two_people_editing_one_table_conflict(director) -> None:
    event = mso_event(director)
    game = seat(event, director, 1)[0]
    players, scores = ROUNDS[1][0]
    entry = list(zip(players, scores, strict=True))
    multi_game_scores_record(
        event=event, game_id=game.pk, scores=entry, expected_version=1, user=director
    )
    with pytest.raises(ResultConflict):
        multi_game_scores_record(
            event=event, game_id=game.pk, scores=entry, expected_version=1, user=director
        )


def test_seating_checks_players_and_table_sizes(director) -> None:
    event = mso_event(director)
    with pytest.raises(UserError, match="already in this round"):
        multi_round_tables_set(
            event=event,
            round_no=1,
            tables=[TableInput(1, (1, 2, 3)), TableInput(2, (3, 4, 5))],
            user=director,
        )
    with pytest.raises(UserError, match="points table covers"):
        multi_round_tables_set(
            event=event, round_no=1, tables=[TableInput(1, tuple(range(1, 10)))], user=director
        )
    play(event, director)
    with pytest.raises(UserError, match="already has scores"):
        seat(event, director, 1)


# -- views, with personas ----------------------------------------------------------------------


@pytest.fixture
def seated(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    event = mso_event(director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = make_event(director, name="Other MSO")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    seat(event, director, 1)
    return event


def scores_url(event: Event) -> str:
    game = MultiGame.objects.get(round__event=event, round__number=1, board=1)
    return f"/e/{event.slug}/tables/1/games/{game.pk}/scores/"


def post_scores(client, event: Event, pairs, **headers):  # type: ignore[no-untyped-def]
    return client.post(
        scores_url(event),
        {"player": [p for p, _ in pairs], "score": [s for _, s in pairs], "version": "1"},
        **headers,
    )


def test_public_page_and_htmx_partial(seated, client_for) -> None:
    page = client_for(None).get(f"/e/{seated.slug}/tables/1/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Table 1" in body and "Seat the round" not in body and 'name="score"' not in body
    partial = client_for(None).get(f"/e/{seated.slug}/tables/1/", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="multi-tables"')
    assert client_for(None).get(f"/e/{seated.slug}/tables/9/").status_code == 404


def test_arbiter_enters_scores_in_one_go(seated, arbiter, client_for) -> None:
    players, scores = ROUNDS[1][0]
    response = post_scores(client_for(arbiter), seated, list(zip(players, scores, strict=True)))
    assert response.status_code == 302
    saved = dict(
        MultiGameScore.objects.filter(
            round__event=seated, round__number=1, game__board=1
        ).values_list("player__start_no", "score")
    )
    assert {p: format(s.normalize(), "f") for p, s in saved.items()} == dict(
        zip(players, scores, strict=True)
    )


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([(1, "10"), (2, "7"), (3, "7"), (4, "")], "player 4 has no score"),
        ([(1, "10"), (1, "7"), (3, "7"), (4, "2")], "listed twice"),
        ([(1, "10"), (2, "x"), (3, "7"), (4, "2")], "is not a number"),
    ],
    ids=["missing-seat", "duplicate-player", "non-numeric"],
)
def test_invalid_scores_show_an_inline_error_and_save_nothing(
    seated, director, client_for, pairs, message
) -> None:
    client = client_for(director)
    page = post_scores(client, seated, pairs)
    assert page.status_code == 400
    assert message in page.content.decode()
    partial = post_scores(client, seated, pairs, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="multi-tables"') and message in body
    assert not MultiGameScore.objects.filter(round__event=seated, score__isnull=False).exists()


def test_wrong_people_are_refused(seated, arbiter, other_arbiter, visitor, client_for) -> None:
    pairs = list(zip(*ROUNDS[1][0], strict=True))
    for user in (other_arbiter, visitor):
        assert post_scores(client_for(user), seated, pairs).status_code == 403
    anonymous = post_scores(client_for(None), seated, pairs)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    seat_url = f"/e/{seated.slug}/tables/1/seat/"
    for user in (arbiter, other_arbiter, visitor):
        assert client_for(user).post(seat_url, {"tables": "1 2 3 4"}).status_code == 403
    assert not MultiGameScore.objects.filter(round__event=seated, score__isnull=False).exists()


def test_director_seats_a_round_from_text(seated, director, client_for) -> None:
    response = client_for(director).post(
        f"/e/{seated.slug}/tables/2/seat/", {"tables": "1 2 3 4\n5 6 7\nbye 8"}
    )
    assert response.status_code == 302
    assert MultiGame.objects.filter(round__event=seated, round__number=2).count() == 2
    page = client_for(director).get(f"/e/{seated.slug}/tables/2/").content.decode()
    assert "Seat the round" in page and "bye 8" in page


def test_example_import_ranks_and_refuses_a_half_scored_table() -> None:
    """Exchange format ``multi_games`` and ``regulation.points_table``."""
    from events.errors import ImportFailed
    from events.exchange import event_import_document
    from tests.conftest import REPO

    text = (REPO / "examples" / "mso-multi-player.json").read_text()
    event = event_import_document(text=text, user=None)
    table = multi_standings(event)
    assert table.after_round == 3 and len(table.rows) == 9
    document = json.loads(text)
    document["slug"] = "half-scored"
    document["multi_games"][0]["scores"][0]["score"] = None
    with pytest.raises(ImportFailed, match="every seat's score, or none"):
        event_import_document(text=json.dumps(document), user=None)
    assert not Event.objects.filter(slug="half-scored").exists()


def test_the_regulation_sets_x_over_zero_the_cap_and_byes(director) -> None:
    """rules-notes (MSO): "Define x/0, negative scores and byes in the regulation set"; the
    override ``multi_player`` reaches the engine's MultiOptions."""
    from dataclasses import replace as replaced

    from events.errors import UserError
    from events.services import EventFields, event_update
    from formats.mso.rules import MultiOptions, tiebreak_values

    event = mso_event(director)
    play(event, director)
    fields = EventFields(
        name=event.name,
        system=event.system,
        time_control=event.time_control,
        rounds=event.rounds,
        preset="mso-2021-multi-player",
        overrides={"multi_player": {"cap": "1", "zero_over_zero": "1/2", "bye_points": "1"}},
    )
    event_update(event=event, fields=fields, user=director, confirm_regulation=True)
    event.refresh_from_db()
    options = MultiOptions(cap=Fraction(1), zero_over_zero=Fraction(1, 2), bye_points=Fraction(1))
    everyone = frozenset(range(1, 9))
    expected = tiebreak_values(replaced(engine_event(), options=options), "PBO", everyone)
    default = tiebreak_values(engine_event(), "PBO", everyone)
    assert expected != default  # the data is such that the cap and x/0 matter
    table = multi_standings(event)
    assert {r.start_no: r.values["PBO"] for r in table.rows} == dict(expected)
    bad = replaced(fields, overrides={"multi_player": {"negative_scores": "ignore"}})
    with pytest.raises(UserError, match="multi_player.negative_scores"):
        event_update(event=event, fields=bad, user=director, confirm_regulation=True)


# --- undoing a table's scores from the audit log ---------------------------------------------


def _table_scores(game: MultiGame) -> dict[int, str | None]:
    return {
        s.player.start_no: None if s.score is None else format(s.score.normalize(), "f")
        for s in MultiGameScore.objects.filter(game=game).select_related("player")
    }


def test_a_tables_scores_are_undone_from_the_audit_log(director) -> None:
    event = mso_event(director)
    game = seat(event, director, 1)[0]
    players, scores = ROUNDS[1][0]
    record_table(event, game, players, scores, director)
    record_table(event, game, players, ("9", "7", "7", "3"), director)  # a correction
    correction = AuditEntry.objects.filter(mso_table__game=game).order_by("-id").first()
    assert correction.action == "multi.scores.correct"
    undo = audit_undo(event=event, entry_id=correction.pk, user=director)
    assert undo.action == "multi.scores.undo" and undo.mso_table.game_id == game.pk
    assert _table_scores(game) == dict(zip(players, scores, strict=True))
    # the first entry undone in turn: the table has no score again
    first = AuditEntry.objects.get(mso_table__game=game, action="multi.scores.record")
    audit_undo(event=event, entry_id=first.pk, user=director)
    assert set(_table_scores(game).values()) == {None}
    assert MultiGame.objects.get(pk=game.pk).version == 5  # every write is a new version
    with pytest.raises(UserError, match="already been undone"):
        audit_undo(event=event, entry_id=first.pk, user=director)


def test_an_undo_never_overwrites_a_later_change(director) -> None:
    event = mso_event(director)
    game = seat(event, director, 1)[0]
    players, scores = ROUNDS[1][0]
    for values in (scores, ("9", "7", "7", "3")):
        record_table(event, game, players, values, director)
    first = AuditEntry.objects.get(mso_table__game=game, action="multi.scores.record")
    with pytest.raises(UserError, match="has changed since this entry; undo the later change"):
        audit_undo(event=event, entry_id=first.pk, user=director)
    assert _table_scores(game)[players[0]] == "9"


def test_a_table_seated_again_cannot_be_undone(director) -> None:
    event = mso_event(director)
    game = seat(event, director, 1)[0]
    players, scores = ROUNDS[1][0]
    record_table(event, game, players, scores, director)
    entry = AuditEntry.objects.get(mso_table__game=game)
    # the round is seated again before any other table has a score (the scores go with it)
    MultiGameScore.objects.filter(game__round__event=event).update(score=None)
    seat(event, director, 1)
    entry.refresh_from_db()
    assert entry.mso_table.game_id is None
    with pytest.raises(UserError, match="no longer exists"):
        audit_undo(event=event, entry_id=entry.pk, user=director)


def test_the_audit_log_offers_undo_for_table_scores(seated, director, client_for) -> None:
    event = seated
    game = MultiGame.objects.filter(round__event=event).order_by("board").first()
    players = [s.player.start_no for s in MultiGameScore.objects.filter(game=game).order_by("seat")]
    record_table(event, game, players, [str(i) for i in range(1, len(players) + 1)], director)
    entry = AuditEntry.objects.get(mso_table__game=game)
    client = client_for(director)
    page = client.get(reverse("events:audit_log", args=[event.slug])).content.decode()
    undo_url = reverse("events:audit_undo", args=[event.slug, entry.pk])
    assert undo_url in page
    assert client.post(undo_url).status_code == 302
    assert set(_table_scores(game).values()) == {None}


# --- the event's own multi-player tie-break chain (the event form) ---------------------------


def _form_data(event: Event, tiebreaks: str) -> dict[str, str]:
    return {
        "name": event.name,
        "system": event.system,
        "time_control": event.time_control,
        "rounds": str(event.rounds),
        "preset": event.regulation.preset,
        "tiebreaks": tiebreaks,
        "currency": event.currency,
    }


def test_the_event_form_takes_a_multi_player_chain_and_the_standings_use_it(director) -> None:
    event = mso_event(director)
    play(event, director)
    form = EventForm(_form_data(event, "won, lrb"))
    assert form.is_valid(), form.errors
    event_update(event=event, fields=form.event_fields(), user=director, confirm_regulation=True)
    event.refresh_from_db()
    assert event.regulation.overrides["tiebreaks"] == ["WON", "LRB"]
    assert multi_standings(event).tiebreaks == ("WON", "LRB")
    # the command's --tiebreaks still wins for one run
    assert multi_standings(event, codes=["PBO"]).tiebreaks == ("PBO",)


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        pytest.param("BH/C1, SB", "unknown multi-player tie-break code 'BH/C1'", id="c07-code"),
        pytest.param("LRB, LRB", "listed twice", id="twice"),
    ],
)
def test_the_event_form_refuses_codes_a_multi_player_event_cannot_use(
    director, codes, message
) -> None:
    event = mso_event(director)
    form = EventForm(_form_data(event, codes))
    assert not form.is_valid()
    assert message in form.errors["tiebreaks"][0]


def test_a_chess_event_form_still_checks_c07_codes(director) -> None:
    event = make_event(director)
    assert not EventForm(_form_data(event, "LRB")).is_valid()
    assert EventForm(_form_data(event, "BH/C1, SB")).is_valid()
