"""Forms: parse and validate input into the services' typed arguments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from events.errors import DuplicatesToConfirm, UserError
from events.limits import (
    MAX_DEPUTY_ARBITERS,
    MAX_K,
    MAX_PLAYERS,
    MAX_RATING,
    MAX_ROUNDS,
    MAX_START_NO,
    MAX_UPLOAD_BYTES,
    currency_check,
    federation_check,
    megabytes,
    size_check,
    text_check,
    whole_number,
)
from events.models import ByeKind, EventSystem, TimeControl
from events.regulations import (
    PRESETS,
    PROCEDURES,
    RegulationError,
    event_tiebreaks_validate,
    preset_codes,
    preset_label,
)
from events.services import (
    DEPUTY_LENGTH,
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    TournamentRecords,
)


def one_line(value: str) -> None:
    """The field's own error for text that is not one line (issue 28): a name with a line
    break would become records of its own in the TRF (:func:`events.limits.text_check`)."""
    try:
        text_check(value, "")
    except UserError as exc:
        raise forms.ValidationError(str(exc)) from exc


def _preset_choices() -> list[tuple[str, str]]:
    return [(code, preset_label(code)) for code in preset_codes()]


class EventForm(forms.Form):
    name = forms.CharField(max_length=200, validators=[one_line])
    system = forms.ChoiceField(choices=EventSystem.choices)
    time_control = forms.ChoiceField(choices=TimeControl.choices)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    start_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    preset = forms.ChoiceField(choices=_preset_choices, label="Regulation preset")
    tiebreaks = forms.CharField(
        required=False,
        label="Tie-breaks (override)",
        help_text="Comma-separated codes in order, e.g. BH/C1, BH, SB (multi-player games: "
        "LRB, LRR, PBO, WON, BHEQ/GROW, BHEQ/Cn). Empty: the preset's.",
    )
    edition = forms.ChoiceField(
        required=False,
        choices=[("", "Preset's edition"), ("2024", "C.07 2024"), ("2026", "C.07 2026")],
        label="Tie-break rules edition",
    )
    procedure = forms.ChoiceField(
        required=False,
        choices=[("", "Preset's procedure")] + [(p, p) for p in PROCEDURES],
        label="Multi-way tie procedure",
    )
    currency = forms.CharField(
        max_length=3,
        required=False,
        help_text="ISO code, e.g. EUR. Empty: the host federation's (NOK for NOR), else USD.",
    )
    site = forms.CharField(max_length=200, required=False, label="City", validators=[one_line])
    # The tournament records of FIDE's rating report (TRF16 022-132; issue 20).
    federation = forms.CharField(max_length=3, required=False, help_text="FIDE code, e.g. NOR")
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    tournament_type = forms.CharField(
        max_length=200,
        required=False,
        validators=[one_line],
        label="Type of tournament",
        help_text="As the rating report says it, e.g. Individual: Swiss-System.",
    )
    chief_arbiter = forms.CharField(max_length=200, required=False, validators=[one_line])
    deputy_arbiters = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=f"One a line, at most {MAX_DEPUTY_ARBITERS}.",
    )
    rate_of_play = forms.CharField(
        max_length=200,
        required=False,
        validators=[one_line],
        label="Rate of play",
        help_text="As the rating report says it, e.g. 90'/40 moves + 30' + 30\" per move.",
    )
    round_dates = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text="One line a round, from round 1: its date (YYYY-MM-DD), or the line empty.",
    )
    confirm_regulation = forms.BooleanField(
        required=False,
        label="I confirm changing the regulation set after round 1 has started",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        codes = data.get("tiebreaks", "")
        if codes and data.get("system") and data.get("preset"):
            round_robin = data["system"] in ("round_robin", "double_round_robin")
            edition = data.get("edition") or PRESETS[data["preset"]].edition
            try:
                data["tiebreaks"] = ", ".join(
                    event_tiebreaks_validate(
                        codes, preset=data["preset"], round_robin=round_robin, edition=edition
                    )
                )
            except RegulationError as exc:
                self.add_error("tiebreaks", str(exc))
        return data

    def clean_federation(self) -> str:
        try:
            return federation_check(self.cleaned_data.get("federation", ""), "the event")
        except UserError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_deputy_arbiters(self) -> tuple[str, ...]:
        names = tuple(
            line.strip() for line in self.cleaned_data.get("deputy_arbiters", "").splitlines()
        )
        names = tuple(name for name in names if name)
        if len(names) > MAX_DEPUTY_ARBITERS:
            raise forms.ValidationError(f"at most {MAX_DEPUTY_ARBITERS} deputy arbiters")
        for number, name in enumerate(names, start=1):
            if len(name) > DEPUTY_LENGTH:
                raise forms.ValidationError(
                    f"line {number}: {len(name)} characters; at most {DEPUTY_LENGTH}"
                )
            try:
                text_check(name, f"line {number}")
            except UserError as exc:
                raise forms.ValidationError(str(exc)) from exc
        return names

    def clean_round_dates(self) -> tuple[dt.date | None, ...]:
        lines = self.cleaned_data.get("round_dates", "").splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        if len(lines) > MAX_ROUNDS:
            raise forms.ValidationError(f"{len(lines)} lines; at most one a round")
        dates: list[dt.date | None] = []
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            try:
                dates.append(dt.date.fromisoformat(text) if text else None)
            except ValueError as exc:
                raise forms.ValidationError(
                    f"line {number}: {text[:20]!r} is not a date (YYYY-MM-DD)"
                ) from exc
        return tuple(dates)

    def clean_currency(self) -> str | None:
        if not self.cleaned_data.get("currency"):
            return None  # the host federation's (events.services)
        try:
            return currency_check(self.cleaned_data["currency"])
        except UserError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def event_fields(self) -> EventFields:
        data = self.cleaned_data
        overrides: dict[str, Any] = {}
        if data.get("tiebreaks"):
            overrides["tiebreaks"] = [c.strip() for c in data["tiebreaks"].split(",")]
        if data.get("edition"):
            overrides["edition"] = data["edition"]
        if data.get("procedure"):
            overrides["procedure"] = data["procedure"]
        return EventFields(
            name=data["name"],
            system=data["system"],
            time_control=data["time_control"],
            rounds=data["rounds"],
            start_date=data.get("start_date"),
            preset=data["preset"],
            overrides=overrides,
            currency=data["currency"],
            site=data.get("site", ""),
            records=TournamentRecords(
                federation=data.get("federation", ""),
                end_date=data.get("end_date"),
                tournament_type=data.get("tournament_type", ""),
                chief_arbiter=data.get("chief_arbiter", ""),
                deputy_arbiters=data.get("deputy_arbiters", ()),
                rate_of_play=data.get("rate_of_play", ""),
                round_dates=data.get("round_dates", ()),
            ),
        )

    @classmethod
    def initial_for(cls, event: Any) -> dict[str, Any]:
        overrides = event.regulation.overrides
        return {
            "name": event.name,
            "system": event.system,
            "time_control": event.time_control,
            "rounds": event.rounds,
            "start_date": event.start_date,
            "preset": event.regulation.preset,
            "tiebreaks": ", ".join(overrides.get("tiebreaks", [])),
            "edition": overrides.get("edition", ""),
            "procedure": overrides.get("procedure", ""),
            "currency": event.currency,
            "site": event.site,
            "federation": event.federation,
            "end_date": event.end_date,
            "tournament_type": event.tournament_type,
            "chief_arbiter": event.chief_arbiter,
            "deputy_arbiters": "\n".join(event.deputy_arbiters or ()),
            "rate_of_play": event.rate_of_play,
            "round_dates": "\n".join(d or "" for d in event.round_dates or ()),
        }


class DuplicatesConfirmable(forms.Form):
    """A form that registers or edits players: a probable duplicate (the same name and birth
    data, :mod:`events.duplicates`) is shown with a box to tick, and the second submission
    with the box ticked goes through. The box is hidden until there is something to confirm."""

    confirm_label = "They are different people: register anyway"
    confirm_duplicates = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def duplicates_to_confirm(self, warning: DuplicatesToConfirm) -> None:
        self.add_error(None, str(warning))
        field = self.fields["confirm_duplicates"]
        field.widget = forms.CheckboxInput()
        field.label = self.confirm_label
        self._bound_fields_cache.pop("confirm_duplicates", None)  # made with the hidden widget

    @property
    def confirmed(self) -> bool:
        return bool(self.cleaned_data.get("confirm_duplicates"))


class PlayerForm(DuplicatesConfirmable):
    name = forms.CharField(max_length=200, validators=[one_line])
    federation = forms.CharField(max_length=3, required=False)
    rating = forms.IntegerField(min_value=0, max_value=MAX_RATING, required=False)
    fide_id = forms.CharField(max_length=15, required=False, label="FIDE id", validators=[one_line])
    title = forms.CharField(max_length=3, required=False, validators=[one_line])
    sex = forms.ChoiceField(choices=[("", "—"), ("m", "m"), ("w", "w")], required=False)
    birth_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    birth_year = forms.IntegerField(
        min_value=1850,
        max_value=2100,
        required=False,
        label="Year of birth",
        help_text="When the date is not known (a rating list gives only the year).",
    )
    previous_rank = forms.IntegerField(min_value=1, max_value=MAX_START_NO, required=False)
    k_listed = forms.IntegerField(
        min_value=1,
        max_value=MAX_K,
        required=False,
        label="K (rating list)",
        help_text="The K the rating list gives beside the rating (B.02 8.3.3), filled when the "
        "player is chosen from the list; a K the arbiter sets on the rating page comes first.",
    )

    field_order = [
        "name",
        "federation",
        "rating",
        "fide_id",
        "title",
        "sex",
        "birth_date",
        "birth_year",
        "previous_rank",
        "k_listed",
        "confirm_duplicates",
    ]

    def player_fields(self) -> PlayerFields:
        data = self.cleaned_data
        return PlayerFields(
            name=data["name"],
            federation=data.get("federation") or "",
            rating=data.get("rating") or 0,
            fide_id=data.get("fide_id") or "",
            title=data.get("title") or "",
            sex=data.get("sex") or "",
            birth_date=data.get("birth_date"),
            birth_year=data.get("birth_year"),
            previous_rank=data.get("previous_rank"),
            start_no=data.get("start_no"),
            k_listed=data.get("k_listed"),
        )


class PlayerEditForm(PlayerForm):
    """Every field of a registered player, the start number included, and the version of the
    player the form was filled from (a form saved after someone else's change is refused)."""

    confirm_label = "They are different people: save anyway"
    start_no = forms.IntegerField(
        min_value=1,
        max_value=MAX_START_NO,
        label="Start number",
        help_text="Free to change until round 1 is paired.",
    )
    version = forms.CharField(required=False, widget=forms.HiddenInput)

    field_order = ["start_no", *PlayerForm.field_order, "version"]

    @classmethod
    def initial_for(cls, player: Any) -> dict[str, Any]:
        names = ["start_no", *PlayerForm.base_fields]
        initial = {name: getattr(player, name) for name in names if hasattr(player, name)}
        initial.update(confirm_duplicates=False, version=str(player.version))
        if player.birth_date is not None:
            initial["birth_year"] = None  # the date's year: a new date brings its own
        return initial

    def seen(self) -> int:
        return seen_version(self.cleaned_data.get("version"))


class PlayerDeleteForm(forms.Form):
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    confirm_delete = forms.BooleanField(
        required=True, label="Yes, delete this player (recorded in the audit log)"
    )


class PlayerListForm(DuplicatesConfirmable):
    players_csv = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        label="Paste a list",
        help_text="One player a line: name, federation, rating, FIDE id, title, sex, birth date "
        "(only the name is required), separated by tabs (copied from a spreadsheet), ; or ,. "
        "A list of names alone may be written Surname, First; among other columns separated "
        "by commas, such a name goes in double quotes. The players are numbered after the "
        "last one registered; a list with a bad line registers nobody.",
    )


