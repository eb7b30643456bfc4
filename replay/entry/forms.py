"""The new-game form: variant, house rules (a preset and single options), players by seat.

The choices come from the engine's own option specs (games.engine.options); only their shape is
read here (yes/no, one of some values, a number). Whether the combination is valid is the
engine's answer when `services.game_create` builds the game.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from games.engine.options import PRESETS, Option
from games.engine.variants import KNOWN_VARIANTS, get_variant
from games.models import Player

MAX_SEATS = 12
VARIANT_LABELS = {
    "nanking": "Tichu (4 players)",
    "threechu": "Threechu (3 players and a dummy)",
    "tientsin": "Tichu Tientsin (6 players)",
    "grand-seigneur": "Grand Seigneur (5 to 12 players)",
    "tien-zi-que": "Tien Zi Que (2 players)",
}
_CHOICE_RE = re.compile(r"^'[^']*'(?: or '[^']*')+$")


@dataclass
class OptionField:
    name: str
    doc: str
    kind: str  # "bool", "choice", "int", "text"
    choices: list[str] = field(default_factory=list)
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
                raise ValueError(f"{self.name} must be a whole number") from None
        if self.kind == "choice":
            return raw
        try:
            return json.loads(raw)
        except ValueError:
            return raw


def _field(spec: Option) -> OptionField:
    defaults = {p: spec.default(p) for p in PRESETS}
    values = list(defaults.values())
    expected = spec.expected
    if expected == "true or false":
        return OptionField(spec.name, spec.doc, "bool", defaults=defaults)
    if _CHOICE_RE.match(expected):
        return OptionField(spec.name, spec.doc, "choice", re.findall(r"'([^']*)'", expected), defaults=defaults)
    if "integer" in expected:
        return OptionField(spec.name, spec.doc, "int", nullable=expected.startswith("null"), defaults=defaults)
    if all(v is None or isinstance(v, int) for v in values):
        return OptionField(spec.name, spec.doc, "int", nullable=True, defaults=defaults)
    return OptionField(spec.name, spec.doc, "text", defaults=defaults)


def variant_options(variant: str) -> list[OptionField]:
    if variant == "tien-zi-que":
        from games.engine.tien_zi_que import TZQ_OPTIONS

        return [_field(o) for o in TZQ_OPTIONS]
    return [_field(o) for o in get_variant(variant).options]


#: Suggested values for number options (a select is quicker than typing on a phone).
NUMBER_SUGGESTIONS = {
    "target_score": [500, 1000, 1500, 2000],
    "hands": [3, 4, 6, 8, 9, 10, 12, 16],
    "decks": [1, 2],
}


def _label(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _option_row(variant: str, spec: OptionField, form: "NewGame | None") -> dict:
    if spec.kind == "bool":
        values = [("true", "yes"), ("false", "no")]
    elif spec.kind == "choice":
        values = [(c, c) for c in spec.choices]
    else:
        values = [("null", "none")] if spec.nullable else []
        values += [(str(n), str(n)) for n in NUMBER_SUGGESTIONS.get(spec.name, [1, 2, 3, 4, 5])]
    defaults = ", ".join(f"{p}: {_label(v)}" for p, v in spec.defaults.items())
    return {
        "name": spec.name,
        "field": f"opt-{variant}-{spec.name}",
        "doc": spec.doc,
        "values": values,
        "defaults": defaults,
        "selected": form.value(f"opt-{variant}-{spec.name}") if form is not None else "",
    }


def variant_choices(form: "NewGame | None" = None) -> list[dict]:
    rows = []
    for name in KNOWN_VARIANTS:
        if name == "tien-zi-que":
            counts: tuple[int, ...] = (2,)
        else:
            counts = get_variant(name).seat_counts
        rows.append({
            "name": name,
            "label": VARIANT_LABELS.get(name, name),
            "min": min(counts),
            "max": max(counts),
            "options": [_option_row(name, o, form) for o in variant_options(name)],
        })
    return rows


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
        return [{"index": i, **self.seat_value(i)} for i in range(MAX_SEATS)]

    def is_valid(self) -> bool:
        variant = self.value("variant")
        if variant not in KNOWN_VARIANTS:
            self.error = "Choose a variant."
            return False
        preset = self.value("preset", "rio")
        if preset not in PRESETS:
            self.error = "Choose a preset: " + ", ".join(PRESETS) + "."
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
                    self.error = f"Seat {i}: not a player of this club."
                    return False
                names.append(by_id[seat["player"]])
        if not names:
            self.error = "Seat the players."
            return False
        if len(set(names)) != len(names):
            self.error = "A player sits in one seat only."
            return False
        token = self.value("token")
        self.cleaned = {
            "variant": variant,
            "options": options,
            "players": names,
            "token": token if re.fullmatch(r"[0-9a-f]{32}", token) else None,
        }
        return True
