"""Every Nanking rule of /work/shared/spec/rules.md, through the engine's public API: events
applied to a GameState (tests/engine/table.py) or records folded."""

from __future__ import annotations

import pytest

from games.engine import (
    TICHU_DECK,
    EngineError,
    Replay,
    bombs_out_of_turn,
    fold,
    legal_actions,
    new_game,
    random_game,
    score_json,
    state_json,
)
from tests.engine.table import PLAYERS, STRAIGHT_1_A, Table, play_event, refuse, seat0_goes_out, straight, two_out


def _without_count(js):
    return {k: v for k, v in js.items() if k != "events"}


# ================================================================================================
# Dealing, calls, exchange
# ================================================================================================


def _drawing(shuffler=0, options=None):
    g = new_game("nanking", options, PLAYERS)
    g.apply({"type": "shuffle", "seat": shuffler})
    draws = [{"type": "draw", "seat": (shuffler + i) % 4, "card": c} for i, c in enumerate(TICHU_DECK)]
    return g, draws


def test_draw_one_card_at_a_time_from_the_shuffler_on_14_each():
    g, draws = _drawing(shuffler=2)
    refuse(g, {"type": "draw", "seat": 3, "card": "Dog"}, "draw_out_of_order")
    for d in draws[:5]:
        g.apply(d)
    refuse(g, {"type": "draw", "seat": 3, "card": draws[0]["card"]}, "deal_invalid")  # already taken
    for d in draws[5:]:
        g.apply(d)
    js = state_json(g)
    assert [len(h) for h in js["hands"]] == [14, 14, 14, 14]
    assert js["phase"] == "exchange"
    refuse(g, {"type": "draw", "seat": 2, "card": "Dog"}, "wrong_phase")


def test_grand_tichu_before_the_ninth_card():
    g, draws = _drawing()
    for d in draws[: 4 * 8]:  # every seat has 8 cards
        g.apply(d)
    g.apply({"type": "grand_tichu", "seat": 1})
    g.apply(draws[32])  # seat 0 takes its 9th card
    refuse(g, {"type": "grand_tichu", "seat": 0}, "call_too_late")
    g.apply({"type": "grand_tichu", "seat": 2})  # seat 2 still has 8
    refuse(g, {"type": "grand_tichu", "seat": 1}, "already_called")
    refuse(g, {"type": "tichu", "seat": 1}, "already_called")  # one call per player per hand
    for d in draws[33:]:
        g.apply(d)
    refuse(g, {"type": "grand_tichu", "seat": 3}, "call_too_late")
    assert state_json(g)["calls"] == {"1": "grand_tichu", "2": "grand_tichu"}


def test_tichu_may_be_called_while_still_drawing_after_the_ninth_card():
    g, draws = _drawing()
    for d in draws[:40]:  # seat 1 has 10 cards: too late for a Grand Tichu, not for a Tichu
        g.apply(d)
    refuse(g, {"type": "grand_tichu", "seat": 1}, "call_too_late")
    g.apply({"type": "tichu", "seat": 1})
    assert state_json(g)["calls"] == {"1": "tichu"}


def test_grand_tichu_with_deal_events_is_recorded_before_the_seats_deal():
    g = new_game("nanking", None, PLAYERS)
    g.apply({"type": "shuffle", "seat": 0})
    g.apply({"type": "grand_tichu", "seat": 0})
    g.apply({"type": "deal", "seat": 0, "cards": list(TICHU_DECK[:14])})
    refuse(g, {"type": "grand_tichu", "seat": 0}, "already_called")
    g.apply({"type": "deal", "seat": 1, "cards": list(TICHU_DECK[14:22])})  # western: 8 first
    g.apply({"type": "grand_tichu", "seat": 1})
    g.apply({"type": "deal", "seat": 1, "cards": list(TICHU_DECK[22:28])})
    g.apply({"type": "deal", "seat": 2, "cards": list(TICHU_DECK[28:42])})
    refuse(g, {"type": "grand_tichu", "seat": 2}, "call_too_late")
    refuse(g, {"type": "deal", "seat": 2, "cards": ["Dragon"]}, "deal_invalid")  # 15 cards
    refuse(g, {"type": "deal", "seat": 3, "cards": list(TICHU_DECK[41:55])}, "deal_invalid")  # a dealt card


def test_tichu_before_the_exchange_and_until_ones_first_card():
    t = Table({0: ["Mahjong", "2j"]}, tichu=[3])  # seat 3 calls before the exchange
    assert t.js["calls"] == {"3": "tichu"}
    t.play(0, "2j")
    t.refuse({"type": "tichu", "seat": 0}, "call_too_late")  # seat 0 has played a card
    t.pass_(1)
    t.apply({"type": "tichu", "seat": 1})  # a pass is not a card played
    t.refuse({"type": "tichu", "seat": 3}, "already_called")
    t.refuse({"type": "grand_tichu", "seat": 2}, "call_too_late")
    assert t.js["calls"] == {"1": "tichu", "3": "tichu"}


def test_a_bomb_out_of_turn_is_ones_first_card_for_tichu():
    # 001: "Each player may, until he plays his first card in a hand, call 'small tichu'."
    # A bomb played out of turn is a card played.
    t = Table({0: ["Mahjong", "2j"], 2: ["7j", "7s", "7p", "7r"]})
    t.play(0, "2j").bomb(2, "7j", "7s", "7p", "7r")
    t.refuse({"type": "tichu", "seat": 2}, "call_too_late")
    t.apply({"type": "tichu", "seat": 1})


