"""Reads for prizes: the effective settings, the final ranking as the prize engine needs it,
the allocation itself (:func:`prizes_allocate`) and the prize sheet as a JSON document.

The split and rounding rules live in :mod:`prizes.split` (pure); this module only loads plain
records in a fixed number of queries and hands them over (design.md §3).

Decisions (issue 6, "Prizes and tour points"):

- Prizes are computed from the standings after the last scheduled round
  (``event_standings(event, after_round=event.rounds)``), never from the playoff's write-back:
  with the GCT presets (no tie-breaks) everybody level on points shares rank 1, which is the
  pre-playoff tie group that seed 000, 3.8 splits; the playoff only adds its winner (3.8.2). In
  a Rapid & Blitz event the winner is shown but changes nothing (2.6).
- A tie is the standings' tie: players the event's tie-breaks do not separate share a place and
  split its prizes equally (2.7, 3.10). The Hort split of opens is the exception: it needs ties
  *on points* with the tie-break order inside them, so for it the groups are points groups.
- :func:`prizes_allocate` is a read (nothing is stored): approving is what freezes a sheet
  (:func:`prizes.services.prize_sheet_approve`). It keeps the style guide's ``noun_verb`` name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import groupby
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import Http404
from django.utils import timezone

from events.errors import UserError
from events.formats import Format, format_of
from events.models import Event, Player, Role, TimeControl
from events.numbers import points_text
from events.selectors import last_complete_round, user_role
from playoffs.rules import PlayoffInputError
from playoffs.selectors import event_playoff, playoff_rule
from prizes.categories import Category, CategoryOutcome, Condition, allocate_categories
from prizes.models import CategoryPrize, PlacePrize, PrizeSettings, PrizeSheetApproval, Series
from prizes.presenters import place_label
from prizes.split import (
    ROUNDING_POLICIES,
    SPLIT_RULES,
    FinalRanking,
    PlacedPlayer,
    PlayoffWinnerRequired,
    PrizeFund,
    PrizeInputError,
    PrizeSheet,
    allocate_prizes,
    format_money,
    plain_decimal,
    prize_regulation,
    prize_sheet_json,
)
from prizes.split import PlacePrize as FundPrize
from prizes.tour import (
    TourEvent,
    TourEventResult,
    TourStandingRow,
    tour_points,
    tour_standings,
)
from standings.ranking import Standing
from standings.selectors import event_standings

DEFAULT_UNIT = Decimal(1)  # seed 000, 3.8.4: "as a rule, integer amounts will be paid out"


class PrizesUnavailable(UserError):
    """The sheet cannot be computed yet or as configured; the message says why."""


# --------------------------------------------------------------------------------------------
# Settings, fund, categories


@dataclass(frozen=True)
class EffectivePrizeSettings:
    """What the event's prizes run under: the regulation's choice unless overridden."""

    split_rule: str
    rounding: str
    unit: Decimal
    tour_points_table: str | None
    overridden: frozenset[str]
    preset: str

    @property
    def split_rule_name(self) -> str:
        return SPLIT_RULES[self.split_rule].name

    @property
    def rounding_name(self) -> str:
        return ROUNDING_POLICIES[self.rounding].name


def _stored_overrides(stored: PrizeSettings | None) -> dict[str, Any]:
    """The event's own split rule, rounding and unit ("" or None: the regulation's)."""
    if stored is None:
        return {"split_rule": "", "rounding": "", "unit": None}
    return {"split_rule": stored.split_rule, "rounding": stored.rounding, "unit": stored.unit}


def prize_settings_effective(event: Event) -> EffectivePrizeSettings:
    preset = event.regulation.preset
    regulation = prize_regulation(preset)
    stored = _stored_overrides(PrizeSettings.objects.filter(event=event).first())
    split = stored["split_rule"] or regulation.split_rule
    rounding = stored["rounding"] or regulation.rounding
    unit = stored["unit"] if stored["unit"] is not None else DEFAULT_UNIT
    overridden = {name for name, value in stored.items() if value not in ("", None)}
    return EffectivePrizeSettings(
        split_rule=split,
        rounding=rounding,
        unit=plain_decimal(unit),
        tour_points_table=regulation.tour_points_table,
        overridden=frozenset(overridden),
        preset=preset,
    )


def prize_fund(event: Event) -> PrizeFund:
    prizes = PlacePrize.objects.filter(event=event).order_by("place").values_list("place", "amount")
    return PrizeFund(
        tuple(FundPrize(place, plain_decimal(amount)) for place, amount in prizes), event.currency
    )


def category_parse(*, code: str, name: str, conditions: Any, amounts: Sequence[Any]) -> Category:
    """A stored or entered category as the engine's :class:`Category` (validates it).

    Raises :class:`PrizeInputError` naming the condition or amount at fault.
    """
    if not isinstance(conditions, list) or not all(isinstance(c, dict) for c in conditions):
        raise PrizeInputError(
            'conditions: expected a list such as [{"field": "sex", "op": "eq", "value": "w"}]'
        )
    parsed = []
    for index, raw in enumerate(conditions, 1):
        if set(raw) != {"field", "op", "value"}:
            raise PrizeInputError(f"condition {index}: needs exactly field, op and value")
        parsed.append(Condition(str(raw["field"]), str(raw["op"]), raw["value"]))
    return Category(code, name, tuple(parsed), tuple(money(a, "amount") for a in amounts))


def money(value: Any, what: str) -> Decimal:
    """An exact amount from text or a Decimal; floats are refused (design.md §3)."""
    if isinstance(value, float | bool):
        raise PrizeInputError(f"{what}: {value!r} must be written as text, not a float")
    try:
        amount = Decimal(str(value).strip().replace(",", ""))
    except InvalidOperation:
        raise PrizeInputError(f"{what}: {value!r} is not an amount") from None
    if not amount.is_finite() or amount < 0:
        raise PrizeInputError(f"{what}: {value!r} is not an amount")
    return amount


def event_category_records(event: Event) -> list[CategoryPrize]:
    return list(CategoryPrize.objects.filter(event=event).order_by("position", "code"))


def event_categories(event: Event) -> tuple[Category, ...]:
    return tuple(
        category_parse(
            code=record.code,
            name=record.name,
            conditions=record.conditions,
            amounts=record.amounts,
        )
        for record in CategoryPrize.objects.filter(event=event).order_by("position", "code")
    )


# --------------------------------------------------------------------------------------------
# The ranking the prize engine splits over


def prize_ranking(event: Event, settings: EffectivePrizeSettings) -> FinalRanking:
    """The final ranking with the players' category attributes and a decided playoff.

    Two queries plus the (cached) standings and the playoff plan.
    """
    complete = last_complete_round(event)
    if complete < event.rounds:
        raise PrizesUnavailable(
            f"the event is not complete: results are complete up to round {complete} of "
            f"{event.rounds}, and prizes follow the final standings"
        )
    fmt = format_of(event)
    if fmt is not None and fmt.prize_standings is not None:
        rows, attributes = list(fmt.prize_standings(event)), {}  # teams: no player attributes
    else:
        rows = event_standings(event, after_round=event.rounds).rows
        attributes = {player.start_no: player for player in Player.objects.filter(event=event)}
    if settings.split_rule == "hort":
        placed = _points_groups(rows, attributes)
        winner, order = _playoff_outcome(event, placed)
        placed = _hort_first_group(event, placed, winner, order)
    else:
        placed = [_placed(row, attributes.get(row.start_no), row.rank, row.shared) for row in rows]
        winner, order = _playoff_outcome(event, placed)
    try:
        return FinalRanking(tuple(placed), playoff_winner=winner, playoff_order=order)
    except PrizeInputError as exc:
        raise PrizesUnavailable(str(exc)) from exc


def _placed(
    row: Standing, player: Player | None, rank: int, shared: bool, order: int | None = None
) -> PlacedPlayer:
    if player is None:  # a team (``Format.prize_standings``): no category attributes
        return PlacedPlayer(row.start_no, row.name, rank, shared, tiebreak_order=order)
    return PlacedPlayer(
        start_no=row.start_no,
        name=row.name,
        rank=rank,
        shared=shared,
        tiebreak_order=order,
        sex=player.sex,
        rating=player.rating or None,  # 0 is "unrated": a rating condition is then false
        birth_date=player.birth_date,
        federation=player.federation,
        birth_year=player.birth_year or (player.birth_date.year if player.birth_date else None),
    )


def _points_groups(rows: Sequence[Standing], attributes: dict[int, Player]) -> list[PlacedPlayer]:
    """Ties on points, ordered inside by the tie-breaks (the Hort split's input); players the
    tie-breaks leave level share their position (1, 1, 3), as ``prizes.split.hort_split``
    reads it."""
    placed: list[PlacedPlayer] = []
    for _, members in groupby(rows, key=lambda row: row.points):
        group = list(members)
        first = len(placed) + 1
        placed.extend(
            _placed(
                row,
                attributes.get(row.start_no),
                first,
                len(group) > 1,
                row.rank - group[0].rank + 1,
            )
            for row in group
        )
    return placed


def _in_playoff_order(
    player: PlacedPlayer, winner: int | None, order: tuple[int, ...]
) -> PlacedPlayer:
    """A player of the tie for first in the playoff's order; with only the winner known, the
    others stay level behind."""
    if order:
        return replace(player, tiebreak_order=order.index(player.start_no) + 1)
    return replace(player, tiebreak_order=1 if player.start_no == winner else 2)


def _unordered(tied: Sequence[PlacedPlayer]) -> bool:
    """More than one player of the tie for first stands first in its order."""
    return sum(1 for p in tied if p.tiebreak_order == 1) > 1


def _hort_first_group(
    event: Event, placed: list[PlacedPlayer], winner: int | None, order: tuple[int, ...]
) -> list[PlacedPlayer]:
    """A tie for first takes the playoff's order (issue 20: the classic Hort system "from the
    playoff order"). While the regulation's playoff has not decided it, the sheet waits, as
    GCT 3.8's does, rather than pay a split the playoff would change."""
    tied = [p for p in placed if p.rank == 1]
    if len(tied) < 2:
        return placed
    if order or winner is not None:
        return [_in_playoff_order(p, winner, order) if p.rank == 1 else p for p in placed]
    if _unordered(tied) and playoff_rule(event) is not None:
        raise PrizesUnavailable(
            "the playoff has not decided the order of the tie for first yet, and the Hort "
            "system keeps half of each place's prize in that order: enter the playoff's "
            "results first"
        )
    return placed


def _playoff_outcome(
    event: Event, placed: Sequence[PlacedPlayer]
) -> tuple[int | None, tuple[int, ...]]:
    """The decided playoff's winner and order when they concern the tie for first."""
    tied = {player.start_no for player in placed if player.rank == 1}
    if len(tied) < 2:
        return None, ()
    try:
        plan = event_playoff(event)
    except PlayoffInputError as exc:
        raise PrizesUnavailable(f"the playoff cannot be read: {exc}") from exc
    if plan is None or plan.status != "decided" or plan.winner not in tied:
        return None, ()
    order = plan.order if set(plan.order) == tied and len(plan.order) == len(tied) else ()
    return plan.winner, order


# --------------------------------------------------------------------------------------------
# The allocation


@dataclass(frozen=True)
class PrizeAllocation:
    event: Event
    settings: EffectivePrizeSettings
    ranking: FinalRanking
    sheet: PrizeSheet
    categories: CategoryOutcome | None
    fund: PrizeFund
    fide_ids: dict[int, str]
    board_prizes: list[dict[str, Any]] | None = None
    category_names: dict[str, str] = field(default_factory=dict)


def _fide_ids(event: Event, fmt: Format | None) -> dict[int, str]:
    """The players' FIDE ids by start number; none when the rows are teams."""
    if fmt is not None and fmt.prize_standings is not None:
        return {}
    return dict(Player.objects.filter(event=event).values_list("start_no", "fide_id"))


def _board_prizes(
    event: Event, fmt: Format | None, settings: EffectivePrizeSettings
) -> list[dict[str, Any]] | None:
    """The format's prizes besides the places (a team event's board prizes), if any."""
    if fmt is None or fmt.board_prizes is None:
        return None
    try:
        return fmt.board_prizes(event, settings)
    except PrizeInputError as exc:  # a board prize that is not a whole number of units
        raise PrizesUnavailable(f"board prizes: {exc}") from exc


def prizes_allocate(*, event: Event) -> PrizeAllocation:
    """The prize sheet of ``event`` as of now (seed 000, 2.6, 2.7, 3.8–3.10 via the engine).

    Raises :class:`PrizesUnavailable` when the event is not complete, when the GCT 3.8 split
    still needs the playoff winner ("the playoff has not decided a winner yet"), or when the
    settings do not fit the fund.
    """
    settings = prize_settings_effective(event)
    ranking = prize_ranking(event, settings)
    fund = prize_fund(event)
    table = settings.tour_points_table
    points = tour_points(ranking, table) if table else None
    try:
        sheet = allocate_prizes(
            ranking,
            fund,
            split_rule_code=settings.split_rule,
            rounding_code=settings.rounding,
            unit=settings.unit,
            tour_points=points,
        )
        categories = event_categories(event)
        outcome = allocate_categories(ranking, sheet, categories) if categories else None
    except PlayoffWinnerRequired as exc:
        raise PrizesUnavailable(
            "the playoff has not decided a winner yet, and the tie for first splits its prize "
            f"money by the playoff's result ({settings.split_rule_name}, GCT 3.8)"
        ) from exc
    except PrizeInputError as exc:
        raise PrizesUnavailable(str(exc)) from exc
    fmt = format_of(event)
    fide_ids = _fide_ids(event, fmt)
    boards = _board_prizes(event, fmt, settings)
    names = {category.code: category.name for category in categories}
    return PrizeAllocation(event, settings, ranking, sheet, outcome, fund, fide_ids, boards, names)


def sheet_document(allocation: PrizeAllocation) -> dict[str, Any]:
    """The ``prizes`` JSON of design.md §4, plus keys the pages, exports and approvals need
    (design.md allows extra keys): exact amounts, the policy, category prizes, FIDE ids (for
    matching players across a tour series) and the results version it was computed at."""
    sheet, settings, event = allocation.sheet, allocation.settings, allocation.event
    document = prize_sheet_json(sheet, event.slug)
    for row, record in zip(sheet.rows, document["rows"], strict=True):  # type: ignore[call-overload]
        record["exact_amount"] = str(row.exact_amount)
        record["playoff_winner"] = row.playoff_winner
        record["fide_id"] = allocation.fide_ids.get(row.start_no, "")
    document.update(
        event_name=event.name,
        time_control=event.time_control,
        results_version=event.results_version,
        split_rule_name=settings.split_rule_name,
        rounding_name=settings.rounding_name,
        unit=str(settings.unit),
        unawarded=str(sheet.unawarded),
        tour_points_table=settings.tour_points_table,
        playoff_winner=allocation.ranking.playoff_winner,
        places=[
            {"place": prize.place, "amount": str(prize.amount)} for prize in allocation.fund.prizes
        ],
        categories=_categories_json(allocation.categories, allocation.category_names),
    )
    if allocation.board_prizes is not None:
        document["board_prizes"] = allocation.board_prizes
    return document


def _categories_json(
    outcome: CategoryOutcome | None, names: dict[str, str]
) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "total_paid": str(outcome.total_paid),
        "payouts": [
            {
                "rank": payout.rank,
                "start_no": payout.start_no,
                "name": payout.name,
                "amount": str(payout.amount),
                "source": payout.source,
                "breakdown": payout.breakdown,
            }
            for payout in outcome.payouts
        ],
        "awards": [
            {
                "start_no": award.start_no,
                "category": award.category,
                "category_name": names.get(award.category, award.category),
                "shared": len(award.positions) > 1,
                "amount": str(award.amount),
                "breakdown": award.breakdown,
            }
            for award in outcome.awards
        ],
        "released": [
            {"start_no": item.start_no, "amount": str(item.amount), "reason": item.reason}
            for item in outcome.released
        ],
        "unawarded": [
            {
                "category": item.category,
                "category_name": names.get(item.category, item.category),
                "position": item.position,
                "amount": str(item.amount),
            }
            for item in outcome.unawarded
        ],
    }


