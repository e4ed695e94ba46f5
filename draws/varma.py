"""The FIDE restricted drawing of lots with the Varma tables (seed 001, Handbook C.07, 1987).

Pure: no Django. The aim (seed 001, introduction) is that players of the same federation do not
meet in the last three rounds of the round robin, where possible. The pairing numbers drawn here
feed the Berger tables (:mod:`draws.berger`).

The ceremony (seed 001, clauses 1–5; rules-notes "FIDE Varma tables (seed 001)"):

- The table is the one labelled for n or n + 1 players (9/10 … 23/24, clause 5). Its four groups
  A–D are the large envelopes (clause 1). With an odd field the highest number is the free
  round: nobody draws it, so it is taken out of its envelope before the ceremony.
- Drawing order (clause 2): contingents (the players of one federation) by size, largest first;
  equal sizes by FIDE code alphabetically; within a contingent by name alphabetically. A player
  whose federation has no other representative is a contingent of one, so single
  representatives come last, by code and then name, and draw from whatever remains (clause 4).
- The first player of a contingent chooses a large envelope that still holds at least as many
  numbers as the contingent has players; the whole contingent draws from it; what remains stays
  available (clause 3).

Decisions where the seed is silent (rules-notes asks for them to be documented):

- A contingent larger than every envelope still holding numbers at its turn is split across the
  fewest envelopes, largest first: its players draw from one of the fullest envelopes until it
  is empty; then the players still to draw choose again by the same rule (any envelope that
  holds enough numbers for all of them, else one of the fullest). This can also happen to a
  contingent that would have fitted an untouched envelope, when larger contingents before it
  have used the room. A split contingent can meet in the last three rounds: that is reported.
- Fewer than 9 or more than 24 players: no Varma table exists, so the numbers 1..n are drawn
  from one envelope, labelled "A", and the table is reported as "plain". The drawing order is
  the same (it only fixes who draws when).
- A blank federation is no federation: such a player is a contingent of one (code "").
  Federation codes are compared without case or surrounding spaces; names are compared
  alphabetically without case or accents, then by start number so that the order is total.
- A physical ceremony is recorded by applying the director's entries one by one with
  :func:`apply_draw`, which validates each entry against the rules instead of drawing it; the
  computer draw (:func:`computer_draw`) is the same state machine fed by a seeded lot.

The regulation's own tables do not always achieve the aim: FIDE's 11/12 table puts 6 and 12 in
group C and the Berger table pairs 6–12 in round 11. The table is followed as published, and
every meeting of two players of the same federation in the last three rounds of the single
round robin is reported as a :class:`VarmaWarning` naming them and the round. In a double round
robin the last three rounds are the same pairings (colours reversed), so the warnings hold there
too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from draws.berger import (
    Round,
    double_round_robin,
    single_round_robin,
    table_size,
    without_free_round,
)
from draws.lots import LotDrawer
from events.sources import FIDE_VARMA, cite

ENVELOPE_LABELS = ("A", "B", "C", "D")
PLAIN_TABLE = "plain"
LOT_PURPOSE = "varma"
RESTRICTED_ROUNDS = 3  # seed 001, introduction: "do not meet in the last three rounds"
SMALLEST_VARMA_FIELD = 9
LARGEST_VARMA_FIELD = 24

# Seed 001, clause 5, groups A–D in order. The seed's "4, 20)" for group D of 19/20 is an
# extraction artefact of "(4, 20)"; clause 1 gives the same 19/20 groups.
VARMA_TABLES: dict[str, tuple[tuple[int, ...], ...]] = {
    "9/10": ((3, 4, 8), (5, 7, 9), (1, 6), (2, 10)),
    "11/12": ((4, 5, 9, 10), (1, 2, 7), (6, 8, 12), (3, 11)),
    "13/14": ((4, 5, 6, 11, 12), (1, 2, 8, 9), (7, 10, 13), (3, 14)),
    "15/16": ((5, 6, 7, 12, 13, 14), (1, 2, 3, 9, 10), (8, 11, 15), (4, 16)),
    "17/18": ((5, 6, 7, 8, 14, 15, 16), (1, 2, 3, 10, 11, 12), (9, 13, 17), (4, 18)),
    "19/20": ((6, 7, 8, 9, 15, 16, 17, 18), (1, 2, 3, 11, 12, 13, 14), (5, 10, 19), (4, 20)),
    "21/22": (
        (6, 7, 8, 9, 10, 17, 18, 19, 20),
        (1, 2, 3, 4, 12, 13, 14, 15),
        (11, 16, 21),
        (5, 22),
    ),
    "23/24": (
        (6, 7, 8, 9, 10, 11, 19, 20, 21, 22),
        (1, 2, 3, 4, 13, 14, 15, 16, 17),
        (12, 18, 23),
        (5, 24),
    ),
}


class VarmaError(ValueError):
    """An input or a recorded entry that breaks the rules; the message is for the director."""


@dataclass(frozen=True)
class VarmaPlayer:
    """A registered player taking part in the drawing of lots."""

    start_no: int
    name: str
    federation: str


@dataclass(frozen=True)
class Envelope:
    """A large envelope as prepared before the ceremony (seed 001, clause 1)."""

    label: str
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Contingent:
    """The players of one federation, in their drawing order (seed 001, clause 2)."""

    federation: str
    players: tuple[VarmaPlayer, ...]


@dataclass(frozen=True)
class VarmaDraw:
    """One player's drawn pairing number and the envelope it came from."""

    start_no: int
    federation: str
    envelope: str
    number: int