def test_exchange_one_card_to_each_other_player_seen_after_all_pushes():
    g = new_game("nanking", None, PLAYERS)
    g.apply({"type": "shuffle", "seat": 0})
    for s in range(4):
        g.apply({"type": "deal", "seat": s, "cards": list(TICHU_DECK[14 * s : 14 * s + 14])})
    hands = state_json(g)["hands"]
    push0 = {"1": hands[0][0], "2": hands[0][1], "3": hands[0][2]}
    refuse(g, {"type": "push", "seat": 0, "cards": {"1": hands[0][0], "2": hands[0][1]}}, "push_invalid")
    refuse(
        g, {"type": "push", "seat": 0, "cards": {"1": hands[0][0], "2": hands[0][1], "0": hands[0][2]}}, "push_invalid"
    )
    refuse(
        g,
        {"type": "push", "seat": 0, "cards": {"1": hands[1][0], "2": hands[0][1], "3": hands[0][2]}},
        "card_not_in_hand",
    )
    g.apply({"type": "push", "seat": 0, "cards": push0})
    # seat 1 has not received seat 0's card yet: it cannot push it on
    assert hands[0][0] not in state_json(g)["hands"][1]
    refuse(
        g,
        {"type": "push", "seat": 1, "cards": {"0": hands[0][0], "2": hands[1][1], "3": hands[1][2]}},
        "card_not_in_hand",
    )
    refuse(g, {"type": "push", "seat": 0, "cards": push0}, "push_invalid")  # pushed already
    for s in (1, 2, 3):
        others = [t for t in range(4) if t != s]
        g.apply({"type": "push", "seat": s, "cards": {str(t): hands[s][i] for i, t in enumerate(others)}})
    js = state_json(g)
    assert hands[0][0] in js["hands"][1] and all(len(h) == 14 for h in js["hands"])
    assert js["phase"] == "play"
    holder = next(s for s in range(4) if "Mahjong" in js["hands"][s])
    assert holder == 2  # seat 0 pushed its second card, the Mahjong, to seat 2
    assert js["turn"] == holder


def test_mahjong_holder_leads_not_necessarily_the_mahjong():
    t = Table({2: ["Mahjong", "9j"]})
    assert t.turn == 2
    t.refuse_play("not_your_turn", 0, t.hand(0)[0])
    t.refuse_pass("wrong_phase", 2)  # the leader cannot pass
    t.play(2, "9j")
    assert t.turn == 3


def test_first_out_of_the_previous_hand_shuffles():
    t = two_out()
    t.apply({"type": "penalty", "seat": 1, "reason": "missed_wish"})
    t.refuse({"type": "shuffle", "seat": 0}, "not_your_turn")
    t.apply({"type": "shuffle", "seat": 2})
    g = fold({**t.record(), "options": {"shuffler": "any"}, "events": t.events[:-1] + [{"type": "shuffle", "seat": 0}]})
    assert g.phase == "deal"


# ================================================================================================
# Combinations
# ================================================================================================


@pytest.mark.parametrize(
    "cards",
    [
        ["Mahjong", "2j"],
        ["Mahjong", "Phoenix"],
        ["Dragon", "Phoenix"],
        ["Dog", "Phoenix"],
        ["Dragon", "Aj", "Kj", "Qj", "Js"],
        ["2j", "2s", "3j"],
        ["Dog", "2j"],
        ["2j", "3s", "4p", "5r", "7j"],
        ["2j", "2s", "4j", "4s"],
        ["3j", "3s", "3p", "Phoenix"],
        ["2j", "3s", "4p", "5r"],
    ],
)
def test_not_a_combination(cards):
    t = Table({0: ["Mahjong"] + [c for c in cards if c != "Mahjong"]})
    t.refuse_play("invalid_combination", 0, *cards)


def test_phoenix_never_stands_for_the_one_and_reads_highest_unless_told():
    t = Table({0: ["Mahjong", "5j", "5s", "9j", "9s", "Phoenix"], 1: ["8j", "8s", "8p", "Jj", "Js"]})
    t.refuse_play("invalid_combination", 0, "5j", "5s", "9j", "9s", "Phoenix", phoenix="7")
    t.play(0, "5j", "5s", "9j", "9s", "Phoenix")
    assert t.trick[-1]["combination"] == "full_house" and t.trick[-1]["rank"] == 9
    t.refuse_play("does_not_beat", 1, "8j", "8s", "8p", "Jj", "Js")

    t2 = Table({0: ["Mahjong", "5j", "5s", "9j", "9s", "Phoenix"], 1: ["8j", "8s", "8p", "Jj", "Js"]})
    t2.play(0, "5j", "5s", "9j", "9s", "Phoenix", phoenix="5")
    assert t2.trick[-1]["rank"] == 5 and t2.trick[-1]["phoenix"] == "5"
    t2.play(1, "8j", "8s", "8p", "Jj", "Js")


def test_phoenix_single_led_is_one_and_a_half():
    t = Table({2: ["Mahjong", "Phoenix"], 3: ["2j"]})
    t.play(2, "Phoenix")
    assert t.trick[-1]["rank"] == 1.5
    t.pass_(3)
    t2 = Table({0: ["Phoenix"], 3: ["Mahjong", "2j"]})
    assert t2.turn == 3
    t2.play(3, "2j")
    t2.play(0, "Phoenix")
    assert t2.trick[-1]["rank"] == 2.5


def test_phoenix_on_a_nine_is_not_beaten_by_a_two():
    t3 = Table({0: ["Phoenix"], 1: ["2j"], 3: ["Mahjong", "9j"]})
    t3.play(3, "9j")
    t3.play(0, "Phoenix")
    t3.refuse_play("does_not_beat", 1, "2j")


def test_dragon_only_beaten_by_a_bomb():
    t = Table({0: ["Mahjong", "Dragon"], 1: ["Phoenix", "Aj"], 2: ["2j", "2s", "2p", "2r"]})
    t.play(0, "Dragon")
    t.refuse_play("does_not_beat", 1, "Phoenix")
    t.refuse_play("does_not_beat", 1, "Aj")
    t.bomb(2, "2j", "2s", "2p", "2r")


