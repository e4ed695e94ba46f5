"""Team result entry works as chess result entry does (issue 29: "Match cards accept only
1/2-1/2 (½-½ and = refused), one error wipes the card, and there are no buttons, no keys, no
match score and no Saved"): a board is saved with one tap (the row comes back with the match
score, the round's progress and "Saved", out of band), a stale page gets the conflict card, a
refusal stays in the row and changes nothing; the whole-match forfeit and typed cards read
½-½ and =, and a card keeps the boards it does not name. Personas: director, arbiter, visitor,
an arbiter of another event."""

from __future__ import annotations

import pytest

from events.models import AuditEntry
from events.services import access_grant
from formats.teams import services
from formats.teams.models import BoardGame, TeamMatch
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(director, arbiter):  # type: ignore[no-untyped-def]
    """Four teams on two boards, round 1 published, no result."""
    event = team_event(director, teams=4, boards=2, rounds=3)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    services.team_round_pair(event=event, round_no=1, user=director)
    services.team_round_publish(event=event, round_no=1, user=director)
    return event


def _board(event, table: int, board: int) -> BoardGame:  # type: ignore[no-untyped-def]
    return BoardGame.objects.get(match__round__event=event, match__table=table, board=board)


def _save(client, event, game: BoardGame, result: str, **headers):  # type: ignore[no-untyped-def]
    url = f"/e/{event.slug}/team/games/{game.pk}/result/"
    return client.post(url, {"result": result, "version": str(game.version)}, **headers)