@dataclass(frozen=True)
class VarmaWarning:
    """Two players of one federation who meet in one of the last three rounds."""

    round: int
    federation: str
    start_nos: tuple[int, int]  # White first
    numbers: tuple[int, int]  # White first
    message: str


@dataclass(frozen=True)
class VarmaResult:
    """The outcome of the ceremony: every player's number, in drawing order."""

    table: str  # "19/20", or "plain" outside 9–24 players
    order: tuple[VarmaDraw, ...]
    warnings: tuple[VarmaWarning, ...]

    @property
    def players_count(self) -> int:
        return len(self.order)

    def pairing_numbers(self) -> dict[int, int]:
        """Start number → pairing number."""
        return {draw.start_no: draw.number for draw in self.order}


@dataclass(frozen=True)
class VarmaCeremony:
    """The state of a ceremony: what was prepared and what has been drawn so far."""

    table: str
    players_count: int
    contingents: tuple[Contingent, ...]  # in drawing order
    envelopes: tuple[Envelope, ...]  # free-round number already removed
    draws: tuple[VarmaDraw, ...] = ()

    @property
    def order(self) -> tuple[VarmaPlayer, ...]:
        """Every player in drawing order (seed 001, clause 2)."""
        return tuple(player for contingent in self.contingents for player in contingent.players)


# --- preparing the ceremony -------------------------------------------------------------------


def varma_table_label(players_count: int) -> str:
    """The table for n players: the one labelled for n or n + 1 (seed 001, clause 5)."""
    if not SMALLEST_VARMA_FIELD <= players_count <= LARGEST_VARMA_FIELD:
        return PLAIN_TABLE
    even = table_size(players_count)
    return f"{even - 1}/{even}"


def prepared_envelopes(players_count: int) -> tuple[Envelope, ...]:
    """The large envelopes for the field (seed 001, clause 1).

    The free round of an odd field (the table's highest number) is taken out beforehand, since
    nobody may draw it. Outside 9–24 players there is one envelope holding every number.
    """
    label = varma_table_label(players_count)
    if label == PLAIN_TABLE:
        return (Envelope(ENVELOPE_LABELS[0], tuple(range(1, players_count + 1))),)
    return tuple(
        Envelope(envelope, tuple(number for number in group if number <= players_count))
        for envelope, group in zip(ENVELOPE_LABELS, VARMA_TABLES[label], strict=True)
    )


def _federation_code(player: VarmaPlayer) -> str:
    return player.federation.strip().upper()


