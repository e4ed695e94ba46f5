"""formats/teams/views.py with personas: the director registers teams, sets line-ups, pairs,
reviews and publishes; an arbiter enters match cards (full page and htmx partial); a visitor
reads the team standings, the crosstable, the match cards and the board ranking, never a
draft, and cannot write; an arbiter of another event cannot either."""

from __future__ import annotations

import re

import pytest

from events.models import AuditEntry
from events.services import access_grant
from formats.teams.models import BoardGame, Team, TeamMatch
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(director, arbiter):  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4, boards=2)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    return event


def test_director_registers_a_team_with_a_pasted_roster(cup, director, client_for) -> None:  # type: ignore[no-untyped-def]
    client = client_for(director)
    roster = '"Hansen, Ola",NOR,2301\n"Berg, Kari",NOR,2250\n"Lie, Per",NOR,2100'
    response = client.post(
        f"/e/{cup.slug}/teams/register/", {"name": "Oslo SK", "captain": "Ada", "roster": roster}
    )
    assert response.status_code == 302
    team = Team.objects.get(event=cup, name="Oslo SK")
    assert team.team_no == 5
    page = client.get(f"/e/{cup.slug}/teams/").content.decode()
    assert "5. Oslo SK" in page and "Berg, Kari" in page
    # the reserve is marked R after the two boards
    assert re.search(r"<td class=\"num\">R</td><td class=\"num\">\d+</td><td>Lie, Per", page)