def test_stairs_need_consecutive_pairs_and_same_length():
    t = Table({0: ["Mahjong", "3j", "3s", "4j", "4s"], 1: ["5j", "5s", "6j", "6s", "7j", "7s", "9j", "9s", "Tj", "Ts"]})
    t.play(0, "3j", "3s", "4j", "4s")
    t.refuse_play("does_not_beat", 1, "5j", "5s", "6j", "6s", "7j", "7s")
    t.refuse_play("invalid_combination", 1, "7j", "7s", "9j", "9s")
    t.play(1, "9j", "9s", "Tj", "Ts")


# ================================================================================================
# Passing and the end of a trick
# ================================================================================================


def _passing_table(options=None):
    t = Table({0: ["Mahjong", "3j", "8j"], 1: ["7j", "Js"], 2: ["5j", "9s"], 3: ["2j"]}, options=options)
    t.play(0, "3j").pass_(1)
    t.play(2, "5j").pass_(3, 0)
    return t


def test_rio_a_player_who_passed_may_play_again_in_the_trick():
    t = _passing_table()
    assert t.turn == 1
    t.play(1, "7j")  # seat 1 passed earlier in this trick
    t.pass_(2, 3, 0)
    assert t.turn == 1 and t.js["trick_winner"] == 1


def test_rio_the_trick_ends_only_when_all_others_passed_since_the_last_play():
    t = _passing_table()
    t.pass_(1)
    # seats 3, 0, 1 passed since seat 2's play: the trick is seat 2's
    assert t.js["trick_closed"] and t.turn == 2


def test_tiki_passing_is_as_rio():
    t = _passing_table({"preset": "tiki"})
    t.play(1, "7j")


def test_abacus_pass_is_final():
    t = _passing_table({"preset": "abacus"})
    assert t.state.options["pass_is_final"] is True
    # seat 1 passed: it is skipped; seats 3 and 0 passed after seat 2's play: the trick is over
    assert t.js["trick_closed"] and t.turn == 2
    t.refuse_play("not_your_turn", 1, "7j")


def test_abacus_pass_is_final_skips_the_passed_player_while_the_trick_goes_on():
    t = Table(
        {0: ["Mahjong", "3j", "8j"], 1: ["7j", "Js"], 2: ["5j", "9s"], 3: ["6j"]}, options={"pass_is_final": True}
    )
    t.play(0, "3j").pass_(1)
    t.play(2, "5j").play(3, "6j")
    assert t.turn == 0
    t.play(0, "8j")
    assert t.turn == 2, "seat 1 passed: its turn is skipped for the rest of the trick"
    t.refuse_play("not_your_turn", 1, "Js")
    t.play(2, "9s").pass_(3, 0)
    assert t.js["trick_closed"] and t.turn == 2


def test_when_the_trick_winner_is_out_the_lead_goes_to_the_next_player_holding_cards():
    t = two_out()  # seat 2 went out on its lead, seat 3 was next and went out too
    # seat 3's trick was closed with seat 3 out: the lead skipped seats 3 (out) and went to seat 0
    assert t.turn == 0
    t.play(0, "2s", "2p", "2r", "3s", "3r")
    assert t.turn == 1, "seats 2 and 3 are out: after seat 1 comes seat 0"
    t.pass_(1)
    assert t.turn == 0 and t.js["trick_closed"]


def test_turn_skips_players_who_are_out():
    t = two_out()
    t.play(0, "6s", "6p")
    assert t.turn == 1
    t.play(1, "7s", "7p")
    assert t.turn == 0


# ================================================================================================
# Bombs
# ================================================================================================


def test_bomb_out_of_turn_then_play_goes_on_after_the_bomber():
    t = Table({0: ["Mahjong", "Kj"], 3: ["9j", "9s", "9p", "9r"], 2: ["Tj", "Ts", "Tp", "Tr"]})
    t.play(0, "Kj")
    assert t.turn == 1
    t.bomb(3, "9j", "9s", "9p", "9r")
    assert t.turn == 0
    t.bomb(2, "Tj", "Ts", "Tp", "Tr")
    assert t.turn == 3


def test_only_a_bomb_out_of_turn():
    t = Table({0: ["Mahjong", "Kj"], 2: ["Aj", "Qj", "Qs", "Qp"]})
    t.play(0, "Kj")
    t.refuse_play("not_your_turn", 2, "Aj")
    t.refuse_play("not_your_turn", 2, "Qj", "Qs", "Qp")
    t.refuse_pass("not_your_turn", 2)


def test_bomb_out_of_turn_must_beat_the_table():
    t = Table({0: ["Mahjong", "Kj", "Ks", "Kp", "Kr"], 2: ["9j", "9s", "9p", "9r"]})
    t.play(0, "Kj", "Ks", "Kp", "Kr")
    t.refuse_play("does_not_beat", 2, "9j", "9s", "9p", "9r")


def test_bomb_on_ones_own_play():
    t = Table({0: ["Mahjong", "Kj", "9j", "9s", "9p", "9r"]})
    t.play(0, "Kj")
    assert 0 in bombs_out_of_turn(t.state)
    t.bomb(0, "9j", "9s", "9p", "9r")
    assert t.turn == 1


def test_bomb_after_the_last_pass_before_the_next_lead():
    t = Table({0: ["Mahjong", "Kj", "2s"], 1: ["9j", "9s", "9p", "9r", "3j"]})
    t.play(0, "Kj").pass_(1, 2, 3)
    assert t.js["trick_closed"] and t.turn == 0
    assert 1 in bombs_out_of_turn(t.state)
    t.bomb(1, "9j", "9s", "9p", "9r")
    assert not t.js["trick_closed"] and t.turn == 2
    t.pass_(2, 3, 0)
    t.play(1, "3j")
    assert t.points_won(1) == 10  # the king's trick


