"""The replay's sentences are the engine's (games/engine/wording.py ``event_words``, the templates
the entry page's script fills too): one wording for every page and the API, whatever the variant."""

from __future__ import annotations

import itertools
import re

import pytest

from games import engine
from replay import frames
from replay.frames.wording import frame_context

#: what a frame adds after its event's sentence (replay/frames/annotations.py)
AFTER = re.compile(r"(\. Hand \d+ ends: -?\d+( / -?\d+)*)?(\. The game is over)?")


def assert_engine_words(record: dict) -> int:
    """Every frame's text is the engine's ``event_words`` for its event, given the engine's
    ``state_json`` after it, followed only by the frame's own annotations; returns how many."""
    data = frames.build(record)
    assert data.error is None
    state = engine.new_game(record["variant"], record.get("options"), players=record["players"])
    players = data.players
    steps = engine.fold_steps(state, record["events"])
    for n, event, after in itertools.islice(steps, len(record["events"])):
        words = engine.event_words(event, players, frame_context(event, engine.state_json(after)))
        text = data.texts[n]
        assert text.startswith(words) and AFTER.fullmatch(text[len(words) :]), (n, event, text, words)
        # the words are a template filled, never the type's bare fallback
        assert words != str(event["type"]).replace("_", " "), (n, event)
    return len(record["events"])


@pytest.mark.parametrize("lang", [lang for lang in engine.LANGUAGES if lang != "en"])
@pytest.mark.parametrize("variant", engine.GAME_NAMES)
def test_every_event_of_a_bot_game_is_said_in_each_language(variant, lang):
    """Every event of a bot game, with its frame's facts and without, in each language: a
    template filled (never a slot left, never the type's bare fallback) exactly where the English
    one is."""
    seats = engine.game_info(variant).seat_counts[0]
    record = engine.random_game(2, variant, players=["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:seats])
    state = engine.new_game(record["variant"], record.get("options"), players=record["players"])
    bare = {k: v for k, v in engine.words(lang).terms.items() if k.startswith("event:")}
    for n, event, after in itertools.islice(engine.fold_steps(state, record["events"]), len(record["events"])):
        for context in (frame_context(event, engine.state_json(after)), None):
            words = engine.event_words(event, record["players"], context, lang)
            assert "{" not in words and words != bare.get(f"event:{event['type']}"), (n, event, words)
            assert words != engine.event_words(event, record["players"], context), (lang, n, event)


@pytest.mark.parametrize("variant", engine.GAME_NAMES)
def test_every_event_of_a_bot_game_is_said_in_the_engines_words(variant):
    seats = engine.game_info(variant).seat_counts[0]
    record = engine.random_game(1, variant, players=["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:seats])
    assert assert_engine_words(record) == len(record["events"]) > 0
    kinds = {e["type"] for e in record["events"]}
    assert "play" in kinds or "discard" in kinds


def test_score_sheet_lines_and_undo_are_said_in_the_engines_words():
    record = {
        "variant": "nanking",
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "events": [
            {"type": "hand_result", "calls": {}, "out": [2], "points": [80, 20]},
            {"type": "hand_result", "calls": {"1": "grand_tichu"}, "out": [1, 3]},
            {"type": "undo"},
        ],
    }
    assert_engine_words(record)
    data = frames.build(record)
    assert data.texts[1].startswith("Hand 1 recorded from the score sheet")
    assert data.texts[3] == "Undo: the latest event is retracted"


def test_tien_zi_que_round_results_are_said_in_the_engines_words():
    """The new ``round_result`` (a round by its score line): the round's number, winner and
    points come from the engine's score sheet; a drawn round says so."""
    record = {
        "variant": "tien-zi-que",
        "players": ["Ann", "Bob"],
        "options": {"exhausted_stock_draws": True},
        "events": [
            {"type": "round_result", "seat": 0, "winner": 1, "by": "pung", "points": 6},
            {"type": "round_result", "seat": 1},
        ],
    }
    assert_engine_words(record)
    data = frames.build(record)
    assert data.texts[1].startswith("Round 1 recorded from the score line: Bob +6, Mah-jong by a Pung")
    assert data.texts[2].startswith("Round 2 recorded from the score line: drawn")


def test_without_a_frame_the_words_are_the_event_alone_as_the_entry_script_says_them():
    names = ["Ann", "Bob", "Cid", "Dee"]
    shuffle = {"type": "shuffle", "seat": 1}
    assert engine.event_words(shuffle, names) == "Bob shuffles (new hand)"
    assert engine.event_words(shuffle, names, {"hand_number": 3}) == "Bob shuffles: hand 3 begins"
    play = {"type": "play", "seat": 1, "cards": ["Qj", "Phoenix"], "to": 2}
    assert engine.event_words(play, names) == "Bob plays Queen of Jade, Phoenix; the lead goes to Cid"
    assert engine.event_words(play, names, {"combination": "pair", "phoenix": "Q"}) == (
        "Bob plays Queen of Jade, Phoenix (pair, Phoenix as Queen); the lead goes to Cid"
    )


@pytest.mark.parametrize(
    "event, said",
    [
        ({"type": "draw", "seat": 1, "card": engine.HIDDEN}, "Bob draws a card"),
        ({"type": "push", "seat": 1, "cards": {"0": engine.HIDDEN, "2": engine.HIDDEN}}, "Bob pushes cards"),
        ({"type": "push", "seat": 1, "cards": {"0": "Kj", "2": engine.HIDDEN}}, "Bob pushes cards"),
        ({"type": "deal", "seat": 1, "cards": [engine.HIDDEN] * 8}, "Bob is dealt 8 cards"),
        ({"type": "discard", "seat": 1, "card": engine.HIDDEN}, "discard"),
    ],
)
def test_a_masked_card_is_never_named(event, said):
    """A masked event names no card: its ``type:hidden`` template, or else its type alone."""
    assert engine.event_words(event, ["Ann", "Bob", "Cid", "Dee"], {"hand_number": 1}) == said
