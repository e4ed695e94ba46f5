"""The crosstable as the rule engines see it: plain frozen dataclasses, no Django.

Every engine (tie-breaks, ranking, playoffs, prizes, TRF import/export) takes these records.
The selectors in the Django apps build them from one narrow query; the TRF parser builds them
from a file. Keeping one shape for both is what lets FIDE's own calculator (which reads TRF)
serve as an oracle for the same data our pages show.

A player's round is described the way TRF16 does (rules-notes, "TRF16"): an opponent start
number or none, a colour, and a one-character result code.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

# TRF16 result codes (FIDE TRF16 / TRF-2026, rules-notes "TRF16").
PLAYED_CODES = frozenset("1=0WDL")  # W D L: games of under one move, counted as played
FORFEIT_WIN = "+"
FORFEIT_LOSS = "-"
PAIRING_BYE = "U"  # pairing-allocated bye
FULL_BYE = "F"  # requested full-point bye
HALF_BYE = "H"  # requested half-point bye
ZERO_BYE = "Z"  # zero-point bye (also a blank code; withdrawals, absences)
ALL_CODES = frozenset("1=0WDL+-UFHZ")

WIN_CODES = frozenset("1W+UF")
DRAW_CODES = frozenset("=DH")
LOSS_CODES = frozenset("0L-Z")


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's round: ``opponent`` is a start number, or None for a bye or absence.

    ``colour`` is ``"w"``, ``"b"`` or ``"-"`` (no colour: a bye, or a forfeit where the file
    gives none). ``code`` is a TRF16 result code from :data:`ALL_CODES`. ``time_control`` is
    empty unless the regulation scores time controls differently (GCT Rapid & Blitz, where a
    rapid game counts double).
    """

    round: int
    opponent: int | None
    colour: str
    code: str
    time_control: str = ""

    @property
    def played(self) -> bool:
        """Played over the board (the W/D/L codes count as played, TRF16)."""
        return self.opponent is not None and self.code in PLAYED_CODES

    @property
    def is_forfeit(self) -> bool:
        return self.code in (FORFEIT_WIN, FORFEIT_LOSS)


_new_result = object.__new__
_set_round, _set_opponent, _set_colour, _set_code, _set_time_control = (
    getattr(RoundResult, name).__set__
    for name in ("round", "opponent", "colour", "code", "time_control")
)


def round_result(
    round_no: int, opponent: int | None, colour: str, code: str, time_control: str = ""
) -> RoundResult:
    """``RoundResult(round_no, opponent, colour, code, time_control)``, for loaders that make
    tens of thousands (22,000 for a 2000-player, 11-round event).

    The same frozen record, equal to the constructor's, made by setting its slots directly:
    the dataclass's ``__init__`` goes through ``object.__setattr__`` once per field to get
    past ``frozen``, and was a tenth of the ``standings`` command's work (docs/performance.md).
    The dataclass checks nothing, so nothing is skipped.
    """
    result = _new_result(RoundResult)
    _set_round(result, round_no)
    _set_opponent(result, opponent)
    _set_colour(result, colour)
    _set_code(result, code)
    _set_time_control(result, time_control)
    return result


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player with their rounds, one :class:`RoundResult` per round, in order."""

    start_no: int
    name: str
    rating: int = 0  # 0 means unrated
    federation: str = ""
    fide_id: str = ""
    title: str = ""
    sex: str = ""
    birth_date: dt.date | None = None
    results: tuple[RoundResult, ...] = ()
    birth_year: int | None = None  # when only the year is known (a rating list's)


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per outcome. FIDE default 1 / ½ / 0; byes and forfeits score like results.

    ``time_control_weights`` multiplies a game's points by its time control (GCT Rapid &
    Blitz 2019: ``{"rapid": 2}``; seed 000 and rules-notes "Rapid & Blitz scoring").
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    pairing_bye: Fraction = Fraction(1)
    full_bye: Fraction = Fraction(1)
    half_bye: Fraction = Fraction(1, 2)
    zero_bye: Fraction = Fraction(0)
    time_control_weights: tuple[tuple[str, Fraction], ...] = ()

    def points(self, result: RoundResult) -> Fraction:
        base = {
            "1": self.win,
            "W": self.win,
            "=": self.draw,
            "D": self.draw,
            "0": self.loss,
            "L": self.loss,
            FORFEIT_WIN: self.forfeit_win,
            FORFEIT_LOSS: self.forfeit_loss,
            PAIRING_BYE: self.pairing_bye,
            FULL_BYE: self.full_bye,
            HALF_BYE: self.half_bye,
        }.get(result.code, self.zero_bye)
        for time_control, weight in self.time_control_weights:
            if result.time_control == time_control:
                return base * weight
        return base


@dataclass(frozen=True, slots=True)
class Crosstable:
    """A whole event's results, as of ``rounds`` rounds (later rounds are cut off).

    ``round_robin`` selects C.07 Art. 15.2 instead of Art. 16 for unplayed rounds.
    """

    name: str
    rounds: int
    entrants: tuple[Entrant, ...]
    start_date: dt.date | None = None
    round_robin: bool = False
    scoring: Scoring = field(default_factory=Scoring)

    def entrant(self, start_no: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.start_no == start_no:
                return entrant
        raise KeyError(start_no)
