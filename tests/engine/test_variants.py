"""What Tientsin, Threechu and Grand Seigneur change from Nanking, rule by rule (rules.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import EngineError, GameState, fold, score_json, state_json
from games.engine.family import tribute_rank
from tests.engine.family_table import SIX, THREE, dealt, pass_, play, players
from tests.engine.table import refuse

# --- the deal's sizes ----------------------------------------------------------------------------


@pytest.mark.parametrize("n, order", [(4, (0, 1, 2, 3)), (6, (0, 1, 2, 3, 4, 5)), (4, (0, 1, 3, 2)), (4, (2, 0, 3))])
def test_hand_sizes_are_the_deck_drawn_one_by_one_from_the_shuffler(n, order):
    """Variant.hand_sizes counts the shares instead of drawing: the same as drawing card by card
    in order of play from the shuffler (a seat outside the order, Threechu's dummy, gets none)."""
    from games.engine.variants import NANKING

    for shuffler in order:
        for deck_size in range(0, 3 * n + 60):
            drawn = [0] * n
            start = order.index(shuffler)
            for k in range(deck_size):
                drawn[order[(start + k) % len(order)]] += 1
            assert NANKING.hand_sizes(n, shuffler, order, deck_size) == drawn, (shuffler, deck_size)


# --- Tichu Tientsin -----------------------------------------------------------------------------


def test_tientsin_draw_gives_the_first_two_drawers_ten_cards():
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "shuffle", "seat": 4})
    assert state.hand.sizes == [9, 9, 9, 9, 10, 10]
    assert state.hand.teams == ((0, 2, 4), (1, 3, 5))


def test_tientsin_grand_tichu_before_the_seventh_card():
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "shuffle", "seat": 0})
    deck = sorted(Counter(state.hand.pile).elements())
    for k in range(6 * 6):  # six rounds of draws: everyone holds 6
        state.apply({"type": "draw", "seat": k % 6, "card": deck.pop()})
    state.apply({"type": "grand_tichu", "seat": 0})
    state.apply({"type": "draw", "seat": 0, "card": deck.pop()})
    state.apply({"type": "draw", "seat": 1, "card": deck.pop()})
    refuse(state, {"type": "grand_tichu", "seat": 1}, "call_too_late")
    state.apply({"type": "grand_tichu", "seat": 2})


def test_tientsin_pushes_go_to_the_two_partners_only():
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "shuffle", "seat": 0})
    deck = sorted(Counter(state.hand.pile).elements())
    for seat in range(6):
        state.apply({"type": "deal", "seat": seat, "cards": [deck.pop() for _ in range(state.hand.sizes[seat])]})
    hand0 = state.hand.cards[0]
    refuse(state, {"type": "push", "seat": 0, "cards": {"1": hand0[0], "2": hand0[1]}}, "push_invalid")
    refuse(state, {"type": "push", "seat": 0, "cards": {"2": hand0[0], "4": hand0[1], "3": hand0[2]}}, "push_invalid")
    state.apply({"type": "push", "seat": 0, "cards": {"2": hand0[0], "4": hand0[1]}})


def test_tientsin_dog_goes_to_a_partner_of_the_players_choice():
    state = dealt("tientsin", SIX, {}, {0: ["Mahjong", "Dog", "2j"], 2: ["3j"], 4: ["4j"]})
    play(state, 0, "Mahjong")
    pass_(state, 1, 2, 3, 4, 5)
    assert state.turn == 0
    refuse(state, {"type": "play", "seat": 0, "cards": ["Dog"]}, "malformed")  # 'to' is required
    refuse(state, {"type": "play", "seat": 0, "cards": ["Dog"], "to": 3}, "invalid_combination")
    play(state, 0, "Dog", to=4)
    assert state.turn == 4