def prize_money(document: dict[str, Any]) -> dict[int, Decimal]:
    """Start number → what the player is paid: the category payout when categories exist
    (one prize per player, the higher), else the main sheet's amount."""
    categories = document.get("categories")
    rows = categories["payouts"] if categories else document["rows"]
    return {row["start_no"]: Decimal(row["amount"]) for row in rows}


# --------------------------------------------------------------------------------------------
# Approvals and the page


def approval_latest(event: Event) -> PrizeSheetApproval | None:
    return (
        PrizeSheetApproval.objects.filter(event=event)
        .select_related("approved_by")
        .order_by("-approved_at", "-id")
        .first()
    )


def approved_document(approval: PrizeSheetApproval) -> dict[str, Any]:
    """The approved snapshot with who approved it and when (the ``approval`` key), as every
    export of it says (issue 29). The snapshot itself is stored as it was computed."""
    return {
        **approval.snapshot,
        "approval": {
            "approved_by": approval.approved_by.get_username() if approval.approved_by else None,
            "approved_at": timezone.localtime(approval.approved_at).isoformat(),
            "results_version": approval.results_version,
        },
    }


def approval_is_outdated(approval: PrizeSheetApproval, event: Event) -> bool:
    """Any write to the event since the approval (a result, a correction, the fund)."""
    return approval.results_version != event.results_version


