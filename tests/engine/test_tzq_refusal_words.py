"""Every refusal of Tien Zi Que in words (issues #15 and #21): the engine refuses an event with a
code, a ``tzq_`` rule and the parameters its template needs (games/engine/tien_zi_que/refusals.py),
so that ``refusal_words`` says it in English, French, German and Ukrainian from the engine's
catalogue, never falling back to the English message.

The refusals are found by driving the game: bot-played games (``random_tzq_record``) are folded
event by event, and at each position a set of probes (every seat, held and unheld cards, wrong
combinations, the wrong stock, events of the wrong phase) is tried on a copy; a few refusals
that no position of a standard game reaches (a game's setup, the optional rules) are tried on
games made for them. The refusals found must be all the templates: a template no refusal uses,
or a refusal with no template, fails."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import EngineError
from games.engine.shared_refusals import SHARED_REFUSAL_WORDS
from games.engine.tien_zi_que import TienZiQueState, random_tzq_record, round_result
from games.engine.tien_zi_que import state as state_module
from games.engine.tien_zi_que.refusals import TZQ_REFUSAL_WORDS
from tests.engine import refusal_words_check
from tests.engine.refusal_words_check import OTHER_LANGUAGES
from tests.engine.test_tien_zi_que import PLAIN, PLAIN_KEEPS, plan_round
from tests.engine.tzq_table import Game as TzqGame

NAMES = ["Ann", "Bob"]
#: words a translation keeps as they are: option names, the game's proper names
_KEPT = re.compile(r"\{\w+:\w+\}|\S*_\S*|starts: alternate|Tien Zi Que|Mah-jong|Pung|Chow|Tichu|'deck'|'hands'")


def words_problems(error: EngineError) -> list[str]:
    """What is wrong with a refusal's words (tests/engine/refusal_words_check.py)."""
    rule = error.params.get("rule")
    # Tien Zi Que's own (a tzq_ rule), or one the schema, fold and options of every game share
    templates = TZQ_REFUSAL_WORDS if str(rule).startswith("tzq_") else SHARED_REFUSAL_WORDS
    return refusal_words_check.words_problems(error, f"{error.code}:{rule}", templates, NAMES, _KEPT)


def _refusal(state: TienZiQueState, event) -> EngineError | None:
    try:
        state.copy().apply(event)
    except EngineError as error:
        return error
    return None


def probes(g: TienZiQueState) -> list[dict]:
    """Events to try at a position: right and wrong seats, held and unheld cards, broken shapes."""
    deck = sorted((g.deck or Counter()).elements())
    out: list[dict] = [
        {"type": "play", "seat": 0, "cards": []},
        {"type": "bogus"},
        {"type": "round_result", "seat": 0, "winner": 0, "by": "chow", "points": 3},
    ]
    if deck:
        out.append({"type": "round_start", "seat": 0, "hands": [deck[:5], deck[5:10]], "stock": deck[10:]})
    r = g.round
    if r is None:
        return out + [{"type": "draw", "seat": 0}]
    dragons = [c for c in deck if c[0] == "D"]  # a triplet, seldom held whole
    for seat in (r.active, 1 - r.active, 7):
        hand = list(r.hands[seat]) if seat in (0, 1) else []
        absent = next((c for c in deck if c not in hand), "Ew")
        out += [
            {"type": "draw", "seat": seat},
            {"type": "draw", "seat": seat, "card": 7},
            {"type": "draw", "seat": seat, "card": "Zz"},
            {"type": "discard", "seat": seat, "card": absent},
            {"type": "discard", "seat": seat, "card": hand[0] if hand else "Ew"},
            {"type": "pung", "seat": seat, "cards": hand[:3], "keep": absent},
            {"type": "pung", "seat": seat, "cards": hand[:2], "keep": absent},
            {"type": "pung", "seat": seat, "cards": "x", "keep": absent},
            {"type": "pung", "seat": seat, "cards": ["Jk", "Jk", "C1w"], "keep": "Jk"},
            {"type": "reshuffle", "seat": seat, "stock": []},
            {"type": "reshuffle", "seat": seat, "stock": list(r.discard) + ["Ew"]},
            {"type": "reshuffle", "seat": seat, "stock": list(r.discard)[1:]},
            {"type": "reshuffle", "seat": seat, "stock": list(r.discard)[1:] + ["Ew"]},
            {"type": "pung", "seat": seat, "cards": dragons, "keep": dragons[0]},
        ]
        if r.stock:
            out.append({"type": "draw", "seat": seat, "card": next(c for c in deck if c != r.stock[0])})
        for take in list(r.chowable) + [absent, "Jk"]:
            same = [c for c in deck if c[:-1] == take[:-1]]
            same.remove(take)
            out += [
                {"type": "chow", "seat": seat, "take": take, "cards": [take] + same[:2], "keep": take},
                {"type": "chow", "seat": seat, "take": take, "cards": dragons, "keep": dragons[0]},
                {"type": "chow", "seat": seat, "take": take, "cards": [take] + hand[:2], "keep": take},
                {"type": "chow", "seat": seat, "take": take, "cards": hand[:3], "keep": hand[0] if hand else take},
            ]
    for action in g.legal_actions():  # a legal combination made wrong: held by the other seat, kept wrong
        if action["type"] in ("pung", "chow"):
            out += [
                {**action, "seat": 1 - action["seat"]},
                {**action, "keep": next(c for c in deck if c not in action["cards"])},
            ]
    return out