def test_tientsin_triple_victory_scores_300_and_no_bonus_for_a_double():
    # seats 0, 2, 4 hold four cards each; their opponents hold the rest
    state = dealt("tientsin", SIX, {}, {0: ["Mahjong", "2j", "3j", "4j"], 1: ["Ks"], 2: ["As", "Ap"], 4: ["Ar", "Aj"]})
    assert len(state.hand.cards[0]) == 10
    # rather than play out ten cards, check the sweep rules directly on the finishing order
    v = state.variant
    team_of = state.hand.team_of
    assert v.sweep_of([0, 2], team_of) is None  # a double victory does not end the hand
    assert v.sweep_of([0, 2, 4], team_of) == 0
    assert v.sweep_of([0, 1, 4], team_of) is None
    line = v.result_line(6, {"points": None}, {}, [0, 2, 4], state.options)
    assert line["points"] == [300, 0] and line["double_victory"] is True


def test_tientsin_hand_result_scores_calls_per_team():
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "hand_result", "calls": {"1": "tichu", "4": "grand_tichu"}, "out": [1, 0], "points": [40, 60]})
    assert state.totals == [40 - 200, 60 + 100]
    refuse(state, {"type": "hand_result", "out": [0, 2, 4], "points": [50, 50]}, "result_invalid")


def test_tientsin_fifth_out_gives_tricks_to_first_and_last_gives_everything_to_the_opponents():
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "shuffle", "seat": 0})
    h = state.hand
    # a finished hand's piles, set by hand: out 1, 2, 3, 0, 5; seat 4 the last
    h.out = [1, 2, 3, 0, 5]
    h.cards = [[], [], [], [], ["Ks", "5j"], []]
    h.won = [["Tj"], ["Kj"], ["Dragon"], [], ["Tp", "Tr"], ["5s", "Ts"]]
    points = state.variant.card_points_by_team(h)
    # team 0 = seats 0, 2, 4; team 1 = seats 1, 3, 5
    # seat 5 (fifth) gives its 15 to seat 1 (first, team 1); seat 4 (last) gives 15 in hand and 20 in tricks to team 1
    assert points == [10 + 25, 10 + 15 + 15 + 20]


# --- Threechu -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer, order", [(0, (0, 1, 3, 2)), (1, (1, 2, 3, 0)), (2, (2, 0, 3, 1))])
def test_threechu_order_of_play_and_teams(dealer, order):
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "shuffle", "seat": dealer})
    assert state.hand.order == order
    assert state.hand.teams[0] == (dealer, 3)
    assert state.hand.sizes == [14, 14, 14, 14]


def test_threechu_the_dummy_never_deals_and_players_are_three():
    state = GameState("threechu", {}, THREE)
    refuse(state, {"type": "shuffle", "seat": 3}, "not_your_turn")
    with pytest.raises(EngineError) as info:
        GameState("threechu", {}, ["A", "B", "C", "D"])
    assert info.value.code == "malformed"


def test_threechu_no_grand_tichu_for_dealer_or_dummy():
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "shuffle", "seat": 1})
    refuse(state, {"type": "grand_tichu", "seat": 1}, "not_in_variant")
    refuse(state, {"type": "grand_tichu", "seat": 3}, "not_in_variant")
    state.apply({"type": "grand_tichu", "seat": 2})


def test_threechu_dealer_calls_tichu_for_the_dummy():
    state = dealt("threechu", THREE, {}, {0: ["Mahjong"]})
    state.apply({"type": "tichu", "seat": 3})
    assert state_json(state)["calls"] == {"3": "tichu"}


def test_threechu_push_schemes():
    rio = GameState("threechu", {"preset": "rio"}, THREE)
    rio.apply({"type": "shuffle", "seat": 0})
    assert {s: rio.variant.push_targets(rio.hand, s) for s in range(4)} == {0: (1, 2), 1: (0, 3), 3: (1, 2), 2: (0, 3)}
    tiki = GameState("threechu", {"preset": "tiki"}, THREE)
    tiki.apply({"type": "shuffle", "seat": 0})
    assert {s: tiki.variant.push_targets(tiki.hand, s) for s in range(4)} == {0: (1, 2), 1: (0, 2), 3: (), 2: (0, 1)}


def test_threechu_the_dummy_need_not_fulfil_the_wish():
    state = dealt("threechu", THREE, {}, {0: ["Mahjong", "7p", "7r"], 1: ["Ks"], 3: ["7j", "8j"], 2: ["7s", "9s"]})
    play(state, 0, "Mahjong", wish="7")
    pass_(state, 1)
    pass_(state, 3)  # the dummy holds a 7 it could play, but is exempt
    assert state_json(state)["wish"] == "7"
    refuse(state, {"type": "pass", "seat": 2}, "wish_not_fulfilled")
    play(state, 2, "7s")
    assert state_json(state)["wish"] is None