def upload_size_check(upload: UploadedFile) -> UploadedFile:
    """An uploaded file past the cap is refused before a byte of it is read."""
    try:
        size_check(upload.size or 0, what=f"the file {upload.name!r}")
    except UserError as exc:
        raise forms.ValidationError(str(exc)) from exc
    return upload


class PlayerTrfForm(DuplicatesConfirmable):
    trf_file = forms.FileField(
        label="Register from a TRF file",
        help_text="The players of a FIDE TRF16/TRF-2026 file: with their start numbers into an "
        "empty list, numbered after the last player into one that has players. Results in the "
        "file are ignored.",
    )

    def clean_trf_file(self) -> UploadedFile:
        return upload_size_check(self.cleaned_data["trf_file"])


class UploadForm(forms.Form):
    file = forms.FileField(
        help_text="A FIDE TRF16/TRF-2026 file or a JSON exchange document (at most "
        f"{megabytes(MAX_UPLOAD_BYTES)}, {MAX_PLAYERS:,} players, {MAX_ROUNDS} rounds)."
    )
    slug = forms.SlugField(required=False, help_text="Optional; derived from the name if empty.")
    # Shown with the question only (events.views.event_import): a file whose players include
    # probable duplicates (a team's roster naming the same person twice).
    confirm_duplicates = forms.BooleanField(
        required=False,
        label="They are different people",
        help_text="Choose the file again and tick this to import it as it is.",
        widget=forms.HiddenInput,
    )

    def clean_file(self) -> UploadedFile:
        return upload_size_check(self.cleaned_data["file"])

    def ask_duplicates(self) -> None:
        """Show the confirmation: the file named players who may be the same person."""
        self.fields["confirm_duplicates"].widget = forms.CheckboxInput()


