"""Words for the replay: an event as a sentence, read from the event and the engine's frame after it
(the combination the engine recognised, the hand's number), and the names of combinations and calls.
Card names are the engine's (``faces``)."""
from __future__ import annotations

import json
from typing import Any

from .faces import HIDDEN, RANK_NAMES, card_name, cards_text, with_article

COMBINATION_NAMES = {
    "single": "single", "pair": "pair", "stairs": "stairs", "trio": "trio", "full_house": "full house",
    "straight": "straight", "bomb": "bomb", "dog": "Dog",
}
CALL_NAMES = {"tichu": "Tichu", "grand_tichu": "Grand Tichu"}


def _name(players: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}"


def describe(event: dict, frame: dict, players: list[str]) -> str:
    """The event that led to ``frame``, in words (what it was, read from the event and the engine).

    Cards the reader may not see (``HIDDEN`` in a masked event) are not named."""
    kind = event.get("type")
    who = _name(players, event.get("seat"))
    if kind == "push" and HIDDEN in json.dumps(event.get("cards")):
        return f"{who} pushes cards"
    if kind == "round_start":  # Tien Zi Que (docs/tien-zi-que.md section 2)
        text = f"Round {frame.get('round')} begins: {who} plays first"
    elif kind == "draw":  # a card the reader may not see (a hidden hand, a Tien Zi Que draw) is not named
        text = f"{who} draws the {card_name(event['card'])}" if event.get("card", HIDDEN) != HIDDEN else f"{who} draws a card"
    elif kind == "discard":
        text = f"{who} discards the {card_name(event.get('card', '?'))}"
    elif kind in ("pung", "chow"):
        text = f"{who}: {kind.capitalize()} {cards_text(event.get('cards') or [])}, keeps the {card_name(event.get('keep', '?'))}"
        if kind == "chow":
            text += f" (takes the {card_name(event.get('take', '?'))})"
    elif kind == "reshuffle":
        text = f"{who}: the discard pile is shuffled into the stock"
    elif kind == "shuffle":
        text = f"{who} shuffles: hand {frame.get('hand_number')} begins"
    elif kind == "deal":
        text = f"{who} is dealt {len(event.get('cards') or [])} cards"
    elif kind in CALL_NAMES:
        text = f"{who} calls {CALL_NAMES[kind]}"
    elif kind == "push":
        gifts = event.get("cards") or {}
        parts = []
        for target, cards in gifts.items():
            cards = cards if isinstance(cards, list) else [cards]
            parts.append(f"{cards_text(cards)} to {_name(players, int(target))}")
        text = f"{who} pushes " + "; ".join(parts)
    elif kind == "play":
        top = frame.get("trick") or []
        entry = top[-1] if top and top[-1].get("seat") == event.get("seat") else None
        combination = COMBINATION_NAMES.get(entry["combination"], entry["combination"]) if entry else "cards"
        verb = "bombs with" if entry and entry.get("combination") == "bomb" else "plays"
        text = f"{who} {verb} {cards_text(event.get('cards') or [])}"
        if entry:
            text += f" ({combination}"
            if entry.get("phoenix"):
                text += f", Phoenix as {RANK_NAMES.get(entry['phoenix'], entry['phoenix'])}"
            text += ")"
        if event.get("wish"):
            text += f" and wishes for {with_article(RANK_NAMES.get(event['wish'], event['wish']))}"
        if event.get("to") is not None:
            text += f"; the lead goes to {_name(players, event['to'])}"
    elif kind == "pass":
        text = f"{who} passes"
    elif kind == "dragon_gift":
        text = f"{who} gives the Dragon trick to {_name(players, event.get('to'))}"
    elif kind == "penalty":
        text = f"{who}: penalty ({str(event.get('reason', '')).replace('_', ' ')})"
    elif kind == "hand_result":
        text = f"Hand {frame.get('hand_number')} recorded from the score sheet"
    elif kind == "round_result":  # Tien Zi Que: a whole round by its score line
        line = (frame.get("score_sheet") or [{}])[-1]
        if line.get("drawn"):
            text = f"Round {line.get('round')} recorded from the score line: drawn"
        else:
            winner = line.get("winner")
            points = (line.get("points") or [0, 0])[winner] if isinstance(winner, int) else 0
            text = (f"Round {line.get('round')} recorded from the score line: {_name(players, winner)} "
                    f"+{points}, Mah-jong by a {str(line.get('by', '')).capitalize()}")
    elif kind == "undo":
        text = "Undo: the latest event is retracted"
    else:
        text = f"{kind} by {who}"
    return text