def test_threechu_no_missed_wish_penalty_for_the_dummy():
    state = dealt("threechu", THREE, {}, {0: ["Mahjong", "7p", "7r"], 1: ["Ks"], 3: ["7j", "8j"], 2: ["7s", "9s"]})
    play(state, 0, "Mahjong", wish="7")
    pass_(state, 1)
    refuse(state, {"type": "penalty", "seat": 3, "reason": "missed_wish"}, "not_in_variant")
    refuse(state, {"type": "penalty", "seat": 3, "reason": "renege"}, "not_in_variant")  # any wording
    state.apply({"type": "penalty", "seat": 1, "reason": "missed_wish"})  # a real player can
    assert score_json(state)["hands"][-1]["kind"] == "penalty"


def test_threechu_scores_per_player_the_dummy_last():
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "hand_result", "dealer": 1, "calls": {"2": "tichu"}, "out": [2, 1], "points": [30, 70]})
    # dealer 1 with the dummy (team 0: seats 1, 3) against seats 2 and 0
    assert state.totals == [70 + 100, 30, 70 + 100, 30]
    assert score_json(state)["hands"][0]["points"] == [170, 30, 170, 30]
    refuse(state, {"type": "hand_result", "calls": {}, "out": [0], "points": [50, 50]}, "result_invalid")


def test_threechu_game_lasts_a_multiple_of_three_hands():
    with pytest.raises(EngineError) as info:
        GameState("threechu", {"hands": 4}, THREE)
    assert info.value.code == "malformed"
    state = GameState("threechu", {"hands": 3}, THREE)
    for dealer in (0, 1, 2):
        assert not state.over
        state.apply({"type": "hand_result", "dealer": dealer, "out": [3], "points": [60, 40]})
    assert state.over
    assert state.winner == 3  # the dummy can win: it played with every dealer


@pytest.mark.parametrize(
    "rotation, out, expected",
    [("next", [0], 2), ("first_out", [2], 2), ("first_out", [3], 1), ("first_out", [0], 0), ("previous", [2], 0)],
)
def test_threechu_dealer_rotation(rotation, out, expected):
    state = GameState("threechu", {"dealer_rotation": rotation}, THREE)
    state.apply({"type": "hand_result", "dealer": 1, "out": out, "points": [50, 50]})
    assert state.next_shuffler == expected
    for wrong in {0, 1, 2} - {expected}:
        refuse(state, {"type": "shuffle", "seat": wrong}, "not_your_turn")
    state.apply({"type": "shuffle", "seat": expected})
    assert state.hand.order[0] == expected and state.hand.teams[0] == (expected, 3)


def test_threechu_hand_result_refuses_a_grand_tichu_by_the_dealer_or_the_dummy():
    # 001 Threechu: "The shuffler may not declare Grand Tichu for either himself or the dummy."
    # A score-sheet line obeys the same rule as a hand played card by card.
    state = GameState("threechu", {}, THREE)
    for seat in ("1", "3"):
        refuse(
            state,
            {"type": "hand_result", "dealer": 1, "calls": {seat: "grand_tichu"}, "out": [2], "points": [50, 50]},
            "not_in_variant",
        )
    state.apply(
        {
            "type": "hand_result",
            "dealer": 1,
            "calls": {"1": "tichu", "3": "tichu", "2": "grand_tichu"},
            "out": [2],
            "points": [50, 50],
        }
    )
    # team 0 = dealer 1 + dummy: 50 - 100 - 100; opponents 0 and 2: 50 + 200
    assert state.totals == [250, -150, 250, -150]


