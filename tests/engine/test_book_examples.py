"""The rule books' worked examples and FAQ answers, played through the engine.

- seed 003 (French rule sheet): the wish (Paul, Pierre, Marie, Francis), the Dog, comparing
  combinations, bomb ranking, the Phoenix and the Dragon, the Tichu scoring examples.
- seed 001 (English, Fata Morgana / Rio Grande): the FAQ at the end of the Nanking section.
- seed 000 (TIKI edition): its FAQ (missed wish penalty, bombs between turns, simultaneous bombs).

Seats for the 003 examples: Pierre 0, Marie 1, Francis 2, Paul 3 ("Paul joue avec Marie et
Pierre avec Francis"; play goes Pierre, Marie, Francis, Paul).
"""

from __future__ import annotations

import pytest

from games.engine import legal_actions, new_game
from tests.engine.table import PLAYERS, SEAT0_PLAYS, Table, straight, two_out

PIERRE, MARIE, FRANCIS, PAUL = 0, 1, 2, 3


# ================================================================================================
# seed 003: the wish
# ================================================================================================

MAHJONG_STRAIGHT = ["Mahjong", "2r", "3p", "4s", "5j"]
# Marie holds a 7 but cannot put it in a five-card straight, and has no bomb; she holds A,K,Q,J,10.
MARIE_AKQJT = ["Ap", "Ks", "Qj", "Jj", "Tp"]
MARIE_HAND = MARIE_AKQJT + ["3j", "3s", "7r", "2p", "2s", "Ar", "Kr", "Qs", "Js"]
# Francis holds 4,5,6,7,8,9,10,J,Q (and 2,3 for a straight 2..6 without the 7).
FRANCIS_4_Q = ["4j", "5s", "6j", "7s", "8j", "9s", "Ts", "Jr", "Qp"]
FRANCIS_HAND = FRANCIS_4_Q + ["2j", "3r", "6p", "9p", "Kp"]


def _wish_table(marie=MARIE_HAND, francis=FRANCIS_HAND) -> Table:
    t = Table({PIERRE: MAHJONG_STRAIGHT, MARIE: marie, FRANCIS: francis})
    assert t.turn == PIERRE, "the Mahjong's holder leads"
    t.play(PIERRE, *MAHJONG_STRAIGHT, wish="7")
    assert t.wish == "7" and t.turn == MARIE
    return t


def test_003_wish_example_paul_pierre_marie_francis():
    t = _wish_table()
    # Marie holds a 7 but no straight of five with a 7 and no bomb of 7s: she may pass
    # ("elle aurait pu jouer As,K,Q,[J],10 mais elle préfère passer").
    offered = legal_actions(t.state)
    assert {"type": "pass", "seat": MARIE} in offered
    assert any(a["type"] == "play" and sorted(a["cards"]) == sorted(MARIE_AKQJT) for a in offered)
    t.pass_(MARIE)
    assert t.turn == FRANCIS and t.wish == "7"
    # Francis has a straight of five with a 7: he must play it and may not pass.
    t.refuse_pass("wish_not_fulfilled", FRANCIS)
    t.refuse_play("wish_not_fulfilled", FRANCIS, "8j", "9s", "Ts", "Jr", "Qp")
    t.refuse_play("wish_not_fulfilled", FRANCIS, "2j", "3r", "4j", "5s", "6j")
    # "il doit jouer une suite du même nombre de cartes": his 9-card straight does not follow.
    t.refuse_play("does_not_beat", FRANCIS, *FRANCIS_4_Q)
    t.play(FRANCIS, "4j", "5s", "6j", "7s", "8j")
    # "A partir de maintenant le 7 a été joué, on peut jouer ce que l'on veut"
    assert t.wish is None
    t.pass_(PAUL, PIERRE)
    # Marie, who passed earlier in this trick, now plays her straight.
    assert t.turn == MARIE
    t.play(MARIE, *MARIE_AKQJT)
    t.pass_(FRANCIS, PAUL, PIERRE)
    # "Marie remporte le pli. C'est à Marie de jouer, elle joue une paire 3,3."
    assert t.turn == MARIE and t.js["trick_closed"] and t.js["trick_winner"] == MARIE
    t.refuse_pass("not_your_turn", PIERRE)
    t.play(MARIE, "3j", "3s")
    # The trick she won: 5j (1..5), 5s (4..8), Ks and Tp (A..10): 30 points.
    assert t.points_won(MARIE) == 30
    assert [p["cards"] for p in t.trick] == [["3j", "3s"]]
    assert t.turn == FRANCIS
    t.check_fold()


def test_003_wish_marie_with_a_straight_holding_the_7_must_play_it():
    marie = MARIE_AKQJT + ["5p", "6s", "7r", "8p", "9r", "2p", "2s", "3j", "3s"]
    t = _wish_table(marie=marie)
    t.refuse_pass("wish_not_fulfilled", MARIE)
    t.refuse_play("wish_not_fulfilled", MARIE, *MARIE_AKQJT)
    t.play(MARIE, "5p", "6s", "7r", "8p", "9r")
    assert t.wish is None and t.turn == FRANCIS