@dataclass(frozen=True)
class PrizePage:
    """What the prize sheet page shows. ``published`` is the approved snapshot (everyone);
    ``draft`` the current computation (the director only) or ``draft_error`` why there is
    none; ``draft_differs`` whether re-approving would change any amount or row."""

    is_director: bool
    approval: PrizeSheetApproval | None
    published: dict[str, Any] | None
    outdated: bool
    draft: dict[str, Any] | None
    draft_error: str
    draft_differs: bool


def prize_page(event: Event, user: AbstractBaseUser | AnonymousUser) -> PrizePage:
    is_director = user_role(event, user) == Role.DIRECTOR
    approval = approval_latest(event)
    outdated = approval is not None and approval_is_outdated(approval, event)
    draft, error = None, ""
    if is_director:
        try:
            draft = sheet_document(prizes_allocate(event=event))
        except PrizesUnavailable as exc:
            error = str(exc)
    published = approved_document(approval) if approval else None
    return PrizePage(
        is_director=is_director,
        approval=approval,
        published=published,
        outdated=outdated,
        draft=draft,
        draft_error=error,
        draft_differs=bool(published and draft and _payload(published) != _payload(draft)),
    )


def _payload(document: dict[str, Any]) -> tuple[Any, ...]:
    """What a payee would notice: rows, totals, category payouts and board prizes (not the
    version, nor the keys a newer sheet adds)."""
    categories = document.get("categories") or {}
    payouts = [(p["start_no"], p["amount"], p["source"]) for p in categories.get("payouts", ())]
    return (document["rows"], document["total_paid"], payouts, document.get("board_prizes"))