@lru_cache(maxsize=None)
def _game_refusals(seed: int) -> dict[str, EngineError]:
    """Every refusal (by template key) that the probes meet along a bot-played game."""
    record = random_tzq_record(seed, options={"rounds": 2})
    g = TienZiQueState(record["options"], record["players"])
    found: dict[str, EngineError] = {}
    positions = list(record["events"]) + [None]
    for event in positions:
        for probe in probes(g):
            error = _refusal(g, probe)
            if error is not None:
                found.setdefault(f"{error.code}:{error.params.get('rule')}", error)
        if event is not None:
            g.apply(event)
    return found


def _made_for(options, players=NAMES, events=()):
    g = TienZiQueState(options, players)
    for event in events:
        g.apply(event)
    return g


def _special_refusals() -> list[EngineError]:
    """Refusals outside a standard game's positions: its setup, a first deal without a deck
    option, the optional rules, the score line's own checks."""
    record = random_tzq_record(3)
    deck = record["options"]["deck"]
    errors: list[EngineError] = []

    def refused(make) -> None:
        try:
            make()
        except EngineError as error:
            errors.append(error)
        else:
            raise AssertionError("accepted")

    refused(lambda: TienZiQueState({}, ["Ann"]))
    bad_decks = [deck[:-1], ["Zz"] * 54, deck[:-3] + ["Ew", "Ew", "Ew"], ["C1w"] * 4 + deck[4:]]
    # the 2 of coins of the colour no series has: four colours for each number, not the same four
    unused = next(c for c in "wbkrg" if f"C1{c}" not in deck)
    recoloured = list(deck)
    recoloured[recoloured.index(next(c for c in deck if c.startswith("C2")))] = f"C2{unused}"
    bad_decks.append(recoloured)
    for bad in bad_decks:
        try:
            TienZiQueState({"deck": bad}, NAMES)
        except EngineError as error:
            errors.append(error)
        try:  # the same cards as a first deal, with no deck option
            _made_for({}, events=[{"type": "round_start", "seat": 0, "hands": [bad[:5], bad[5:10]], "stock": bad[10:]}])
        except EngineError as error:
            errors.append(error)
    no_deck = _made_for({})
    for hands in ("x", [["Ew"]]):
        errors.append(_refusal(no_deck, {"type": "round_start", "seat": 0, "hands": hands, "stock": []}))
    errors.append(_refusal(no_deck, {"type": "round_start", "seat": 0, "hands": [["Ew"], deck[5:10]], "stock": []}))
    errors.append(_refusal(no_deck, {"type": "round_start", "seat": 0, "hands": [[1], deck[5:10]], "stock": []}))
    # the game's deck, dealt wrong: a card missing, one too many, both
    game = _made_for({"deck": deck})
    for stock in (deck[10:-1], deck[10:] + ["Ew"], deck[10:-1] + ["Ew"]):
        errors.append(
            _refusal(game, {"type": "round_start", "seat": 0, "hands": [deck[:5], deck[5:10]], "stock": stock})
        )
    # the score line
    line = {"type": "round_result", "seat": 0}
    for fields in (
        {}, {"winner": 3, "by": "pung", "points": 1}, {"winner": 0, "by": "ron", "points": 1},
        {"winner": 0, "by": "pung"}, {"winner": 0, "by": "pung", "points": 2000},
        {"winner": 0, "by": "chow", "points": 2000}, {"winner": 0, "by": "pung", "points": "x"},
        {"winner": 0, "by": "pung", "score_pile": ["Jk"] * 4},
        {"winner": 0, "by": "pung", "score_pile": ["Jk", "Jk", "Jk", "Zz", "Ew"]},
        {"winner": 0, "by": "pung", "score_pile": ["Jk"] * 4 + ["Ew"]},
        {"winner": 0, "by": "pung", "score_pile": ["Jk"] * 3 + ["C1w", "C1w"]},
        {"winner": 0, "by": "pung", "score_pile": ["Jk", "Jk", "Jk", "Ew", "Ew"], "points": 0},
        {"winner": 0, "by": "chow", "score_pile": ["Jk", "Jk", "Jk", "Ew", "Ew"], "points": 0},
    ):  # fmt: skip
        errors.append(_refusal(no_deck, {**line, **fields}))
    errors.append(_refusal(game, {**line, "winner": 0, "by": "pung", "score_pile": ["Jk"] * 3 + ["Ew"] * 2}))
    draws = _made_for({"exhausted_stock_draws": True})
    errors.append(_refusal(draws, {**line, "points": 3}))
    at_least = _made_for({"min_points": 12})
    low = ["C1w", "C2w", "C3w", "C4w", "C5w"]
    for fields in ({"by": "pung", "points": 2000}, {"by": "chow", "points": 2000}, {"by": "chow", "score_pile": low}):
        errors.append(_refusal(at_least, {**line, "winner": 0, **fields}))
    # the second round's starter, a starter of too many rounds, the game over
    played = _made_for({"rounds": 2}, events=[{**line, "winner": 0, "by": "chow", "points": 3}])
    errors.append(_refusal(played, {**line, "winner": 0, "by": "chow", "points": 3}))
    free = _made_for({"rounds": 2, "starts": "free"}, events=[{**line, "winner": 0, "by": "chow", "points": 3}])
    errors.append(_refusal(free, {**line, "winner": 0, "by": "chow", "points": 3}))
    over = _made_for({"rounds": 2}, events=[{**line, "winner": 0, "by": "chow", "points": 3},
                                            {**line, "seat": 1, "winner": 0, "by": "chow", "points": 3}])  # fmt: skip
    errors.append(_refusal(over, {**line, "winner": 0, "by": "chow", "points": 3}))
    # a Mah-jong under min_points (tests/engine/test_tien_zi_que.py's round)
    under = TzqGame({"min_points": 2})
    start, actions = plan_round(1, 0, PLAIN, PLAIN_KEEPS, last_by="chow")
    under.do(start, *actions[:-1])
    errors.append(_refusal(under.state, actions[-1]))
    # checks behind the shared schema (games/engine/schema.py refuses these shapes first)
    for check in (
        lambda: state_module._card_of({"type": "draw", "card": 7}, "card"),
        lambda: state_module._cards_of({"type": "pung", "cards": "x"}, "cards"),
        lambda: round_result._int_field({"points": "x"}, "points"),
    ):
        refused(check)
    return [e for e in errors if e is not None]


