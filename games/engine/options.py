"""House rules: the presets ``rio``, ``tiki``, ``abacus`` and the single options a club may set.

The engine fills in every option it uses; ``state`` reports the effective options. An unknown
option or a value of the wrong kind is a malformed record, never silently ignored.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .errors import EngineError

PRESETS = ("rio", "tiki", "abacus")


@dataclass(frozen=True)
class Option:
    name: str
    default: Callable[[str], Any]  # preset -> default value
    check: Callable[[Any], bool]
    expected: str  # says what a valid value is, for the error message
    doc: str


def _choice(*values: Any) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v in values), " or ".join(repr(v) for v in values)


def _bool() -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, bool)), "true or false"


def _int_or_null(low: int) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= low)), f"null or an integer >= {low}"


def _int(low: int) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low), f"an integer >= {low}"


def option(name: str, default: Any, kind: tuple[Callable[[Any], bool], str], doc: str) -> Option:
    fn = default if callable(default) else (lambda preset, _v=default: _v)
    return Option(name, fn, kind[0], kind[1], doc)


#: Options shared by the Tichu family (Nanking, Threechu, Tientsin).
TICHU_OPTIONS = (
    option("deal_method", "draw", _choice("draw", "western"),
           "draw: one card at a time from the shuffler on; western: dealt 8, Grand Tichu calls, then 6"),
    option("pass_is_final", lambda p: p == "abacus", _bool(),
           "abacus: a pass is final for the trick; rio/tiki: a player who passed may play again"),
    option("wish_required", lambda p: p == "abacus", _bool(),
           "abacus: the Mahjong's player must name a wish"),
    option("target_score", 1000, _int(1), "a team at or above this at the end of a hand wins (higher wins, a tie plays on)"),
    option("hands", None, _int_or_null(1), "a fixed number of hands instead of a target score"),
    option("direction", "counter_clockwise", _choice("counter_clockwise", "clockwise"),
           "display only: the physical direction of play"),
    option("shuffler", "first_out", _choice("first_out", "any"),
           "first_out: the first player out of the previous hand shuffles (the books); any: not checked"),
    option("dragon_gift_to_out", True, _bool(),
           "the Dragon trick may be given to an opponent who is already out (BSW allows it)"),
    option("grand_tichu", True, _bool(),
           "false: nobody may call Grand Tichu (tournament rule: DTM, Goettingen, duplicate)"),
    option("double_victory_points", None, _int_or_null(0),
           "the card points of a double victory (null: the variant's, 200; Tientsin's triple victory 300); "
           "100 in DTM tournaments"),
    option("keep_last_dragon_trick", False, _bool(),
           "true: a Dragon trick that ends the hand is kept by its winner, not given away (DTM, Goettingen)"),
    option("bsw_grand_tichu_quirk", False,
           ((lambda v: isinstance(v, bool) or v in ("both_grand", "partner_grand")),
            "true, false, 'both_grand' or 'partner_grand'"),
           "reproduce Brettspielwelt's score: the failed Grand Tichu of the first player out's partner is not "
           "charged. partner_grand: whatever the first out called (BSW's rule, docs/rules.md); both_grand "
           "(or true, its first spelling): only when the first out called Grand Tichu too; false: by the book"),
)


def resolve(specs: tuple[Option, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The effective options: the preset's defaults overridden by the record's single options."""
    given = dict(given or {})
    if not isinstance(given, dict):
        raise EngineError("malformed", "options must be an object")
    preset = given.pop("preset", "rio")
    if preset not in PRESETS:
        raise EngineError("malformed", f"unknown preset {preset!r}: expected one of {', '.join(PRESETS)}")
    by_name = {s.name: s for s in specs}
    effective: dict[str, Any] = {"preset": preset}
    for spec in specs:
        effective[spec.name] = spec.default(preset)
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            raise EngineError("malformed", f"unknown option {name!r} for this variant")
        if not spec.check(value):
            raise EngineError("malformed", f"option {name!r} must be {spec.expected}, not {value!r}")
        effective[name] = value
    return effective
