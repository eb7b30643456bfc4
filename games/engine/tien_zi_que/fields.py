"""A Tien Zi Que event's fields read and refused in words (a seat, a card, a list of cards), and
the card-list helpers the fold's checks share."""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from ..schema import all_str
from .cards import CARD_GRAMMAR, CODES, are_cards, is_card


def _seat_of(event: dict[str, Any]) -> int:
    seat = event.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
        raise EngineError(
            "malformed",
            f"{event.get('type')}: 'seat' must be 0 or 1, not {seat!r}",
            params={"rule": "tzq_seat", "event": str(event.get("type")), "value": repr(seat)},
        )
    return seat


def _card_of(event: dict[str, Any], key: str) -> str:
    card = event.get(key)
    if not isinstance(card, str):
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a card code",
            params={"rule": "tzq_card_code", "event": str(event.get("type")), "key": key},
        )
    if card not in CODES:  # is_card of a str
        raise EngineError(
            "unknown_card",
            f"{card!r} is not a Tien Zi Que card code ({CARD_GRAMMAR})",
            params={"rule": "tzq_codes", "codes": card},
        )
    return card


def _cards_of(event: dict[str, Any], key: str, count: int | None = None) -> list[str]:
    cards = event.get(key)
    if not isinstance(cards, list) or not all_str(cards):
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a list of card codes",
            params={"rule": "tzq_card_list", "event": str(event.get("type")), "key": key},
        )
    if count is not None and len(cards) != count:
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must list {count} cards, not {len(cards)}",
            params={
                "rule": "tzq_card_count",
                "event": str(event.get("type")),
                "key": key,
                "expected": count,
                "given": len(cards),
            },
        )
    if not are_cards(cards):
        bad = [c for c in cards if not is_card(c)]
        raise EngineError(
            "unknown_card",
            f"{', '.join(repr(c) for c in bad)} not Tien Zi Que card codes ({CARD_GRAMMAR})",
            params={"rule": "tzq_codes", "codes": ", ".join(bad)},
        )
    return cards


def _missing_and_extra(rule: str, missing: list[str], extra: list[str]) -> dict[str, Any]:
    """A refusal's parameters for cards that are not the ones expected: its rule says which of the
    two lists it names (``<rule>_missing``, ``<rule>_extra``, ``<rule>_both``)."""
    which = "both" if missing and extra else "missing" if missing else "extra"
    return {"rule": f"{rule}_{which}", "missing": missing, "extra": extra}


def _rest_after(hand: list[str], cards: list[str]) -> list[str] | None:
    """The hand without ``cards``, or ``None`` when it does not hold them all (a hand is five or
    six cards: removing them one by one beats counting both)."""
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        return None
    return rest


def _without(cards: list[str], one: str) -> list[str]:
    rest = list(cards)
    rest.remove(one)
    return rest
