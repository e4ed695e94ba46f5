"""Shared by the player's page tests: a player's token and page address."""

from __future__ import annotations

from django.urls import reverse

from events.models import Event, Game
from playerpage.models import PlayerLink
from playerpage.services import player_links_issue


def token_of(event: Event, start_no: int) -> str:
    if not PlayerLink.objects.filter(player__event=event, player__start_no=start_no).exists():
        player_links_issue(event=event, user=None)
    return PlayerLink.objects.get(player__event=event, player__start_no=start_no).token


def url_of(event: Event, start_no: int) -> str:
    return reverse("playerpage:page", args=[token_of(event, start_no)])


def board(event: Event, number: int, round_no: int = 1) -> Game:
    return Game.objects.get(round__event=event, round__number=round_no, board=number)