# --------------------------------------------------------------------------------------------
# Tour series (seed 000 §4)


def player_identity(row: dict[str, Any]) -> str:
    """Who a sheet row is across the events of a series: the FIDE id when the event has one,
    else the exact name as entered (so "Carlsen, Magnus" and "Magnus Carlsen" are two players
    unless both events carry the FIDE id)."""
    fide_id = str(row.get("fide_id") or "").strip()
    return f"fide:{fide_id}" if fide_id else f"name:{row['name']}"


@dataclass(frozen=True)
class SeriesEventSheet:
    """One event of a series and the sheet it counts with. ``source``: ``approved`` (the
    current approved snapshot), ``outdated`` (an approved snapshot the results have moved past;
    still what counts until re-approved), ``draft`` (nothing approved: computed now, provisional)
    or ``unavailable`` (not complete, playoff pending: counts nothing yet, ``note`` says why)."""

    event: Event
    classical: bool
    source: str
    note: str
    document: dict[str, Any] | None


@dataclass(frozen=True)
class SeriesRow:
    place: str
    standing: TourStandingRow
    per_event: tuple[str, ...]
    tour_points: str
    classical_tour_points: str
    prize_money: str
    classical_prize_money: str


@dataclass(frozen=True)
class SeriesStandings:
    series: Series
    sheets: tuple[SeriesEventSheet, ...]
    rows: tuple[SeriesRow, ...]