def test_bomb_on_a_dragon_before_its_gift():
    t = Table({0: ["Mahjong", "Dragon"], 1: ["9j", "9s", "9p", "9r", "3j"]})
    t.play(0, "Dragon").pass_(1, 2, 3)
    assert t.phase == "dragon_gift"
    assert 1 in bombs_out_of_turn(t.state)
    t.bomb(1, "9j", "9s", "9p", "9r")
    assert t.phase == "play" and t.js["gift_from"] is None and t.turn == 2


def test_no_bomb_on_the_dog():
    t = Table({0: ["Mahjong", "Dog"], 1: ["9j", "9s", "9p", "9r"], 2: straight("23456", "s")})
    t.play(0, "Dog")
    assert bombs_out_of_turn(t.state) == {}
    t.refuse_play("bomb_not_allowed", 1, "9j", "9s", "9p", "9r")
    t.play(2, *straight("23456", "s"))  # the partner may lead a bomb, in turn
    assert t.trick[-1]["combination"] == "bomb"


def test_no_bomb_to_lead_out_of_turn_but_a_bomb_may_be_led_in_turn():
    t = Table({0: ["Mahjong", "9j", "9s", "9p", "9r"], 1: ["Tj", "Ts", "Tp", "Tr"]})
    t.refuse_play("bomb_not_allowed", 1, "Tj", "Ts", "Tp", "Tr")
    t.play(0, "9j", "9s", "9p", "9r")
    t.bomb(1, "Tj", "Ts", "Tp", "Tr")


def test_bomb_ranks_by_length_then_rank():
    t = Table(
        {
            0: ["Mahjong", "Aj", "As", "Ap", "Ar"],
            1: straight("23456", "j"),
            2: straight("34567", "s"),
            3: straight("789TJQ", "p"),
        }
    )
    t.play(0, "Aj", "As", "Ap", "Ar")
    t.bomb(1, *straight("23456", "j"))
    t.bomb(2, *straight("34567", "s"))
    t.bomb(3, *straight("789TJQ", "p"))
    t4 = Table({0: ["Mahjong", "Aj", "As", "Ap", "Ar"], 1: straight("23456", "j")})
    t4.play(0, "Mahjong")
    t4.bomb(1, *straight("23456", "j"))
    t4.refuse_play("does_not_beat", 0, "Aj", "As", "Ap", "Ar")


def test_bomb_out_of_turn_by_a_player_who_is_out_is_refused():
    t = two_out()
    t.play(0, "7r")
    t.refuse_play("not_your_turn", 2, "Mahjong")


# ================================================================================================
# The wish
# ================================================================================================

SEVENS = ["7j", "7s", "7p", "7r"]
MAHJONG_1_5 = ["Mahjong", "2j", "3s", "4p", "5r"]


def test_wish_is_optional_in_rio_and_required_in_abacus():
    t = Table({0: ["Mahjong"]})
    t.play(0, "Mahjong")
    assert t.wish is None
    t2 = Table({0: ["Mahjong"]}, options={"preset": "abacus"})
    t2.refuse_play("invalid_combination", 0, "Mahjong")
    t2.play(0, "Mahjong", wish="A")
    assert t2.wish == "A"


def test_wish_only_with_the_mahjong_and_names_a_rank_2_to_a():
    t = Table({0: ["Mahjong", "2j"]})
    t.refuse_play("invalid_combination", 0, "2j", wish="7")
    t.refuse_play("malformed", 0, "Mahjong", wish="1")
    t.refuse_play("malformed", 0, "Mahjong", wish="Dragon")


def test_wish_lasts_across_tricks_and_binds_the_leader():
    t = Table({0: MAHJONG_1_5 + SEVENS + ["Aj"]})
    t.play(0, *MAHJONG_1_5, wish="7")
    t.pass_(1, 2, 3)  # nobody else holds a 7
    assert t.turn == 0 and t.wish == "7"
    t.refuse_play("wish_not_fulfilled", 0, "Aj")
    t.play(0, "7j")
    assert t.wish is None


def test_a_bomb_led_must_fulfil_the_wish_of_a_leader_holding_the_rank():
    """Leading is always one's ordinary turn: a bomb led is no bomb "before the turn"."""
    t = Table({0: MAHJONG_1_5 + ["7j", "9j", "9s", "9p", "9r"]})
    t.play(0, *MAHJONG_1_5, wish="7")
    t.pass_(1, 2, 3)
    assert t.turn == 0 and t.js["trick_closed"]
    t.refuse_play("wish_not_fulfilled", 0, "9j", "9s", "9p", "9r")
    t.play(0, "7j")


def test_seat_to_act_may_bomb_before_its_turn_without_the_wished_rank():
    """001 FAQ (K-bomb): the seat to act may play a bomb on the table "before his turn" without
    fulfilling the wish, even though it holds the rank and could play it (here in a bomb)."""
    seat1 = ["7j", "7s", "7p", "7r", "9j", "9s", "9p", "9r", "Aj", "As", "Ap", "Kj", "Ks", "2s"]
    t = Table({0: MAHJONG_1_5, 1: seat1})
    t.play(0, *MAHJONG_1_5, wish="7")
    t.refuse_pass("wish_not_fulfilled", 1)
    t.refuse_play("does_not_beat", 1, "Aj")
    t.play(1, "9j", "9s", "9p", "9r")
    assert t.wish == "7" and t.turn == 2


