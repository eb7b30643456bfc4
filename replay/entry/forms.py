"""The new-game form: game, house rules (a preset and single options), players by seat.

Every choice comes from the engine's registry (`games.engine.games()`): each option's kind
(yes/no, one of some values, a whole number, a list of cards), its default under each preset and
its one-line explanation. Whether the combination is valid is the engine's answer when
`services.game_create` builds the game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import get_language, gettext, ngettext, pgettext

from games import engine

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Player

MAX_SEATS = 12
PRESET_NAMES = tuple(p.name for p in engine.PRESETS)


@dataclass
class OptionField:
    name: str
    label: str
    help: str
    kind: str  # the engine's kind: "bool", "choice", "int", "cards"
    choices: list[tuple[Any, str]] = field(default_factory=list)  # (value, label)
    nullable: bool = False
    defaults: dict[str, Any] = field(default_factory=dict)  # preset -> value

    def parse(self, raw: str) -> Any:
        """The option's value from the form ('' means: the preset's default, not sent)."""
        raw = raw.strip()
        if self.kind == "bool":
            return raw == "true"
        if raw == "null":
            return None
        if self.kind == "int":
            try:
                return int(raw)
            except ValueError:
                raise ValueError(gettext("%(option)s: a whole number, please") % {"option": self.label}) from None
        if self.kind == "choice":
            by_text = {str(value): value for value, _ in self.choices}
            if raw not in by_text:
                raise ValueError(
                    gettext("%(option)s: one of %(values)s")
                    % {"option": self.label, "values": ", ".join(label for _, label in self.choices)}
                )
            return by_text[raw]
        try:
            return json.loads(raw)
        except ValueError:
            return raw


def _field(spec: engine.Option) -> OptionField:
    kind = spec.kind
    return OptionField(
        spec.name,
        spec.label,
        spec.help,
        kind.name,
        [(c.value, c.label) for c in kind.choices],
        nullable=kind.nullable,
        defaults=spec.defaults(),
    )


def variant_options(variant: str) -> list[OptionField]:
    """The game's options worded in the request's language (the engine's catalogue)."""
    return [_field(o) for o in engine.option_words(variant, get_language())]


#: Suggested values for number options (a select is quicker than typing on a phone).
NUMBER_SUGGESTIONS = {
    "target_score": [500, 1000, 1500, 2000],
    "hands": [3, 4, 6, 8, 9, 10, 12, 16],
    "rounds": [2, 4, 6, 8],
    "min_points": [0, 1, 2, 3, 4],
}


def _label(spec: OptionField, value: Any) -> str:
    if value is None:
        return pgettext("an option's value", "none")
    if isinstance(value, bool):
        return pgettext("an option's value", "yes") if value else pgettext("an option's value", "no")
    for choice, label in spec.choices:
        if choice == value:
            return label
    return str(value)


def _edition(preset: engine.Preset) -> str:
    """A preset by its edition's own name: ``Rio Grande`` of ``Rio Grande edition``, ``Édition TIKI``,
    ``Rio-Grande-Ausgabe``: the words its English name keeps (its edition's name) in its label."""
    english = next(p.label for p in engine.PRESETS if p.name == preset.name)
    kept = [w for w in english.split()[:-1] if w in preset.label]
    return " ".join(kept) or preset.label


def _option_row(variant: str, spec: OptionField, form: "NewGame | None") -> dict:
    if spec.kind == "bool":
        values = [("true", pgettext("an option's value", "yes")), ("false", pgettext("an option's value", "no"))]
    elif spec.kind == "choice":
        values = [("null", pgettext("an option's value", "none"))] if spec.nullable else []
        values += [(str(value), label) for value, label in spec.choices]
    else:
        values = [("null", pgettext("an option's value", "none"))] if spec.nullable else []
        if spec.kind == "int":
            values += [(str(n), str(n)) for n in NUMBER_SUGGESTIONS.get(spec.name, [1, 2, 3, 4, 5])]
    # the preset's value: one word when the presets agree, else each edition's (by its first word)
    values_by_preset = {_edition(p): _label(spec, spec.defaults[p.name]) for p in engine.preset_words(get_language())}
    if len(set(values_by_preset.values())) == 1:
        defaults = next(iter(values_by_preset.values()))
    else:
        defaults = ", ".join(f"{edition}: {value}" for edition, value in values_by_preset.items())
    return {
        "name": spec.name,
        "label": spec.label,
        "field": f"opt-{variant}-{spec.name}",
        "doc": spec.help,
        "values": values,
        "defaults": defaults,
        "selected": form.value(f"opt-{variant}-{spec.name}") if form is not None else "",
    }


def variant_label(info: engine.GameInfo) -> str:
    """``Tichu (4 players)`` in the reader's language: the game's name as its players' edition says
    it (engine.variant_name), and its number of players (a dummy where the engine seats one)."""
    low, high = min(info.seat_counts), max(info.seat_counts)
    name = engine.variant_name(info.name, get_language())
    if low != high:
        return gettext("%(game)s (%(low)s to %(high)s players)") % {"game": name, "low": low, "high": high}
    if len(engine.seat_names(info.name, ["?"] * low)) > low:
        return ngettext("%(game)s (%(n)s player and a dummy)", "%(game)s (%(n)s players and a dummy)", low) % {
            "game": name,
            "n": low,
        }
    return ngettext("%(game)s (%(n)s player)", "%(game)s (%(n)s players)", low) % {"game": name, "n": low}


def variant_choices(form: "NewGame | None" = None) -> list[dict]:
    rows = []
    for info in engine.games():
        rows.append(
            {
                "name": info.name,
                "label": variant_label(info),
                "min": min(info.seat_counts),
                "max": max(info.seat_counts),
                "options": [_option_row(info.name, o, form) for o in variant_options(info.name)],
            }
        )
    return rows


def preset_choices() -> list[dict]:
    """The presets, each with the edition it follows described."""
    return [
        {"name": p.name, "label": p.label, "description": p.description} for p in engine.preset_words(get_language())
    ]


class NewGame:
    """Reads the POSTed form: `variant`, `preset`, `opt-<variant>-<option>` and per seat
    `seat-<i>` (a club player's id) or `seat-<i>-new` (a new name)."""

    def __init__(self, data, *, members: list[Player]) -> None:
        self.data = data
        self.members = members
        self.cleaned: dict[str, Any] = {}
        self.error: str | None = None

    def value(self, name: str, default: str = "") -> str:
        return (self.data.get(name, default) if self.data is not None else default) or default

    @property
    def initial(self) -> dict[str, str]:
        return {"variant": self.value("variant", "nanking"), "preset": self.value("preset", "rio")}

    def seat_value(self, i: int) -> dict[str, str]:
        return {"player": self.value(f"seat-{i}"), "new": self.value(f"seat-{i}-new")}

    def seats(self) -> list[dict]:
        return [{"index": i, "number": i + 1, **self.seat_value(i)} for i in range(MAX_SEATS)]

    def is_valid(self) -> bool:
        variant = self.value("variant")
        if variant not in engine.GAME_NAMES:
            self.error = gettext("Choose a game.")
            return False
        preset = self.value("preset", "rio")
        if preset not in PRESET_NAMES:
            self.error = gettext("Choose a preset: %(presets)s.") % {
                "presets": ", ".join(p.label for p in engine.preset_words(get_language()))
            }
            return False
        options: dict[str, Any] = {"preset": preset}
        for spec in variant_options(variant):
            raw = self.value(f"opt-{variant}-{spec.name}")
            if raw == "":
                continue
            try:
                options[spec.name] = spec.parse(raw)
            except ValueError as err:
                self.error = str(err)
                return False
        by_id = {str(p.pk): p.name for p in self.members}
        names: list[str] = []
        for i in range(MAX_SEATS):
            seat = self.seat_value(i)
            new = seat["new"].strip()
            if new:
                names.append(new)
            elif seat["player"]:
                if seat["player"] not in by_id:
                    self.error = gettext("Player %(n)s: not a player of this club.") % {"n": i + 1}
                    return False
                names.append(by_id[seat["player"]])
        if not names:
            self.error = gettext("Seat the players.")
            return False
        if len(set(names)) != len(names):
            self.error = gettext("A player sits in one seat only.")
            return False
        token = self.value("token")
        self.cleaned = {
            "variant": variant,
            "options": options,
            "players": names,
            "token": token if re.fullmatch(r"[0-9a-f]{32}", token) else None,
        }
        return True