def test_a_refused_team_keeps_what_was_typed_and_a_duplicate_asks_first(
    cup, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    client = client_for(director)
    # a player already on team 1 ("Player T1B1") typed again, in another order of words
    roster = '"Berg, Kari",NOR,2250\nT1B1 Player,NOR,2300'
    typed = {"name": "Bergen SK", "club": "Bergen", "roster": roster}
    page = client.post(f"/e/{cup.slug}/teams/register/", typed).content.decode()
    assert "may be the same person as" in page
    assert "Bergen SK" in page and "T1B1 Player,NOR,2300" in page  # nothing typed is lost
    assert 'name="confirm_duplicates"' in page
    assert not Team.objects.filter(event=cup, name="Bergen SK").exists()
    response = client.post(f"/e/{cup.slug}/teams/register/", {**typed, "confirm_duplicates": "on"})
    assert response.status_code == 302
    assert Team.objects.get(event=cup, name="Bergen SK").roster.count() == 2
    # a pairing number chosen by the director; a taken one is refused
    client.post(f"/e/{cup.slug}/teams/register/", {"name": "Aker", "team_no": "12"})
    assert Team.objects.get(event=cup, name="Aker").team_no == 12
    page = client.post(
        f"/e/{cup.slug}/teams/register/", {"name": "Bryn", "team_no": "12"}
    ).content.decode()
    assert "pairing number 12 is taken" in page and 'value="Bryn"' in page
    page = client.post(
        f"/e/{cup.slug}/teams/register/", {"name": "Bryn", "team_no": "x"}
    ).content.decode()
    assert "the pairing number: a whole number" in page
    # any other refusal also shows the form again, filled in
    page = client.post(
        f"/e/{cup.slug}/teams/register/", {"name": "Bergen SK", "roster": "Solo,NOR,2000"}
    ).content.decode()
    assert "already a team called" in page and "Solo,NOR,2000" in page


def test_visitor_and_stranger_cannot_write(cup, visitor, other_arbiter, client_for) -> None:  # type: ignore[no-untyped-def]
    before = AuditEntry.objects.filter(event=cup).count()
    for person in (None, visitor, other_arbiter):
        response = client_for(person).post(f"/e/{cup.slug}/teams/register/", {"name": "X"})
        assert response.status_code in (302, 403, 404)
        response = client_for(person).post(f"/e/{cup.slug}/team/rounds/1/pair/")
        assert response.status_code in (302, 403, 404)
    assert AuditEntry.objects.filter(event=cup).count() == before
    assert not TeamMatch.objects.exists()


def test_pair_review_publish_and_the_match_card(
    cup, director, arbiter, visitor, client_for
) -> None:  # type: ignore[no-untyped-def]
    boss = client_for(director)
    bad = boss.post(f"/e/{cup.slug}/team/rounds/1/lineup/", {"team": "1", "boards": "2 1"})
    assert bad.status_code == 302
    assert "roster order" in boss.get(f"/e/{cup.slug}/team/rounds/1/").content.decode()
    assert boss.post(f"/e/{cup.slug}/team/rounds/1/pair/").status_code == 302
    review = boss.get(f"/e/{cup.slug}/team/rounds/1/").content.decode()
    assert "Review the pairing" in review and "Publish round 1" in review
    hidden = client_for(visitor).get(f"/e/{cup.slug}/team/rounds/1/").content.decode()
    assert "Table 1" not in hidden  # a draft is not public
    boss.post(f"/e/{cup.slug}/team/rounds/1/publish/")
    match = TeamMatch.objects.get(round__number=1, table=1)
    url = f"/e/{cup.slug}/team/rounds/1/matches/{match.pk}/card/"
    data = {"version": str(match.version), "board1": "1-0", "board2": "-/+", "forfeit": ""}
    partial = client_for(arbiter).post(url, data, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    assert partial.content.decode().lstrip().startswith('<div id="match-cards">')
    results = list(
        BoardGame.objects.filter(match=match).order_by("board").values_list("result", flat=True)
    )
    assert results == ["1-0", "-/+"]
    stale = client_for(arbiter).post(url, {**data, "board1": "0-1"})  # the old version
    assert stale.status_code == 400 and "Someone else changed" in stale.content.decode()
    other = TeamMatch.objects.get(round__number=1, table=2)
    client_for(arbiter).post(
        f"/e/{cup.slug}/team/rounds/1/matches/{other.pk}/card/",
        {"version": str(other.version), "forfeit": "--"},
    )
    standings = client_for(visitor).get(f"/e/{cup.slug}/team/standings/").content.decode()
    assert 'id="team-standings"' in standings and 'id="team-crosstable"' in standings
    # 1-0, then the white team's board 2 player absent (-/+): 1-1, a drawn match (C.07 11.1)
    for team in (match.white, match.black):
        assert re.search(
            rf"<td class=\"num\">{team.team_no}</td><td><a [^>]*>{team.name}</a></td>"
            r"<td class=\"num\">1</td><td class=\"num\">1</td>",
            standings,
        )
    # the double forfeit (--): nobody scores
    for team in (other.white, other.black):
        assert f'>{team.name}</a></td><td class="num">0</td><td class="num">0</td>' in standings
    boards = client_for(visitor).get(f"/e/{cup.slug}/team/boards/").content.decode()
    assert 'id="board-ranking"' in boards


def test_not_a_team_event_is_404(event, client_for) -> None:  # type: ignore[no-untyped-def]
    assert client_for(None).get(f"/e/{event.slug}/team/standings/").status_code == 404


def test_event_page_shows_the_team_panel(cup, client_for) -> None:  # type: ignore[no-untyped-def]
    page = client_for(None).get(f"/e/{cup.slug}/").content.decode()
    assert "4 teams, 2 boards a match" in page
    assert f'href="/e/{cup.slug}/team/standings/"' in page


def test_the_director_numbers_the_teams_by_rating_by_lot_or_as_registered(
    cup, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    from events.models import Player

    client = client_for(director)
    # Team 4's roster is the lowest rated (team_event): raise its top two above everyone's.
    team4 = [
        e.player for e in Team.objects.get(event=cup, name="Team 4").roster.order_by("position")
    ]
    Player.objects.filter(pk__in=[team4[0].pk, team4[1].pk]).update(rating=2900)
    response = client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "rating"})
    assert response.status_code == 302
    numbers = dict(Team.objects.filter(event=cup).values_list("name", "team_no"))
    # the average of the top two ratings (two boards): Team 4, then 1, 2, 3 as their ratings fall
    assert numbers == {"Team 4": 1, "Team 1": 2, "Team 2": 3, "Team 3": 4}
    client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "registration"})
    numbers = dict(Team.objects.filter(event=cup).values_list("name", "team_no"))
    assert numbers == {"Team 1": 1, "Team 2": 2, "Team 3": 3, "Team 4": 4}
    client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "lot"})
    drawn = dict(Team.objects.filter(event=cup).values_list("name", "team_no"))
    assert sorted(drawn.values()) == [1, 2, 3, 4]
    client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "registration"})
    client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "lot"})
    assert (
        dict(Team.objects.filter(event=cup).values_list("name", "team_no")) == drawn
    )  # the seed's
    assert AuditEntry.objects.filter(event=cup, action="teams.numbers").count() == 5
    page = client.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "alphabet"}, follow=True)
    assert "pairing numbers are given rating, lot, registration" in page.content.decode()
    # once a round is paired the numbers are fixed, and the form is gone
    boss = client_for(director)
    boss.post(f"/e/{cup.slug}/team/rounds/1/pair/")
    page = boss.post(f"/e/{cup.slug}/teams/numbers/", {"rule": "rating"}, follow=True)
    assert "fixed once a round is paired" in page.content.decode()
    assert 'id="team-numbers"' not in page.content.decode()
    assert dict(Team.objects.filter(event=cup).values_list("name", "team_no")) == drawn


