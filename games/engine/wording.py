"""The engine's words for events and refusals, as templates a page can fill in itself.

One home for the wording of the entry page, the replay script and any test that compares them:
the server embeds :func:`page_words` as JSON, ``replay/static/shared/cards.js`` fills the same
templates in the browser, and :func:`event_words` / :func:`refusal_words` fill them here. A
refusal is worded from its stable ``code`` and its ``params`` (EngineError), never by reading the
English ``message``; a refusal whose template needs a parameter the error does not carry falls
back to the message.

A template is text with ``{kind:param}`` slots. The kinds:

- ``name``: a seat number, given as the player's name (``names[seat]``);
- ``cards`` / ``card``: card codes (a list or one), given by their names (``10 of Swords``);
- ``count``: the length of a list;
- ``rank`` / ``phrase``: a rank code, as a name (``8``, ``Ace``) or with its article (``an 8``);
- ``words``: a code such as ``missed_wish``, underscores read as spaces;
- ``gifts``: a push's ``{target: card(s)}``, as ``Kj to Bob; 8p to Cid``;
- ``number``: a number as it is (only in ``@frame`` templates, which the scripts never fill).

Keys: ``EVENT_WORDS[type]`` (or ``type:reason`` first); ``play`` has suffixes ``play+combination``,
``play+phoenix``, ``play+wish`` and ``play+to`` added when the event has that field (with both a
combination and a Phoenix, one parenthesis: ``play+combination+phoenix``). A viewer that knows the
position after the event (the replay) passes a ``context`` to :func:`event_words`; the
``type@frame`` / ``type:reason@frame`` templates, which need it, are tried first. A masked event
(a ``HIDDEN`` card) is said by ``type:hidden``, naming no card, or by its type alone.

``REFUSAL_WORDS[code]`` (or ``code:rule`` first, ``params["rule"]`` telling apart the refusals that share a code).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping, Sequence

from .faces import RANK_NAMES, RANK_PHRASES, card_name, card_table
from .visibility import HIDDEN

EVENT_WORDS: dict[str, str] = {
    "shuffle": "{name:seat} shuffles (new hand)",
    "shuffle@frame": "{name:seat} shuffles: hand {number:hand_number} begins",
    "draw": "{name:seat} draws the {card:card}",
    "draw:hidden": "{name:seat} draws a card",
    "deal": "{name:seat} is dealt {count:cards} cards",
    "deal:hidden": "{name:seat} is dealt {count:cards} cards",
    "tichu": "{name:seat} calls Tichu",
    "grand_tichu": "{name:seat} calls Grand Tichu",
    "push": "{name:seat} pushes {gifts:cards}",
    "push:hidden": "{name:seat} pushes cards",
    "play": "{name:seat} plays {cards:cards}",
    "play:bomb@frame": "{name:seat} bombs with {cards:cards}",
    "play+combination": " ({words:combination})",
    "play+phoenix": " (Phoenix as {rank:phoenix})",
    "play+combination+phoenix": " ({words:combination}, Phoenix as {rank:phoenix})",
    "play+wish": " and wishes for {phrase:wish}",
    "play+to": "; the lead goes to {name:to}",
    "pass": "{name:seat} passes",
    "dragon_gift": "{name:seat} gives the Dragon trick to {name:to}",
    "penalty": "{name:seat}: {words:reason} (penalty: the hand ends)",
    "penalty:missed_wish": "Missed wish by {name:seat} (penalty: the hand ends)",
    "hand_result": "A hand recorded from the score sheet",
    "hand_result@frame": "Hand {number:hand_number} recorded from the score sheet",
    "undo": "Undo: the latest event is retracted",
    # Tien Zi Que (docs/tien-zi-que.md)
    "round_start": "A new round begins: {name:seat} plays first",
    "round_start@frame": "Round {number:round} begins: {name:seat} plays first",
    "discard": "{name:seat} discards the {card:card}",
    "pung": "{name:seat}: Pung {cards:cards}, keeps the {card:keep}",
    "chow": "{name:seat}: Chow {cards:cards}, keeps the {card:keep} (takes the {card:take})",
    "reshuffle": "{name:seat}: the discard pile is shuffled into the stock",
    "round_result": "A round recorded from the score line: Mah-jong by {name:winner}",
    "round_result:pung@frame": (
        "Round {number:round} recorded from the score line: {name:winner} +{number:points}, Mah-jong by a Pung"
    ),
    "round_result:chow@frame": (
        "Round {number:round} recorded from the score line: {name:winner} +{number:points}, Mah-jong by a Chow"
    ),
    "round_result:drawn@frame": "Round {number:round} recorded from the score line: drawn",
}
#: the suffixes of a play, in the order they are said
PLAY_SUFFIXES = ("combination", "phoenix", "wish", "to")

REFUSAL_WORDS: dict[str, str] = {
    "wish_not_fulfilled": "the wish for {phrase:wish} forbids it: {name:seat} holds {phrase:wish} and can play it",
    "wish_not_fulfilled:pass": "the wish for {phrase:wish} forbids a pass: {name:seat} holds {phrase:wish} and can play it",
    "not_your_turn": "{name:expected_seat} is to play, not {name:seat}",
    "not_your_turn:out_of_turn": "{name:expected_seat} is to play; out of turn only a bomb may be played, and {cards:cards} is not one",
    "not_your_turn:out": "{name:seat} is out and holds no cards",
    "not_your_turn:gift": "{name:expected_seat} won the trick with the Dragon and gives it, not {name:seat}",
    "not_your_turn:shuffle": "{name:expected_seat} shuffles next, not {name:seat}",
    "does_not_beat": "{cards:cards} does not beat {cards:top}",
    "does_not_beat:dog": "the Dog can only be led, never played on a combination",
    "invalid_combination": "{cards:cards} is not a combination",
    "card_not_in_hand": "{name:seat} does not hold {cards:cards}",
    "bomb_not_allowed:hand_over": "the hand is over: only the gift of its last Dragon trick remains, no bomb",
    "bomb_not_allowed:nothing_to_bomb": "a bomb out of turn is played on a combination on the table; nothing lies there now ({name:expected_seat} leads)",
    "gift_required": "{name:seat} must first give the Dragon trick to an opponent",
    "gift_invalid:not_opponent": "the Dragon trick goes to an opponent; {name:to} is not an opponent of {name:seat}",
    "wrong_phase": "no {words:event} now: the game is in the {words:phase} phase",
    "wrong_phase:lead_pass": "{name:seat} leads the trick and cannot pass",
    "draw_out_of_order": "{name:expected_seat} draws next, not {name:seat}",
    "already_called": "{name:seat} has already called {words:call} this hand",
}

_SLOT = re.compile(r"\{(\w+):(\w+)\}")


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def fill(template: str, params: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The template with its slots filled from ``params``; None if a slot's parameter is missing."""

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"

    kinds: dict[str, Callable[[Any], str]] = {
        "name": name,
        "cards": lambda v: ", ".join(card_name(c) for c in _as_list(v)),
        "card": lambda v: card_name(str(v)),
        "count": lambda v: str(len(_as_list(v))),
        "rank": lambda v: RANK_NAMES.get(str(v), str(v)),
        "phrase": lambda v: RANK_PHRASES.get(str(v), str(v)),
        "words": lambda v: str(v).replace("_", " "),
        "number": str,
        "gifts": lambda v: "; ".join(
            f"{', '.join(card_name(c) for c in _as_list(cards))} to {name(int(t))}" for t, cards in dict(v).items()
        ),
    }
    missing = False

    def slot(m: re.Match[str]) -> str:
        nonlocal missing
        kind, key = m.group(1), m.group(2)
        if key not in params or params[key] is None:
            missing = True
            return ""
        return kinds[kind](params[key])

    text = _SLOT.sub(slot, template)
    return None if missing else text