def test_003_wish_three_sevens_without_a_straight_or_bomb_may_pass():
    marie = MARIE_AKQJT + ["7j", "7p", "7r", "2p", "2s", "3j", "3s", "Ar", "Kr"]
    francis = ["4j", "5s", "6j", "8j", "9s", "Ts", "Jr", "Qp", "2j", "3r", "6p", "9p", "Kp", "Dog"]
    t = _wish_table(marie=marie, francis=francis)
    assert "7s" not in t.hand(MARIE)
    t.pass_(MARIE)
    assert t.wish == "7"


def test_003_wish_bomb_of_the_wished_rank_is_forced():
    """ "de même si elle a une bombe de 7": the bomb is the only way to play her 7s, so she must."""
    marie = MARIE_AKQJT + ["7j", "7s", "7p", "7r", "2p", "2s", "3j", "3s", "Ar"]
    francis = ["4j", "5s", "6j", "8j", "9s", "Ts", "Jr", "Qp", "2j", "3r", "6p", "9p", "Kp", "Dog"]
    t = _wish_table(marie=marie, francis=francis)
    t.refuse_pass("wish_not_fulfilled", MARIE)
    t.refuse_play("wish_not_fulfilled", MARIE, *MARIE_AKQJT)
    t.play(MARIE, "7j", "7s", "7p", "7r")
    assert t.trick[-1]["combination"] == "bomb"
    assert t.wish is None and t.turn == FRANCIS


# ================================================================================================
# seed 003: the Dog
# ================================================================================================


def test_003_dog_example_partner_and_next_player_out():
    """Pierre plays the Dog; Marie's turn is skipped; Francis (his partner) is out, so is Paul:
    the lead comes back to Pierre, who plays 7,7; then it is Marie's turn."""
    francis = ["Mahjong", "2j", "3s", "4j", "5s", "6j", "7s", "8j", "9s", "Tj", "Js", "Qj", "Ks", "Aj"]
    paul = [r + s for r in "89TJQKA" for s in "pr"]
    pierre = ["Dog", "7j", "7p", "2s", "2r", "3j", "3r", "4s", "4r", "5j", "5r", "6s", "6r", "Phoenix"]
    marie = ["2p", "3p", "4p", "5p", "6p"]  # a straight-flush bomb, which may not be played on the Dog
    t = Table({FRANCIS: francis, PAUL: paul, PIERRE: pierre, MARIE: marie})
    assert t.turn == FRANCIS
    t.play(FRANCIS, *francis).pass_(PAUL, PIERRE, MARIE)
    t.play(PAUL, *paul).pass_(PIERRE, MARIE)
    assert t.js["out"] == [FRANCIS, PAUL] and t.turn == PIERRE
    t.play(PIERRE, "Dog")
    assert t.turn == PIERRE, "partner out, next player out: the lead comes back to the Dog's player"
    assert t.trick == [], "the Dog's trick is over at once"
    t.refuse_play("bomb_not_allowed", MARIE, "2p", "3p", "4p", "5p", "6p")
    t.play(PIERRE, "7j", "7p")
    assert t.turn == MARIE
    t.check_fold()


def test_003_dog_gives_the_lead_to_the_partner_skipping_the_next_player():
    t = Table({PIERRE: ["Mahjong", "Dog"], MARIE: ["2p", "3p", "4p", "5p", "6p", "Aj"]})
    t.play(PIERRE, "Dog")
    assert t.turn == FRANCIS
    t.refuse_play("not_your_turn", MARIE, "Aj")
    t.refuse_pass("wrong_phase", FRANCIS)  # the partner leads: nothing to pass on
    t.refuse_play("bomb_not_allowed", MARIE, "2p", "3p", "4p", "5p", "6p")


def test_003_dog_only_as_a_lead():
    t = Table({PIERRE: ["Mahjong", "3j"], MARIE: ["Dog", "4j"]})
    t.play(PIERRE, "3j")
    t.refuse_play("does_not_beat", MARIE, "Dog")
    t.refuse_play("invalid_combination", MARIE, "Dog", "4j")


# ================================================================================================
# seed 003: comparing combinations ("Exemple : un roi bat un 10 ...")
# ================================================================================================

COMPARISONS = [
    pytest.param(["Tj"], ["Ks"], id="K beats 10"),
    pytest.param(["4j"], ["5s"], id="5 beats 4"),
    pytest.param(["Aj"], ["Dragon"], id="Dragon beats A"),
    pytest.param(["3j", "3s"], ["6j", "6s"], id="6,6 beats 3,3"),
    pytest.param(["8j", "8s", "8p"], ["9j", "9s", "9p"], id="9,9,9 beats 8,8,8"),
    pytest.param(["8j", "8s", "8p", "Jj", "Js"], ["Tj", "Ts", "Tp", "3j", "3s"], id="10,10,10,3,3 beats 8,8,8,J,J"),
    pytest.param(
        straight("23456789", "jspr" * 2), straight("789TJQKA", "rjspjspr"), id="A..7 beats 9..2 (eight cards)"
    ),
    pytest.param(straight("23456", "jsprj"), straight("34567", "prjsr"), id="7..3 beats 6..2"),
    pytest.param(
        [r + s for r in "789TJ" for s in "js"], [r + s for r in "9TJQK" for s in "pr"], id="K,K..9,9 beats J,J..7,7"
    ),
    pytest.param(["4j", "4s", "5j", "5s"], ["6j", "6s", "7j", "7s"], id="6,6,7,7 beats 5,5,4,4"),
]


