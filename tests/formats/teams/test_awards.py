"""Prize sheets of a team event (issue #22, "Prize sheets for teams and boards through the
existing prizes app"; formats/teams/awards.py): the place prizes follow the team standings,
each board's prizes go to its best players by percentage with ties sharing, the sheet waits
for the last match card, and closing the event is refused while a card is open.

The expectations are worked out here from the stored board games and the team standings page,
not copied from the code under test."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.db.models import Q
from pypdf import PdfReader

from events.errors import UserError
from events.services import event_close
from formats.teams import selectors, services
from formats.teams.models import BoardGame, RosterEntry, TeamMatch
from prizes.exports import sheet_csv
from prizes.selectors import PrizesUnavailable, prizes_allocate, sheet_document
from prizes.services import prize_fund_set
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.django_db

# Board results by (round, table), first board first: the white team's player first.
RESULTS = {
    1: {1: ("1-0", "1/2-1/2"), 2: ("0-1", "0-1")},
    2: {1: ("1/2-1/2", "1-0"), 2: ("1-0", "1/2-1/2")},
    3: {1: ("0-1", "1-0"), 2: ("1/2-1/2", "1/2-1/2")},
}


def _round(event, director, number: int) -> None:  # type: ignore[no-untyped-def]
    services.team_round_pair(event=event, round_no=number, user=director)
    services.team_round_publish(event=event, round_no=number, user=director)
    for match in TeamMatch.objects.filter(round__event=event, round__number=number):
        results = dict(enumerate(RESULTS[number][match.table], start=1))
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results=results,
            expected_version=match.version,
            user=director,
        )


@pytest.fixture
def league(director):  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4, boards=2, system="team_round_robin", rounds=3)
    setup = selectors.setup_of(event)
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=2, board_prizes="100, 50", min_board_games=2),
        expected_version=setup.version,
        user=director,
    )
    prize_fund_set(event=event, prizes=[(1, Decimal(300)), (2, Decimal(200))], user=director)
    return event


def _expected_boards() -> dict[int, list[tuple[int, Fraction, int]]]:
    """(start number, percentage, games) of each board's players with two games or more, best
    first, from the stored games: a player's board is that of their first game."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    games: dict[int, int] = defaultdict(int)
    board_of: dict[int, int] = {}
    scores = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2))}
    for game in BoardGame.objects.order_by("match__round__number", "board").select_related(
        "first_player", "second_player"
    ):
        first, second = scores[game.result]
        for player, score in ((game.first_player, first), (game.second_player, second)):
            points[player.start_no] += score
            games[player.start_no] += 1
            board_of.setdefault(player.start_no, game.board)
    boards: dict[int, list[tuple[int, Fraction, int]]] = defaultdict(list)
    for start_no, count in games.items():
        if count >= 2:
            boards[board_of[start_no]].append((start_no, points[start_no] / count, count))
    for rows in boards.values():
        rows.sort(key=lambda row: (-row[1], -row[2]))
    return boards


def _shares(rows: list[tuple[int, Fraction, int]], amounts: list[int]) -> dict[int, Decimal]:
    """Equal split of the places a tie occupies, each share rounded half up to a whole unit."""
    paid: dict[int, Decimal] = {}
    place = 0
    while place < len(rows):
        level = [r for r in rows if (r[1], r[2]) == (rows[place][1], rows[place][2])]
        pot = sum(amounts[place : place + len(level)])
        for row in level:
            share = Decimal(pot) / len(level)
            paid[row[0]] = share.quantize(Decimal(1), rounding=ROUND_HALF_UP)
        place += len(level)
    return {start_no: amount for start_no, amount in paid.items() if amount > 0}


def test_the_sheet_waits_for_the_last_card_and_the_close_for_every_card(league, director) -> None:  # type: ignore[no-untyped-def]
    _round(league, director, 1)
    _round(league, director, 2)
    services.team_round_pair(event=league, round_no=3, user=director)
    with pytest.raises(UserError, match="round 3 is a draft"):
        event_close(event=league, user=director)
    services.team_round_publish(event=league, round_no=3, user=director)
    with pytest.raises(PrizesUnavailable, match="complete up to round 2 of 3"):
        prizes_allocate(event=league)
    with pytest.raises(UserError, match="round 3 has 2 match cards without a result"):
        event_close(event=league, user=director)


