"""House rules: the presets ``rio``, ``tiki``, ``abacus`` and the single options a club may set.

The engine fills in every option it uses; ``state`` reports the effective options. An unknown
option or a value of the wrong kind is a malformed record, never silently ignored.

Each option says what kind of value it takes (:class:`Kind`: yes/no, a whole number, one of some
choices, a list of cards), its default under each preset, and in plain words what it changes
(``label``, ``help``, one line each; ``doc`` keeps the rule books' details). Pages build their
forms and explanations from these, never from the wording of an error message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import EngineError
from .schema import all_str

PRESETS = ("rio", "tiki", "abacus")


@dataclass(frozen=True)
class Preset:
    name: str
    label: str
    description: str


#: The three readings of the rule books (spec/rules.md), in plain words.
PRESET_INFO: tuple[Preset, ...] = (
    Preset(
        "rio",
        "Rio Grande edition",
        "the English rules of Fata Morgana and Rio Grande Games: a player who passed may play again "
        "in the same trick, and the Mahjong's wish is optional",
    ),
    Preset(
        "tiki",
        "TIKI edition",
        "the French TIKI edition and its FAQ: as Rio Grande, and a missed wish noticed at the table is penalised",
    ),
    Preset(
        "abacus",
        "Abacus edition",
        "the older French translation of the Abacus edition: a pass is final for the trick, and "
        "whoever plays the Mahjong must make a wish",
    ),
)


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str  # the value in plain words


@dataclass(frozen=True)
class Kind:
    """What values an option takes: ``bool``, ``int`` (from ``minimum``, a ``multiple_of``),
    ``choice`` (one of ``choices``) or ``cards`` (a list of card codes); ``nullable``: also
    ``null`` (the option unset)."""

    name: str
    expected: str  # says what a valid value is, for the error message
    choices: tuple[Choice, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    multiple_of: int | None = None

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.nullable
        if self.name == "bool":
            return isinstance(value, bool)
        if self.name == "int":
            return (
                isinstance(value, int)
                and not isinstance(value, bool)
                and (self.minimum is None or value >= self.minimum)
                and (self.multiple_of is None or value % self.multiple_of == 0)
            )
        if self.name == "choice":
            return any(value == c.value and type(value) is type(c.value) for c in self.choices)
        if self.name == "cards":
            return isinstance(value, list) and all_str(value)  # every item a str, at C speed
        raise AssertionError(f"unknown option kind {self.name!r}")

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(c.value for c in self.choices)


@dataclass(frozen=True)
class Option:
    name: str
    default: Callable[[str], Any]  # preset -> default value
    kind: Kind
    label: str  # a few words: the option's title on a page
    help: str  # one line in plain words: what the option changes
    doc: str = ""  # the details and the books' references
    display_only: bool = field(default=False)  # changes nothing in the rules (how the table is drawn)

    @property
    def expected(self) -> str:
        return self.kind.expected

    def check(self, value: Any) -> bool:
        return self.kind.accepts(value)

    def defaults(self) -> dict[str, Any]:
        """The default under each preset."""
        return {p: self.default(p) for p in PRESETS}


def _choice(*values: Any | tuple[Any, str]) -> Kind:
    """One of ``values``; each value may come with its label as ``(value, label)``."""
    choices = tuple(Choice(*v) if isinstance(v, tuple) else Choice(v, str(v)) for v in values)
    return Kind("choice", " or ".join(repr(c.value) for c in choices), choices)


def _bool() -> Kind:
    return Kind("bool", "true or false")


def _int_or_null(low: int) -> Kind:
    return Kind("int", f"null or an integer >= {low}", nullable=True, minimum=low)


def _int(low: int) -> Kind:
    return Kind("int", f"an integer >= {low}", minimum=low)


def option(
    name: str, default: Any, kind: Kind, doc: str, *, label: str, help: str, display_only: bool = False
) -> Option:
    fn = default if callable(default) else (lambda preset, _v=default: _v)
    return Option(name, fn, kind, label, help, doc, display_only)


#: The direction of play: the same option in every game (Grand Seigneur's family too), display only.
DIRECTION_OPTION = option(
    "direction",
    "counter_clockwise",
    _choice(("counter_clockwise", "to the right"), ("clockwise", "to the left")),
    "display only: the physical direction of play",
    label="Direction of play",
    help="Which way play goes round the table: to the right (counter-clockwise, as the books have it) or to the left; it only changes how the table is drawn.",
    display_only=True,
)

#: Options shared by the Tichu family (Nanking, Threechu, Tientsin).
TICHU_OPTIONS = (
    option(
        "deal_method",
        "draw",
        _choice(("draw", "one card at a time"), ("western", "8 cards, then 6")),
        "draw: one card at a time from the shuffler on; western: dealt 8, Grand Tichu calls, then 6",
        label="Dealing",
        help="The cards are drawn one at a time from the pile, or dealt 8 (Grand Tichu is called then) and 6 more.",
    ),
    option(
        "pass_is_final",
        lambda p: p == "abacus",
        _bool(),
        "abacus: a pass is final for the trick; rio/tiki: a player who passed may play again",
        label="A pass is final",
        help="A player who passes may not play again in the same trick.",
    ),
    option(
        "wish_required",
        lambda p: p == "abacus",
        _bool(),
        "abacus: the Mahjong's player must name a wish",
        label="The Mahjong must wish",
        help="Whoever plays the Mahjong must name the rank they wish for.",
    ),
    option(
        "target_score",
        1000,
        _int(1),
        "a team at or above this at the end of a hand wins (higher wins, a tie plays on)",
        label="Winning score",
        help="The game ends when a team has at least this many points after a hand (the higher score wins; a tie plays on).",
    ),
    option(
        "hands",
        None,
        _int_or_null(1),
        "a fixed number of hands instead of a target score",
        label="Number of hands",
        help="Play a fixed number of hands instead of playing to the winning score.",
    ),
    DIRECTION_OPTION,
    option(
        "shuffler",
        "first_out",
        _choice(("first_out", "the first player out"), ("any", "anyone")),
        "first_out: the first player out of the previous hand shuffles (the books); any: not checked",
        label="Who shuffles",
        help="The first player out of the previous hand shuffles the next one, or anyone may (not checked).",
    ),
    option(
        "dragon_gift_to_out",
        True,
        _bool(),
        "the Dragon trick may be given to an opponent who is already out (BSW allows it)",
        label="Dragon trick to a player who is out",
        help="The Dragon's trick may be given to an opponent who has already gone out.",
    ),
    option(
        "grand_tichu",
        True,
        _bool(),
        "false: nobody may call Grand Tichu (tournament rule: DTM, Goettingen, duplicate)",
        label="Grand Tichu allowed",
        help="Players may call Grand Tichu (some tournaments play without it).",
    ),
    option(
        "double_victory_points",
        None,
        _int_or_null(0),
        "the card points of a double victory (null: the variant's, 200; Tientsin's triple victory 300); "
        "100 in DTM tournaments",
        label="Double victory worth",
        help="The points a team scores when both partners go out first; unset: 200 (300 for Tientsin's triple victory).",
    ),
    option(
        "keep_last_dragon_trick",
        False,
        _bool(),
        "true: a Dragon trick that ends the hand is kept by its winner, not given away (DTM, Goettingen)",
        label="Keep the last Dragon trick",
        help="A Dragon trick that ends the hand stays with its winner instead of being given to an opponent.",
    ),
    option(
        "bsw_grand_tichu_quirk",
        False,
        Kind(
            "choice",
            "true, false, 'both_grand' or 'partner_grand'",
            (
                Choice(False, "no: by the book"),
                Choice("partner_grand", "the first out's partner's failed Grand Tichu is free"),
                Choice("both_grand", "free when both partners called Grand Tichu"),
                Choice(True, "free when both partners called Grand Tichu (first spelling)"),
            ),
        ),
        "reproduce Brettspielwelt's score: the failed Grand Tichu of the first player out's partner is not "
        "charged. partner_grand: whatever the first out called (BSW's rule, docs/rules.md); both_grand "
        "(or true, its first spelling): only when the first out called Grand Tichu too; false: by the book",
        label="Brettspielwelt Grand Tichu scoring",
        help="As on Brettspielwelt: the failed Grand Tichu of the first player out's partner costs nothing "
        "(always, or only when both partners called it).",
    ),
)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _value_rule(kind: Kind) -> dict[str, Any]:
    """The refusal's rule and parameters for a value ``kind`` does not take (its words in
    wording.SHARED_REFUSAL_WORDS: ``malformed:option_<kind>``)."""
    if kind.name == "choice":
        return {"rule": "option_choice", "choices": ", ".join(json.dumps(c.value) for c in kind.choices)}
    if kind.name == "int":
        if kind.multiple_of:
            return {"rule": "option_int_multiple", "minimum": kind.minimum or 0, "multiple_of": kind.multiple_of}
        return {"rule": "option_int", "minimum": kind.minimum or 0}
    return {"rule": f"option_{kind.name}"}  # option_bool, option_cards


def resolve(specs: tuple[Option, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The effective options: the preset's defaults overridden by the record's single options."""
    given = dict(given or {})
    if not isinstance(given, dict):
        raise EngineError("malformed", "options must be an object", params={"rule": "options_not_object"})
    preset = given.pop("preset", "rio")
    if preset not in PRESETS:
        raise EngineError(
            "malformed",
            f"unknown preset {preset!r}: expected one of {', '.join(PRESETS)}",
            params={
                "option": "preset",
                "value": preset,
                "expected": list(PRESETS),
                "rule": "unknown_preset",
                "presets": ", ".join(PRESETS),
                "given": _shown(preset),
            },
        )
    by_name = {s.name: s for s in specs}
    effective: dict[str, Any] = {"preset": preset}
    for spec in specs:
        effective[spec.name] = spec.default(preset)
    for name, value in given.items():
        given_spec = by_name.get(name)
        if given_spec is None:
            raise EngineError(
                "malformed",
                f"unknown option {name!r} for this variant",
                params={"option": name, "rule": "unknown_option"},
            )
        if not given_spec.check(value):
            raise EngineError(
                "malformed",
                f"option {name!r} must be {given_spec.expected}, not {value!r}",
                params={
                    "option": name,
                    "value": value,
                    "expected": given_spec.expected,
                    **_value_rule(given_spec.kind),
                },
            )
        effective[name] = value
    return effective