@pytest.mark.parametrize("low, high", COMPARISONS)
def test_003_higher_combination_of_the_same_kind_beats(low, high):
    t = Table({PIERRE: ["Mahjong"] + low, MARIE: high})
    t.play(PIERRE, *low)
    t.play(MARIE, *high)
    assert t.js["trick_winner"] == MARIE


@pytest.mark.parametrize("low, high", COMPARISONS)
def test_003_lower_combination_does_not_beat(low, high):
    t = Table({PIERRE: ["Mahjong"] + high, MARIE: low})
    t.play(PIERRE, *high)
    t.refuse_play("does_not_beat", MARIE, *low)


def test_003_same_kind_other_length_does_not_beat():
    """A straight of x cards is beaten only by a straight of x cards."""
    t = Table({PIERRE: ["Mahjong"] + straight("23456", "jsprj"), MARIE: straight("3456789", "prjpsrj")})
    t.play(PIERRE, *straight("23456", "jsprj"))
    t.refuse_play("does_not_beat", MARIE, *straight("3456789", "prjpsrj"))
    t.play(MARIE, *straight("56789", "jpsrj"))


def test_003_mahjong_is_one_in_a_straight_and_lowest_single():
    t = Table({PIERRE: ["Mahjong", "2j", "3s", "4p", "5r", "6j", "7s", "8p", "9r"], MARIE: ["2s"]})
    t.play(PIERRE, "Mahjong", "2j", "3s", "4p", "5r", "6j", "7s", "8p", "9r")  # 1,2,...,9
    assert t.trick[-1]["combination"] == "straight" and t.trick[-1]["rank"] == 9


def test_003_mahjong_single_beaten_by_a_two():
    t = Table({PIERRE: ["Mahjong"], MARIE: ["2s"]})
    t.play(PIERRE, "Mahjong")
    t.play(MARIE, "2s")


# ================================================================================================
# seed 003: bombs ("Exemple : 10,9,8,7,6,5,4 rouge bat Q,J,10,9,8,7 bleu" ...)
# ================================================================================================

BOMB_EXAMPLES = [
    pytest.param(straight("789TJQ", "s"), straight("456789T", "r"), id="7-card flush beats higher 6-card flush"),
    pytest.param(straight("23456", "s"), straight("45678", "j"), id="8..4 flush beats 6..2 flush"),
    pytest.param(["7j", "7s", "7p", "7r"], straight("23456", "j"), id="6..2 flush beats 7,7,7,7"),
    pytest.param(["Tj", "Ts", "Tp", "Tr"], ["Jj", "Js", "Jp", "Jr"], id="J,J,J,J beats 10,10,10,10"),
    pytest.param(["2j", "2s", "2p", "2r"], ["3j", "3s", "3p", "3r"], id="2,2,2,2 is the lowest bomb"),
    pytest.param(straight("23456789TJQK", "s"), straight("23456789TJQKA", "j"), id="A..2 flush is the highest bomb"),
]


@pytest.mark.parametrize("low, high", BOMB_EXAMPLES)
def test_003_bomb_ranking(low, high):
    """Bombs rank by length first, then by rank; a bomb beats a lower bomb, never the reverse."""
    t = Table({PIERRE: ["Mahjong"], MARIE: low, FRANCIS: high})
    t.play(PIERRE, "Mahjong")
    t.bomb(MARIE, *low)
    assert t.trick[-1]["combination"] == "bomb"
    t.bomb(FRANCIS, *high)
    assert t.js["trick_winner"] == FRANCIS

    t2 = Table({PIERRE: ["Mahjong"], MARIE: low, FRANCIS: high})
    t2.play(PIERRE, "Mahjong")
    t2.bomb(FRANCIS, *high)
    t2.refuse_play("does_not_beat", MARIE, *low)


def test_003_three_threes_and_phoenix_is_not_a_bomb():
    """ "3,3,3,Phénix n'est pas une bombe" """
    t = Table({PIERRE: ["Mahjong", "2j"], MARIE: ["3j", "3s", "3p", "Phoenix"]})
    t.play(PIERRE, "2j")
    t.refuse_play("invalid_combination", MARIE, "3j", "3s", "3p", "Phoenix")


def test_003_bomb_on_a_special_card_and_on_any_combination():
    """A bomb may be played on any combination (the Mahjong, the Phoenix, the Dragon...)."""
    t = Table(
        {
            PIERRE: ["Mahjong"],
            MARIE: ["Phoenix", "2j", "2s", "2p", "2r"],
            PAUL: ["Dragon"],
            FRANCIS: ["3j", "3s", "3p", "3r"],
        }
    )
    t.play(PIERRE, "Mahjong")
    t.play(MARIE, "Phoenix")
    t.bomb(FRANCIS, "3j", "3s", "3p", "3r")
    assert t.turn == PAUL