BYE_WORDS = {
    "half": "half",
    "zero": "zero",
    "full": "full",
    "pairing": "pairing",
    "u": "pairing",
    "h": "half",
    "z": "zero",
    "f": "full",
}


class PairingsForm(forms.Form):
    """Pairings as text: one board a line ``WHITE BLACK`` (start numbers), byes as
    ``bye START_NO KIND`` (half, zero, full, pairing)."""

    pairings = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text="One board a line: white's and black's start numbers, e.g. '3 7'. "
        "Byes: 'bye 5 half' (half, zero, full or pairing).",
    )

    def clean_pairings(self) -> tuple[list[PairingInput], list[ByeInput]]:
        games: list[PairingInput] = []
        byes: list[ByeInput] = []
        for line_no, line in enumerate(self.cleaned_data["pairings"].splitlines(), start=1):
            words = line.replace("-", " ").split()
            if not words:
                continue
            try:
                if words[0].lower() == "bye":
                    kind = BYE_WORDS.get(words[2].lower() if len(words) > 2 else "", "")
                    if len(words) != 3 or not kind:
                        raise ValueError
                    byes.append(ByeInput(start_no=int(words[1]), kind=kind))
                elif len(words) == 2:
                    games.append(
                        PairingInput(board=len(games) + 1, white=int(words[0]), black=int(words[1]))
                    )
                else:
                    raise ValueError
            except ValueError as exc:
                raise forms.ValidationError(
                    f"line {line_no}: {line.strip()!r} is neither 'WHITE BLACK' nor "
                    f"'bye START_NO {'|'.join(ByeKind.values)}'"
                ) from exc
        return games, byes


class AccessForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=[("arbiter", "Arbiter"), ("director", "Director")])


NO_VERSION = 0  # no stored record has it: versions start at 1


def seen_version(raw: str | None) -> int:
    """The version of the record the result form showed (its hidden ``version`` field).

    A form without one, or with anything but a number, cannot say what it would overwrite: it
    gets :data:`NO_VERSION`, which no game has, so the save is answered as a conflict showing
    both results, never as a silent overwrite (issue 19). Ten digits at most: a version is a
    PostgreSQL integer.
    """
    version = whole_number((raw or "").strip(), digits=10)
    return NO_VERSION if version is None else version