def test_team_and_board_prizes_follow_the_standings_and_the_board_games(league, director) -> None:  # type: ignore[no-untyped-def]
    for number in (1, 2, 3):
        _round(league, director, number)
    document = sheet_document(prizes_allocate(event=league))
    standings = selectors.standings_of(league)["rows"]
    assert [row["name"] for row in document["rows"]] == [row["name"] for row in standings]
    assert [row["start_no"] for row in document["rows"]] == [r["team_no"] for r in standings]
    paid = {row["name"]: Decimal(row["amount"]) for row in document["rows"]}
    if standings[0]["rank"] != standings[1]["rank"]:
        assert paid[standings[0]["name"]] == 300 and paid[standings[1]["name"]] == 200
    assert sum(paid.values()) == 500
    assert all(row["fide_id"] == "" for row in document["rows"])  # teams have no FIDE id

    expected = _expected_boards()
    got = {board["board"]: board["rows"] for board in document["board_prizes"]}
    assert set(got) == set(expected) == {1, 2}
    teams = dict(RosterEntry.objects.values_list("player__start_no", "team__name"))
    for board, rows in expected.items():
        want = _shares(rows, [100, 50])
        assert {row["start_no"]: Decimal(row["amount"]) for row in got[board]} == want
        assert all(row["team"] == teams[row["start_no"]] for row in got[board])
    lines = sheet_csv(document).splitlines()
    board_lines = [line for line in lines if ",board " in line]
    assert len(board_lines) == sum(len(rows) for rows in got.values())
    # closing is allowed once every card is in
    event_close(event=league, user=director)


def test_a_tie_on_a_board_shares_the_prizes(league, director) -> None:  # type: ignore[no-untyped-def]
    for number in (1, 2, 3):
        _round(league, director, number)
    boards = {
        b["board"]: b["rows"] for b in sheet_document(prizes_allocate(event=league))["board_prizes"]
    }
    expected = _expected_boards()
    tied_boards = [
        board
        for board, rows in expected.items()
        if (rows[0][1], rows[0][2]) == (rows[1][1], rows[1][2])
    ]
    assert tied_boards, "RESULTS leave a tie for first on a board"
    for board in tied_boards:
        rows = expected[board]
        tied = [r for r in rows if (r[1], r[2]) == (rows[0][1], rows[0][2])]
        share = (Decimal(150) / len(tied)).quantize(Decimal(1), ROUND_HALF_UP)
        firsts = [r for r in boards[board] if r["rank"] == 1]
        assert {r["start_no"] for r in firsts} == {r[0] for r in tied}
        assert {Decimal(r["amount"]) for r in firsts} == {share}
        assert all(r["place"] == f"1–{len(tied)}" and r["shared"] for r in firsts)


def test_board_prizes_are_checked_where_they_are_typed(league, director) -> None:  # type: ignore[no-untyped-def]
    setup = selectors.setup_of(league)
    for text, message in (
        ("50, 100", "highest to the lowest"),
        ("abc", "an amount such as 100"),
        ("0", "more than 0"),
        (",".join(["1"] * 11), "at most 10 prizes"),
    ):
        with pytest.raises(UserError, match=message):
            services.team_setup_update(
                event=league,
                fields=services.SetupFields(boards=2, board_prizes=text),
                expected_version=setup.version,
                user=director,
            )
    assert selectors.setup_of(league).board_prizes == "100, 50"