def _name_key(player: VarmaPlayer) -> tuple[str, str, int]:
    # Alphabetical as a person reads it: "Ängel" sorts with "Angel", case does not matter.
    decomposed = unicodedata.normalize("NFKD", player.name)
    letters = "".join(char for char in decomposed if not unicodedata.combining(char))
    return (letters.casefold(), player.name, player.start_no)


def drawing_order(players: Sequence[VarmaPlayer]) -> tuple[Contingent, ...]:
    """Contingents in drawing order (seed 001, clause 2).

    Largest contingent first, equal sizes by FIDE code, players by name. Single representatives
    are contingents of one and so come last, by code and then name. Players without a federation
    are contingents of one each.
    """
    by_code: dict[str, list[VarmaPlayer]] = {}
    unaffiliated: list[VarmaPlayer] = []
    for player in players:
        code = _federation_code(player)
        if code:
            by_code.setdefault(code, []).append(player)
        else:
            unaffiliated.append(player)
    groups = [(code, sorted(members, key=_name_key)) for code, members in by_code.items()]
    groups += [("", [player]) for player in unaffiliated]
    groups.sort(key=lambda group: (-len(group[1]), group[0], _name_key(group[1][0])))
    return tuple(Contingent(code, tuple(members)) for code, members in groups)


def prepare_ceremony(players: Sequence[VarmaPlayer]) -> VarmaCeremony:
    """A ceremony ready for its first drawer."""
    start_nos = [player.start_no for player in players]
    if len(players) < 2:
        raise VarmaError("a drawing of lots for a round robin needs at least two players")
    if len(set(start_nos)) != len(start_nos):
        raise VarmaError("two players have the same start number")
    return VarmaCeremony(
        table=varma_table_label(len(players)),
        players_count=len(players),
        contingents=drawing_order(players),
        envelopes=prepared_envelopes(len(players)),
    )


# --- reading the state ------------------------------------------------------------------------


def is_complete(state: VarmaCeremony) -> bool:
    return len(state.draws) == state.players_count


def next_drawer(state: VarmaCeremony) -> VarmaPlayer | None:
    """Whose turn it is (seed 001, clauses 2 and 4), or None once everybody has drawn."""
    if is_complete(state):
        return None
    return state.order[len(state.draws)]


def _current_contingent(state: VarmaCeremony) -> Contingent:
    drawn = len(state.draws)
    for contingent in state.contingents:
        if drawn < len(contingent.players):
            return contingent
        drawn -= len(contingent.players)
    raise VarmaError("every player has already drawn")


def _envelope(state: VarmaCeremony, label: str) -> Envelope:
    for envelope in state.envelopes:
        if envelope.label == label:
            return envelope
    labels = ", ".join(envelope.label for envelope in state.envelopes)
    raise VarmaError(f"there is no envelope {label!r}; the envelopes are {labels}")


def remaining_numbers(state: VarmaCeremony, label: str) -> tuple[int, ...]:
    """The numbers still in an envelope, ascending."""
    taken = {draw.number for draw in state.draws}
    return tuple(sorted(n for n in _envelope(state, label).numbers if n not in taken))


def _still_to_draw(state: VarmaCeremony, contingent: Contingent) -> int:
    drawn = {draw.start_no for draw in state.draws}
    return sum(1 for player in contingent.players if player.start_no not in drawn)


def _open_envelope(state: VarmaCeremony, contingent: Contingent) -> str | None:
    """The envelope the contingent is drawing from, while it still holds numbers (clause 3)."""
    if not state.draws or _still_to_draw(state, contingent) == len(contingent.players):
        return None
    label = state.draws[-1].envelope  # a contingent's players draw one after another
    return label if remaining_numbers(state, label) else None


