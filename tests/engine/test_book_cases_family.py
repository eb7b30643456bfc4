"""Audit of the family variants against the rule books: Threechu, Tichu Tientsin, Grand Seigneur.

Books: ../shared/seeds/001 (Rio Grande, the default reading), 000 (TIKI, then Abacus) and 003
(French); the project's readings: ../shared/spec/rules.md (it prevails where it speaks) and the
record format ../shared/spec/record-format.md. Only cases not already covered by
tests/engine/test_variants.py are here; every event goes through the public API
(``GameState.apply``, ``state_json``, ``score_json``, ``legal_actions``).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import pytest

from games.engine import EngineError, GameState, legal_actions, score_json, state_json
from games.engine.family import tribute_rank
from tests.engine.family_table import SIX, THREE, deal_only, dealt, pass_, play, players
from tests.engine.table import refuse

# ================================================================================================
# Tichu Tientsin (6 players)
# ================================================================================================


def test_tientsin_draw_order_from_the_shuffler_the_first_two_drawers_take_the_last_two_cards():
    # 001 Tientsin / spec rules.md: "56 cards drawn from the shuffler on: the first two to draw get
    # 10 cards, the others 9"; 003: "ainsi quatre joueurs auront 9 cartes, les deux autres 10".
    state = GameState("tientsin", {}, SIX)
    state.apply({"type": "shuffle", "seat": 3})
    deck = sorted(Counter(state.hand.pile).elements())
    refuse(state, {"type": "draw", "seat": 0, "card": deck[-1]}, "draw_out_of_order")
    for k in range(54):  # nine rounds from seat 3 on
        state.apply({"type": "draw", "seat": (3 + k) % 6, "card": deck.pop()})
    assert state.phase == "deal" and state.hand.received == [9] * 6
    refuse(state, {"type": "draw", "seat": 5, "card": deck[-1]}, "draw_out_of_order")
    state.apply({"type": "draw", "seat": 3, "card": deck.pop()})
    state.apply({"type": "draw", "seat": 4, "card": deck.pop()})
    assert state.phase == "exchange"
    assert [len(c) for c in state_json(state)["hands"]] == [9, 9, 9, 10, 10, 9]


TIENTSIN_STRAIGHT = ["Mahjong", "2j", "3s", "4p", "5r", "6j", "7s", "8p", "9r", "Tj"]  # ten cards, 1..10


def test_tientsin_dog_with_one_partner_out_must_name_the_other_partner():
    # 001 Tientsin: "The hound transfers the right to lead to its holder's choice of partner";
    # spec rules.md: "The Dog passes the lead to a partner of its player's choice (`to`)". A partner
    # already out cannot take the lead (record-format: `to` names "the partner who gets the lead").
    state = dealt("tientsin", SIX, {}, {0: TIENTSIN_STRAIGHT, 1: ["4r"], 2: ["Dog", "Ar"]})
    play(state, 0, *TIENTSIN_STRAIGHT)
    pass_(state, 1, 2, 3, 4, 5)
    assert state.hand.out == [0] and state.turn == 1
    play(state, 1, "4r")
    play(state, 2, "Ar")
    pass_(state, 3, 4, 5, 1)
    assert state.turn == 2
    refuse(state, {"type": "play", "seat": 2, "cards": ["Dog"], "to": 0}, "invalid_combination")  # out
    refuse(state, {"type": "play", "seat": 2, "cards": ["Dog"], "to": 2}, "invalid_combination")  # itself
    refuse(state, {"type": "play", "seat": 2, "cards": ["Dog"]}, "malformed")  # a choice is still to make
    dogs = [a for a in legal_actions(state) if a.get("cards") == ["Dog"]]
    assert dogs == [{"type": "play", "seat": 2, "cards": ["Dog"], "to": 4}]
    play(state, 2, "Dog", to=4)
    assert state.turn == 4


def test_tientsin_legal_actions_offer_the_dog_once_per_partner():
    # 001 Tientsin: "its holder's choice of partner": legal_actions names each partner as `to`.
    state = dealt("tientsin", SIX, {}, {0: ["Mahjong", "Dog"]})
    play(state, 0, "Mahjong")
    pass_(state, 1, 2, 3, 4, 5)
    dogs = [a for a in legal_actions(state) if a.get("cards") == ["Dog"]]
    assert sorted(a["to"] for a in dogs) == [2, 4]


def test_tientsin_dragon_trick_goes_to_any_of_the_three_opponents_never_a_partner():
    # 001 Nanking (rules shared by Tientsin): "he gives the trick ... to the opponent of its
    # holder's choice"; record-format: dragon_gift `to` an opponent, else gift_invalid.
    state = dealt("tientsin", SIX, {}, {0: ["Mahjong"], 1: ["Dragon"]})
    play(state, 0, "Mahjong")
    play(state, 1, "Dragon")
    pass_(state, 2, 3, 4, 5, 0)
    assert state.phase == "dragon_gift" and state.turn == 1
    gifts = sorted(a["to"] for a in legal_actions(state) if a["type"] == "dragon_gift")
    assert gifts == [0, 2, 4]
    refuse(state, {"type": "dragon_gift", "seat": 1, "to": 3}, "gift_invalid")
    refuse(state, {"type": "dragon_gift", "seat": 1, "to": 5}, "gift_invalid")
    state.apply({"type": "dragon_gift", "seat": 1, "to": 4})
    assert state_json(state)["tricks_won"][4]["points"] == 25 and state.turn == 1


# Six hands for a hand played out to its end: out 0, 1, 2, 4, 3; seat 5 the last.
TIENTSIN_FULL = {
    0: TIENTSIN_STRAIGHT,  # 10: 1..T, 15 points
    1: ["Ts", "Tp", "Jj", "Js", "Qj", "Qs", "Kj", "Ks", "Aj", "As"],  # 10: stairs TT..AA, 40
    2: ["2s", "3p", "4r", "5j", "6s", "7p", "8r", "9j", "Tr"],  # 9: straight 2..T, 15
    4: ["3r", "4j", "5s", "6p", "7r", "8j", "9s", "Jp", "Phoenix"],  # 9: straight 3..J, -20
    3: ["2p", "3j", "4s", "5p", "6r", "Qp", "Qr", "Kp", "Kr"],  # 9: 2..6 then QQKK, 25
    5: ["2r", "7j", "8s", "9p", "Jr", "Ap", "Ar", "Dog", "Dragon"],  # 9: the last, 25 in hand
}


def test_tientsin_played_out_fifth_gives_tricks_to_the_first_last_gives_all_to_the_opponents():
    # 001 Tientsin: "the last loses not only his remaining cards but also all his tricks to the
    # opposition; the fifth (the second to last to go out) gives his tricks to the winner of the
    # round." Here the fifth out (seat 3) is not on the first out's team (seat 0), so the rule shows.
    state = dealt("tientsin", SIX, {}, TIENTSIN_FULL)
    play(state, 0, *TIENTSIN_FULL[0])
    pass_(state, 1, 2, 3, 4, 5)
    play(state, 1, *TIENTSIN_FULL[1])
    pass_(state, 2, 3, 4, 5)
    play(state, 2, *TIENTSIN_FULL[2])
    pass_(state, 3)
    play(state, 4, *TIENTSIN_FULL[4])  # the Phoenix as 10
    assert state.hand.out == [0, 1, 2, 4]  # three out, not all of one team: the hand goes on
    pass_(state, 5, 3)
    assert state.turn == 5
    play(state, 5, "Dog", to=3)
    play(state, 3, "2p", "3j", "4s", "5p", "6r")
    pass_(state, 5)
    play(state, 3, "Qp", "Qr", "Kp", "Kr")  # the fifth out: only seat 5 holds cards, the hand ends
    assert state.hand is None
    line = score_json(state)["hands"][-1]
    assert line["out"] == [0, 1, 2, 4, 3, 5]
    # team 0 (0, 2, 4): 15 (seat 0) + 25 (seat 3's tricks, fifth -> first) - 5 (seat 4) + 25 (seat 5's hand)
    # team 1 (1, 3, 5): 40 (seat 1); seat 3's and seat 5's piles went away
    assert line["card_points"] == [60, 40] and line["points"] == [60, 40]
    assert state.next_shuffler == 0


def test_tientsin_hand_result_two_partners_out_first_is_no_sweep():
    # 001 Tientsin: "There is no special reward for a double victory"; record-format hand_result:
    # points are "absent on a double victory" only, so here they are required and count as given.
    state = GameState("tientsin", {}, SIX)
    refuse(state, {"type": "hand_result", "out": [0, 2]}, "result_invalid")
    state.apply({"type": "hand_result", "out": [0, 2], "points": [70, 30]})
    assert state.totals == [70, 30]


def test_tientsin_game_ends_when_a_team_reaches_1000():
    # 001 Tientsin: "The rules of the game are the same as for the four handed version" (a team at
    # or above 1000 at the end of a hand wins); spec rules.md: target_score for Tientsin.
    state = GameState("tientsin", {}, SIX)
    for _ in range(3):
        state.apply({"type": "hand_result", "out": [1, 3, 5]})  # triple victory: 300
    assert state.totals == [0, 900] and not state.over
    state.apply({"type": "hand_result", "out": [1, 3, 5]})
    assert state.over and state.winner == 1
    refuse(state, {"type": "hand_result", "out": [0, 2, 4]}, "game_over")


# ================================================================================================
# Threechu (3 players and a dummy)
# ================================================================================================


def test_threechu_draw_order_is_dealer_next_dummy_last():
    # 001 Threechu: "Shuffle and take cards as you would for a four player game"; record-format:
    # "in a hand dealt by seat d the order of play is d, d+1, 3, d+2"; TIKI: "le Roi tire les
    # cartes pour son Ministre".
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "shuffle", "seat": 1})
    deck = sorted(Counter(state.hand.pile).elements())
    refuse(state, {"type": "draw", "seat": 3, "card": deck[-1]}, "draw_out_of_order")
    for k in range(56):
        seat = (1, 2, 3, 0)[k % 4]
        if k == 2:
            refuse(state, {"type": "draw", "seat": 0, "card": deck[-1]}, "draw_out_of_order")
        state.apply({"type": "draw", "seat": seat, "card": deck.pop()})
    assert state.phase == "exchange" and state.hand.received == [14] * 4


def test_threechu_opponents_call_grand_tichu_before_their_ninth_card():
    # 001 Threechu: the shuffler may not declare Grand Tichu; TIKI/Abacus: "leurs adversaires
    # peuvent le faire avant de recevoir leur neuvième carte"; spec: "the opponents may, before
    # their 9th card".
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "shuffle", "seat": 1})
    deck = sorted(Counter(state.hand.pile).elements())
    for k in range(32):  # eight rounds: everyone holds 8
        state.apply({"type": "draw", "seat": (1, 2, 3, 0)[k % 4], "card": deck.pop()})
    state.apply({"type": "draw", "seat": 1, "card": deck.pop()})
    state.apply({"type": "draw", "seat": 2, "card": deck.pop()})
    refuse(state, {"type": "grand_tichu", "seat": 2}, "call_too_late")  # 9 cards
    state.apply({"type": "grand_tichu", "seat": 0})  # still 8 cards
    assert state_json(state)["calls"] == {"0": "grand_tichu"}


def test_threechu_legal_calls_no_grand_tichu_for_dealer_or_dummy():
    # 001 Threechu: "The shuffler may not declare Grand Tichu for either himself or the dummy";
    # "The dealer may declare Small Tichu on behalf of the dummy".
    state = GameState("threechu", {}, THREE)
    state.apply({"type": "shuffle", "seat": 2})
    calls = {(a["type"], a["seat"]) for a in legal_actions(state) if a["type"] in ("tichu", "grand_tichu")}
    assert calls == {("grand_tichu", 0), ("grand_tichu", 1), ("tichu", 0), ("tichu", 1), ("tichu", 2), ("tichu", 3)}


def test_threechu_dummy_tichu_allowed_after_the_dealer_played_until_the_dummy_plays():
    # 001 Threechu: "The dealer may declare Small Tichu on behalf of the dummy before he plays the
    # first card from the dummy." The dealer's own first card does not close the dummy's call.
    state = dealt("threechu", THREE, {}, {0: ["Mahjong"]})
    play(state, 0, "Mahjong")
    refuse(state, {"type": "tichu", "seat": 0}, "call_too_late")
    state.apply({"type": "tichu", "seat": 3})
    assert state_json(state)["calls"] == {"3": "tichu"}


def _threechu_dealt(preset: str) -> GameState:
    """A Threechu hand dealt by seat 0 (order 0, 1, dummy, 2), 14 cards each, before the exchange."""
    state = GameState("threechu", {"preset": preset}, THREE)
    state.apply({"type": "shuffle", "seat": 0})
    deck = sorted(Counter(state.hand.pile).elements())
    for seat in (0, 1, 3, 2):
        state.apply({"type": "deal", "seat": seat, "cards": [deck.pop() for _ in range(14)]})
    return state


def test_threechu_rio_exchange_every_hand_pushes_to_its_two_opponents():
    # 001 Threechu: "players only push cards to their opponents (two cards instead of three)";
    # spec: `opponents` (rio): "every hand, the dummy's too, pushes one card to each of its two
    # opponents". Received cards join the hand when every push is in (record-format push).
    state = _threechu_dealt("rio")
    hands = state.hand.cards
    refuse(state, {"type": "push", "seat": 0, "cards": {"3": hands[0][0], "1": hands[0][1]}}, "push_invalid")
    refuse(
        state,
        {"type": "push", "seat": 0, "cards": {"1": hands[0][0], "2": hands[0][1], "3": hands[0][2]}},
        "push_invalid",
    )
    refuse(state, {"type": "push", "seat": 1, "cards": {"2": hands[1][0], "0": hands[1][1]}}, "push_invalid")
    state.apply({"type": "push", "seat": 0, "cards": {"1": hands[0][0], "2": hands[0][1]}})
    state.apply({"type": "push", "seat": 3, "cards": {"1": hands[3][0], "2": hands[3][1]}})
    state.apply({"type": "push", "seat": 1, "cards": {"0": hands[1][0], "3": hands[1][1]}})
    assert state.phase == "exchange"
    state.apply({"type": "push", "seat": 2, "cards": {"0": hands[2][0], "3": hands[2][1]}})
    assert state.phase == "play"
    assert [len(c) for c in state_json(state)["hands"]] == [14, 14, 14, 14]


def test_threechu_tiki_exchange_the_dummy_gives_and_receives_nothing():
    # TIKI (000) Wu Wang: "chaque joueur « réel » choisit une carte, qu'il donne à chaque autre
    # joueur « réel » ... Le Ministre ne donne et ne reçoit aucune carte."
    state = _threechu_dealt("tiki")
    hands = state.hand.cards
    dummy_before = list(hands[3])
    refuse(state, {"type": "push", "seat": 3, "cards": {"1": hands[3][0], "2": hands[3][1]}}, "push_invalid")
    refuse(state, {"type": "push", "seat": 1, "cards": {"3": hands[1][0], "2": hands[1][1]}}, "push_invalid")
    state.apply({"type": "push", "seat": 0, "cards": {"1": hands[0][0], "2": hands[0][1]}})
    state.apply({"type": "push", "seat": 1, "cards": {"0": hands[1][0], "2": hands[1][1]}})
    state.apply({"type": "push", "seat": 2, "cards": {"0": hands[2][0], "1": hands[2][1]}})
    assert state.phase == "play"
    assert sorted(state.hand.cards[3]) == sorted(dummy_before)


def test_threechu_dummy_may_ignore_the_wish_the_dealer_may_not():
    # 001 Threechu: "The dummy does not have to fulfill any wish." Only the dummy: TIKI "le
    # Ministre, et lui seul, n'est pas tenu de respecter le voeu". Dealer 0: order 0, 1, 3, 2.
    state = dealt("threechu", THREE, {}, {1: ["Mahjong", "7r", "7s"], 3: ["7j", "5j"], 0: ["7p", "8p"]})
    assert state.turn == 1
    play(state, 1, "Mahjong", wish="7")
    assert state.turn == 3
    actions = legal_actions(state)
    assert {"type": "pass", "seat": 3} in actions
    assert {"type": "play", "seat": 3, "cards": ["5j"]} in actions
    play(state, 3, "5j")  # holds 7j and could play it: exempt
    assert state_json(state)["wish"] == "7"
    pass_(state, 2)  # no 7 in that hand
    assert state.turn == 0
    refuse(state, {"type": "pass", "seat": 0}, "wish_not_fulfilled")
    refuse(state, {"type": "play", "seat": 0, "cards": ["8p"]}, "wish_not_fulfilled")
    play(state, 0, "7p")
    assert state_json(state)["wish"] is None


def test_threechu_missed_wish_penalty_scores_per_player():
    # TIKI FAQ (spec rules.md): "the other team scores 200"; 001 Threechu: "Each player in a
    # partnership receives the same number of points that the team would receive".
    state = dealt("threechu", THREE, {}, {0: ["Mahjong"]})
    state.apply({"type": "penalty", "seat": 1, "reason": "missed_wish"})
    line = score_json(state)["hands"][-1]
    assert line["kind"] == "penalty" and line["points"] == [200, 0, 0, 200]


# Dealer 1 (order 1, 2, 3, 0): seat 0 goes out first with 1..A, the dealer second with stairs
# 22..88, seat 2 third with stairs 88..AA over them; the dummy is the last.
THREECHU_FULL = {
    0: ["Mahjong", "2j", "3s", "4p", "5r", "6j", "7s", "8p", "9r", "Tj", "Js", "Qp", "Kr", "Aj"],
    1: ["2s", "2p", "3p", "3r", "4j", "4r", "5j", "5s", "6s", "6p", "7p", "7r", "8j", "8s"],
    2: ["8r", "Phoenix", "9j", "9s", "Ts", "Tp", "Jj", "Jp", "Qj", "Qs", "Kj", "Ks", "As", "Ap"],
    3: ["2r", "3j", "4s", "5p", "6r", "7j", "9p", "Tr", "Jr", "Qr", "Kp", "Ar", "Dog", "Dragon"],
}


@pytest.mark.parametrize(
    "options, next_dealer",
    [({"preset": "rio"}, 0), ({"preset": "rio", "dealer_rotation": "next"}, 2), ({"preset": "tiki"}, 0)],
)
def test_threechu_played_out_hand_scores_per_player_and_passes_the_deal(options, next_dealer):
    # 001 Threechu: "Scores are kept individually, even for the dummy. Each player in a partnership
    # receives the same number of points that the team would receive"; Nanking: the tailender's
    # cards go to the opponents, calls are individual. Next dealer (spec dealer_rotation): rio
    # `previous` (001: "The shuffle ... passes to the left after each hand", play going to the
    # right: the dealer's left is d-1), `next` (d+1) when a game sets it, tiki `first_out` (the
    # first player out becomes the King).
    state = dealt(
        "threechu", THREE, options, THREECHU_FULL, shuffler=1, before_deal=[{"type": "grand_tichu", "seat": 0}]
    )
    state.apply({"type": "tichu", "seat": 3})  # the dealer calls for the dummy
    assert state.turn == 0
    play(state, 0, *THREECHU_FULL[0])
    pass_(state, 1, 2, 3)
    assert state.turn == 1
    play(state, 1, *THREECHU_FULL[1])
    play(state, 2, *THREECHU_FULL[2])
    assert state.hand is None
    line = score_json(state)["hands"][-1]
    assert line["out"] == [0, 1, 2, 3]
    # opponents 0 and 2: 25 + 25 (last trick) + 50 (the dummy's hand) + 200 (Grand Tichu);
    # dealer 1 and the dummy: 0 - 100 (the dummy's failed Tichu)
    assert line["card_points"] == [100, 0, 100, 0]
    assert line["points"] == [300, -100, 300, -100]
    assert state.totals == [300, -100, 300, -100]
    for seat in range(3):
        if seat != next_dealer:
            refuse(state, {"type": "shuffle", "seat": seat}, "not_your_turn")
    state.apply({"type": "shuffle", "seat": next_dealer})
    assert state.hand.teams[0] == (next_dealer, 3)


def test_threechu_abacus_deal_passes_in_the_direction_of_play():
    # Abacus (000) Trichu: "Le donneur change après chaque donne, tournant dans le sens du jeu";
    # spec: dealer_rotation `next` for abacus (rio: `previous`, the Rio text's "passes to the left").
    state = GameState("threechu", {"preset": "abacus"}, THREE)
    assert state.options["dealer_rotation"] == "next" and state.options["threechu_push"] == "opponents"
    state.apply({"type": "hand_result", "dealer": 2, "out": [1], "points": [50, 50]})
    assert state.next_shuffler == 0


def test_threechu_rio_deal_passes_to_the_left_against_the_order_of_play():
    # 001 Threechu: "The shuffle (and partnership with the dummy) passes to the left after each
    # hand." Play goes to the right (seat d, then d+1): the dealer's left is the seat before, d-1.
    state = GameState("threechu", {"preset": "rio"}, THREE)
    assert state.options["dealer_rotation"] == "previous"
    dealers = []
    for dealer in (2, 1, 0, 2):
        if state.next_shuffler is not None:
            assert state.next_shuffler == dealer
        dealers.append(dealer)
        state.apply({"type": "hand_result", "dealer": dealer, "out": [dealer], "points": [50, 50]})
    assert dealers == [2, 1, 0, 2] and state.next_shuffler == 1


def test_threechu_default_game_is_nine_hands_and_a_tie_has_no_winner():
    # TIKI/Abacus: "La partie se joue en neuf manches (ou tout autre multiple de trois)"; spec:
    # "The game lasts a number of hands divisible by 3 (default 9); the highest total wins".
    # A tie at the top is a draw (docs/rules.md, Game end).
    state = GameState("threechu", {}, THREE)
    assert state.options["hands"] == 9
    for k in range(8):
        state.apply({"type": "hand_result", "dealer": k % 3, "out": [k % 3], "points": [50, 50]})
    assert not state.over
    state.apply({"type": "hand_result", "dealer": 2, "out": [2], "points": [50, 50]})
    js = score_json(state)
    assert js["complete"] is True and js["winner"] is None and js["totals"] == [450] * 4


# ================================================================================================
# Grand Seigneur (5 to 12 players)
# ================================================================================================


@pytest.mark.parametrize("n, ok", [(4, False), (5, True), (12, True), (13, False)])
def test_grand_seigneur_five_to_twelve_players(n, ok):
    # 001: "GRAND SEIGNEUR (5-12 PLAYERS)"; spec: "5 to 12 players".
    if ok:
        GameState("grand-seigneur", {}, players(n))
    else:
        with pytest.raises(EngineError) as info:
            GameState("grand-seigneur", {}, players(n))
        assert info.value.code == "malformed"


@pytest.mark.parametrize(
    "n, options, dealer, sizes, aside",
    [
        (5, {"decks": 1, "dog": True}, 2, [11, 11, 11, 12, 11], 0),  # 56 cards: the dealer's next gets 12
        (5, {"preset": "rio"}, 2, [11] * 5, 0),  # 55 cards (no Dog)
        (6, {"decks": 1, "dog": True}, 0, [9, 10, 10, 9, 9, 9], 0),  # 56 cards
        (7, {"preset": "rio"}, 0, [12] * 7, 107 - 84),  # two decks from 7 players: 23 aside
    ],
)
def test_grand_seigneur_deal_sizes_with_one_deck_and_cards_aside(n, options, dealer, sizes, aside):
    # spec: "one card at a time, at most 12 each, as evenly as the deck allows; leftovers lie aside
    # face up"; 003: "De 5 à 8 joueurs toutes les cartes ne sont pas distribuées".
    state = GameState("grand-seigneur", options, players(n))
    state.apply({"type": "shuffle", "seat": dealer})
    assert state.hand.sizes == sizes
    assert sum(state.hand.pile.values()) - sum(sizes) == aside


def test_grand_seigneur_abacus_plays_with_two_decks_whatever_the_number():
    # Abacus (000) "Le T... (5 à 10 joueurs)": "Ce jeu fort peu démocratique nécessite 108 cartes,
    # soit deux jeux de 52 cartes, auxquels on ajoute les 4 cartes spéciales du Tichu, mais en un
    # seul exemplaire chacune"; "A 8 joueurs ou moins, il reste des cartes qui ne sont pas utilisées".
    state = GameState("grand-seigneur", {"preset": "abacus"}, players(5))
    state.apply({"type": "shuffle", "seat": 0})
    assert sum(state.hand.pile.values()) == 108
    assert state.hand.sizes == [12] * 5  # 48 cards lie aside


def test_grand_seigneur_first_hand_any_dealer_and_no_exchange():
    # 001: "The first hand is a simple round of tichu, without any pushing of cards"; spec: "First
    # hand: random dealer, no exchange."
    state = deal_only("grand-seigneur", players(5), {"preset": "abacus"}, {4: ["Mahjong"]}, shuffler=3)
    assert state.phase == "play" and state.turn == 4
    refuse(state, {"type": "push", "seat": 4, "cards": {"0": state.hand.cards[4][1]}}, "wrong_phase")


def test_grand_seigneur_two_decks_identical_cards_are_a_multiset():
    # 001: "112 circus cards – 2 complete 56 card Tichu decks"; record-format: "With two decks
    # (grand-seigneur) the same code may occur twice: hands are multisets."
    state = GameState("grand-seigneur", {"preset": "rio"}, players(8))
    state.apply({"type": "shuffle", "seat": 0})
    pile = Counter(state.hand.pile)
    rest = sorted((pile - Counter({"Ks": 2})).elements())
    state.apply({"type": "deal", "seat": 1, "cards": ["Ks", "Ks"] + rest[:10]})
    refuse(state, {"type": "deal", "seat": 2, "cards": ["Ks"] + rest[10:21]}, "deal_invalid")


def test_grand_seigneur_pairs_of_identical_cards_but_no_five_of_a_kind():
    # 001: "Only four cards of equal rank in different suits count as a 4-bomb." A pair of two
    # identical cards is still a pair; five cards of one rank are no combination at all.
    sevens = ["7s", "7s", "7j", "7p", "7r"]
    state = dealt("grand-seigneur", players(8), {"preset": "rio"}, {1: ["Mahjong", "Ks", "Ks"] + sevens})
    play(state, 1, "Mahjong")
    pass_(state, 2, 3, 4, 5, 6, 7, 0)
    assert state.turn == 1
    refuse(state, {"type": "play", "seat": 1, "cards": sevens}, "invalid_combination")
    refuse(state, {"type": "play", "seat": 1, "cards": ["Ks", "Ks", "Ks"]}, "card_not_in_hand")
    play(state, 1, "Ks", "Ks")
    assert state_json(state)["trick"][-1]["combination"] == "pair"


def test_grand_seigneur_abacus_full_house_trio_of_three_suits_the_pair_free():
    # Abacus (000): "Un brelan, y compris dans un full, doit se composer de trois cartes de même
    # valeurs et de couleurs différentes" (spec: option distinct_suit_trios). Pairs are not restricted.
    state = dealt(
        "grand-seigneur", players(7), {"preset": "abacus"}, {1: ["Mahjong", "9s", "9s", "9j", "9p", "4s", "4s"]}
    )
    play(state, 1, "Mahjong")
    pass_(state, 2, 3, 4, 5, 6, 0)
    refuse(state, {"type": "play", "seat": 1, "cards": ["9s", "9s", "9j", "4s", "4s"]}, "invalid_combination")
    play(state, 1, "9s", "9j", "9p", "4s", "4s")
    assert state_json(state)["trick"][-1]["combination"] == "full_house"


def _ranked(n: int, options: dict, out: list[int], wanted: dict[int, list[str]], keep: Iterable[str] = ()) -> GameState:
    """The second hand after a first hand that finished in the order ``out``, dealt by the Wretch."""
    return deal_only(
        "grand-seigneur",
        players(n),
        options,
        wanted,
        shuffler=out[-1],
        history=[{"type": "hand_result", "out": out}],
        keep=keep,
    )


def test_grand_seigneur_tribute_best_cards_count_the_specials_above_the_ace():
    # 001: "the Wretch pushes his best three cards to the Great Lord (including special cards,
    # which rank Dragon, Phoenix, Mah Jong.)"; 003 / spec: "Dragon, Phoenix, Mahjong, Dog, A, K".
    out = [0, 1, 2, 3, 4, 5]
    state = _ranked(6, {"preset": "abacus", "return_worst": False}, out, {5: ["Mahjong", "Dog", "Aj", "As", "Kj"]})
    assert state.phase == "exchange"
    refuse(state, {"type": "push", "seat": 5, "cards": {"0": ["Aj", "As", "Kj"]}}, "push_invalid")
    refuse(state, {"type": "push", "seat": 5, "cards": {"0": ["Mahjong", "Aj", "As"]}}, "push_invalid")
    state.apply({"type": "push", "seat": 5, "cards": {"0": ["Mahjong", "Dog", "As"]}})  # either Ace
    # the Great Lord returns exactly as many cards (001: "the corresponding number of cards")
    lord = state.hand.cards[0]
    refuse(state, {"type": "push", "seat": 0, "cards": {"5": lord[:2]}}, "push_invalid")
    state.apply({"type": "push", "seat": 0, "cards": {"5": lord[:3]}})


@pytest.mark.parametrize("n, idle", [(5, [2]), (7, [3]), (8, [3, 4])])
def test_grand_seigneur_middle_ranks_exchange_nothing(n, idle):
    # 001: Wretch -> Great Lord 3, Pauper -> Lord 2, Burgher -> Squire 1, "When five play, one card
    # less is pushed at each level"; 003: "A 5 joueurs le joueur qui a fini troisième n'échange et
    # ne reçoit aucune carte"; "Les autres joueurs n'échangent et ne reçoivent aucune carte."
    out = list(range(n))
    state = _ranked(n, {"preset": "rio"}, out, {})
    h = state.hand
    for seat in idle:
        refuse(state, {"type": "push", "seat": seat, "cards": {"0": h.cards[seat][0]}}, "push_invalid")
    levels = [(n - 1, 0, 3), (n - 2, 1, 2), (n - 3, 2, 1)] if n >= 6 else [(n - 1, 0, 2), (n - 2, 1, 1)]
    for giver, receiver, k in levels:
        best = sorted(h.cards[giver], key=tribute_rank)[-k:]
        state.apply({"type": "push", "seat": giver, "cards": {str(receiver): best}})
        assert state.phase == "exchange"
        state.apply({"type": "push", "seat": receiver, "cards": {str(giver): h.cards[receiver][:k]}})
    assert state.phase == "play"
    assert [len(c) for c in h.cards] == state.hand.sizes


def test_grand_seigneur_mahjong_aside_the_great_lord_leads():
    # 001: "The Mah Jong begins"; with 7 players and two decks 23 cards lie aside (spec), so the
    # Mahjong may be among them: the Great Lord leads (docs/rules.md, Grand Seigneur).
    out = [4, 0, 5, 1, 6, 2, 3]
    state = _ranked(7, {"preset": "rio"}, out, {}, keep=["Mahjong"])
    h = state.hand
    assert state.hand.pile["Mahjong"] == 1
    for giver, receiver, k in ((3, 4, 3), (2, 0, 2), (6, 5, 1)):
        best = sorted(h.cards[giver], key=tribute_rank)[-k:]
        state.apply({"type": "push", "seat": giver, "cards": {str(receiver): best}})
        state.apply({"type": "push", "seat": receiver, "cards": {str(giver): h.cards[receiver][:k]}})
    assert state.phase == "play" and state.turn == 4


def test_grand_seigneur_no_grand_tichu_no_calls_in_results_no_penalty():
    # 001: "No one will announce 'tichu!'"; spec: "Play as in Tichu, without calls, wish, points or
    # Dragon gift". The missed-wish penalty has no wish to miss (docs/rules.md).
    state = GameState("grand-seigneur", {}, players(5))
    refuse(state, {"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3, 4]}, "not_in_variant")
    refuse(state, {"type": "hand_result", "out": [0, 1, 2, 3, 4], "points": [0, 0, 0, 0, 0]}, "result_invalid")
    state.apply({"type": "shuffle", "seat": 0})
    refuse(state, {"type": "grand_tichu", "seat": 1}, "not_in_variant")
    state = dealt("grand-seigneur", players(5), {}, {1: ["Mahjong"]})
    play(state, 1, "Mahjong")
    refuse(state, {"type": "penalty", "seat": 2, "reason": "missed_wish"}, "not_in_variant")


def test_grand_seigneur_fixed_hands_without_scoring_end_with_no_winner():
    # 001: "There is no 'normal' objective in the game. It is all for fun." Spec: "Optional score";
    # docs/rules.md: without scoring the game ends after `hands` with no winner.
    state = GameState("grand-seigneur", {"hands": 1}, players(5))
    state.apply({"type": "hand_result", "out": [2, 0, 1, 4, 3]})
    js = score_json(state)
    assert js["complete"] is True and js["winner"] is None and js["totals"] == [0] * 5


def test_grand_seigneur_rio_seating_wretch_plays_after_the_great_lord():
    # 001: "At the head of the table ... sits the Great Lord himself. On his left is the number two
    # ... the Lord. ... In last place - so at the right of the Great Lord - sits the Wretch"; Nanking:
    # "The next player (to the right - the Chinese play to the right ...)".
    out = [3, 0, 4, 1, 2]
    state = GameState("grand-seigneur", {"preset": "rio"}, players(5))
    state.apply({"type": "hand_result", "out": out})
    state.apply({"type": "shuffle", "seat": 2})
    assert state.hand.order == (3, 2, 1, 4, 0)


@pytest.mark.parametrize("preset, final", [("abacus", True), ("rio", False), ("tiki", False)])
def test_grand_seigneur_pass_is_final_under_abacus_as_in_its_tichu(preset, final):
    # Abacus (000) "Le T...": "Le jeu de la carte est le même qu'au Tichu", and its Tichu makes a
    # pass final for the trick (spec rules.md: abacus, option pass_is_final). Rio and tiki: a
    # player who passed may play again while the trick goes on.
    state = dealt(
        "grand-seigneur",
        players(5),
        {"preset": preset},
        {0: ["Mahjong", "3s", "8s"], 1: ["4s", "9s"], 2: ["5s"], 3: ["6s"], 4: ["7s"]},
    )
    assert state.options["pass_is_final"] is final
    order = list(state.hand.order)
    lead = state.turn
    seq = order[order.index(lead) :] + order[: order.index(lead)]
    assert seq[0] == 0, "the Mahjong leads the first hand"
    play(state, 0, "3s")
    pass_(state, seq[1])
    for seat, card in zip(seq[2:], ["5s", "6s", "7s"]):
        play(state, seat, card) if card in state.hand.cards[seat] else pass_(state, seat)
    play(state, 0, "8s")
    if final:
        assert state.turn != seq[1], "the pass was final for this trick"
        refuse(state, {"type": "play", "seat": seq[1], "cards": ["9s"]}, "not_your_turn")
    else:
        assert state.turn == seq[1]
        play(state, seq[1], "9s")


def test_grand_seigneur_pass_is_final_is_an_option_of_its_own():
    state = GameState("grand-seigneur", {"preset": "rio", "pass_is_final": True}, players(5))
    assert state.options["pass_is_final"] is True