def test_a_tap_saves_one_board_and_the_card_fills(cup, arbiter, client_for) -> None:  # type: ignore[no-untyped-def]
    desk = client_for(arbiter)
    page = desk.get(f"/e/{cup.slug}/team/rounds/1/").content.decode()
    first = _board(cup, 1, 1)
    assert f'id="board-{first.pk}" data-game="{first.pk}" tabindex="-1"' in page
    assert "autofocus" in page[page.index(f'id="board-{first.pk}"') :][:200]  # opens on it
    assert page.count('value="1/2-1/2" title="key ="') == 4  # a ½-½ button on every board
    assert "0 of 4 board results in · 0 of 2 matches decided" in page

    partial = _save(desk, cup, first, "1/2-1/2", HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith(f'<tr id="board-{first.pk}"')
    assert 'value="1/2-1/2" title="key =" class="chosen" aria-pressed="true"' in partial
    match = TeamMatch.objects.get(pk=first.match_id)  # its version moved with the board's
    assert f'id="status-{match.pk}" aria-live="polite" hx-swap-oob="true"' in partial
    assert "½–½" in partial and "Saved: board 1 ½-½" in partial  # the score as it fills
    assert f'id="card-version-{match.pk}" value="{match.version}"' in partial
    assert "1 of 4 board results in" in partial and 'id="round-progress"' in partial
    assert _board(cup, 1, 1).result == "1/2-1/2"
    assert AuditEntry.objects.filter(event=cup, action="teams.board_result").count() == 1

    # Without JavaScript the same button posts the form and the page comes back.
    response = _save(desk, cup, _board(cup, 1, 2), "0-1")
    assert response.status_code == 302
    assert response["Location"].endswith(f"/team/rounds/1/#board-{_board(cup, 1, 2).pk}")
    assert "½–1½" in desk.get(response["Location"]).content.decode()


def test_the_last_board_says_what_comes_next(cup, director, client_for) -> None:  # type: ignore[no-untyped-def]
    boss = client_for(director)
    for table, board in ((1, 1), (1, 2), (2, 1)):
        _save(boss, cup, _board(cup, table, board), "1-0", HTTP_HX_REQUEST="true")
    last = _save(boss, cup, _board(cup, 2, 2), "-/+", HTTP_HX_REQUEST="true").content.decode()
    assert "4 of 4 board results in · 2 of 2 matches decided — round complete" in last
    assert 'id="round-next"' in last and "Round 1 is complete: next" in last
    assert "Pair round 2" in last


def test_a_stale_page_gets_the_conflict_card_and_nothing_is_overwritten(
    cup, director, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    game = _board(cup, 2, 1)  # both pages hold this version
    _save(client_for(director), cup, game, "1-0", HTTP_HX_REQUEST="true")
    partial = _save(client_for(arbiter), cup, game, "0-1", HTTP_HX_REQUEST="true")
    text = partial.content.decode()
    assert partial.status_code == 200 and 'class="conflict" role="alert"' in text
    assert "Saved now: <strong>1-0</strong> · yours: <strong>0-1</strong>" in text
    assert "Replace with mine" in text and "Keep saved" in text
    assert _board(cup, 2, 1).result == "1-0"
    full = _save(client_for(arbiter), cup, game, "0-1")  # the old version, without htmx
    assert full.status_code == 409 and "Replace with mine" in full.content.decode()
    # "Replace with mine" carries the saved version: the correction goes through
    fresh = _board(cup, 2, 1)
    _save(client_for(arbiter), cup, fresh, "0-1", HTTP_HX_REQUEST="true")
    assert _board(cup, 2, 1).result == "0-1"


def test_a_refusal_stays_in_the_row_and_changes_nothing(cup, director, client_for) -> None:  # type: ignore[no-untyped-def]
    boss = client_for(director)
    game = _board(cup, 1, 1)
    text = _save(boss, cup, game, "2-0", HTTP_HX_REQUEST="true").content.decode()
    assert 'class="error" role="alert">&#x27;2-0&#x27; is not a result' in text
    match = TeamMatch.objects.get(round__event=cup, table=1)
    boss.post(
        f"/e/{cup.slug}/team/rounds/1/matches/{match.pk}/card/",
        {"forfeit": "-+", "version": str(match.version)},
    )
    text = _save(boss, cup, _board(cup, 1, 1), "1-0", HTTP_HX_REQUEST="true").content.decode()
    assert "the whole match is forfeited (-+): take that back first" in text
    assert set(BoardGame.objects.filter(match=match).values_list("result", flat=True)) == {"-/+"}


def test_strangers_save_nothing(cup, director, visitor, other_arbiter, client_for) -> None:  # type: ignore[no-untyped-def]
    game = _board(cup, 1, 1)
    for person in (None, visitor, other_arbiter):
        assert _save(client_for(person), cup, game, "1-0").status_code in (302, 403, 404)
    assert _board(cup, 1, 1).result == ""
    # a board of another event, through this one's address: no such board here
    other = team_event(director, teams=2, boards=2)
    services.team_round_pair(event=other, round_no=1, user=director)
    services.team_round_publish(event=other, round_no=1, user=director)
    foreign = BoardGame.objects.filter(match__round__event=other).first()
    assert _save(client_for(director), cup, foreign, "1-0").status_code == 404
    assert BoardGame.objects.get(pk=foreign.pk).result == ""


def test_a_typed_card_reads_the_draw_as_people_write_it_and_keeps_the_rest(
    cup, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    desk = client_for(arbiter)
    match = TeamMatch.objects.get(round__event=cup, table=1)
    url = f"/e/{cup.slug}/team/rounds/1/matches/{match.pk}/card/"
    desk.post(url, {"board1": "½-½", "board2": "=", "version": str(match.version)})
    assert [_board(cup, 1, b).result for b in (1, 2)] == ["1/2-1/2", "1/2-1/2"]
    match.refresh_from_db()
    refused = desk.post(url, {"board1": "1-0", "board2": "2-0", "version": str(match.version)})
    assert refused.status_code == 400 and "board 2: &#x27;2-0&#x27; is not a result" in (
        refused.content.decode()
    )
    assert [_board(cup, 1, b).result for b in (1, 2)] == ["1/2-1/2", "1/2-1/2"]  # not wiped
    desk.post(url, {"board2": "0-1", "version": str(match.version)})  # board 1 not named
    assert [_board(cup, 1, b).result for b in (1, 2)] == ["1/2-1/2", "0-1"]


def test_a_match_forfeit_taken_back_clears_the_boards_it_set(cup, director, client_for) -> None:  # type: ignore[no-untyped-def]
    boss = client_for(director)
    match = TeamMatch.objects.get(round__event=cup, table=2)
    url = f"/e/{cup.slug}/team/rounds/1/matches/{match.pk}/card/"
    partial = boss.post(
        url, {"forfeit": "+-", "version": str(match.version)}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Match forfeited: +- (black team forfeits)" in partial and "Saved" in partial
    assert 'id="round-progress"' in partial and "2 of 4 board results in" in partial
    match.refresh_from_db()
    boss.post(url, {"forfeit": "", "version": str(match.version)})
    assert [_board(cup, 2, b).result for b in (1, 2)] == ["", ""]