def test_the_prize_pages_show_teams_and_boards(league, director, client_for) -> None:  # type: ignore[no-untyped-def]
    client = client_for(director)
    assert client.get(f"/e/{league.slug}/prizes/setup/").status_code == 200
    for number in (1, 2, 3):
        _round(league, director, number)
    event_page = client.get(f"/e/{league.slug}/").content.decode()
    assert "Approve the prize sheet" in event_page and "Close the event" in event_page
    page = client.get(f"/e/{league.slug}/prizes/").content.decode()
    first = selectors.standings_of(league)["rows"][0]["name"]
    assert "Board prizes" in page and f"<td>{first}</td>" in page
    league.refresh_from_db()
    client.post(f"/e/{league.slug}/prizes/approve/", {"results_version": league.results_version})
    public = client_for(None).get(f"/e/{league.slug}/prizes/").content.decode()
    assert "Board prizes" in public and "Player T1B1" in public
    for fmt in ("csv", "xlsx", "pdf"):
        response = client_for(None).get(f"/e/{league.slug}/prizes/sheet.{fmt}")
        assert response.status_code == 200 and len(response.content) > 100
    # Issue 29: every export carries the team and the board prizes, and what they add up to.
    document = sheet_document(prizes_allocate(event=league))
    boards = [row for board in document["board_prizes"] for row in board["rows"]]
    body = client_for(None).get(f"/e/{league.slug}/prizes/sheet.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    assert len([line for line in lines if line["prize"] == "board"]) == len(boards)
    to_pay = Decimal(document["total_paid"]) + sum(Decimal(row["amount"]) for row in boards)
    assert sum(Decimal(line["paid"]) for line in lines) == to_pay
    pdf = client_for(None).get(f"/e/{league.slug}/prizes/sheet.pdf").content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Board prizes" in text and f"total to pay {to_pay:,} " in " ".join(text.split())


def test_the_standings_say_why_each_team_is_above_the_next(league, director, client_for) -> None:  # type: ignore[no-untyped-def]
    # Round 1 of four teams on the Berger table: 1-4 and 2-3. Team 1 wins 1½-½ (board 1 won,
    # board 2 drawn), Team 3 wins 2-0 as Black: Team 3 and Team 1 both have 2 match points,
    # game points 2 and 1½; Team 4 has ½ game point, Team 2 none.
    _round(league, director, 1)
    rows = selectors.standings_of(league)["rows"]
    assert [row["name"] for row in rows] == ["Team 3", "Team 1", "Team 4", "Team 2"]
    assert [row.get("why") for row in rows] == [
        "above Team 1 on GP (2 to 1.5); level on MP 2",
        "above Team 4 on MP (2 to 0)",
        "above Team 2 on GP (0.5 to 0); level on MP 0",
        None,
    ]
    page = client_for(None).get(f"/e/{league.slug}/team/standings/").content.decode()
    assert "Why each team is above the next" in page
    assert "Team 3: above Team 1 on GP (2 to 1.5); level on MP 2" in page


def test_a_round_robin_refuses_the_buchholz_family_under_the_2026_rules(league, director) -> None:  # type: ignore[no-untyped-def]
    # C.07 (2026 edition) forbids the Buchholz family in round robins; the league starts in
    # 2026 (the team registry has BH of the family: FB and AOB are not team tie-breaks).
    setup = selectors.setup_of(league)
    for code in ("BH:MP", "BH:GP/C1", "BH:MP/V2"):
        with pytest.raises(UserError, match="forbids the Buchholz family"):
            services.team_setup_update(
                event=league,
                fields=services.SetupFields(boards=2, tiebreaks=f"MP,GP,{code}"),
                expected_version=setup.version,
                user=director,
            )
    # the 2024 edition, asked for by the code, still allows it; a Swiss always does
    services.team_setup_update(
        event=league,
        fields=services.SetupFields(boards=2, tiebreaks="MP,GP,BH:MP/V1"),
        expected_version=setup.version,
        user=director,
    )
    swiss = team_event(director, teams=2, boards=2)
    services.team_setup_update(
        event=swiss,
        fields=services.SetupFields(boards=2, tiebreaks="MP,GP,BH:MP"),
        expected_version=selectors.setup_of(swiss).version,
        user=director,
    )


def test_a_team_page_lists_its_matches_and_each_players_games(league, director, client_for) -> None:  # type: ignore[no-untyped-def]
    # Round 1 (Berger: 1-4, 2-3, the first team White on board 1) from RESULTS: Team 1 beats
    # Team 4 1½-½ (board 1 won, board 2 drawn); Team 3 beats Team 2 2-0 as Black.
    _round(league, director, 1)
    page = client_for(None).get(f"/e/{league.slug}/teams/1/").content.decode()
    assert "1. Team 1" in page
    assert '<a href="/e/' + league.slug + '/teams/4/">4. Team 4</a>' in page
    assert '<td>White</td><td class="num">1½</td><td class="num">2</td>' in page
    assert "bd 1: 1 – Player T4B1" in page and "bd 2: ½ – Player T4B2" in page
    page = client_for(None).get(f"/e/{league.slug}/teams/2/").content.decode()
    assert '<td>White</td><td class="num">0</td><td class="num">0</td>' in page
    assert "bd 1: 0 – Player T3B1" in page
    assert client_for(None).get(f"/e/{league.slug}/teams/9/").status_code == 404
    standings = client_for(None).get(f"/e/{league.slug}/team/standings/").content.decode()
    assert f'href="/e/{league.slug}/teams/3/">Team 3</a>' in standings


def test_a_board_prize_off_the_rounding_unit_is_said_on_the_sheet(
    league, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    for number in (1, 2, 3):
        _round(league, director, number)
    services.team_setup_update(
        event=league,
        fields=services.SetupFields(boards=2, board_prizes="75.5", min_board_games=2),
        expected_version=selectors.setup_of(league).version,
        user=director,
    )
    with pytest.raises(PrizesUnavailable, match=r"board prizes: .*not a whole number"):
        prizes_allocate(event=league)
    page = client_for(director).get(f"/e/{league.slug}/prizes/")
    assert page.status_code == 200 and "board prizes: " in page.content.decode()


@pytest.mark.parametrize(
    ("rounds", "setting", "needed"),
    [(11, None, 8), (9, None, 7), (7, None, 6), (5, None, 4), (3, None, 3), (1, None, 1)]
    + [(7, 0, 0), (11, 5, 5)],
    ids=[
        "Olympiad: 8 of 11 rounds",
        "9 rounds: 8/11 of 9 is 6.5, up to 7",
        "7 rounds: 5.1, up to 6",
        "5 rounds: 3.6, up to 4",
        "3 rounds: every round",
        "1 round: at least one game",
        "the event's own 0: no minimum",
        "the event's own 5",
    ],
)
def test_the_games_a_board_prize_needs(rounds: int, setting: int | None, needed: int) -> None:
    from formats.teams.board_prizes import min_board_games

    assert min_board_games(rounds, setting) == needed


def test_a_reserve_with_one_game_takes_no_board_prize(director) -> None:  # type: ignore[no-untyped-def]
    """issue 29: "A board prize went to a reserve with one game". Three rounds, board prizes
    and no minimum set: the default asks 3 games (8 of every 11 rounds, rounded up). Team 1's
    reserve plays board 2 in round 3 only, and wins."""
    from formats.teams.models import BoardGame

    event = team_event(director, teams=4, boards=2, system="team_round_robin", rounds=3)
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=2, board_prizes="100, 50"),
        expected_version=selectors.setup_of(event).version,
        user=director,
    )
    reserve = RosterEntry.objects.get(team__team_no=1, position=3).player
    _round(event, director, 1)
    _round(event, director, 2)
    services.lineup_set(event=event, team_no=1, round_no=3, boards=[1, 3], user=director)
    _round(event, director, 3)
    game = BoardGame.objects.get(Q(first_player=reserve) | Q(second_player=reserve))
    win = "1-0" if game.first_player_id == reserve.pk else "0-1"
    services.board_result_record(
        event=event, game_id=game.pk, result=win, expected_version=None, user=director
    )
    prize_fund_set(event=event, prizes=[(1, Decimal(300))], user=director)
    document = sheet_document(prizes_allocate(event=event))
    winners = [row for board in document["board_prizes"] for row in board["rows"]]
    assert winners and all(row["games"] >= 3 for row in winners)
    assert reserve.start_no not in {row["start_no"] for row in winners}
    ranked = {row["player"].pk: row for row in selectors.board_ranking(event)}
    assert (ranked[reserve.pk]["games"], ranked[reserve.pk]["percent"]) == (1, 100)
    assert not ranked[reserve.pk]["eligible"]
    # The director may ask fewer games: with no minimum, the reserve is in the running again.
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=2, board_prizes="100, 50", min_board_games=0),
        expected_version=selectors.setup_of(event).version,
        user=director,
    )
    assert {row["player"].pk: row for row in selectors.board_ranking(event)}[reserve.pk]["eligible"]