def _variants(kind: str, params: Mapping[str, Any]) -> list[str]:
    """The keys to try for an event, most particular first (``type:reason`` before ``type``)."""
    return [f"{kind}:{params.get('reason')}", kind]


def _filled(key: str, kind: str, params: Mapping[str, Any], names: Sequence[str]) -> str | None:
    template = EVENT_WORDS[key]
    if kind == "play":
        said = [k for k in PLAY_SUFFIXES if params.get(k) is not None]
        if "combination" in said and "phoenix" in said:  # one parenthesis: "(pair, Phoenix as Queen)"
            said[said.index("combination") : said.index("phoenix") + 1] = ["combination+phoenix"]
        template += "".join(EVENT_WORDS[f"play+{k}"] for k in said)
    return fill(template, params, names)


def event_words(event: Mapping[str, Any], names: Sequence[str], context: Mapping[str, Any] | None = None) -> str:
    """An event in words, e.g. ``Ann plays 7 of Jade and wishes for an 8``.

    Without ``context`` this is exactly what ``static/shared/cards.js`` says for the event. A
    viewer that knows the position after the event (the replay) gives ``context``: parameters the
    event does not carry (``hand_number``, ``round``, a play's ``combination`` and ``phoenix``,
    a round's score line; ``reason`` choosing a variant such as ``play:bomb`` or
    ``round_result:drawn``); the ``@frame`` templates that need them are then tried first. An event
    with a masked card (``HIDDEN``, a reader who may not see it) is said by its ``type:hidden``
    template, which names no card; an event with a masked card and no such template is said by its
    type alone, so a hidden card is never named."""
    kind = str(event.get("type"))
    params: dict[str, Any] = {**event, **(context or {})}
    hidden = HIDDEN in json.dumps([event.get("cards"), event.get("card"), event.get("keep"), event.get("take")])
    if hidden:
        key = f"{kind}:hidden"
        return (_filled(key, kind, params, names) if key in EVENT_WORDS else None) or kind.replace("_", " ")
    if context:
        for key in (f"{k}@frame" for k in _variants(kind, params)):
            if key in EVENT_WORDS and (text := _filled(key, kind, params, names)) is not None:
                return text
    # as cards.js: the first template there is, filled, or the type in words
    plain = next((k for k in _variants(kind, event) if k in EVENT_WORDS), None)
    if plain is None:
        return kind.replace("_", " ")
    return _filled(plain, kind, params, names) or kind.replace("_", " ")


def refusal_words(error: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """A refusal (``{"code", "message", "params"}``) in words from its code and parameters, or
    None when there is no template for it or a parameter is missing (then say its message)."""
    params = error.get("params") or {}
    code = str(error.get("code"))
    template = REFUSAL_WORDS.get(f"{code}:{params.get('rule')}") if params.get("rule") else None
    template = template or REFUSAL_WORDS.get(code)
    return fill(template, params, names) if template else None


def page_words() -> dict[str, Any]:
    """Everything a page's script needs to show cards and word events and refusals as the engine
    does (the JSON the entry and replay pages embed for ``static/shared/cards.js``)."""
    return {
        "cards": card_table(),
        "rank_names": dict(RANK_NAMES),
        "rank_phrases": dict(RANK_PHRASES),
        "events": dict(EVENT_WORDS),
        "play_suffixes": list(PLAY_SUFFIXES),
        "refusals": dict(REFUSAL_WORDS),
    }