def series_event_sheets(series: Series) -> tuple[SeriesEventSheet, ...]:
    events = list(series.events.select_related("regulation").order_by("start_date", "name", "pk"))
    latest: dict[int, PrizeSheetApproval] = {}
    for approval in PrizeSheetApproval.objects.filter(event__in=events).order_by(
        "event_id", "-approved_at", "-id"
    ):
        latest.setdefault(approval.event_id, approval)
    sheets = []
    for event in events:
        classical = event.time_control == TimeControl.CLASSICAL
        approval = latest.get(event.pk)
        if approval is not None:
            source = "outdated" if approval_is_outdated(approval, event) else "approved"
            sheets.append(SeriesEventSheet(event, classical, source, "", approval.snapshot))
            continue
        try:
            document = sheet_document(prizes_allocate(event=event))
        except PrizesUnavailable as exc:
            sheets.append(SeriesEventSheet(event, classical, "unavailable", str(exc), None))
        else:
            sheets.append(SeriesEventSheet(event, classical, "draft", "", document))
    return tuple(sheets)


def _tour_event(sheet: SeriesEventSheet) -> TourEvent:
    assert sheet.document is not None
    money_by_no = prize_money(sheet.document)
    return TourEvent(
        code=sheet.event.slug,
        classical=sheet.classical,
        results=tuple(
            TourEventResult(
                player=player_identity(row),
                name=row["name"],
                tour_points=Fraction(row["tour_points"] or 0),
                prize_money=money_by_no[row["start_no"]],
            )
            for row in sheet.document["rows"]
        ),
    )