# ================================================================================================
# seed 003: the Phoenix and the Dragon
# ================================================================================================


def test_003_phoenix_after_an_eight_is_eight_and_a_half():
    t = Table({PIERRE: ["Mahjong", "8j"], MARIE: ["Phoenix"], FRANCIS: ["8s", "9s"]})
    t.play(PIERRE, "8j")
    t.play(MARIE, "Phoenix")
    assert t.trick[-1]["rank"] == 8.5
    t.refuse_play("does_not_beat", FRANCIS, "8s")
    t.play(FRANCIS, "9s")


def test_003_phoenix_beats_an_ace_but_not_the_dragon():
    t = Table({PIERRE: ["Mahjong", "Aj"], MARIE: ["Phoenix"], FRANCIS: ["Dragon"]})
    t.play(PIERRE, "Aj")
    t.play(MARIE, "Phoenix")  # A and a half
    t.play(FRANCIS, "Dragon")  # "Le Dragon bat le Phénix (As.5)"
    assert t.js["trick_winner"] == FRANCIS

    t2 = Table({PIERRE: ["Mahjong", "Dragon"], MARIE: ["Phoenix"]})
    t2.play(PIERRE, "Dragon")
    t2.refuse_play("does_not_beat", MARIE, "Phoenix")


def test_003_phoenix_in_a_combination_but_not_in_a_bomb():
    """ "un brelan de 8: 8,8,Phénix" """
    t = Table({PIERRE: ["Mahjong", "7j", "7s", "7p"], MARIE: ["8j", "8s", "Phoenix"]})
    t.play(PIERRE, "7j", "7s", "7p")
    t.play(MARIE, "8j", "8s", "Phoenix")
    assert t.trick[-1]["combination"] == "trio" and t.trick[-1]["phoenix"] == "8"


def test_003_dragon_trick_given_to_an_opponent_and_its_player_leads_next():
    """ "Le joueur qui remporte le pli avec le dragon doit donner toutes les cartes de ce pli,
    Dragon compris, à un des joueurs de l'équipe adverse ... Ce sera quand même à lui de jouer." """
    t = Table({PIERRE: ["Mahjong", "Ks", "2j"], MARIE: ["Dragon", "3j"]})
    t.play(PIERRE, "Ks")
    t.play(MARIE, "Dragon")
    t.pass_(FRANCIS, PAUL, PIERRE)
    assert t.phase == "dragon_gift" and t.turn == MARIE
    t.refuse({"type": "dragon_gift", "seat": MARIE, "to": PAUL}, "gift_invalid")  # her partner
    t.gift(MARIE, FRANCIS)
    assert t.points_won(FRANCIS) == 35 and t.points_won(MARIE) == 0
    assert t.turn == MARIE and t.phase == "play"


def test_003_bomb_on_the_dragon_takes_the_trick_and_keeps_it():
    t = Table({PIERRE: ["Mahjong", "Dragon", "2j"], MARIE: ["4j", "4s", "4p", "4r", "3j"]})
    t.play(PIERRE, "Dragon")
    t.bomb(MARIE, "4j", "4s", "4p", "4r")
    t.pass_(FRANCIS, PAUL, PIERRE)
    assert t.phase == "play" and t.turn == MARIE
    t.play(MARIE, "3j")
    assert t.points_won(MARIE) == 25


# ================================================================================================
# seed 003 (and 000): the Tichu scoring examples
# ================================================================================================


def _sheet(events):
    g = new_game("nanking", None, PLAYERS)
    for e in events:
        g.apply(e)
    return g


# Paul is seat 3 (team 1, with Marie); Pierre and Francis are team 0.
@pytest.mark.parametrize(
    "event, expected",
    [
        pytest.param(
            {"type": "hand_result", "calls": {"3": "tichu"}, "out": [PAUL, PIERRE, MARIE, FRANCIS], "points": [70, 30]},
            [70, 130],
            id="Paul tichu, first, 30:70 -> 130 and 70",
        ),
        pytest.param(
            {"type": "hand_result", "calls": {"3": "tichu"}, "out": [PIERRE, MARIE, PAUL, FRANCIS], "points": [60, 40]},
            [60, -60],
            id="Paul tichu, third, 40:60 -> -60 and 60",
        ),
        pytest.param(
            {"type": "hand_result", "calls": {"3": "tichu"}, "out": [PAUL, MARIE]},
            [0, 300],
            id="Paul tichu, first, partner second -> 300 and 0",
        ),
        pytest.param(
            {"type": "hand_result", "calls": {"3": "tichu"}, "out": [PIERRE, FRANCIS]},
            [200, -100],
            id="Paul tichu, opponents double victory -> -100 and 200",
        ),
        pytest.param(
            {
                "type": "hand_result",
                "calls": {"1": "grand_tichu"},
                "out": [PIERRE, MARIE, PAUL, FRANCIS],
                "points": [60, 40],
            },
            [60, -160],
            id="000: failed Grand Tichu 40-200",
        ),
    ],
)
def test_003_tichu_scoring_examples(event, expected):
    g = _sheet([event])
    assert g.totals == expected


