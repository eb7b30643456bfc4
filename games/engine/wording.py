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

import gettext
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

from .cards import CARD_INFO, SUIT_NAMES
from .faces import (
    RANK_NAMES,
    RANK_PHRASES,
    SPECIAL_LONG,
    SPECIAL_SHORT,
    card_face,
    card_table,
    variant_cards,
)
from .family import Threechu
from .family_refusals import FAMILY_REFUSAL_WORDS
from .game import own_card, registered
from .registry import GAME_NAMES, game_label
from .shared_refusals import FIELD_TYPE_WORDS, SHARED_REFUSAL_WORDS
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
    "hand_corrected": "A hand corrected by the tournament director ({words:reason})",
    "hand_corrected@frame": "Hand {number:hand} corrected by the tournament director ({words:reason})",
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
    **FAMILY_REFUSAL_WORDS,  # the Tichu family's: Nanking, Threechu, Tientsin, Grand Seigneur (family_refusals.py)
    **SHARED_REFUSAL_WORDS,  # every game's: the shared schema, fold and options (shared_refusals.py)
    # each game's own (Tien Zi Que's, each under its code and a ``tzq_`` rule): game.refusal_words
    **{key: text for game in registered() for key, text in game.refusal_words().items()},
}

#: the languages the engine speaks (its catalogue, games/engine/catalogue/<lang>/LC_MESSAGES/engine.po)
LANGUAGES = ("en", "fr", "de", "uk")
DEFAULT_LANGUAGE = "en"
CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"
DOMAIN = "engine"

#: the values a ``{words:key}`` slot is said by (``TERMS[f"{key}:{value}"]``), besides the cards
_COMBINATIONS = {
    "single": "single", "pair": "pair", "stairs": "stairs", "trio": "trio", "full_house": "full house",
    "straight": "straight", "bomb": "bomb", "dog": "Dog",
}  # fmt: skip
_PHASES = (
    "between_hands", "deal", "exchange", "play", "dragon_gift", "game_over",  # Tichu
    "between_rounds", "action", "drawn", "reshuffle",  # Tien Zi Que
)  # fmt: skip
#: the calls by their names (proper names: "Ann has already called Tichu this hand")
_CALLS = {"tichu": "Tichu", "grand_tichu": "Grand Tichu"}
_REASONS = ("missed_wish",)
#: every refusal code (errors.CODES) as the heading a form shows before the reason:
#: "Not a possible score line: the winner's score pile holds 5 cards, not 4"
_CODE_HEADINGS = {
    "malformed": "Not readable",
    "unknown_card": "Not a card of this game",
    "wrong_phase": "Not at this point of the game",
    "not_your_turn": "Not this player's turn",
    "card_not_in_hand": "Not in that hand",
    "invalid_combination": "Not a combination allowed here",
    "does_not_beat": "Does not beat the cards on the table",
    "wish_not_fulfilled": "The wish must be fulfilled",
    "bomb_not_allowed": "No bomb allowed here",
    "call_too_late": "Too late for this call",
    "already_called": "Already called",
    "push_invalid": "Not a possible exchange",
    "gift_required": "The Dragon trick must be given first",
    "gift_invalid": "Not a possible gift of the Dragon trick",
    "draw_out_of_order": "Not this player's draw",
    "deal_invalid": "Not the game's cards",
    "result_invalid": "Not a possible score line",
    "game_over": "The game is over",
    "not_in_variant": "Not in this game",
}