def test_line_ups_close_at_the_deadline_and_only_the_director_goes_past_it(
    cup, director, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    import datetime as dt

    from django.utils import timezone

    from formats.teams.models import LineUp

    boss, ref = client_for(director), client_for(arbiter)
    url = f"/e/{cup.slug}/team/rounds/1/"
    later = timezone.localtime(timezone.now() + dt.timedelta(hours=2))
    boss.post(f"{url}lineup-deadline/", {"closes_at": f"{later:%Y-%m-%dT%H:%M}"})
    page = ref.get(url).content.decode()
    assert f"Line-ups for round 1 close at {later:%Y-%m-%d %H:%M}" in page
    # before the deadline the arbiter enters team 1's line-up (roster 1, 2, 3: boards 1 and 2)
    ref.post(f"{url}lineup/", {"team": "1", "boards": "1 3"})
    assert LineUp.objects.filter(team__event=cup, team__team_no=1).exists()
    earlier = timezone.localtime(timezone.now() - dt.timedelta(minutes=1))
    boss.post(f"{url}lineup-deadline/", {"closes_at": f"{earlier:%Y-%m-%dT%H:%M}"})
    page = ref.post(f"{url}lineup/", {"team": "2", "boards": "4 6"}, follow=True).content.decode()
    assert "the line-ups for round 1 closed at" in page
    page = boss.post(f"{url}lineup/", {"team": "2", "boards": "4 6"}, follow=True).content.decode()
    assert "only the director can accept one now, against the rule" in page
    assert not LineUp.objects.filter(team__event=cup, team__team_no=2).exists()
    boss.post(f"{url}lineup/", {"team": "2", "boards": "4 6", "override": "1"})
    entry = AuditEntry.objects.filter(event=cup, action="teams.lineup_override").latest("pk")
    assert "after the deadline" in entry.summary
    assert LineUp.objects.get(team__event=cup, team__team_no=2).override
    # the arbiter cannot set deadlines; a nonsense time is refused where it was typed
    assert ref.post(f"{url}lineup-deadline/", {"closes_at": ""}).status_code in (403, 404)
    page = boss.post(f"{url}lineup-deadline/", {"closes_at": "soon"}, follow=True).content.decode()
    assert "a date and time such as" in page
    boss.post(f"{url}lineup-deadline/", {"closes_at": ""})  # lifted
    ref.post(f"{url}lineup/", {"team": "3", "boards": "7 8"})
    assert LineUp.objects.filter(team__event=cup, team__team_no=3).exists()


def test_the_director_adjusts_a_score_and_the_standings_follow(
    cup, director, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    from formats.teams import selectors, services
    from formats.teams.models import TeamAdjustment

    services.team_round_pair(event=cup, round_no=1, user=director)
    services.team_round_publish(event=cup, round_no=1, user=director)
    for match in TeamMatch.objects.filter(round__event=cup):
        services.match_card_record(
            event=cup, match_id=match.pk, results={1: "1-0", 2: "1-0"},
            expected_version=match.version, user=director,
        )  # fmt: skip
    before = {row["team_no"]: row["match_points"] for row in selectors.standings_of(cup)["rows"]}
    boss = client_for(director)
    post = {"team": "1", "round": "1", "match_points": "-2", "game_points": "", "reason": "late"}
    assert client_for(arbiter).post(f"/e/{cup.slug}/teams/adjustments/", post).status_code in (
        403,
        404,
    )
    boss.post(f"/e/{cup.slug}/teams/adjustments/", post)
    after = {row["team_no"]: row["match_points"] for row in selectors.standings_of(cup)["rows"]}
    assert after[1] == before[1] - 2 and {k: v for k, v in after.items() if k != 1} == {
        k: v for k, v in before.items() if k != 1
    }
    page = boss.get(f"/e/{cup.slug}/teams/").content.decode()
    assert "from round 1 – late" in page and "-2 MP" in page
    assert AuditEntry.objects.filter(event=cup, action="teams.adjustment").count() == 1
    for bad, message in (
        ({**post, "reason": ""}, "needs its reason"),
        ({**post, "match_points": "", "game_points": ""}, "adds or takes some points"),
        ({**post, "match_points": "1234567890123"}, "at most 12 characters"),
        ({**post, "match_points": "1e9"}, "a number such as 1 or 2.5"),
        ({**post, "match_points": "1e999999999"}, "a number such as 1 or 2.5"),
        ({**post, "match_points": "1_000"}, "a number such as 1 or 2.5"),
        ({**post, "match_points": "5000"}, "record 299 of the TRF file has four columns"),
        ({**post, "match_points": "-1000"}, "record 299 of the TRF file has four columns"),
        ({**post, "game_points": "-2.25"}, "record 299 of the TRF file has four columns"),
        ({**post, "round": "9"}, "the event has 5 rounds"),
    ):
        page = boss.post(f"/e/{cup.slug}/teams/adjustments/", bad, follow=True).content.decode()
        assert message in page, message
    assert TeamAdjustment.objects.filter(event=cup).count() == 1
    adjustment = TeamAdjustment.objects.get(event=cup)
    boss.post(f"/e/{cup.slug}/teams/adjustments/", {"remove": str(adjustment.pk)})
    assert not TeamAdjustment.objects.filter(event=cup).exists()
    again = {row["team_no"]: row["match_points"] for row in selectors.standings_of(cup)["rows"]}
    assert again == before


def test_the_round_page_puts_the_pairing_first_and_says_when_line_ups_close(
    cup, director, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    """issue 29: the "Pair round N" button was 3,400 px down the page, under every team's
    line-up; publishing locked the line-ups "without a word"; captains did not see the
    deadline."""
    import datetime as dt

    from django.utils import timezone

    from formats.teams import selectors, services

    boss, ref = client_for(director), client_for(arbiter)
    url = f"/e/{cup.slug}/team/rounds/1/"
    page = boss.get(url).content.decode()
    assert page.index('id="pair-form"') < page.index('id="lineups"')
    page = boss.post(f"{url}pair/", follow=True).content.decode()
    assert "Its line-ups are locked now: this event takes them before the pairing." in page
    boss.post(f"{url}discard/")
    # the Olympiad's way: line-ups after the pairing, until the deadline
    services.team_setup_update(
        event=cup,
        fields=services.SetupFields(boards=2, lineups_close="deadline"),
        expected_version=selectors.setup_of(cup).version,
        user=director,
    )
    later = timezone.localtime(timezone.now() + dt.timedelta(hours=1))
    boss.post(f"{url}lineup-deadline/", {"closes_at": f"{later:%Y-%m-%dT%H:%M}"})
    boss.post(f"{url}pair/")
    boss.post(f"{url}publish/")
    captains = client_for(None).get(url).content.decode()
    assert f"Line-ups for round 1 close at {later:%Y-%m-%d %H:%M}" in captains
    assert 'id="lineups"' not in captains  # no form for a visitor
    event_page = client_for(None).get(f"/e/{cup.slug}/").content.decode()
    assert f"Line-ups for round 1 close at {later:%Y-%m-%d %H:%M}" in event_page
    desk = ref.get(url).content.decode()
    assert 'id="lineups"' in desk and 'id="match-cards"' in desk
    assert desk.index('id="match-cards"') < desk.index('id="lineups"')
    ref.post(f"{url}lineup/", {"team": "1", "boards": "1 3"})  # the reserve on board 2
    first = BoardGame.objects.filter(
        match__round__number=1, board=2, match__white__team_no=1
    ).first() or BoardGame.objects.get(match__round__number=1, board=2, match__black__team_no=1)
    assert 3 in (first.first_player.start_no, first.second_player.start_no)
    # once the match has a result, its teams' line-ups are no longer offered
    assert 'id="lineup-1"' in ref.get(url).content.decode()
    services.board_result_record(
        event=cup, game_id=first.pk, result="1-0", expected_version=None, user=director
    )
    desk = ref.get(url).content.decode()
    assert 'id="lineup-1"' not in desk
    assert desk.count('class="lineup"') == 2  # the other match's two teams


def test_every_adjustment_the_teams_page_accepts_exports(
    cup, director, client_for, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """Record 299's four columns bound the form (issue 28): the extreme values it accepts are
    written by export_trf and read back by import_trf."""
    import io
    from decimal import Decimal

    from django.core.management import call_command

    from formats.teams.models import TeamAdjustment

    boss = client_for(director)
    typed = (("99.9", "-9.9"), ("0.25", "-0.5"), ("-9", "99"))
    for mp, gp in typed:
        post = {"team": "2", "round": "1", "match_points": mp, "game_points": gp, "reason": "x"}
        boss.post(f"/e/{cup.slug}/teams/adjustments/", post)
    assert TeamAdjustment.objects.filter(event=cup).count() == len(typed)
    out = io.StringIO()
    call_command("export_trf", cup.slug, stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("299")]
    assert [(line[7:11], line[13:17]) for line in lines] == [
        ("99.9", "-9.9"), ("0.25", "-0.5"), ("-9.0", "99.0"),
    ]  # fmt: skip
    path = tmp_path / "cup.trf"
    path.write_text(out.getvalue(), encoding="latin-1")
    call_command("import_trf", str(path), "--slug", "cup-back", stdout=io.StringIO())
    back = TeamAdjustment.objects.filter(event__slug="cup-back").order_by("pk")
    assert [(a.match_points, a.game_points) for a in back] == [
        (Decimal(mp), Decimal(gp)) for mp, gp in typed
    ]


def test_the_bye_points_the_settings_accept_are_the_ones_record_320_writes(
    cup, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    """The pairing-allocated bye's points go to record 320's four columns, as adjustments go to
    record 299's: the settings accepted up to 1,000 and export_trf then died (issue 28)."""
    import io
    from decimal import Decimal

    from django.core.management import call_command

    from formats.teams import selectors, services

    boss = client_for(director)
    url = f"/e/{cup.slug}/teams/settings/"
    setup = selectors.setup_of(cup)
    post = {
        "boards": str(setup.boards),
        "match_points": setup.match_points,
        "primary": setup.primary,
        "colour_preferences": setup.colour_preferences,
        "tiebreaks": setup.tiebreaks,
    }
    for bad in ("1000", "100", "12.345", "-1"):
        data = {**post, "bye_match_points": bad, "version": str(selectors.setup_of(cup).version)}
        page = boss.post(url, data, follow=True).content.decode()
        assert "the bye&#x27;s match points" in page or "the bye's match points" in page, bad
        assert selectors.setup_of(cup).bye_match_points is None, bad
    data = {**post, "bye_match_points": "99.9", "bye_game_points": "2.25"}
    boss.post(url, {**data, "version": str(selectors.setup_of(cup).version)})
    assert selectors.setup_of(cup).bye_match_points == Decimal("99.9")
    boss.post(f"/e/{cup.slug}/team/rounds/1/pair/")  # record 320 comes with a round played
    boss.post(f"/e/{cup.slug}/team/rounds/1/publish/")
    for game in BoardGame.objects.filter(match__round__event=cup):
        services.board_result_record(
            event=cup, game_id=game.pk, result="1-0", expected_version=None, user=director
        )
    out = io.StringIO()
    call_command("export_trf", cup.slug, stdout=out)
    (line,) = [row for row in out.getvalue().splitlines() if row.startswith("320")]
    assert line[4:8] == "99.9" and line[9:13] == "2.25"