def test_003_tichu_example_300_played_card_by_card():
    """Paul calls Tichu, goes out first, his partner Marie second: 300 (200 + 100) against 0."""
    paul = ["Mahjong"] + straight("23456789TJQKA", "jr" * 6 + "j")
    marie = ["Dragon", "8p"] + [r + s for r in "9TJQKA" for s in "sp"]
    t = Table({PAUL: paul, MARIE: marie, PIERRE: ["2r"]}, tichu=[PAUL])
    assert t.turn == PAUL
    t.play(PAUL, *paul).pass_(PIERRE, MARIE, FRANCIS)
    assert t.turn == PIERRE
    t.play(PIERRE, "2r").play(MARIE, "Dragon").pass_(FRANCIS, PIERRE)
    t.gift(MARIE, PIERRE)
    t.play(MARIE, *[r + s for r in "9TJQKA" for s in "sp"]).pass_(FRANCIS, PIERRE)
    t.play(MARIE, "8p")
    assert t.phase == "between_hands"
    line = t.last_line
    assert line["double_victory"] is True
    assert line["points"] == [0, 300]
    assert t.state.totals == [0, 300]
    t.check_fold()


# ================================================================================================
# seed 001: FAQ
# ================================================================================================


def test_001_faq_hound_cannot_be_bombed():
    """ "No, Bombs cannot be used to take the hound (and the right to lead)." """
    t = Table({PIERRE: ["Mahjong", "Dog"], MARIE: ["9j", "9s", "9p", "9r"], PAUL: straight("23456", "s")})
    t.play(PIERRE, "Dog")
    assert t.turn == FRANCIS
    t.refuse_play("bomb_not_allowed", MARIE, "9j", "9s", "9p", "9r")
    t.refuse_play("bomb_not_allowed", PAUL, *straight("23456", "s"))
    assert bombs_by_seat(t) == {}


def bombs_by_seat(t):
    from games.engine import bombs_out_of_turn

    return bombs_out_of_turn(t.state)


def test_001_faq_bombs_only_on_a_combination_on_the_table():
    t = Table({PIERRE: ["Mahjong"], MARIE: ["9j", "9s", "9p", "9r"]})
    t.refuse_play("bomb_not_allowed", MARIE, "9j", "9s", "9p", "9r")


def test_001_faq_you_may_bomb_your_own_trick():
    t = Table({PIERRE: ["Mahjong", "Aj", "9j", "9s", "9p", "9r"]})
    t.play(PIERRE, "Aj")
    assert t.turn == MARIE
    t.bomb(PIERRE, "9j", "9s", "9p", "9r")
    assert t.trick[-1]["seat"] == PIERRE and t.turn == MARIE


def test_001_faq_any_player_may_bomb_after_three_passes():
    t = Table({PIERRE: ["Mahjong", "Aj"], FRANCIS: ["9j", "9s", "9p", "9r"]})
    t.play(PIERRE, "Aj").pass_(MARIE, FRANCIS, PAUL)
    assert t.js["trick_closed"] and t.turn == PIERRE
    t.bomb(FRANCIS, "9j", "9s", "9p", "9r")
    assert t.turn == PAUL, "after a bomb, play continues with the player after the bomber"
    t.pass_(PAUL, PIERRE, MARIE)
    assert t.turn == FRANCIS
    assert t.js["trick_winner"] == FRANCIS


# The K-bomb example: Player 1 (seat 0) leads the Mahjong and wishes an 8; Player 2 (seat 1) holds
# 3,4,5,6,7,8,9,10,J,Q and four kings.
P2_STRAIGHT = ["3j", "4s", "5j", "6s", "7j", "8s", "9j", "Ts", "Jj", "Qs"]
K_BOMB = ["Kj", "Ks", "Kp", "Kr"]


def test_001_faq_between_players_1_and_2_others_may_bomb_without_the_wish():
    """Players 3 and 4 (and player 1 on his own Mahjong) bomb out of turn without fulfilling."""
    t = Table(
        {0: ["Mahjong", "2j", "2s", "2p", "2r"], 2: ["5j", "5s", "5p", "5r", "8j"], 3: ["6j", "6s", "6p", "6r", "8p"]}
    )
    t.play(0, "Mahjong", wish="8")
    t.bomb(0, "2j", "2s", "2p", "2r")  # player 1 bombs his own Mahjong
    assert t.wish == "8"
    t.bomb(2, "5j", "5s", "5p", "5r")
    assert t.wish == "8" and t.turn == 3
    # seat 3 is now to act, in his ordinary turn: his 6-bomb has no 8, but he holds the 8p and cannot
    # play it on a bomb, so the wish does not bind him.
    t.bomb(3, "6j", "6s", "6p", "6r")
    assert t.wish == "8"