def test_dog_lead_does_not_fulfil_the_wish_of_a_leader_holding_the_rank():
    t = Table({0: ["Mahjong", "Dog", "Aj"] + SEVENS})
    t.play(0, "Mahjong", wish="7")
    t.pass_(1, 2, 3)
    t.refuse_play("wish_not_fulfilled", 0, "Dog")
    t.play(0, "7s", "7p")
    assert t.wish is None


def test_wish_fulfilled_by_a_bomb_out_of_turn():
    t = Table({0: ["Mahjong", "Kj"], 3: SEVENS})
    t.play(0, "Mahjong", wish="7")
    t.bomb(3, *SEVENS)
    assert t.wish is None and t.turn == 0


def test_wish_a_single_seven_on_the_mahjong_must_be_played():
    t = Table({0: ["Mahjong"], 1: ["7j", "Aj", "As"]})
    t.play(0, "Mahjong", wish="7")
    t.refuse_pass("wish_not_fulfilled", 1)
    t.refuse_play("wish_not_fulfilled", 1, "Aj")
    t.play(1, "7j")
    assert t.wish is None


def test_wish_holder_who_cannot_play_the_rank_lawfully_plays_freely():
    seat1 = ["7j", "Aj", "As", "Ap", "Kj", "Ks", "Kp", "Qj", "Qs", "Qp", "2s", "2p", "3j", "3p"]
    t = Table({0: MAHJONG_1_5, 1: seat1})
    t.play(0, *MAHJONG_1_5, wish="7")
    assert {"type": "pass", "seat": 1} in legal_actions(t.state)
    t.pass_(1)
    assert t.wish == "7"


# ================================================================================================
# The Dog
# ================================================================================================


def test_dog_gives_the_lead_to_the_partner():
    t = Table({1: ["Mahjong", "Dog"]})
    t.play(1, "Dog")
    assert t.turn == 3 and t.trick == []
    assert t.js["tricks_won"][1]["cards"] == 1  # the Dog's trick is over at once


def test_dog_when_the_partner_is_out_goes_to_the_player_after_the_partner():
    seat2 = ["Mahjong"] + straight("23456789TJQKA", "jsjsjsjsjsjsj")
    t = Table({2: seat2, 0: ["Dog", "Ap", "3p"], 3: ["4p", "5p"]})
    t.play(2, *seat2).pass_(3, 0, 1)
    assert t.turn == 3
    t.play(3, "4p").play(0, "Ap").pass_(1, 3)
    assert t.turn == 0 and t.js["trick_closed"]
    t.play(0, "Dog")
    assert t.turn == 3, "partner (seat 2) out: the lead goes to the next player after the partner"


def test_dog_partner_out_next_holder_after_the_partner():
    t = two_out()
    t.play(0, "7r").play(1, "Ar").pass_(0)
    assert t.turn == 1 and t.js["trick_closed"]
    t.play(1, "Dog")
    assert t.turn == 0, "seat 1's partner (3) is out: the next after 3 holding cards is seat 0"


def test_dog_as_ones_last_card_goes_out_and_the_partner_leads():
    # 001: the Hound "transfers the right to lead to the player's partner"; played as one's last
    # card the player is out (first here) and the partner still leads.
    run = ["Mahjong"] + straight("23456789TJQK", "jsjsjsjsjsjs")
    t = Table({1: run + ["Dog"]}, tichu=[1])
    t.play(1, *run).pass_(2, 3, 0)
    assert t.turn == 1
    t.play(1, "Dog")
    assert t.js["out"] == [1] and t.turn == 3 and t.trick == []


# ================================================================================================
# The Dragon gift
# ================================================================================================


def _dragon_won():
    t = Table({0: ["Mahjong", "2j"], 1: ["Dragon", "3j"]})
    t.play(0, "2j").play(1, "Dragon").pass_(2, 3, 0)
    assert t.phase == "dragon_gift" and t.turn == 1 and t.js["gift_from"] == 1
    return t


def test_dragon_gift_required_before_the_next_lead():
    t = _dragon_won()
    t.refuse_play("gift_required", 1, "3j")
    t.refuse_pass("gift_required", 1)
    t.refuse_play("gift_required", 2, t.hand(2)[0])
    gifts = [a for a in legal_actions(t.state) if a["type"] == "dragon_gift"]
    assert sorted(a["to"] for a in gifts) == [0, 2]


def test_dragon_gift_goes_to_an_opponent_of_the_winners_choice():
    t = _dragon_won()
    t.refuse({"type": "dragon_gift", "seat": 1, "to": 3}, "gift_invalid")  # partner
    t.refuse({"type": "dragon_gift", "seat": 1, "to": 1}, "gift_invalid")  # self
    t.refuse({"type": "dragon_gift", "seat": 0, "to": 2}, "not_your_turn")
    t.gift(1, 2)
    assert t.points_won(2) == 25 and t.points_won(1) == 0
    assert t.turn == 1, "the Dragon's player still leads next"
    t.refuse({"type": "dragon_gift", "seat": 1, "to": 2}, "gift_invalid")  # nothing to give now


def test_dragon_gift_at_hand_end_to_the_tailender_goes_on_to_the_first_out():
    t = two_out()
    seat0_goes_out(t, dragon="last")
    assert t.phase == "dragon_gift"
    assert bombs_out_of_turn(t.state) == {}
    t.gift(0, 1)  # to the tailender: its tricks go to the first out (seat 2)
    line = t.last_line
    assert line["card_points"] == [60, 40]


def test_no_call_once_the_hand_is_over_while_its_last_dragon_trick_waits_for_the_gift():
    # 001: "The round ends immediately when only one player has cards left in his hand." The last
    # trick is "still given away if won by the Dragon", but nobody may call Tichu any more.
    t = two_out()
    seat0_goes_out(t, dragon="last")
    assert t.phase == "dragon_gift"
    t.refuse({"type": "tichu", "seat": 1}, "call_too_late")  # seat 1 has not played a card, but the hand is over
    t.gift(0, 1)
    assert t.last_line["calls"] == {}


