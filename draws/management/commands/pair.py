"""``manage.py pair SLUG [--round N] [--dry-run] [--format json|text]`` and
``manage.py pair SLUG --check [--format json|text]`` (design brief §4; issue 14).

Pairs the next Swiss round (or round N) by the FIDE Dutch system, 2025 rules, with the event's
settings (requested byes, withdrawals, forbidden pairs, initial colour, acceleration), stores it
and publishes it: a script's next step is to record the results. ``--draft`` stores it for the
director's review instead, as the "Pair round N" button does; ``--dry-run`` prints the pairing
and stores nothing. ``--check`` compares
every paired round (``--round N``: that one) with what the rules give for it (a free pairings
checker) and lists each difference with the rule concerned; it exits 0 when there is none, 1
otherwise. It re-pairs each round with the pairing numbers the round was paired with, and is
refused for an event the Dutch system does not pair. Bad input: a
one-line reason on stderr, a non-zero exit and the database unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from draws.swiss import selectors, services
from draws.swiss.pairing import Difference, Pairing, check_round
from events.errors import UserError
from events.formats import format_of
from events.management import event_or_fail
from events.models import Bye, Event

BYE_KINDS = {"pairing": "pairing", "half": "half", "zero": "zero", "full": "full"}


def pairing_document(event: Event, round_no: int, pairing: Pairing) -> dict[str, Any]:
    """design.md §4's ``pair`` object: boards, byes (the pairing-allocated one and the
    requested ones) and the engine's notes."""
    requested = selectors.engine_input(event, round_no).request.requested_byes
    kinds = {"H": "half", "Z": "zero", "F": "full"}
    byes = [{"start_no": pairing.bye, "kind": "pairing"}] if pairing.bye is not None else []
    byes += [{"start_no": start_no, "kind": kinds[code]} for start_no, code in requested]
    return {
        "event": event.slug,
        "round": round_no,
        "boards": [
            {"board": board.number, "white": board.white, "black": board.black}
            for board in pairing.boards
        ],
        "byes": byes,
        "notes": list(pairing.notes),
    }


def stored_document(event: Event, round_no: int) -> dict[str, Any]:
    """The same object for a round as stored (after ``pair`` without ``--dry-run``)."""
    record = selectors.swiss_round_of(event, round_no)
    boards, _ = selectors.round_as_played(event, round_no)
    byes = sorted(
        Bye.objects.filter(round__event=event, round__number=round_no).values_list(
            "player__start_no", "kind"
        ),
        key=lambda bye: (bye[1] != "pairing", bye[0]),
    )
    return {
        "event": event.slug,
        "round": round_no,
        "boards": [
            {"board": number, "white": white, "black": black}
            for number, (white, black) in enumerate(boards, start=1)
        ],
        "byes": [{"start_no": start_no, "kind": BYE_KINDS[kind]} for start_no, kind in byes],
        "notes": record.notes,
    }


def text_report(event: Event, document: dict[str, Any]) -> str:
    names = dict(event.players.values_list("start_no", "name"))
    lines = [f"{event.name}: round {document['round']} (FIDE Dutch system, 2025 rules)", ""]
    for board in document["boards"]:
        white, black = board["white"], board["black"]
        lines.append(
            f"{board['board']:>3}. {white:>4} {names.get(white, '?'):<28} – "
            f"{black:>4} {names.get(black, '?')}"
        )
    for bye in document["byes"]:
        lines.append(
            f"     bye ({bye['kind']}): {bye['start_no']} {names.get(bye['start_no'], '?')}"
        )
    if document["notes"]:
        lines += ["", *document["notes"]]
    return "\n".join(lines)