def test_001_faq_k_bomb_by_player_2_before_his_turn():
    """ "When player 2 has a hand like 3,4,5,6,7,8,9,10,J,Q,K,K,K[,K] he may (before his turn) play
    the K-bomb. After all other players have passed, he must lead the next trick (and fulfill the
    wish) with his sequence." """
    t = Table({0: ["Mahjong"], 1: P2_STRAIGHT + K_BOMB})
    t.play(0, "Mahjong", wish="8")
    t.bomb(1, *K_BOMB)
    assert t.wish == "8" and t.turn == 2
    t.pass_(2, 3, 0)
    assert t.turn == 1
    t.refuse_play("wish_not_fulfilled", 1, "3j")
    t.play(1, *P2_STRAIGHT)
    assert t.wish is None


def test_001_faq_k_bomb_out_of_turn_then_the_bomber_leads_and_fulfils():
    """The same example with the K-bomb played by a player who is not the next to act (seat 2):
    no wish out of turn; once the bomb wins, its player must fulfil the wish on his lead."""
    t = Table({0: ["Mahjong"], 2: P2_STRAIGHT + K_BOMB, 1: ["8j", "8p"]})
    t.play(0, "Mahjong", wish="8")
    t.bomb(2, *K_BOMB)
    assert t.wish == "8" and t.turn == 3
    t.pass_(3, 0)
    # seat 1 holds 8s but cannot play them on a bomb: it may pass.
    t.pass_(1)
    assert t.turn == 2 and t.js["trick_closed"]
    t.refuse_play("wish_not_fulfilled", 2, "3j")
    t.play(2, *P2_STRAIGHT)
    assert t.wish is None


def test_001_faq_another_player_with_a_sequence_bomb_holding_the_8_must_play_it():
    """ "If another player had a sequence bomb with an 8 he'd have to play it over the K-bomb in
    his turn." """
    t = Table({0: ["Mahjong"], 2: P2_STRAIGHT + K_BOMB, 3: straight("45678", "p")})
    t.play(0, "Mahjong", wish="8")
    t.bomb(2, *K_BOMB)
    assert t.turn == 3
    t.refuse_pass("wish_not_fulfilled", 3)
    t.bomb(3, *straight("45678", "p"))
    assert t.wish is None


def test_001_faq_wish_only_in_ones_ordinary_turn():
    """A bomb out of turn need not fulfil the wish; the same bomb in one's turn must hold the
    wished rank when the player can play it."""
    t = Table({0: ["Mahjong"], 1: ["8j", "9j", "9s", "9p", "9r", "2s"], 3: ["Tj", "Ts", "Tp", "Tr"]})
    t.play(0, "Mahjong", wish="8")
    t.refuse_pass("wish_not_fulfilled", 1)  # his ordinary turn: he must play the 8
    t.refuse_play("wish_not_fulfilled", 1, "2s")
    # A bomb by the seat to act counts as played before its turn (the FAQ's K-bomb example).
    t.play(1, "9j", "9s", "9p", "9r")
    t.bomb(3, "Tj", "Ts", "Tp", "Tr")  # out of turn: no wish
    assert t.wish == "8" and t.turn == 0


def test_001_faq_dragon_does_not_give_away_a_bombed_trick():
    t = Table({PIERRE: ["Mahjong", "Dragon", "2j"], PAUL: ["4j", "4s", "4p", "4r", "3j"]})
    t.play(PIERRE, "Dragon").pass_(MARIE, FRANCIS, PAUL)
    assert t.phase == "dragon_gift"
    t.bomb(PAUL, "4j", "4s", "4p", "4r")  # a bomb on the Dragon before its gift
    assert t.phase == "play" and t.turn == PIERRE
    t.refuse({"type": "dragon_gift", "seat": PIERRE, "to": MARIE}, "gift_invalid")
    t.pass_(PIERRE, MARIE, FRANCIS)
    assert t.turn == PAUL
    t.play(PAUL, "3j")
    assert t.points_won(PAUL) == 25 and t.points_won(MARIE) == 0


def test_001_faq_phoenix_does_not_fulfil_the_wish():
    t = Table({0: ["Mahjong"], 1: ["Phoenix", "Aj", "Ks"], 2: ["7j"]})
    assert not any(c[0] == "7" for c in t.hand(1))
    t.play(0, "Mahjong", wish="7")
    t.play(1, "Phoenix")  # no 7 in hand: free to play anything
    assert t.wish == "7", "the Phoenix is not a card of the wished rank"
    t.refuse_pass("wish_not_fulfilled", 2)
    t.play(2, "7j")
    assert t.wish is None


def test_001_faq_phoenix_standing_for_the_wished_rank_does_not_fulfil_it():
    """The Phoenix "is not considered a card of the desired rank": a straight where it stands for
    the 8 does not fulfil a wish for 8 of a player who holds real 8s."""
    t = Table({0: MAHJONG_STRAIGHT, 1: ["4j", "5p", "6j", "7s", "Phoenix", "8s", "9s"]})
    t.play(0, *MAHJONG_STRAIGHT, wish="8")
    t.refuse_play("wish_not_fulfilled", 1, "4j", "5p", "6j", "7s", "Phoenix", phoenix="8")
    t.play(1, "5p", "6j", "7s", "8s", "Phoenix", phoenix="9")
    assert t.wish is None


def test_001_faq_no_seven_but_phoenix_may_pass():
    t = Table({0: ["Mahjong"], 1: ["Phoenix", "Aj", "Ks"]})
    assert not any(c[0] == "7" for c in t.hand(1))
    t.play(0, "Mahjong", wish="7")
    t.pass_(1)