def test_dragon_gift_mid_hand_to_an_opponent_already_out():
    t = two_out()
    t.play(0, "Dragon").pass_(1)
    assert t.phase == "dragon_gift" and t.turn == 0
    t.gift(0, 3)  # option dragon_gift_to_out, on by default
    assert t.turn == 0 and t.points_won(3) == 40 + 25  # its stairs and the Dragon trick


def test_dragon_gift_by_a_player_who_went_out_with_the_dragon():
    seat3 = [r + s for r in "9TJQKA" for s in "js"] + ["2s", "Dragon"]
    t = Table({2: STRAIGHT_1_A, 3: seat3})
    t.play(2, *STRAIGHT_1_A).pass_(3, 0, 1)
    t.play(3, *[r + s for r in "9TJQKA" for s in "js"]).pass_(0, 1)
    t.play(3, "2s").pass_(0, 1)
    t.play(3, "Dragon")  # seat 3 out second; seats 2 and 3 are not partners: the hand goes on
    assert t.js["out"] == [2, 3] and t.turn == 0
    t.pass_(0, 1)
    assert t.phase == "dragon_gift" and t.turn == 3
    t.refuse({"type": "dragon_gift", "seat": 3, "to": 1}, "gift_invalid")
    t.gift(3, 0)
    assert t.turn == 0, "its player is out: the lead goes to the next player holding cards"
    assert t.points_won(0) == 25


def test_wish_pair_of_the_wished_rank_in_a_full_house():
    seat1 = ["9j", "9s", "9p", "7j", "7s", "Aj", "As", "Ap", "Kj", "Ks", "Qj", "Qs", "2s", "2p"]
    t = Table({0: ["Mahjong", "5j", "5s", "5p", "3j", "3s"], 1: seat1})
    t.play(0, "Mahjong", wish="7")
    # seat 1 holds 7s: it must play a 7 on the Mahjong
    t.refuse_pass("wish_not_fulfilled", 1)
    t.play(1, "7j")
    assert t.wish is None


def test_dragon_gift_to_an_opponent_out_refused_with_the_option_off():
    t = two_out(options={"dragon_gift_to_out": False})
    t.play(0, "Dragon").pass_(1)
    t.refuse({"type": "dragon_gift", "seat": 0, "to": 3}, "gift_invalid")
    t.gift(0, 1)


# ================================================================================================
# Hand end and scoring
# ================================================================================================


def test_third_player_out_ends_the_hand_at_once():
    t = two_out()
    seat0_goes_out(t, dragon="first")  # out with the 7r: seat 1 could beat it (Ar) or bomb, but the hand is over
    assert t.phase == "between_hands" and t.turn is None
    t.refuse_play("wrong_phase", 1, *straight("89TJQKA", "r"))
    line = t.last_line
    assert line["out"] == [2, 3, 0, 1]
    # team 0: straight 25 + full house 4,4,4,5,5 (10) + the tailender's hand (5+10+10-25 = 0);
    # team 1: stairs 40 + the Dragon trick given to seat 3 (25)
    assert line["card_points"] == [35, 65]
    assert t.state.next_shuffler == 2
    t.check_fold()


def test_tailender_gives_hand_cards_to_the_opponents_and_tricks_to_the_first_out():
    t = two_out()
    t.play(0, "2s", "2p", "2r", "3s", "3r")
    t.bomb(1, *straight("89TJQKA", "r"))  # in turn, a bomb: seat 1 wins 22233 + the bomb (20)
    t.pass_(0)
    assert t.turn == 1
    t.play(1, "7s", "7p").pass_(0)
    t.play(1, "3p", "Phoenix").pass_(0)
    t.play(1, "5s").pass_(0)
    t.play(1, "6r").pass_(0)
    t.play(1, "Dog")  # seat 1 goes out third
    line = t.last_line
    assert line["out"] == [2, 3, 1, 0]
    # seat 0 is the tailender: its hand (5p 5r Dragon: 35) goes to team 1; it won no trick.
    # team 0: straight 25; team 1: stairs 40 + 20 + 0 - 25 + 5 + 0 + 35 = 75
    assert line["card_points"] == [25, 75]


def test_tailenders_tricks_and_a_dragon_trick_given_to_it_go_to_the_first_out():
    """Seat 0 (tailender) won tricks worth 10; they go to seat 2, the first out (here a partner:
    team 0 keeps them). Give the Dragon to the tailender: its 25 go to seat 2 too."""
    t = two_out()
    t.play(0, "4s", "4p", "4r", "5p", "5r").pass_(1)  # seat 0 wins 10
    t.play(0, "Dragon").pass_(1).gift(0, 1)  # seat 1 gets 25
    t.play(0, "2s", "2p", "2r", "3s", "3r")
    t.bomb(1, *straight("89TJQKA", "r")).pass_(0)
    t.play(1, "7s", "7p").pass_(0)
    t.play(1, "3p", "Phoenix").pass_(0)
    t.play(1, "5s").pass_(0)
    t.play(1, "6r").pass_(0)
    t.play(1, "Dog")
    line = t.last_line
    # seat 0 tailender: tricks (10) -> seat 2 (team 0); hand 6s 6p 7r (0) -> team 1
    # team 0: 25 + 10 = 35; team 1: 40 + 25 + 20 - 25 + 5 = 65
    assert line["out"] == [2, 3, 1, 0]
    assert line["card_points"] == [35, 65]


def _dv_hands():
    seat1 = ["Dog", "Dragon", "Mahjong"] + straight("23456789TJQ", "jsjsjsjsjsj")
    seat3 = [r + s for r in "89TJQKA" for s in "pr"]
    return seat1, seat3