def test_threechu_dummy_and_dealer_are_partners_for_the_dog_the_dragon_and_the_calls():
    # 001 Threechu: "The shuffler plays with a dummy partner." / "The dealer may declare Small
    # Tichu on behalf of the dummy before he plays the first card from the dummy."
    # Nanking rules otherwise: the Hound "transfers the right to lead to the player's partner";
    # the Dragon's trick goes "to the opponent of its holder's choice".
    state = dealt("threechu", THREE, {}, {3: ["Mahjong", "Dog"], 0: ["Dragon"], 1: ["Ks"], 2: ["Kj"]})
    assert state.turn == 3  # the dummy holds the Mahjong: it leads
    play(state, 3, "Dog")
    assert state.turn == 0  # the dummy's partner is the dealer
    refuse(state, {"type": "tichu", "seat": 3}, "call_too_late")  # the dummy has played a card
    play(state, 0, "Dragon")
    pass_(state, 1, 3, 2)
    refuse(state, {"type": "dragon_gift", "seat": 0, "to": 3}, "gift_invalid")  # the dummy is a partner
    state.apply({"type": "dragon_gift", "seat": 0, "to": 2})
    assert state.turn == 0


def test_threechu_double_victory_of_dealer_and_dummy_scores_for_both():
    # 001 Threechu: "Each player in a partnership receives the same number of points that the
    # team would receive if it were a four player game."
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "hand_result", "dealer": 2, "calls": {"3": "tichu", "0": "tichu"}, "out": [3, 2]})
    # team 0 = dealer 2 + dummy: 200 + 100; opponents 0 and 1: -100
    assert state.totals == [-100, -100, 300, 300]


# --- Grand Seigneur -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, options, deck",
    [
        (5, {"preset": "rio"}, 55),
        (5, {"preset": "abacus"}, 108),
        (5, {"preset": "abacus", "decks": 1}, 56),
        (6, {"preset": "tiki"}, 108),
        (7, {"preset": "abacus"}, 108),
        (7, {"preset": "rio"}, 107),
        (8, {"decks": 2, "double_specials": True, "preset": "rio"}, 109),
    ],
)
def test_grand_seigneur_decks(n, options, deck):
    state = GameState("grand-seigneur", options, players(n))
    assert len(state.variant.deck(state.options)) == deck


@pytest.mark.parametrize("n, sizes", [(8, [12] * 8), (9, [12] * 9), (10, None), (12, [9] * 12)])
def test_grand_seigneur_deal_at_most_twelve_as_evenly_as_the_deck_allows(n, sizes):
    state = GameState("grand-seigneur", {"preset": "abacus"}, players(n))
    state.apply({"type": "shuffle", "seat": 0})
    got = state.hand.sizes
    if sizes is None:  # the French book: with ten, eight players get 11 and two get 10
        assert sorted(got) == [10, 10] + [11] * 8
    else:
        assert got == sizes
    assert sum(state.hand.pile.values()) == 108 and sum(got) == min(108, 12 * n)


def test_grand_seigneur_no_calls_no_wish_no_gift_and_dragon_beats_dragon():
    state = dealt(
        "grand-seigneur",
        players(8),
        {"decks": 2, "double_specials": True},
        {1: ["Mahjong", "3j"], 2: ["Dragon", "4j"], 3: ["Dragon", "5j"]},
        shuffler=0,
    )
    refuse(state, {"type": "tichu", "seat": 1}, "not_in_variant")
    refuse(state, {"type": "play", "seat": 1, "cards": ["Mahjong"], "wish": "5"}, "not_in_variant")
    play(state, 1, "Mahjong")
    play(state, 2, "Dragon")
    play(state, 3, "Dragon")  # the second Dragon beats the first
    pass_(state, 4, 5, 6, 7, 0, 1, 2)
    assert state.phase == "play" and state.turn == 3  # no gift: the winner keeps the trick


def test_grand_seigneur_four_of_a_kind_needs_four_suits():
    state = dealt(
        "grand-seigneur",
        players(7),
        {"preset": "rio"},
        {1: ["Mahjong", "Ks", "Ks", "Kj", "Kp", "Qs", "Qj", "Qp", "Qr"]},
        shuffler=0,
    )
    play(state, 1, "Mahjong")
    pass_(state, 2, 3, 4, 5, 6, 0)
    refuse(state, {"type": "play", "seat": 1, "cards": ["Ks", "Ks", "Kj", "Kp"]}, "invalid_combination")
    play(state, 1, "Qs", "Qj", "Qp", "Qr")
    assert state_json(state)["trick"][-1]["combination"] == "bomb"