def test_001_faq_wished_rank_must_be_played_in_a_straight_with_the_phoenix():
    """ "Even if he has to play a bomb or a sequence of appropriate length with the Phoenix." """
    seat1 = ["4j", "5p", "7j", "8s", "Phoenix", "9p", "Tj", "Jp", "Qs", "Ks", "2p", "2s", "Aj", "Ap"]
    t = Table({0: MAHJONG_STRAIGHT, 1: seat1})
    t.play(0, *MAHJONG_STRAIGHT, wish="7")
    t.refuse_pass("wish_not_fulfilled", 1)
    t.refuse_play("wish_not_fulfilled", 1, "9p", "Tj", "Jp", "Qs", "Ks")
    t.play(1, "4j", "5p", "Phoenix", "7j", "8s")
    assert t.trick[-1]["phoenix"] == "6" and t.wish is None


def test_001_faq_wished_rank_must_be_played_as_a_bomb():
    """On the Mahjong's straight, a player whose 7s can only be played as a bomb must bomb."""
    seat2 = ["7j", "7s", "7p", "7r", "Aj", "As", "Ap", "Qj", "Qs", "Qp", "2j", "2s", "2p", "Dog"]
    t = Table({0: MAHJONG_STRAIGHT, 2: seat2})
    t.play(0, *MAHJONG_STRAIGHT, wish="7")
    t.pass_(1)
    t.refuse_pass("wish_not_fulfilled", 2)
    t.bomb(2, "7j", "7s", "7p", "7r")
    assert t.wish is None and t.turn == 3


def test_001_faq_last_trick_ends_at_once_and_is_given_away_if_won_by_the_dragon():
    t = two_out()
    for cards in SEAT0_PLAYS:
        t.play(0, *cards).pass_(1)
        assert t.turn == 0
    t.play(0, "Dragon")  # seat 0 goes out third: the trick ends at once
    assert t.phase == "dragon_gift" and t.turn == 0
    # the tailender may not bomb the ended trick, nor pass or play
    t.refuse_play("bomb_not_allowed", 1, *straight("89TJQKA", "r"))
    t.refuse_pass("gift_required", 1)
    t.refuse({"type": "dragon_gift", "seat": 0, "to": 2}, "gift_invalid")
    t.gift(0, 3)
    assert t.phase == "between_hands"
    line = t.last_line
    # team 0: seat 2's straight (5, 10, K = 25) + seat 0's full house 4,4,4,5,5 (10) + the tailender's
    # hand (5, K, 10, Phoenix: 0); team 1: the stairs (40) + the Dragon trick (25).
    assert line["card_points"] == [35, 65]
    assert line["out"] == [2, 3, 0, 1]
    t.check_fold()


def test_001_faq_three_threes_and_phoenix_is_not_a_full_house():
    t = Table({PIERRE: ["Mahjong", "3j", "3s", "3p", "3r", "Phoenix"]})
    t.refuse_play("invalid_combination", PIERRE, "3j", "3s", "3p", "3r", "Phoenix")
    t.play(PIERRE, "3j", "3s", "3p", "3r")  # the bomb stays a bomb
    assert t.trick[-1]["combination"] == "bomb"


def test_001_faq_straight_flush_is_never_a_normal_straight():
    t = Table(
        {
            PIERRE: ["Mahjong"] + straight("34567", "jjsjs"),
            MARIE: straight("45678", "p"),
            FRANCIS: straight("56789", "rrrrs"),
        }
    )
    t.play(PIERRE, *straight("34567", "jjsjs"))
    t.play(MARIE, *straight("45678", "p"))
    assert t.trick[-1]["combination"] == "bomb"
    t.refuse_play("does_not_beat", FRANCIS, *straight("56789", "rrrrs"))


def test_001_faq_straight_flush_lead_is_a_bomb():
    t = Table({PIERRE: ["Mahjong"] + straight("45678", "s"), MARIE: straight("56789", "jprjp")})
    t.play(PIERRE, *straight("45678", "s"))
    assert t.trick[-1]["combination"] == "bomb"
    t.refuse_play("does_not_beat", MARIE, *straight("56789", "jprjp"))


def test_001_faq_mahjong_straight_of_one_suit_is_not_a_bomb():
    t = Table({PIERRE: ["Mahjong"] + straight("2345", "j"), MARIE: straight("23456", "sprrs")})
    t.play(PIERRE, "Mahjong", *straight("2345", "j"))
    assert t.trick[-1]["combination"] == "straight"
    t.play(MARIE, *straight("23456", "sprrs"))


# ================================================================================================
# seed 000 (TIKI): FAQ
# ================================================================================================