def test_double_victory_200_no_counting_ends_at_once():
    seat1, seat3 = _dv_hands()
    t = Table({1: seat1, 3: seat3, 0: ["2p"]}, tichu=[1], grand_tichu=[3])
    assert t.turn == 1
    t.play(1, "Dog")
    assert t.turn == 3
    t.play(3, *seat3).pass_(0, 1, 2)  # seat 3 out first
    assert t.turn == 0
    t.play(0, "2p").play(1, "Dragon").pass_(2, 0)
    t.gift(1, 0)  # team 0 gets the Dragon's 25... which are never counted
    t.play(1, "Mahjong", *straight("23456789TJQ", "jsjsjsjsjsj"))  # seat 1 out second
    assert t.phase == "between_hands"
    line = t.last_line
    assert line["double_victory"] is True and line["out"][:2] == [3, 1]
    # 200 for the double victory, +200 for seat 3's Grand Tichu, -100 for seat 1's Tichu
    assert line["card_points"] == [0, 200]
    assert line["points"] == [0, 300]
    t.check_fold()


def test_double_victory_with_the_dragon_as_last_card_has_no_gift():
    seat1 = ["Mahjong"] + straight("23456789TJQ", "jsjsjsjsjsj") + ["Dog", "Dragon"]
    seat3 = [r + s for r in "89TJQKA" for s in "pr"]
    t = Table({1: seat1, 3: seat3, 0: ["2p"]})
    t.play(1, "Mahjong", *straight("23456789TJQ", "jsjsjsjsjsj")).pass_(2, 3, 0)
    t.play(1, "Dog")
    t.play(3, *seat3).pass_(0, 1, 2)  # seat 3 out first
    t.play(0, "2p").play(1, "Dragon")  # seat 1 out second: double victory at once
    assert t.phase == "between_hands"  # no Dragon gift: the hand ended at once
    line = t.last_line
    assert line["double_victory"] is True and line["points"] == [0, 200]


def test_calls_are_individual_partner_out_first_does_not_save_a_call():
    t = two_out(grand_tichu=[2], tichu=[0, 3])
    seat0_goes_out(t, dragon="first")
    line = t.last_line
    assert line["card_points"] == [35, 65]
    # seat 2 (out first) +200, seat 0 (its partner, out third) -100; seat 3 (out second) -100
    assert line["points"] == [135, -35]
    assert line["calls"] == {"0": "tichu", "2": "grand_tichu", "3": "tichu"}


@pytest.mark.parametrize("seed", [1, 2])
def test_card_points_sum_to_100_in_every_counted_hand(seed):
    record = random_game(seed)
    state = fold(record)
    score = score_json(state)
    assert score["complete"] is True
    totals = [0, 0]
    for hand in score["hands"]:
        if hand["kind"] == "cards" and sorted(hand["card_points"]) != [0, 200]:
            assert sum(hand["card_points"]) == 100
            assert all(p % 5 == 0 and -25 <= p <= 125 for p in hand["card_points"])
        totals = [a + b for a, b in zip(totals, hand["points"])]
    assert totals == score["totals"]
    w = score["winner"]
    assert totals[w] >= 1000 and totals[w] > totals[1 - w]


def test_penalty_needs_a_hand_in_play_and_a_reason():
    g = new_game("nanking", None, PLAYERS)
    refuse(g, {"type": "penalty", "seat": 0, "reason": "missed_wish"}, "wrong_phase")
    t = Table({0: ["Mahjong"]})
    t.refuse({"type": "penalty", "seat": 0}, "malformed")


# ================================================================================================
# Game end
# ================================================================================================


def _dv(team, grand=True):
    seats = [team, team + 2]
    return {"type": "hand_result", "calls": {str(team): "grand_tichu"} if grand else {}, "out": seats}


def _cards(points, first, calls=None):
    out = [(first + k) % 4 for k in range(4)]  # the second out is an opponent: no double victory
    return {"type": "hand_result", "calls": calls or {}, "out": out, "points": points}


def _game(events, options=None):
    g = new_game("nanking", options, PLAYERS)
    for e in events:
        g.apply(e)
    return g


TO_850_950 = [_dv(0), _dv(1), _dv(0), _dv(1), _cards([50, 50], 1, {"1": "tichu"})]


def test_game_goes_on_below_the_target():
    g = _game(TO_850_950)
    assert g.totals == [850, 950] and not g.is_over and g.winner is None


def test_game_ends_when_a_team_reaches_the_target():
    g = _game(TO_850_950 + [_cards([45, 55], 0)])
    assert g.totals == [895, 1005] and g.is_over and g.winner == 1
    assert score_json(g)["complete"] is True and score_json(g)["winner"] == 1
    refuse(g, {"type": "shuffle", "seat": 0}, "game_over")
    refuse(g, _cards([50, 50], 0), "game_over")


def test_both_above_the_target_the_higher_wins():
    g = _game(TO_850_950 + [_cards([50, 50], 0, {"0": "grand_tichu"})])
    assert g.totals == [1100, 1000] and g.is_over and g.winner == 0


def test_tie_above_the_target_plays_on():
    g = _game(TO_850_950 + [_cards([50, 50], 0, {"0": "tichu"})])
    assert g.totals == [1000, 1000] and not g.is_over
    g.apply(_cards([55, 45], 1))
    assert g.totals == [1055, 1045] and g.is_over and g.winner == 0


def test_target_score_option():
    g = _game([_cards([60, 40], 0, {"0": "tichu"})], {"target_score": 150})
    assert g.is_over and g.winner == 0


def test_fixed_number_of_hands_option():
    g = _game([_dv(1), _cards([60, 40], 0)], {"hands": 3})
    assert not g.is_over
    g.apply(_cards([100, 0], 2))
    assert g.is_over and g.totals == [160, 440] and g.winner == 1