def allowed_envelopes(state: VarmaCeremony) -> tuple[str, ...]:
    """The envelopes the next drawer may draw from (seed 001, clause 3).

    The contingent's envelope while it holds numbers; otherwise every envelope holding enough
    numbers for the contingent's players still to draw; if none does, the fullest envelopes
    (the split rule in the module docstring).
    """
    if is_complete(state):
        return ()
    contingent = _current_contingent(state)
    open_label = _open_envelope(state, contingent)
    if open_label is not None:
        return (open_label,)
    needed = _still_to_draw(state, contingent)
    room = {
        envelope.label: len(remaining_numbers(state, envelope.label))
        for envelope in state.envelopes
    }
    enough = tuple(label for label, count in room.items() if count >= needed)
    if enough:
        return enough
    fullest = max(room.values())
    return tuple(label for label, count in room.items() if count == fullest)


# --- recording a draw -------------------------------------------------------------------------


def _check_turn(state: VarmaCeremony, start_no: int) -> VarmaPlayer:
    player = next_drawer(state)
    if player is None:
        raise VarmaError("every player has already drawn")
    if player.start_no != start_no:
        raise VarmaError(
            f"it is {player.name}'s turn (start no. {player.start_no}), not start no. {start_no}"
        )
    return player


def _check_envelope(state: VarmaCeremony, label: str) -> None:
    allowed = allowed_envelopes(state)
    if label in allowed:
        return
    contingent = _current_contingent(state)
    federation = contingent.federation or "unaffiliated"
    choices = ", ".join(allowed)
    if _open_envelope(state, contingent) is not None:
        raise VarmaError(
            f"wrong envelope for the contingent: the {federation} players draw from envelope "
            f"{allowed[0]} while it holds numbers ({cite(FIDE_VARMA, 'clause 3')})"
        )
    needed = _still_to_draw(state, contingent)
    held = len(remaining_numbers(state, label))
    if len(remaining_numbers(state, allowed[0])) < needed:  # nothing fits: split rule
        raise VarmaError(
            f"no envelope holds enough numbers for the {needed} {federation} players still to "
            f"draw, so the contingent is split, starting with a fullest envelope: {choices}"
        )
    raise VarmaError(
        f"envelope {label} holds {held} number(s), too few for the {needed} {federation} "
        f"player(s) still to draw; choose from {choices} ({cite(FIDE_VARMA, 'clause 3')})"
    )


def _check_free_round(state: VarmaCeremony, number: int) -> None:
    # Checked before the envelope: whichever envelope is named, this number is not drawn.
    if state.players_count % 2 and number == state.players_count + 1:
        raise VarmaError(
            f"number {number} is the free round of a {state.players_count}-player field; "
            "it was taken out of its envelope before the ceremony"
        )


def _check_number(state: VarmaCeremony, label: str, number: int) -> None:
    if number not in _envelope(state, label).numbers:
        raise VarmaError(f"number {number} is not in envelope {label}")
    for draw in state.draws:
        if draw.number == number:
            raise VarmaError(f"number {number} was already drawn by start no. {draw.start_no}")


def apply_draw(state: VarmaCeremony, start_no: int, envelope: str, number: int) -> VarmaCeremony:
    """The state after one player draws ``number`` from ``envelope``.

    Validates the entry against seed 001 clauses 2–4 (whose turn, which envelope, which number)
    and raises :class:`VarmaError` with a reason the director can act on.
    """
    player = _check_turn(state, start_no)
    _envelope(state, envelope)  # an unknown label is its own error
    _check_free_round(state, number)
    _check_envelope(state, envelope)
    _check_number(state, envelope, number)
    draw = VarmaDraw(player.start_no, player.federation, envelope, number)
    return replace(state, draws=(*state.draws, draw))


# --- results ----------------------------------------------------------------------------------


def _warning_cause(state: VarmaCeremony, white: VarmaDraw, black: VarmaDraw) -> str:
    if state.table == PLAIN_TABLE:
        return (
            f"there is no Varma table for {state.players_count} players, so the numbers were "
            "drawn without restriction"
        )
    if white.envelope == black.envelope:
        return (
            f"FIDE's {state.table} table puts {white.number} and {black.number} together in "
            f"group {white.envelope} ({cite(FIDE_VARMA, 'clause 5')})"
        )
    return (
        f"the contingent was split across envelopes {white.envelope} and {black.envelope} "
        "because no envelope held enough numbers at its turn"
    )