def _english_terms() -> dict[str, str]:
    terms: dict[str, str] = {}
    for code, rank in RANK_NAMES.items():
        terms[f"rank:{code}"] = rank
    for code, phrase in RANK_PHRASES.items():
        terms[f"phrase:{code}"] = phrase
    for suit, suit_name in SUIT_NAMES.items():
        terms[f"suit:{suit}"] = "{rank:rank} of " + suit_name
    for code, long_name in SPECIAL_LONG.items():
        terms[f"special:{code}"] = long_name
    for code, short in SPECIAL_SHORT.items():
        terms[f"face:{code}"] = short
    for code, word in _COMBINATIONS.items():
        terms[f"combination:{code}"] = word
    for kind in sorted({key.split(":")[0].split("@")[0].split("+")[0] for key in EVENT_WORDS}):
        terms[f"event:{kind}"] = kind.replace("_", " ")
    for phase in _PHASES:
        terms[f"phase:{phase}"] = phase.replace("_", " ")
    for code, call in _CALLS.items():
        terms[f"call:{code}"] = call
    for reason in _REASONS:
        terms[f"reason:{reason}"] = reason.replace("_", " ")
    for code, heading in _CODE_HEADINGS.items():
        terms[f"code:{code}"] = heading
    for name in GAME_NAMES:
        terms[f"variant:{name}"] = game_label(name)
    for game in registered():  # each game's own words (the family's shuffler_rule:, Tien Zi Que's tzq_)
        terms.update(game.terms())
    for key, what in FIELD_TYPE_WORDS.items():
        terms[f"field_type:{key}"] = what
    terms["gift"] = "{cards:cards} to {name:to}"  # one target of a push
    terms["seat"] = "seat {number:seat}"  # a seat without a name
    terms["seat_name:dummy"] = Threechu.DUMMY_NAME  # Threechu's dummy, named where a player would be
    # what the replay adds to a frame's sentence, and says before the first event
    terms["hand_ends"] = ". Hand {number:hand} ends: {number:points}"
    terms["game_over"] = ". The game is over"
    terms["before_first"] = "Before the first event"
    return terms


#: The game's words besides the sentences (English): ``rank:J`` ``Jack``, ``phrase:8`` ``an 8``,
#: ``suit:s`` ``{rank:rank} of Swords``, ``special:Dog``, ``face:Dog`` (what the card shows),
#: ``combination:``, ``call:``, ``event:``, ``phase:``, ``reason:`` (the ``{words:key}`` slots),
#: ``code:`` (a refusal code as a form's heading), ``variant:`` (the games' names), Tien Zi Que's
#: ``tzq_face:`` ``tzq_colour:`` ``tzq_card``, ``tzq_face_short:`` (what a card shows),
#: ``tzq_combination:`` (``triplet``, ``sequence``) and ``tzq_scoring:`` (a scoring line's name), a
#: push's ``gift``, a nameless ``seat`` and Threechu's dummy's name (``seat_name:dummy``).
TERMS: dict[str, str] = _english_terms()


def catalogue_entries() -> list[tuple[str, str]]:
    """Every (msgctxt, msgid) of the engine's catalogue: the English text of each sentence
    (``sentence:<key>``), refusal (``refusal:<key>``) and term (its key), in this order, then the
    house rules' words (option_wording.py) and the BSW reader's reasons (bsw_words.py)."""
    from . import bsw_words  # they read this module's catalogue: imported here, not at the top
    from .option_wording import option_entries

    return (
        [(f"sentence:{k}", v) for k, v in EVENT_WORDS.items()]
        + [(f"refusal:{k}", v) for k, v in REFUSAL_WORDS.items()]
        + list(TERMS.items())
        + option_entries()
        + bsw_words.catalogue_entries()
    )


def language(lang: str | None) -> str:
    """The engine's language for a request's (``fr-ch`` -> ``fr``); English for any other."""
    code = str(lang or "").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@lru_cache(maxsize=None)
def catalogue(lang: str) -> gettext.NullTranslations:
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(CATALOGUE_DIR), languages=[lang], fallback=True)


@dataclass(frozen=True)
class Words:
    """The engine's words in one language: its sentences, refusals and terms (read-only)."""

    lang: str
    events: Mapping[str, str]
    refusals: Mapping[str, str]
    terms: Mapping[str, str]

    def term(self, key: str, default: str | None = None) -> str:
        return self.terms.get(key, key if default is None else default)

    def rank_name(self, code: Any) -> str:
        return self.terms.get(f"rank:{code}", str(code))

    def rank_phrase(self, code: Any) -> str:
        return self.terms.get(f"phrase:{code}", str(code))

    def card_name(self, code: str) -> str:
        """``Ts`` -> ``10 of Swords`` (``10 d'épées``); specials by name; Tien Zi Que's cards."""
        code = str(code)
        if f"special:{code}" in self.terms:
            return self.terms[f"special:{code}"]
        if code in CARD_INFO and len(code) == 2 and f"suit:{code[1]}" in self.terms:
            return fill(self.terms[f"suit:{code[1]}"], {"rank": code[0]}, (), self.lang) or code
        own = own_card(code)
        term = own[0].own_card_term(code) if own else None
        if term is not None:
            return fill(self.terms[term[0]], term[1], (), self.lang) or code
        return code

    def card_face(self, code: str) -> dict[str, str]:
        """What a card shows (faces.card_face), its name and a special card's label in this language."""
        face = dict(card_face(code))
        if f"face:{code}" in self.terms:
            face["rank"] = self.terms[f"face:{code}"]
        else:
            own = own_card(code)
            term = own[0].own_card_term(code) if own else None
            if term is not None and term[2] is not None and term[2] in self.terms:
                face["rank"] = self.terms[term[2]]
        face["name"] = self.card_name(code)
        return face