def test_fixed_number_of_hands_tie_has_no_winner():
    g = _game([_cards([50, 50], 0), _cards([50, 50], 1)], {"hands": 2})
    assert g.is_over and g.winner is None


# ================================================================================================
# hand_result
# ================================================================================================


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(_cards([62, 38], 0), id="not a multiple of 5"),
        pytest.param(_cards([130, -30], 0), id="above 125"),
        pytest.param(_cards([50, 40], 0), id="sum 90"),
        pytest.param(_cards([60, 45], 0), id="sum 105"),
        pytest.param(
            {"type": "hand_result", "calls": {}, "out": [0, 2, 1, 3], "points": [100, 0]},
            id="points on a double victory",
        ),
        pytest.param(
            {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3]}, id="no points without a double victory"
        ),
        pytest.param(
            {"type": "hand_result", "calls": {"0": "small"}, "out": [0, 1, 2, 3], "points": [50, 50]}, id="unknown call"
        ),
        pytest.param(
            {"type": "hand_result", "calls": {"4": "tichu"}, "out": [0, 1, 2, 3], "points": [50, 50]}, id="no seat 4"
        ),
        pytest.param({"type": "hand_result", "calls": {}, "out": [0, 0, 2, 3], "points": [50, 50]}, id="seat twice"),
        pytest.param({"type": "hand_result", "calls": {}, "out": [], "points": [50, 50]}, id="nobody out"),
        pytest.param(
            {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [50, 30, 20]}, id="three teams"
        ),
    ],
)
def test_hand_result_checks(event):
    g = new_game("nanking", None, PLAYERS)
    refuse(g, event, "result_invalid")


def test_hand_result_extremes_accepted():
    g = _game([_cards([125, -25], 1), _cards([-25, 125], 0)])
    assert g.totals == [100, 100]


def test_hand_result_scoring_with_calls():
    g = _game([_cards([30, 70], 1, {"1": "tichu", "0": "grand_tichu", "2": "tichu"})])
    assert g.totals == [30 - 200 - 100, 70 + 100]
    line = state_json(g)["score_sheet"][-1]
    assert line["card_points"] == [30, 70]


def test_hand_result_double_victory_scoring():
    g = _game([{"type": "hand_result", "calls": {"3": "tichu", "1": "tichu", "0": "grand_tichu"}, "out": [3, 1]}])
    assert g.totals == [-200, 200 + 100 - 100]


def test_hand_result_not_during_a_hand():
    t = Table({0: ["Mahjong"]})
    t.refuse(_cards([50, 50], 0), "wrong_phase")


# ================================================================================================
# undo
# ================================================================================================


def test_undo_retracts_the_latest_event():
    t = Table({0: ["Mahjong", "2j", "3j"]})
    before = t.js
    t.play(0, "2j")
    t.apply({"type": "undo"})
    after = t.js
    assert _without_count(after) == _without_count(before)
    assert after["events"] == before["events"] + 2  # the play and the undo are both in the record
    t.play(0, "3j")  # a different play now
    assert t.trick[-1]["cards"] == ["3j"]
    t.check_fold()


def test_undo_twice_and_through_the_start_of_a_hand():
    g = new_game("nanking", None, PLAYERS)
    refuse(g, {"type": "undo"}, "wrong_phase")
    g.apply(_cards([60, 40], 0))
    g.apply({"type": "shuffle", "seat": 0})
    g.apply({"type": "deal", "seat": 0, "cards": list(TICHU_DECK[:14])})
    g.apply({"type": "undo"})
    assert state_json(g)["hands"][0] == [] and g.phase == "deal"
    g.apply({"type": "undo"})
    assert g.phase == "between_hands" and g.totals == [60, 40]
    g.apply({"type": "undo"})
    assert g.totals == [0, 0] and state_json(g)["score_sheet"] == []
    refuse(g, {"type": "undo"}, "wrong_phase")


def test_undo_after_the_game_is_over():
    g = _game(TO_850_950 + [_cards([45, 55], 0)])
    assert g.is_over
    g.apply({"type": "undo"})
    assert not g.is_over and g.totals == [850, 950]


def test_undo_in_a_folded_record_equals_the_record_without_the_undone_event():
    t = two_out()
    t.play(0, "7r")
    rec = t.record()
    with_undo = {**rec, "events": rec["events"] + [play_event(1, "Ar"), {"type": "undo"}]}
    assert _without_count(state_json(fold(with_undo))) == _without_count(state_json(fold(rec)))
    r = Replay(with_undo)
    assert _without_count(state_json(r.state_at(len(with_undo["events"]) - 1)))["trick"][-1]["cards"] == ["Ar"]


def test_refused_event_in_a_record_reports_its_index():
    t = two_out()
    rec = t.record()
    bad = {**rec, "events": rec["events"] + [play_event(1, "Ar")]}  # seat 0 is to lead
    with pytest.raises(EngineError) as info:
        fold(bad)
    assert info.value.code == "not_your_turn" and info.value.index == len(rec["events"])


def test_a_shuffle_while_the_dragon_gift_is_owed_is_gift_required():
    # record-format.md section 5: gift_required is the code for anything before an owed gift; the
    # hand cannot end (and the next shuffle come) until the Dragon trick has been given.
    t = Table({0: ["Mahjong", "2j"], 1: ["Dragon"], 2: ["3j"], 3: ["4j"]})
    t.play(0, "2j").play(1, "Dragon")
    t.pass_(2, 3, 0)
    assert t.phase == "dragon_gift"
    t.refuse({"type": "shuffle", "seat": 1}, "gift_required")
    t.refuse({"type": "shuffle", "seat": 0}, "gift_required")