def test_grand_seigneur_distinct_suit_trios_option():
    for options, ok in (({"preset": "rio"}, True), ({"preset": "abacus"}, False)):
        state = dealt("grand-seigneur", players(7), options, {1: ["Mahjong", "9s", "9s", "9j"]}, shuffler=0)
        play(state, 1, "Mahjong")
        pass_(state, 2, 3, 4, 5, 6, 0)
        event = {"type": "play", "seat": 1, "cards": ["9s", "9s", "9j"]}
        if ok:
            state.apply(event)
        else:
            refuse(state, event, "invalid_combination")


def ranked_hand(n: int, options: dict, out: list[int]) -> GameState:
    """The second hand of a game whose first hand finished in the order ``out``."""
    state = GameState("grand-seigneur", options, players(n))
    state.apply({"type": "hand_result", "out": out})
    state.apply({"type": "shuffle", "seat": out[-1]})
    deck = sorted(Counter(state.hand.pile).elements(), key=tribute_rank)
    h = state.hand
    start = h.order.index(out[-1]) + 1
    k = 0
    while not h.dealt:
        seat = h.order[(start + k) % n]
        k += 1
        if h.received[seat] < h.sizes[seat]:
            state.apply({"type": "deal", "seat": seat, "cards": [deck.pop(0) for _ in range(h.sizes[seat])]})
    return state


@pytest.mark.parametrize(
    "options, order",
    [
        # the French texts: the others sit to the Great Lord's right in the order they went out
        ({"preset": "abacus"}, (3, 0, 4, 1, 2)),
        ({"lord_seat": "right"}, (3, 0, 4, 1, 2)),
        # Rio (the default preset): the Lord on the Great Lord's left, the Wretch on his right
        ({}, (3, 2, 1, 4, 0)),
        ({"preset": "abacus", "lord_seat": "left"}, (3, 2, 1, 4, 0)),
    ],
)
def test_grand_seigneur_seats_follow_the_finishing_order_and_the_wretch_deals(options, order):
    out = [3, 0, 4, 1, 2]
    state = GameState("grand-seigneur", options, players(5))
    state.apply({"type": "hand_result", "out": out})
    assert state.next_shuffler == 2
    refuse(state, {"type": "shuffle", "seat": 3}, "not_your_turn")
    state.apply({"type": "shuffle", "seat": 2})
    assert state.hand.order == order
    assert state.hand.ranks == tuple(out)


def test_grand_seigneur_tribute_of_the_best_cards():
    out = [3, 0, 4, 1, 2, 5]  # six players: 3, 2 and 1 cards
    state = ranked_hand(6, {"preset": "rio"}, out)
    h = state.hand
    v = state.variant
    assert v.push_counts(h, 5) == {3: 3} and v.push_counts(h, 3) == {5: 3}
    assert v.push_counts(h, 2) == {0: 2} and v.push_counts(h, 1) == {4: 1} and v.push_counts(h, 4) == {1: 1}
    wretch = sorted(h.cards[5], key=tribute_rank)
    worst_three = wretch[:3]
    refuse(state, {"type": "push", "seat": 5, "cards": {"3": worst_three}}, "push_invalid")
    state.apply({"type": "push", "seat": 5, "cards": {"3": wretch[-3:]}})
    # the Great Lord returns cards of his choice (rio)
    state.apply({"type": "push", "seat": 3, "cards": {"5": h.cards[3][-3:]}})


def test_grand_seigneur_abacus_recipients_return_their_worst():
    out = [3, 0, 4, 1, 2]  # five players: 2 and 1 cards
    state = ranked_hand(5, {"preset": "abacus"}, out)
    h = state.hand
    lord = sorted(h.cards[3], key=tribute_rank)
    refuse(state, {"type": "push", "seat": 3, "cards": {"2": lord[-2:]}}, "push_invalid")
    state.apply({"type": "push", "seat": 3, "cards": {"2": lord[:2]}})


