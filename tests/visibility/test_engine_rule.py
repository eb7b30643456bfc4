"""The engine's visibility rule (games.engine.visibility): what the table sees of a hand in play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from tests.visibility.cards import (
    AT_REST,
    PLAYERS,
    VARIANTS,
    bot_record,
    hand_start,
    secret_cards,
    shown_codes,
    universe,
)


def sight_at(record: dict, cut: int, seats, reveal: str = "after_hand") -> engine.Sight:
    events = record["events"][:cut]
    return engine.sight_for(record["variant"], events, engine.fold(record, cut), seats=seats, reveal=reveal)


def channels(record: dict, cut: int, sight: engine.Sight) -> list:
    """Everything the engine's masking gives a reader at `cut`: the state at every position, the
    events and the record."""
    replay = engine.Replay(record)
    prefix = {**record, "events": record["events"][:cut]}
    states = [engine.redact_state(engine.state_json(replay.state_at(n)), sight, n) for n in range(cut + 1)]
    return [states, engine.redact_events(prefix["events"], sight), engine.redact_record(prefix, sight)]


def in_hand(record: dict, cut: int) -> bool:
    return engine.state_json(engine.fold(record, cut))["phase"] not in AT_REST


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    where=st.floats(0, 1),
    holder=st.sampled_from(["none", "seat"]),
    seat=st.integers(0, 11),
)
def test_no_masked_channel_shows_a_card_the_rule_hides(variant, seed, where, holder, seat):
    record = bot_record(seed, variant)
    cut = int(where * len(record["events"]))
    seats = set() if holder == "none" else {seat % PLAYERS[variant]}
    secret = secret_cards(record, cut, seats)
    sight = sight_at(record, cut, seats)
    codes = universe(record)
    start = hand_start(record["events"][:cut]) if in_hand(record, cut) else cut
    states, events, exported = channels(record, cut, sight)
    # Positions and events of the hand in play (earlier hands are over: open, and the same codes
    # were dealt again since).
    shown = shown_codes(states[start + 1 :], codes) | shown_codes(events[start:], codes)
    shown |= shown_codes(exported["events"][start:], codes)
    assert not shown & secret, f"{variant} seed {seed} at {cut}: shows {sorted(shown & secret)}"
    # Not vacuous: a scorer (every hand) sees those cards, and the reader sees what they hold.
    everything = channels(record, cut, engine.EVERYTHING)
    assert secret <= shown_codes(everything[0][cut], codes) | shown_codes(everything[1][start:], codes)
    full = engine.state_json(engine.fold(record, cut))
    mine = states[cut]
    assert [len(h) for h in mine["hands"]] == [len(h) for h in full["hands"]]  # counts stay
    for s in seats:
        assert mine["hands"][s] == full["hands"][s]
    if secret:
        assert not sight.everything and mine["redacted"]["card"] == engine.HIDDEN


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_finished_hand_is_open_and_the_hand_in_play_is_masked(variant):
    record = bot_record(5, variant)
    events = record["events"]
    starts = [i for i, e in enumerate(events) if e["type"] in ("shuffle", "round_start")]
    cut = starts[1] + 12  # a dozen events into the second hand
    sight = sight_at(record, cut, set())
    assert sight.secret_from == starts[1]
    replay = engine.Replay(record)
    before = engine.state_json(replay.state_at(starts[1] - 3))  # late in the first hand
    assert engine.redact_state(before, sight, starts[1] - 3) is before
    during = engine.redact_state(engine.state_json(replay.state_at(cut)), sight, cut)
    assert {c for h in during["hands"] for c in h} == {engine.HIDDEN}
    assert engine.redact_events(events[: starts[1]], sight) == events[: starts[1]]
    after_game = sight_at(record, cut, set(), reveal="after_game")
    assert after_game.secret_from == 0 and after_game.event_secret(0)
    assert sight_at(record, len(events), set()).everything  # the finished game


def test_the_hand_in_play_is_secret_since_before_what_an_undo_took_back():
    record = bot_record(2, "nanking")
    events = record["events"]
    second = [i for i, e in enumerate(events) if e["type"] == "shuffle"][1]
    # The first hand ends, the second is dealt a little, then everything of it is taken back and
    # it is dealt again: what was taken back stays secret with the new deal.
    retracted = events[second : second + 6]
    redo = retracted + [{"type": "undo"}] * len(retracted) + events[second : second + 10]
    rec = {**record, "events": events[:second] + redo}
    sight = sight_at(rec, len(rec["events"]), set())
    assert sight.secret_from == second
    # Back from the second hand into the first one: its last play taken back, the first hand is
    # in play again and secret from its own beginning.
    back = events[: second + 3] + [{"type": "undo"}] * 4
    rec = {**record, "events": back}
    sight = sight_at(rec, len(back), set())
    assert engine.fold(rec).phase == "play" and sight.secret_from == 0
    # At rest after taking a new hand's first cards back: only those events are secret.
    rest = events[: second + 3] + [{"type": "undo"}] * 3
    rec = {**record, "events": rest}
    sight = sight_at(rec, len(rest), set())
    assert sight.secret_from == second and not sight.position_secret(second)
    assert engine.redact_event(rest[second + 1], sight, second + 1)["card"] == engine.HIDDEN


def test_a_player_sees_their_own_hand_and_pushes_and_what_they_receive_after_the_exchange():
    record = bot_record(4, "nanking")
    events = record["events"]
    pushes = [i for i, e in enumerate(events) if e["type"] == "push"][:4]
    first_push = pushes[0]
    seat = events[first_push]["seat"]
    sight = sight_at(record, pushes[-1] + 1, {seat})
    mid = engine.redact_state(engine.state_json(engine.fold(record, first_push + 1)), sight, first_push + 1)
    assert mid["pushes"][str(seat)] == {
        t: [c] if isinstance(c, str) else c for t, c in events[first_push]["cards"].items()
    }
    # Before the last push, what the others gave the seat is not yet in its hand: hidden.
    waiting = engine.redact_state(engine.state_json(engine.fold(record, pushes[-1])), sight, pushes[-1])
    assert len(waiting["pushes"]) == 3
    for pusher, gifts in waiting["pushes"].items():
        for cards in gifts.values():
            assert (engine.HIDDEN in cards) == (int(pusher) != seat)
    done = engine.redact_state(engine.state_json(engine.fold(record, pushes[-1] + 1)), sight, pushes[-1] + 1)
    for pusher, gifts in done["pushes"].items():
        for target, cards in gifts.items():
            assert (engine.HIDDEN in cards) == (seat not in (int(pusher), int(target)))
    shown = engine.redact_events(events[: pushes[-1] + 1], sight)
    for i in pushes:
        hidden = engine.HIDDEN in str(shown[i]["cards"])
        assert hidden == (events[i]["seat"] != seat)


def test_threechu_dealer_sees_the_dummy_and_the_others_do_not():
    record = bot_record(6, "threechu")
    events = record["events"]
    shuffle = events[0]
    dealer = shuffle["seat"]
    other = (dealer + 1) % 3
    cut = 40
    full = engine.state_json(engine.fold(record, cut))
    as_dealer = engine.redact_state(full, sight_at(record, cut, {dealer}), cut)
    as_other = engine.redact_state(full, sight_at(record, cut, {other}), cut)
    assert as_dealer["hands"][3] == full["hands"][3] and full["hands"][3]
    assert set(as_other["hands"][3]) == {engine.HIDDEN}
    dummy_draw = next(i for i, e in enumerate(events[:cut]) if e["type"] == "draw" and e["seat"] == 3)
    assert engine.redact_event(events[dummy_draw], sight_at(record, cut, {dealer}), dummy_draw) == events[dummy_draw]
    assert engine.redact_event(events[dummy_draw], sight_at(record, cut, {other}), dummy_draw)["card"] == engine.HIDDEN


def test_tien_zi_que_hides_the_other_hand_the_stock_and_the_card_just_drawn():
    record = bot_record(3, "tien-zi-que")
    events = record["events"]
    draw = next(i for i, e in enumerate(events) if e["type"] == "draw" and "card" in e)
    drawer = events[draw]["seat"]
    sight = sight_at(record, draw + 1, {1 - drawer})
    state = engine.redact_state(engine.state_json(engine.fold(record, draw + 1)), sight, draw + 1)
    assert state["drawn"] == engine.HIDDEN and set(state["hands"][drawer]) == {engine.HIDDEN}
    start = engine.redact_event(events[0], sight, 0)
    assert start["hands"][1 - drawer] == events[0]["hands"][1 - drawer]
    assert set(start["hands"][drawer]) == {engine.HIDDEN} and set(start["stock"]) == {engine.HIDDEN}
    assert len(start["stock"]) == len(events[0]["stock"])
    assert engine.redact_event(events[draw], sight, draw)["card"] == engine.HIDDEN
    mine = sight_at(record, draw + 1, {drawer})
    assert (
        engine.redact_state(engine.state_json(engine.fold(record, draw + 1)), mine, draw + 1)["drawn"]
        == events[draw]["card"]
    )


def test_a_full_record_is_unchanged_and_a_redacted_one_says_so_and_cannot_be_folded():
    record = bot_record(1, "nanking")
    cut = 30
    prefix = {**record, "events": record["events"][:cut]}
    assert engine.redact_record(prefix, engine.EVERYTHING) is prefix
    masked = engine.redact_record(prefix, sight_at(record, cut, {2}))
    assert masked["redacted"] == {"from": 0, "card": "?", "seats": [2]}
    assert [e["type"] for e in masked["events"]] == [e["type"] for e in prefix["events"]]
    with pytest.raises(engine.EngineError) as err:
        engine.fold(masked)
    assert err.value.code == "malformed" and "redacted" in err.value.message
    assert engine.fold(prefix).events_applied == cut


def test_a_sight_names_what_it_shows_for_cache_keys():
    record = bot_record(1, "nanking")
    assert engine.EVERYTHING.key() == "all"
    a, b = sight_at(record, 30, set()), sight_at(record, 30, {1})
    assert a.key() != b.key() and a.key() != "all"
    assert sight_at(record, 30, None).key() == "all"
    with pytest.raises(ValueError):
        engine.sight_for("nanking", record["events"][:30], engine.fold(record, 30), seats=(), reveal="never")


def test_the_bsw_export_refuses_a_masked_record():
    record = bot_record(1, "nanking")
    prefix = {**record, "events": record["events"][:30]}
    with pytest.raises(ValueError, match="redacted"):
        engine.export_bsw(engine.redact_record(prefix, sight_at(record, 30, set())))