def check_document(event: Event, only: int | None = None) -> dict[str, Any]:
    """Every paired round (or round ``only``) checked against the rules, as it was played.
    Refused for an event the Dutch system does not pair (a round robin's rounds, GNOT's
    matches are not Swiss rounds), and for a round too large for the engine."""
    if not selectors.is_swiss(event):
        raise UserError(
            "only a Swiss event is paired by the Dutch system, and this one is "
            f"{event.get_system_display()!r}: there is nothing to check"
        )
    paired = sorted(selectors.paired_rounds(event))
    if only is not None and only not in paired:
        raise UserError(f"round {only} has not been paired")
    rounds = []
    for round_no in paired if only is None else [only]:
        inputs = selectors.recorded_input(event, round_no)
        selectors.pairing_size_check(inputs, round_no)
        boards, bye = selectors.round_as_played(event, round_no)
        found = check_round(inputs.crosstable, inputs.request, boards, bye)
        rounds.append({"round": round_no, "differences": [_difference(d) for d in found]})
    total = sum(len(entry["differences"]) for entry in rounds)
    return {"event": event.slug, "rounds": rounds, "differences": total}


def _difference(difference: Difference) -> dict[str, str]:
    return {"kind": difference.kind, "rule": difference.rule, "message": difference.message}


def check_text(event: Event, document: dict[str, Any]) -> str:
    lines = [f"{event.name}: every paired round against the FIDE Dutch system (2025 rules)"]
    for entry in document["rounds"]:
        if not entry["differences"]:
            lines.append(f"Round {entry['round']}: as the rules give")
            continue
        lines.append(f"Round {entry['round']}:")
        lines += [f"  - [{d['rule']}] {d['message']}" for d in entry["differences"]]
    return "\n".join(lines)


def _round_option(event: Event, round_no: int | None) -> int | None:
    """``--round N``: one of the event's rounds (0 is not "the next one")."""
    if round_no is not None and not 1 <= round_no <= event.rounds:
        raise UserError(f"--round {round_no} is outside 1–{event.rounds}, the event's rounds")
    return round_no


class Command(BaseCommand):
    help = __doc__.split("\n\n")[1]
    # Run once a round against a deployed site: its system checks (URLs, models, templates:
    # a fifth of the process's time, docs/performance.md) are for `check` and the server's start.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--round",
            type=int,
            default=None,
            dest="round_no",
            help="the round to pair (default: the next), or with --check the one round to check",
        )
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--check", action="store_true")
        parser.add_argument(
            "--draft",
            action="store_true",
            help="store the round for review in the browser instead of publishing it",
        )
        parser.add_argument(
            "--allow-unfinished",
            action="store_true",
            help="pair although the previous round has games without a result (they count "
            "as not played)",
        )
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        fmt = format_of(event)
        try:
            round_no = _round_option(event, options["round_no"])
            if fmt is not None and fmt.pair_document is not None and not options["check"]:
                document = fmt.pair_document(
                    event,
                    round_no=round_no,
                    dry_run=options["dry_run"],
                    publish=not options["draft"],
                )
                self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
                return
            if options["check"]:
                self._check(event, round_no, options["format"])
                return
            document = self._pair(event, options, round_no)
        except UserError as exc:
            raise CommandError(f"{event.slug}: {exc}") from exc
        self._write(event, document, options["format"])

    def _pair(self, event: Event, options: dict[str, Any], given: int | None) -> dict[str, Any]:
        round_no = selectors.next_round_number(event) if given is None else given
        if options["dry_run"]:
            ready = selectors.readiness(event, round_no)
            if ready.blockers:
                raise UserError(ready.blockers[0])
            if ready.unfinished and not options["allow_unfinished"]:
                raise UserError(
                    f"round {round_no - 1} has games without a result (board "
                    f"{', '.join(map(str, ready.unfinished))}); pass --allow-unfinished to "
                    "pair anyway"
                )
            return pairing_document(
                event, round_no, services.swiss_pairing_compute(event, round_no)
            )
        services.swiss_round_pair(
            event=event,
            round_no=round_no,
            user=None,
            allow_unfinished=options["allow_unfinished"],
        )
        if not options["draft"]:
            services.swiss_round_publish(event=event, round_no=round_no, user=None)
        return stored_document(event, round_no)

    def _write(self, event: Event, document: dict[str, Any], fmt: str) -> None:
        if fmt == "json":
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(text_report(event, document))

    def _check(self, event: Event, round_no: int | None, fmt: str) -> None:
        document = check_document(event, round_no)
        if fmt == "json":
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(check_text(event, document))
        if document["differences"]:
            self.stderr.write(
                f"{event.slug}: {document['differences']} difference(s) from the Dutch rules"
            )
            raise SystemExit(1)