def test_grand_seigneur_dog_gives_the_lead_to_the_wretch():
    out = [0, 1, 2, 3, 4]
    state = GameState("grand-seigneur", {"preset": "abacus", "return_worst": False}, players(5))
    state.apply({"type": "hand_result", "out": out})
    state.apply({"type": "shuffle", "seat": 4})
    h = state.hand
    deck = sorted(Counter(h.pile).elements())
    # Seat 1 gets the Dog and the Mahjong; seats 0 and 4 hold nothing special
    deck.remove("Dog")
    deck.remove("Mahjong")
    for seat in (0, 1, 2, 3, 4):
        cards = [deck.pop() for _ in range(h.sizes[seat] - (2 if seat == 1 else 0))] + (
            ["Dog", "Mahjong"] if seat == 1 else []
        )
        state.apply({"type": "deal", "seat": seat, "cards": cards})
    for giver, receiver, k in state.variant._tribute_levels(h):
        best = sorted(h.cards[giver], key=tribute_rank)[-k:]
        state.apply({"type": "push", "seat": giver, "cards": {str(receiver): best}})
        state.apply({"type": "push", "seat": receiver, "cards": {str(giver): h.cards[receiver][:k]}})
    assert state.phase == "play"
    assert state.turn == 1 and "Dog" in h.cards[1]  # seat 1 kept the Mahjong and the Dog through the tribute
    play(state, 1, "Dog")
    assert state.turn == 4  # the Wretch


def test_grand_seigneur_rank_scoring_and_fixed_hands():
    state = GameState("grand-seigneur", {"scoring": "ranks", "hands": 2}, players(5))
    state.apply({"type": "hand_result", "out": [2, 0, 1, 4, 3]})
    assert state.totals == [3, 2, 4, 0, 1]
    refuse(state, {"type": "hand_result", "out": [3, 0, 1, 4]}, "result_invalid")
    state.apply({"type": "hand_result", "out": [3, 0, 1, 4, 2]})
    assert state.over and state.winner is not None
    assert state.totals[state.winner] == max(state.totals)