def _per_event(
    points: dict[tuple[str, str], Fraction], tour_events: Sequence[TourEvent], player: str
) -> tuple[str, ...]:
    """A player's tour points event by event; "–" where the player did not play."""
    return tuple(
        points_text(points[key]) if (key := (e.code, player)) in points else "–"
        for e in tour_events
    )


def series_standings(series: Series) -> SeriesStandings:
    """The tour standings (seed 000, 4.1–4.3 via :func:`prizes.tour.tour_standings`): tour
    points and prize money from each event's sheet; places 1–4 broken by 4.3.A, B, C; ties for
    5th and below left tied (4.2)."""
    sheets = series_event_sheets(series)
    counted = [sheet for sheet in sheets if sheet.document is not None]
    tour_events = [_tour_event(sheet) for sheet in counted]
    try:
        standings = tour_standings(tour_events)
    except PrizeInputError as exc:
        raise PrizesUnavailable(str(exc)) from exc
    points = {
        (event.code, result.player): result.tour_points
        for event in tour_events
        for result in event.results
    }
    sizes = Counter(row.rank for row in standings)
    rows = tuple(
        SeriesRow(
            place=place_label(row.rank, sizes[row.rank]),
            standing=row,
            per_event=_per_event(points, tour_events, row.totals.player),
            tour_points=points_text(row.totals.tour_points),
            classical_tour_points=points_text(row.totals.classical_tour_points),
            prize_money=format_money(row.totals.prize_money),
            classical_prize_money=format_money(row.totals.classical_prize_money),
        )
        for row in standings
    )
    return SeriesStandings(series, sheets, rows)


def events_directed_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    if not user.is_authenticated:
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.order_by("-start_date", "name")
    return Event.objects.filter(access__user=user, access__role=Role.DIRECTOR).order_by(
        "-start_date", "name"
    )


def series_get(slug: str) -> Series:
    try:
        return Series.objects.select_related("created_by").get(slug=slug)
    except Series.DoesNotExist as exc:
        raise Http404("No such series") from exc


def series_for_owner(slug: str, user: AbstractBaseUser | AnonymousUser) -> Series:
    """The series for its creator (or a superuser); 403 for anyone else."""
    series = series_get(slug)
    if not (user.is_superuser or (series.created_by_id and series.created_by_id == user.pk)):
        raise PermissionDenied("Only the director who created this series may change it.")
    return series


def series_list() -> QuerySet[Series]:
    return Series.objects.annotate(event_count=Count("events")).order_by("name")
