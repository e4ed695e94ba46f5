"""A small FIDE list in the combined TXT layout, imported through the service; a director who
may manage rating lists (the ``ratings.manage_rating_lists`` permission)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import Permission

from ratings.models import RatingList
from ratings.services import rating_list_import
from tests.ratings.test_parsers import COMBINED, COMBINED_HEADER, placed, text


def line(fide_id: str, name: str, **fields: tuple[int, str]) -> str:
    return placed(162, id=(0, fide_id), name=(15, name), **fields)


# FIDE's three sample lines, and players whose names test the search's corners.
SMALL_LIST = text(
    COMBINED_HEADER,
    *COMBINED,
    line("1503015", "Carlsen, Henrik", fed=(76, "NOR"), sex=(80, "M"), s=(113, "2050")),
    line("1512345", "Magnusson, Carl", fed=(76, "SWE"), sex=(80, "M"), r=(126, "1900")),
    line(
        "1401234",
        "Øye, Åsmund",
        fed=(76, "NOR"),
        sex=(80, "M"),
        s=(113, "2210"),
        born=(152, "1975"),
    ),
    line(
        "14012345",
        "Ðukić, Nikola",
        fed=(76, "SRB"),
        sex=(80, "M"),
        tit=(84, "IM"),
        s=(113, "2450"),
        r=(126, "2400"),
        b=(139, "2380"),
        born=(152, "1988"),
    ),
    line(
        "24681012",
        "Lindqvist, Ebba",
        fed=(76, "SWE"),
        sex=(80, "F"),
        wtit=(89, "WFM"),
        s=(113, "2105"),
        r=(126, "2140"),
        born=(152, "2004"),
        flag=(158, "w"),
    ),
)


# Lindqvist, Ebba as the list gives her: federation, standard rating, FIDE id, title, sex, year
# of birth (and no date: the list has none).
EBBA = ("SWE", 2105, "24681012", "WFM", "w", 2004, None)


def registered_as(player) -> tuple:  # type: ignore[no-untyped-def, type-arg]
    """A registered player's fields that a rating list fills."""
    return (
        player.federation,
        player.rating,
        player.fide_id,
        player.title,
        player.sex,
        player.birth_year,
        player.birth_date,
    )


def import_list(text_or_bytes: str | bytes, *, name: str = "", user=None, **options):  # type: ignore[no-untyped-def]
    raw = text_or_bytes.encode() if isinstance(text_or_bytes, str) else text_or_bytes
    return rating_list_import(
        source=io.BytesIO(raw),
        filename=options.pop("filename", "players_list_foa.txt"),
        user=user,
        name=name,
        **options,
    )


@pytest.fixture
def fide_list(db) -> RatingList:  # type: ignore[no-untyped-def]
    return import_list(SMALL_LIST, name="FIDE").rating_list


@pytest.fixture
def manager(director):  # type: ignore[no-untyped-def]
    director.user_permissions.add(Permission.objects.get(codename="manage_rating_lists"))
    return director
