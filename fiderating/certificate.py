"""The norm certificate (FIDE's form IT1, "Certificate of Title Result", B.01 1.8) as a PDF:
the player, the event, the norm with its figures, every opponent counted (title, federation,
rating, result) and the chief arbiter's signature line. Pure: no Django; the page layout is
``events.pdf``'s (fonts for every script, A4, the ruled table)."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events.pdf import markup, pdf_font, sheet_styles, sheet_template, table_commands
from fiderating.norms import NormCheck

RESULTS = {2: "1", 1: "½", 0: "0"}


@dataclass(frozen=True)
class CertificateEvent:
    name: str
    city: str
    federation: str  # the host federation (record 032)
    start: dt.date | None
    end: dt.date | None
    system: str  # "Swiss", "Round robin", ...
    rounds: int
    players: int
    rate_of_play: str
    chief_arbiter: str


@dataclass(frozen=True)
class Certificate:
    event: CertificateEvent
    name: str
    fide_id: str
    federation: str
    title: str  # the player's title now
    norm: NormCheck


def _date(value: dt.date | None) -> str:
    return value.isoformat() if value else "—"


def _fields(cert: Certificate) -> list[tuple[str, str]]:
    event, norm = cert.event, cert.norm
    points = norm.halves / 2
    score = f"{points:g}".replace(".5", "½") if points % 1 else f"{points:g}"
    return [
        ("Title norm", f"{norm.title}"),
        ("Player", f"{cert.name}" + (f" ({cert.title})" if cert.title else "")),
        ("FIDE ID", cert.fide_id or "—"),
        ("Federation", cert.federation or "—"),
        ("Event", event.name),
        ("Place, host federation", f"{event.city or '—'}, {event.federation or '—'}"),
        ("Dates", f"{_date(event.start)} to {_date(event.end)}"),
        (
            "System, rounds, players",
            f"{event.system}, {event.rounds} rounds, {event.players} players",
        ),
        ("Rate of play", event.rate_of_play or "—"),
        (
            "Games counted",
            f"{len(norm.games)} (counts as {norm.counts_as} for the title, B.01 1.4.1)",
        ),
        ("Score", f"{score} of {len(norm.games)}"),
        ("Opponents' average (B.01 1.4.7)", str(norm.average)),
        ("Performance (B.01 1.4.8)", str(norm.performance)),
    ]


def _opponents(norm: NormCheck) -> list[list[str]]:
    return [
        [
            str(g.round),
            g.name,
            g.title or "",
            g.federation or "",
            str(g.rating or "unrated"),
            RESULTS[g.halves],
        ]
        for g in norm.games
    ]


def certificate_pdf(cert: Certificate) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer

    font = pdf_font()
    styles = sheet_styles(font)
    cell = styles["BodyText"].clone("cell", fontSize=10, leading=12)
    out = io.BytesIO()
    title = f"Certificate of title result: {cert.norm.title} norm, {cert.name}"
    document = sheet_template(out, title=title, landscape=False)
    story: list[Any] = [
        Paragraph(markup("Certificate of Title Result (FIDE form IT1)"), styles["Title"]),
        Paragraph(markup(f"{cert.norm.title} norm — FIDE Title Regulations B.01"), cell),
        Spacer(1, 4 * mm),
        _table([[k, Paragraph(markup(v), cell)] for k, v in _fields(cert)], [62, 120], font),
        Spacer(1, 5 * mm),
        Paragraph(markup("Opponents counted"), styles["Heading3"]),
        _table(
            [
                ["Rd", "Opponent", "Title", "Fed.", "Rating", "Result"],
                *[[r[0], Paragraph(markup(r[1]), cell), *r[2:]] for r in _opponents(cert.norm)],
            ],
            [10, 82, 16, 16, 22, 16],
            font,
            header=True,
        ),
        Spacer(1, 4 * mm),
        *(Paragraph(markup(note), cell) for note in cert.norm.notes),
        Spacer(1, 12 * mm),
        Paragraph(markup(f"Chief arbiter: {cert.event.chief_arbiter}"), cell),
        Spacer(1, 10 * mm),
        Paragraph(
            markup("Signature: ______________________________    Date: ______________"), cell
        ),
    ]
    document.build(story)
    return out.getvalue()


def _table(
    rows: Sequence[Sequence[Any]], widths_mm: Sequence[float], font: str, *, header: bool = False
) -> Any:
    from reportlab.lib.units import mm
    from reportlab.platypus import Table, TableStyle

    table = Table(
        list(rows),
        colWidths=[w * mm for w in widths_mm],
        hAlign="LEFT",
        repeatRows=1 if header else 0,
    )
    commands = (
        table_commands(font, 10)
        if header
        else [("FONTNAME", (0, 0), (-1, -1), font), ("FONTSIZE", (0, 0), (-1, -1), 10)]
    )
    commands.append(("VALIGN", (0, 0), (-1, -1), "MIDDLE"))
    table.setStyle(TableStyle(commands))
    return table