def test_000_tiki_missed_wish_penalty_opponents_score_200_calls_as_usual():
    """ "Si un joueur, par inadvertance, néglige de jouer la carte souhaitée par le Moineau,
    l'équipe adverse est vainqueur et marque 200 points. Les points pour les Tichu annoncés sont
    ajoutés ou retranchés normalement." """
    t = Table({0: ["Mahjong"]}, tichu=[1, 2])
    t.play(0, "Mahjong", wish="7")
    t.apply({"type": "penalty", "seat": 1, "reason": "missed_wish"})
    assert t.phase == "between_hands"
    line = t.last_line
    # seat 1 (offender): its opponents (team 0) score 200; nobody was out first, so both calls fail.
    assert line["card_points"] == [200, 0]
    assert line["points"] == [100, -100]
    assert t.state.totals == [100, -100]


def test_000_tiki_penalty_call_of_a_player_already_out_first_succeeds():
    t = two_out(grand_tichu=[2], tichu=[1])
    t.apply({"type": "penalty", "seat": 0, "reason": "missed_wish"})
    line = t.last_line
    # offender seat 0 (team 0): team 1 scores 200 and loses seat 1's Tichu; seat 2 was out first: +200
    assert line["points"] == [200, 100]


def test_000_tiki_bomb_on_ones_own_play_between_turns():
    """ "on peut donc jouer une bombe sur soi même, immédiatement après avoir normalement joué" """
    t = Table({PIERRE: ["Mahjong", "2j", "Qj", "Qs", "Qp", "Qr"]})
    t.play(PIERRE, "2j")
    t.bomb(PIERRE, "Qj", "Qs", "Qp", "Qr")
    assert t.turn == MARIE


def test_000_tiki_bomb_until_the_trick_is_gathered_but_not_after():
    """ "Une Bombe peut être jouée jusqu'à la fin d'un pli, avant qu'un joueur ne ramasse les
    cartes" ... "elle ne permet jamais d'enlever le droit d'entamer"."""
    t = Table({PIERRE: ["Mahjong", "Aj", "3j"], PAUL: ["9j", "9s", "9p", "9r", "Tj", "Ts", "Tp", "Tr"]})
    t.play(PIERRE, "Aj").pass_(MARIE, FRANCIS, PAUL)
    t.play(PIERRE, "3j")  # the next lead gathers the trick
    t.pass_(MARIE, FRANCIS, PAUL)
    t.play(PIERRE, "Mahjong")
    t.pass_(MARIE, FRANCIS, PAUL)
    assert t.js["tricks_won"][PIERRE]["cards"] == 2  # Aj and 3j gathered by the leads
    assert t.js["trick_closed"]
    t.bomb(PAUL, "9j", "9s", "9p", "9r")  # the last trick is still on the table: it may be bombed
    assert t.turn == PIERRE
    assert [p["cards"] for p in t.trick] == [["Mahjong"], ["9j", "9s", "9p", "9r"]]


def test_000_tiki_bomb_led_keeps_the_lead_unless_outbombed():
    t = Table({PIERRE: ["Mahjong", "5j", "5s", "5p", "5r", "2j"], FRANCIS: ["6j", "6s", "6p", "6r"]})
    t.play(PIERRE, "5j", "5s", "5p", "5r")
    assert t.trick[-1]["combination"] == "bomb"
    t.pass_(MARIE, FRANCIS, PAUL)
    assert t.turn == PIERRE
    t2 = Table({PIERRE: ["Mahjong", "5j", "5s", "5p", "5r", "2j"], FRANCIS: ["6j", "6s", "6p", "6r"]})
    t2.play(PIERRE, "5j", "5s", "5p", "5r")
    t2.bomb(FRANCIS, "6j", "6s", "6p", "6r")
    t2.pass_(PAUL, PIERRE, MARIE)
    assert t2.turn == FRANCIS


def test_000_tiki_bomb_your_own_dragon_to_keep_it():
    """ "On peut même bomber son propre Dragon joué, et ainsi le récupérer" """
    t = Table({PIERRE: ["Mahjong", "Dragon", "8j", "8s", "8p", "8r", "2j"]})
    t.play(PIERRE, "Dragon").pass_(MARIE, FRANCIS, PAUL)
    assert t.phase == "dragon_gift"
    t.bomb(PIERRE, "8j", "8s", "8p", "8r")
    assert t.phase == "play" and t.turn == MARIE
    t.pass_(MARIE, FRANCIS, PAUL)
    t.play(PIERRE, "2j")
    assert t.points_won(PIERRE) == 25


def test_000_tiki_simultaneous_bombs_in_order_of_play():
    """Several bombs may follow one another; each must beat the last; after a bomb the player to
    the bomber's right (the next seat) has the turn."""
    t = Table(
        {
            PIERRE: ["Mahjong", "Kj"],
            MARIE: ["4j", "4s", "4p", "4r"],
            FRANCIS: ["3j", "3s", "3p", "3r"],
            PAUL: ["5j", "5s", "5p", "5r"],
        }
    )
    t.play(PIERRE, "Kj")
    t.bomb(FRANCIS, "3j", "3s", "3p", "3r")
    assert t.turn == PAUL
    t.bomb(MARIE, "4j", "4s", "4p", "4r")
    assert t.turn == FRANCIS
    t.bomb(PAUL, "5j", "5s", "5p", "5r")
    assert t.turn == PIERRE
    assert [p["seat"] for p in t.trick] == [PIERRE, FRANCIS, MARIE, PAUL]