def _late_meetings(state: VarmaCeremony) -> tuple[VarmaWarning, ...]:
    by_number = {draw.number: draw for draw in state.draws}
    names = {player.start_no: player.name for player in state.order}
    rounds = without_free_round(single_round_robin(state.players_count), state.players_count)
    first_late = max(1, len(rounds) - RESTRICTED_ROUNDS + 1)
    warnings: list[VarmaWarning] = []
    for round_no, pairings in enumerate(rounds[first_late - 1 :], start=first_late):
        for white_no, black_no in pairings:
            white, black = by_number[white_no], by_number[black_no]
            code = white.federation.strip().upper()
            if not code or code != black.federation.strip().upper():
                continue
            message = (
                f"round {round_no}: {names[white.start_no]} (start no. {white.start_no}, "
                f"number {white.number}) meets {names[black.start_no]} (start no. "
                f"{black.start_no}, number {black.number}), both {code}: "
                + _warning_cause(state, white, black)
            )
            warnings.append(
                VarmaWarning(
                    round_no, code, (white.start_no, black.start_no), (white_no, black_no), message
                )
            )
    return tuple(warnings)


def ceremony_result(state: VarmaCeremony) -> VarmaResult:
    """The finished ceremony with its warnings (seed 001, introduction: "if possible")."""
    if not is_complete(state):
        player = next_drawer(state)
        assert player is not None
        raise VarmaError(f"the ceremony is not finished: {player.name} has still to draw")
    return VarmaResult(state.table, state.draws, _late_meetings(state))


def _lot_for(state: VarmaCeremony, lots: LotDrawer) -> tuple[str, int]:
    allowed = allowed_envelopes(state)
    if len(_current_contingent(state).players) == 1:
        # A single representative draws from whatever remains (clause 4): every remaining number
        # is equally likely, whichever envelope holds it.
        pool = sorted((n, label) for label in allowed for n in remaining_numbers(state, label))
        number, label = lots.pick(pool)
        return label, number
    label = allowed[0] if len(allowed) == 1 else lots.pick(allowed)
    return label, lots.pick(remaining_numbers(state, label))


def computer_draw(players: Sequence[VarmaPlayer], seed: str) -> VarmaResult:
    """The ceremony drawn by a seeded lot; the same seed gives the same result.

    Re-implementable from this docstring with :class:`draws.lots.LotDrawer` (purpose "varma"):
    for each player in drawing order, take the allowed envelopes in label order. A contingent of
    one picks from all their remaining numbers (as (number, envelope) pairs, ascending). Anyone
    else picks an envelope when more than one is allowed, then a number from its remaining
    numbers, ascending.
    """
    lots = LotDrawer(seed, LOT_PURPOSE)
    state = prepare_ceremony(players)
    while (player := next_drawer(state)) is not None:
        label, number = _lot_for(state, lots)
        state = apply_draw(state, player.start_no, label, number)
    return ceremony_result(state)


def recorded_draw(
    players: Sequence[VarmaPlayer], entries: Iterable[tuple[int, str, int]]
) -> VarmaResult:
    """A physical ceremony: the director's (start_no, envelope, number) entries, in order."""
    state = prepare_ceremony(players)
    for start_no, envelope, number in entries:
        state = apply_draw(state, start_no, envelope, number)
    return ceremony_result(state)


def schedule(result: VarmaResult, players_count: int, double: bool = False) -> tuple[Round, ...]:
    """The Berger rounds as (white number, black number) pairs, for the JSON "rounds" key.

    Pairings against the free round of an odd field are left out: "rounds" lists games, and
    the player with the free round is the one number missing from a round (see
    :func:`draws.berger.free_round_player` on the full table).
    """
    if players_count != result.players_count:
        raise VarmaError(f"the draw has {result.players_count} players, not {players_count}")
    rounds = double_round_robin(players_count) if double else single_round_robin(players_count)
    return without_free_round(rounds, players_count)