@lru_cache(maxsize=None)
def words(lang: str | None = DEFAULT_LANGUAGE) -> Words:
    """The engine's words in ``lang`` (``en`` ``fr`` ``de`` ``uk``; any other: English). A text
    the catalogue lacks is said in English."""
    code = language(lang)
    t = catalogue(code)

    def said(ctx: str, text: str) -> str:
        return t.pgettext(ctx, text)

    return Words(
        lang=code,
        events=MappingProxyType({k: said(f"sentence:{k}", v) for k, v in EVENT_WORDS.items()}),
        refusals=MappingProxyType({k: said(f"refusal:{k}", v) for k, v in REFUSAL_WORDS.items()}),
        terms=MappingProxyType({k: said(k, v) for k, v in TERMS.items()}),
    )


_SLOT = re.compile(r"\{(\w+):(\w+)\}")
#: the kinds of slot a template may hold (docs/engine-api.md, "Words")
SLOT_KINDS = ("name", "cards", "card", "count", "rank", "phrase", "words", "gifts", "number")


def slots(template: str) -> set[str]:
    """The parameters a template's slots take (``{name:seat}`` -> ``seat``)."""
    return {m.group(2) for m in _SLOT.finditer(template)}


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def fill(template: str, params: Mapping[str, Any], names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The template with its slots filled from ``params``; None if a slot's parameter is missing."""
    w = words(lang)

    def name(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return _SLOT.sub(lambda m: str(seat), w.terms["seat"])

    def cards(v: Any) -> str:
        return ", ".join(w.card_name(c) for c in _as_list(v))

    def gift(target: Any, given: Any) -> str:
        return fill(w.terms["gift"], {"cards": given, "to": int(target)}, names, lang) or ""

    kinds: dict[str, Callable[[str, Any], str]] = {
        "name": lambda k, v: name(v),
        "cards": lambda k, v: cards(v),
        "card": lambda k, v: w.card_name(str(v)),
        "count": lambda k, v: str(len(_as_list(v))),
        "rank": lambda k, v: w.rank_name(v),
        "phrase": lambda k, v: w.rank_phrase(v),
        "words": lambda k, v: w.terms.get(f"{k}:{v}", str(v).replace("_", " ")),
        "number": lambda k, v: str(v),
        "gifts": lambda k, v: "; ".join(gift(t, c) for t, c in dict(v).items()),
    }
    missing = False

    def slot(m: re.Match[str]) -> str:
        nonlocal missing
        kind, key = m.group(1), m.group(2)
        if key not in params or params[key] is None or kind not in kinds:
            missing = True
            return ""
        return kinds[kind](key, params[key])

    text = _SLOT.sub(slot, template)
    return None if missing else text


def _variants(kind: str, params: Mapping[str, Any]) -> list[str]:
    """The keys to try for an event, most particular first (``type:reason`` before ``type``)."""
    return [f"{kind}:{params.get('reason')}", kind]


def _filled(key: str, kind: str, params: Mapping[str, Any], names: Sequence[str], w: Words) -> str | None:
    template = w.events[key]
    if kind == "play":
        said = [k for k in PLAY_SUFFIXES if params.get(k) is not None]
        if "combination" in said and "phoenix" in said:  # one parenthesis: "(pair, Phoenix as Queen)"
            said[said.index("combination") : said.index("phoenix") + 1] = ["combination+phoenix"]
        template += "".join(w.events[f"play+{k}"] for k in said)
    return fill(template, params, names, w.lang)


def event_words(
    event: Mapping[str, Any],
    names: Sequence[str],
    context: Mapping[str, Any] | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """An event in words, e.g. ``Ann plays 7 of Jade and wishes for an 8``, in ``lang`` (``en``
    ``fr`` ``de`` ``uk``; the engine's catalogue).

    Without ``context`` this is exactly what ``static/shared/cards.js`` says for the event. A
    viewer that knows the position after the event (the replay) gives ``context``: parameters the
    event does not carry (``hand_number``, ``round``, a play's ``combination`` and ``phoenix``,
    a round's score line; ``reason`` choosing a variant such as ``play:bomb`` or
    ``round_result:drawn``); the ``@frame`` templates that need them are then tried first. An event
    with a masked card (``HIDDEN``, a reader who may not see it) is said by its ``type:hidden``
    template, which names no card; an event with a masked card and no such template is said by its
    type alone, so a hidden card is never named."""
    w = words(lang)
    kind = str(event.get("type"))
    bare = w.terms.get(f"event:{kind}", kind.replace("_", " "))
    params: dict[str, Any] = {**event, **(context or {})}
    hidden = HIDDEN in json.dumps([event.get("cards"), event.get("card"), event.get("keep"), event.get("take")])
    if hidden:
        key = f"{kind}:hidden"
        return (_filled(key, kind, params, names, w) if key in w.events else None) or bare
    if context:
        for key in (f"{k}@frame" for k in _variants(kind, params)):
            if key in w.events and (text := _filled(key, kind, params, names, w)) is not None:
                return text
    # as cards.js: the first template there is, filled, or the type in words
    plain = next((k for k in _variants(kind, event) if k in w.events), None)
    if plain is None:
        return bare
    return _filled(plain, kind, params, names, w) or bare


def refusal_words(error: Mapping[str, Any], names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str | None:
    """A refusal (``{"code", "message", "params"}``) in words from its code and parameters, in
    ``lang``, or None when there is no template for it or a parameter is missing (then say its
    message)."""
    w = words(lang)
    params = error.get("params") or {}
    code = str(error.get("code"))
    template = w.refusals.get(f"{code}:{params.get('rule')}") if params.get("rule") else None
    template = template or w.refusals.get(code)
    return fill(template, params, names, lang) if template else None


def refusal_heading(code: str, lang: str | None = DEFAULT_LANGUAGE) -> str:
    """A refusal's code as the heading a form shows before its reason, in ``lang``:
    ``result_invalid`` -> ``Not a possible score line`` (``Pas une ligne de score possible``)."""
    return words(lang).terms.get(f"code:{code}", str(code).replace("_", " "))


def card_names(codes: Iterable[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Cards by their names in ``lang``: ``10 of Swords, Phoenix``."""
    return ", ".join(words(lang).card_name(c) for c in codes)


def combination_names(lang: str | None = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Every kind of combination a play records (``state_json``'s ``combination``) by its name in
    ``lang``: ``{"full_house": "full house", ...}`` (``Full House`` in German)."""
    w = words(lang)
    return {code: w.terms[f"combination:{code}"] for code in _COMBINATIONS}


def call_names(lang: str | None = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Every call (``state_json``'s ``calls``) by its name in ``lang``: ``{"tichu": "Tichu",
    "grand_tichu": "Grand Tichu"}`` (``Großes Tichu`` in German)."""
    w = words(lang)
    return {code: w.terms[f"call:{code}"] for code in _CALLS}


def variant_name(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A game's name as its players' edition says it (``nanking`` -> ``Tichu``; ``Trichu``)."""
    return words(lang).terms.get(f"variant:{name}", game_label(name))


def page_words(lang: str = DEFAULT_LANGUAGE, variant: str | None = None) -> dict[str, Any]:
    """Everything a page's script needs to show cards and word events and refusals as the engine
    does, in ``lang`` (the JSON the entry and replay pages embed for ``static/shared/cards.js``):
    the Tichu deck's faces (and ``variant``'s own cards, Tien Zi Que's)."""
    w = words(lang)
    codes = list(card_table()) + list(variant_cards(variant or ""))
    return {
        "lang": w.lang,
        "cards": {code: w.card_face(code) for code in codes},
        "rank_names": {code: w.rank_name(code) for code in RANK_NAMES},
        "rank_phrases": {code: w.rank_phrase(code) for code in RANK_NAMES},
        "events": dict(w.events),
        "play_suffixes": list(PLAY_SUFFIXES),
        "refusals": dict(w.refusals),
        "terms": dict(w.terms),
    }