def _special_positions() -> list[tuple[TienZiQueState, list[dict]]]:
    """Positions of bot games under the optional rules, with their probes."""
    out = []
    for options in ({"exhausted_stock_draws": True, "rounds": 2}, {"min_points": 2, "rounds": 2}):
        record = random_tzq_record(5, options=options)
        g = TienZiQueState(record["options"], record["players"])
        for event in record["events"]:
            out.append((g.copy(), probes(g)))
            g.apply(event)
    return out


@lru_cache(maxsize=None)
def all_refusals() -> dict[str, EngineError]:
    found: dict[str, EngineError] = {}
    for seed in (1, 2):
        for key, error in _game_refusals(seed).items():
            found.setdefault(key, error)
    for error in _special_refusals():
        found.setdefault(f"{error.code}:{error.params.get('rule')}", error)
    for g, events in _special_positions():
        for event in events:
            error = _refusal(g, event)
            if error is not None:
                found.setdefault(f"{error.code}:{error.params.get('rule')}", error)
    return found


def shared(error: EngineError) -> bool:
    """Refused by what every game shares (games/engine/schema.py, event_fold.py, options.py), before
    this package's rules: worded by games/engine/shared_refusals.py."""
    return not str(error.params.get("rule")).startswith("tzq_")


def test_every_refusal_is_worded_in_every_language():
    problems = [p for e in all_refusals().values() for p in words_problems(e)]
    assert problems == []
    # the shared schema's refusal of a field's JSON type is met here too, and worded
    assert any(e.params.get("rule") == "field_type" for e in all_refusals().values())


def test_the_refusals_found_are_every_template():
    """Every Tien Zi Que template words a refusal the engine gives (and the enumeration above
    meets them all, so the test before covers each)."""
    found = [key for key, error in all_refusals().items() if not shared(error)]
    assert sorted(found) == sorted(TZQ_REFUSAL_WORDS)
    assert {key for key, error in all_refusals().items() if shared(error)} <= set(SHARED_REFUSAL_WORDS)


def test_a_refusal_keeps_its_english_message_and_says_it_in_german():
    error = all_refusals()["result_invalid:tzq_unreachable_chow"]
    assert error.message.startswith("round_result: no score pile won by a Chow scores 2000; the nearest possible: ")
    english = engine.refusal_words(error.as_dict(), NAMES)
    assert english in error.message
    german = engine.refusal_words(error.as_dict(), NAMES, "de")
    assert german.startswith("kein Punktestapel ergibt mit einem Chow 2000 Punkte; am nächsten möglich: ")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 40), at=st.floats(0, 1), pick=st.integers(0, 10_000), lang=st.sampled_from(OTHER_LANGUAGES))
def test_a_random_wrong_event_on_a_bot_game_is_worded(seed, at, pick, lang):
    """Any probe at any position of a bot game: refused, it has words in ``lang``, not English."""
    record = random_tzq_record(seed, options={"rounds": 2})
    g = TienZiQueState(record["options"], record["players"])
    for event in record["events"][: int(at * len(record["events"]))]:
        g.apply(event)
    options = probes(g)
    error = _refusal(g, options[pick % len(options)])
    if error is not None:
        assert words_problems(error) == []
        assert engine.refusal_words(error.as_dict(), NAMES, lang) != error.message