def test_every_variant_plays_through_the_command_line(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    from games.engine import random_record

    root = Path(__file__).resolve().parents[2]
    for variant, names, options in [
        ("tientsin", SIX, {}),
        ("threechu", THREE, {}),
        ("grand-seigneur", players(6), {"hands": 2, "scoring": "ranks"}),
    ]:
        record = random_record(1, variant=variant, players=names, options=options, max_hands=2)
        path = tmp_path / f"{variant}.json"
        path.write_text(json.dumps(record))
        result = subprocess.run(
            [sys.executable, "-m", "games.engine", "score", str(path)], cwd=root, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout
        out = json.loads(result.stdout)
        assert out["variant"] == variant
        assert out == json.loads(json.dumps(score_json(fold(record))))
        assert len(out["totals"]) == {"tientsin": 2, "threechu": 4, "grand-seigneur": 6}[variant]


# === Rules audit: Tientsin and Grand Seigneur against the books (seeds 000, 001, 003) ==========
# (this section is kept at the end of the file; Threechu tests live above)

TIENTSIN_STRAIGHT = ["Mahjong", "2j", "3j", "4j", "5j", "6j", "7j", "8j", "9j", "Tj"]  # seat 0's ten cards
FLUSH_2_T = [f"{r}s" for r in "23456789T"]  # nine cards: a straight-flush bomb
FLUSH_3_J = [f"{r}p" for r in "3456789TJ"]  # nine cards: a higher straight-flush bomb


def test_tientsin_dog_with_both_partners_out_goes_on_from_the_nearer_partner_whatever_the_seat():
    # 001 Tientsin: "The hound transfers the right to lead to its holder's choice of partner."
    # With both partners out there is no partner to choose: as in Nanking ("if the partner is out,
    # the next player after the partner"), the lead goes on from the partner next in order of play,
    # so to the player opposite when they hold cards. It used to depend on the seat number (from
    # seat 2 the lead went on from seat 0, two seats *back*, and reached seat 1).
    state = dealt("tientsin", SIX, {}, {0: TIENTSIN_STRAIGHT, 1: ["4r"], 4: FLUSH_2_T, 2: ["Dog", "Ar"], 5: ["5r"]})
    play(state, 0, *TIENTSIN_STRAIGHT)
    pass_(state, 1, 2, 3, 4, 5)
    assert state.turn == 1  # seat 0 is out: the lead goes on
    play(state, 1, "4r")
    play(state, 4, *FLUSH_2_T)  # a bomb out of turn: seat 4 is out too
    pass_(state, 5, 1, 2, 3)
    play(state, 5, "5r")
    pass_(state, 1)
    play(state, 2, "Ar")
    pass_(state, 3, 5, 1)
    assert state.turn == 2 and state.hand.out == [0, 4]
    refuse(state, {"type": "play", "seat": 2, "cards": ["Dog"], "to": 0}, "invalid_combination")
    play(state, 2, "Dog")
    assert state.turn == 5  # the player after seat 4, opposite seat 2 (not seat 1)


@pytest.mark.parametrize("dog_seat, expected", [(0, 3), (2, 5), (4, 1)])
def test_tientsin_dog_lead_when_both_partners_are_out_is_the_same_for_every_seat(dog_seat, expected):
    state = dealt("tientsin", SIX, {}, {0: ["Mahjong"]})
    h = state.hand
    for partner in ((dog_seat + 2) % 6, (dog_seat + 4) % 6):
        h.cards[partner] = []
    assert state.variant.dog_lead(h, dog_seat, None) == expected
    h.cards[expected] = []  # the opposite player out too: the next holder after them
    assert state.variant.dog_lead(h, dog_seat, None) == (expected + 2) % 6


def test_tientsin_triple_victory_played_out_ends_the_hand_at_once_for_300_and_calls_count():
    # 001 Tientsin: "a triple victory (one team gets rid of all its cards while all three opponents
    # still hold cards) scores 300 points"; 000 (TIKI): "on ne compte pas les points des plis".
    state = dealt("tientsin", SIX, {}, {0: TIENTSIN_STRAIGHT, 1: ["4r"], 2: FLUSH_2_T, 4: FLUSH_3_J})
    state.apply({"type": "tichu", "seat": 0})
    state.apply({"type": "tichu", "seat": 3})
    play(state, 0, *TIENTSIN_STRAIGHT)
    pass_(state, 1, 2, 3, 4, 5)
    play(state, 1, "4r")
    play(state, 2, *FLUSH_2_T)
    assert state.hand is not None and state.hand.out == [0, 2]  # a double victory does not end the hand
    play(state, 4, *FLUSH_3_J)  # the third of the team goes out, the trick still on the table
    assert state.hand is None and state.phase == "between_hands"
    line = score_json(state)["hands"][-1]
    assert line["points"] == [300 + 100, -100]
    assert state.next_shuffler == 0


def test_grand_seigneur_an_equal_bomb_does_not_beat_with_two_decks():
    # 001 Grand Seigneur names one exception only: "In a trick, the second Dragon played beats the
    # first." Two decks make equal bombs possible; an equal combination never beats (Nanking).
    state = dealt(
        "grand-seigneur",
        players(8),
        {"decks": 2},
        {
            1: ["Mahjong", "7s", "7j", "7p", "7r", "Ks"],
            2: ["7s", "7j", "7p", "7r", "Ks"],
            3: ["2j", "3j", "4j", "5j", "6j"],
            4: ["2j", "3j", "4j", "5j", "6j"],
        },
    )
    play(state, 1, "Mahjong")
    play(state, 1, "7s", "7j", "7p", "7r")
    refuse(state, {"type": "play", "seat": 2, "cards": ["7s", "7j", "7p", "7r"]}, "does_not_beat")
    play(state, 3, "2j", "3j", "4j", "5j", "6j")
    refuse(state, {"type": "play", "seat": 4, "cards": ["2j", "3j", "4j", "5j", "6j"]}, "does_not_beat")
    pass_(state, 4, 5, 6, 7, 0, 1, 2)
    assert state.turn == 3  # the straight-flush bomb took the trick


def test_the_player_count_refusal_reads_as_a_range():
    with pytest.raises(EngineError, match=r"Grand Seigneur is played by 5 to 12 players, the record names 4"):
        GameState("grand-seigneur", None, ["a", "b", "c", "d"])
