"""Audit of the Tichu Nanking rules engine against the rule books: the cases not already covered
by test_rules_nanking.py and test_book_examples.py.

Sources quoted: seed 001 (English Rio Grande rules + FAQ, the default reading), seed 000 (TIKI
edition and its FAQ), ../shared/spec/rules.md (the project's readings) and docs/rules.md (the
decisions where the books leave room). Seats 0+2 and 1+3 are partners; play goes 0, 1, 2, 3.
"""

from __future__ import annotations

import pytest

from games.engine import TICHU_DECK, card_points, legal_actions, new_game, state_json
from tests.engine.table import PLAYERS, Table, seat0_goes_out, straight, two_out


def _top(t: Table) -> dict:
    return t.trick[-1]


# ================================================================================================
# Combinations with the Phoenix and the Mahjong
# ================================================================================================


def test_phoenix_in_a_pair_reads_as_its_partner_and_must_be_higher():
    """001: the Phoenix "can take the place of any normal card in a combination"; a pair is beaten
    only by a higher pair."""
    hands = {0: ["Mahjong", "8j", "8s", "9s", "9p"], 1: ["9j", "Phoenix"], 2: ["Tj", "Ts"]}
    t = Table(hands)
    t.play(0, "8j", "8s")
    t.refuse_play("invalid_combination", 1, "9j", "Phoenix", phoenix="T")  # a pair is two of one rank
    t.play(1, "9j", "Phoenix")
    assert _top(t)["combination"] == "pair" and _top(t)["rank"] == 9 and _top(t)["phoenix"] == "9"
    t.play(2, "Tj", "Ts")

    t2 = Table(hands)
    t2.play(0, "9s", "9p")
    t2.refuse_play("does_not_beat", 1, "9j", "Phoenix")  # 9,Phoenix equals 9,9: not higher


def test_phoenix_in_stairs():
    """001: "a sequence of pairs of adjacent value"; the Phoenix completes one of the pairs."""
    t = Table({0: ["Mahjong", "3j", "3s", "4j", "4s"], 1: ["5j", "5s", "6j", "Phoenix"], 2: ["6s", "6p", "7j", "7s"]})
    t.play(0, "3j", "3s", "4j", "4s")
    t.play(1, "5j", "5s", "6j", "Phoenix")
    assert _top(t)["combination"] == "stairs" and _top(t)["rank"] == 6 and _top(t)["phoenix"] == "6"
    t.play(2, "6s", "6p", "7j", "7s")
    assert t.js["trick_winner"] == 2


def test_phoenix_as_the_pair_of_a_full_house_ranked_by_its_trio():
    """001: "in full houses the value of the trio is what counts"; the Phoenix may complete the
    pair. It may not make four of a kind (8,8,8,Phoenix,5 read with the Phoenix as 8)."""
    t = Table({0: ["Mahjong", "7j", "7s", "7p", "2j", "2s"], 1: ["8j", "8s", "8p", "5j", "Phoenix"]})
    t.play(0, "7j", "7s", "7p", "2j", "2s")
    t.refuse_play("invalid_combination", 1, "8j", "8s", "8p", "5j", "Phoenix", phoenix="8")
    t.play(1, "8j", "8s", "8p", "5j", "Phoenix")
    assert _top(t)["combination"] == "full_house" and _top(t)["rank"] == 8 and _top(t)["phoenix"] == "5"


def test_four_flush_cards_and_the_phoenix_are_a_plain_straight_not_a_bomb():
    """001: the Phoenix "may not be used to make a bomb!" - 4s,5s,6s,7s,Phoenix is a straight,
    beaten by any higher straight of five."""
    t = Table(
        {
            0: ["Mahjong", "2j", "3s", "4p", "5r", "6j"],
            1: ["4s", "5s", "6s", "7s", "Phoenix"],
            2: ["5j", "6p", "7j", "8p", "9j"],
        }
    )
    t.play(0, "2j", "3s", "4p", "5r", "6j")
    t.play(1, "4s", "5s", "6s", "7s", "Phoenix")
    assert _top(t)["combination"] == "straight" and _top(t)["rank"] == 8  # the highest reading: 4..8
    t.play(2, "5j", "6p", "7j", "8p", "9j")
    assert t.js["trick_winner"] == 2


def test_straight_of_six_with_five_cards_of_one_suit_is_a_plain_straight():
    """001: a bomb is "a sequence of at least five consecutive cards in the same suit": 2s..6s,7j
    as a whole is not of one suit, so it is a straight of six."""
    t = Table({0: ["Mahjong", "2s", "3s", "4s", "5s", "6s", "7j"], 1: ["3j", "4j", "5p", "6p", "7p", "8p"]})
    t.play(0, "2s", "3s", "4s", "5s", "6s", "7j")
    assert _top(t)["combination"] == "straight" and _top(t)["rank"] == 7
    t.play(1, "3j", "4j", "5p", "6p", "7p", "8p")


def test_mahjong_and_phoenix_in_one_straight():
    """001: the Mahjong "may be included in a suitable sequence (e.g. 1,2,3,4,5)"; the Phoenix fills
    the 5."""
    t = Table({0: ["Mahjong", "2j", "3s", "4p", "Phoenix"], 1: ["2p", "3p", "4s", "5r", "6j"]})
    t.play(0, "Mahjong", "2j", "3s", "4p", "Phoenix")
    assert _top(t)["combination"] == "straight" and _top(t)["rank"] == 5 and _top(t)["phoenix"] == "5"
    t.play(1, "2p", "3p", "4s", "5r", "6j")


def test_phoenix_never_stands_for_the_one_in_a_straight():
    """spec/rules.md: the Phoenix is a joker "for any rank 2..A ... (never the 1)": Phoenix,2,3,4,5
    is 2..6, which beats the Mahjong's 1..5."""
    t = Table({0: ["Mahjong", "2j", "3s", "4p", "5r"], 1: ["Phoenix", "2s", "3p", "4r", "5j"]})
    t.play(0, "Mahjong", "2j", "3s", "4p", "5r")
    t.refuse_play("malformed", 1, "Phoenix", "2s", "3p", "4r", "5j", phoenix="1")
    t.play(1, "Phoenix", "2s", "3p", "4r", "5j")
    assert _top(t)["rank"] == 6 and _top(t)["phoenix"] == "6"


def test_phoenix_single_on_the_mahjong_and_led_is_beaten_by_a_two():
    """001: the Phoenix single is "half a rank higher than the card it's played after ... If led,
    the Phoenix counts as 1.5": on the Mahjong (1) it is 1.5, and a 2 beats it either way."""
    t = Table({0: ["Mahjong"], 1: ["Phoenix"], 2: ["2j"]})
    t.play(0, "Mahjong")
    t.play(1, "Phoenix")
    assert _top(t)["rank"] == 1.5
    t.play(2, "2j")

    t2 = Table({0: ["Mahjong", "Phoenix"], 1: ["2j"]})
    t2.play(0, "Phoenix")
    t2.play(1, "2j")
    assert t2.js["trick_winner"] == 1


@pytest.mark.parametrize(
    "lead, follow",
    [
        pytest.param(["2j", "3s", "4p", "5r", "6j"], ["9j", "9s", "9p", "3j", "3p"], id="full house on a straight"),
        pytest.param(["4j", "4s", "4p", "2j", "2s"], ["5j", "6s", "7p", "8r", "9j"], id="straight on a full house"),
        pytest.param(["3j", "3s"], ["9j", "9s", "9p"], id="trio on a pair"),
        pytest.param(["3j", "3s"], ["Phoenix"], id="Phoenix single on a pair"),
        pytest.param(["5j", "5s", "5p"], ["Aj", "As"], id="pair on a trio"),
    ],
)
def test_only_the_same_kind_follows(lead, follow):
    """001: "playing a similar combination of higher value" - a different kind never follows, even
    with as many cards (only a bomb does)."""
    t = Table({0: ["Mahjong"] + lead, 1: follow})
    t.play(0, *lead)
    t.refuse_play("does_not_beat", 1, *follow)


# ================================================================================================
# Bombs
# ================================================================================================


@pytest.mark.parametrize(
    "lead, bomb",
    [
        pytest.param(straight("23456789", "jspjspjs"), ["Qj", "Qs", "Qp", "Qr"], id="4-bomb on an 8-card straight"),
        pytest.param([r + s for r in "234" for s in "js"], ["Qj", "Qs", "Qp", "Qr"], id="4-bomb on stairs"),
        pytest.param(
            ["Aj", "As", "Ap", "Kj", "Ks"], ["2j", "2s", "2p", "2r"], id="lowest 4-bomb on the highest full house"
        ),
        pytest.param(
            straight("23456789TJ", "jspjspjspj"),
            straight("9TJQK", "r"),
            id="5-card straight flush on a 10-card straight",
        ),
    ],
)
def test_a_bomb_beats_any_combination(lead, bomb):
    """001: Bombs "beat anything, be it a single card or a combination"; out of turn too."""
    t = Table({0: ["Mahjong"] + lead, 2: bomb})
    t.play(0, *lead)
    t.bomb(2, *bomb)  # seat 1 is to act: seat 2 bombs out of turn
    assert _top(t)["combination"] == "bomb" and t.turn == 3


def test_equal_straight_flushes_do_not_beat_each_other():
    """001: "A higher bomb will beat a lower bomb" - ranked (1) by the number of cards and (2) by
    rank; a straight flush of the same length and rank is not higher."""
    t = Table({0: ["Mahjong", "Kj"], 1: straight("23456", "s"), 2: straight("23456", "p"), 3: straight("34567", "j")})
    t.play(0, "Kj")
    t.bomb(1, *straight("23456", "s"))
    t.refuse_play("does_not_beat", 2, *straight("23456", "p"))
    t.bomb(3, *straight("34567", "j"))


def test_pass_is_final_a_player_who_passed_may_still_bomb():
    """001: "Bombs can be played at any time, even out of turn"; docs/rules.md: under
    pass_is_final a player who passed may still bomb. The passes stay final after the bomb."""
    t = Table({0: ["Mahjong", "Kj", "2s"], 1: ["9j", "9s", "9p", "9r", "3j"]}, options={"preset": "abacus"})
    t.play(0, "Kj").pass_(1, 2)
    assert t.turn == 3
    t.bomb(1, "9j", "9s", "9p", "9r")
    assert t.js["trick_winner"] == 1 and t.turn == 3  # seat 2 passed: skipped
    t.pass_(3, 0)
    assert t.js["trick_closed"] and t.turn == 1
    t.play(1, "3j")
    assert t.points_won(1) == 10


def test_bomb_after_the_last_pass_on_a_trick_whose_winner_is_out():
    """001 FAQ: "When 3 players pass in turn order, any player may bomb before the trick is
    considered over." Seat 3 went out with its stairs and everyone passed; before seat 0 leads,
    seat 1 bombs the stairs out of turn and takes them (spec/rules.md: "after the last pass before
    the next lead")."""
    t = two_out()
    assert t.js["trick_closed"] and t.js["trick_winner"] == 3 and t.turn == 0
    t.bomb(1, *straight("89TJQKA", "r"))
    assert not t.js["trick_closed"] and t.turn == 0  # play goes on after the bomber: seat 0
    t.pass_(0)
    assert t.js["trick_closed"] and t.turn == 1
    t.play(1, "5s")
    assert t.points_won(1) == 40 + 20 and t.points_won(3) == 0


def test_no_bomb_once_the_dragon_trick_is_given_and_nothing_lies_on_the_table():
    """001 FAQ: "Bombs can only be played (even out of turn) on a card combination (or single card)
    on the table." After the gift the trick is gone: the Dragon's player leads."""
    t = Table({0: ["Mahjong", "Dragon", "2j"], 1: ["9j", "9s", "9p", "9r"]})
    t.play(0, "Dragon").pass_(1, 2, 3)
    t.gift(0, 1)
    assert t.trick == [] and t.turn == 0
    t.refuse_play("bomb_not_allowed", 1, "9j", "9s", "9p", "9r")
    t.play(0, "2j")


# ================================================================================================
# Third player out, double victory
# ================================================================================================


@pytest.mark.parametrize("last", ["7r", "Dragon"])
def test_third_player_out_with_a_bomb_after_the_last_pass_wins_the_trick_at_once(last):
    """001 FAQ: "When 3 players pass in turn order, any player may bomb before the trick is
    considered over" (a Dragon can be bombed until its gift: "Does the Dragon give away a bombed
    trick? No."). Going out third with that bomb, "The trick is ended immediately" and is the
    bomber's; spec/rules.md: "The third player out wins the current trick at once"."""
    t = two_out()
    t.play(0, "6s", "6p").play(1, "7s", "7p").pass_(0)
    t.play(1, "3p", "Phoenix").pass_(0)
    t.play(1, "5s").pass_(0)
    t.play(1, "Dog")  # partner (3) out: the lead goes to the next after 3 holding cards, seat 0
    assert t.turn == 0
    t.play(0, "3s").play(1, "6r").play(0, last).pass_(1)
    if last == "Dragon":
        assert t.phase == "dragon_gift" and t.turn == 0
    else:
        assert t.js["trick_closed"] and t.turn == 0
    assert sorted(t.hand(1)) == sorted(straight("89TJQKA", "r"))
    t.bomb(1, *straight("89TJQKA", "r"))  # out of turn: seat 0 was to lead (or to give)
    assert t.phase == "between_hands"
    line = t.last_line
    assert line["out"] == [2, 3, 1, 0]
    # team 0: seat 2's straight (25). team 1: stairs 40, 3p+Phoenix -25, 5s 5, the last trick
    # (3s 6r, last card, bomb T K: 20, +25 with the Dragon) and the tailender's hand (2s 2p 2r 3r
    # 4s 4p 4r 5p 5r and the other of 7r/Dragon: 10, +25 with the Dragon).
    assert line["card_points"] == [25, 75]
    t.check_fold()


def test_dog_as_the_last_card_completing_a_double_victory_ends_the_hand_at_once():
    """001: the Hound "transfers the right to lead to the player's partner"; "If ... the two players
    on one team achieve a double victory ... the round ends immediately, the counting is skipped,
    and this team scores 200 points." Seat 3 went out first; seat 1 goes out second with the Dog."""
    seat3 = ["Mahjong"] + straight("23456789TJQKA", "jsjsjsjsjsjsj")
    seat1 = ["Dragon", "Dog"] + [r + s for r in "234567" for s in "pr"]
    t = Table({3: seat3, 1: seat1, 0: ["8p"]})
    assert t.turn == 3
    t.play(3, *seat3).pass_(0, 1, 2)
    assert t.js["out"] == [3] and t.turn == 0
    t.play(0, "8p").play(1, "Dragon").pass_(2, 0)
    t.gift(1, 0)
    t.play(1, *[r + s for r in "234567" for s in "pr"]).pass_(2, 0)
    assert t.turn == 1 and t.hand(1) == ["Dog"]
    t.play(1, "Dog")
    assert t.phase == "between_hands"
    line = t.last_line
    assert line["double_victory"] is True and line["out"][:2] == [3, 1]
    assert line["card_points"] == [0, 200] and line["points"] == [0, 200]
    t.check_fold()


# ================================================================================================
# The wish
# ================================================================================================

# A position where the wish for 7 survives the Mahjong's straight 1..5: seat 0 holds every 6 and
# every 8 (so nobody else can put a 7 in a straight), seat 1 holds one 7 and the Phoenix, seats 2
# and 3 hold the other 7s without a straight or a bomb.
WISH_SEAT0 = ["Mahjong", "2j", "3s", "4p", "5r", "6j", "6s", "6p", "6r", "8j", "8s", "8p", "8r"]
WISH_SEAT1 = ["7j", "Phoenix", "Aj", "As", "Ap", "Kj", "Ks", "Qj", "Qs", "2s", "2p", "9j", "9s", "Tp"]


def _wish_for_seven() -> Table:
    t = Table({0: WISH_SEAT0, 1: WISH_SEAT1, 2: ["7s", "7p"], 3: ["7r"]})
    t.play(0, "Mahjong", "2j", "3s", "4p", "5r", wish="7")
    t.pass_(1, 2, 3)  # nobody can put a 7 in a straight of five
    assert t.turn == 0 and t.wish == "7"
    return t


@pytest.mark.parametrize(
    "lead, refused, fulfilling",
    [
        pytest.param(["6j", "6s"], ["9j", "9s"], ["7j", "Phoenix"], id="pair: the 7 with the Phoenix"),
        pytest.param(
            ["6j", "6s", "6p", "8j", "8s"],
            ["Aj", "As", "Ap", "Kj", "Ks"],
            ["Aj", "As", "Ap", "7j", "Phoenix"],
            id="full house: the 7 paired with the Phoenix",
        ),
        pytest.param(["6j"], ["Phoenix"], ["7j"], id="single: the 7, not the Phoenix"),
    ],
)
def test_wish_must_be_fulfilled_in_any_combination_the_phoenix_helps_to_make(lead, refused, fulfilling):
    """001: "The next player who has a card of the desired rank, and can lawfully play it, must play
    it"; FAQ: "Even if he has to play a bomb or a sequence of appropriate length with the Phoenix."
    The Phoenix itself is "not considered a card of the desired rank"."""
    t = _wish_for_seven()
    t.play(0, *lead)
    assert t.turn == 1
    t.refuse_pass("wish_not_fulfilled", 1)
    t.refuse_play("wish_not_fulfilled", 1, *refused)
    offered = [a for a in legal_actions(t.state) if a.get("seat") == 1 and a["type"] in ("play", "pass")]
    assert offered and all("7j" in a["cards"] for a in offered)
    t.play(1, *fulfilling)
    assert t.wish is None


def test_wish_binds_the_partner_who_gets_the_lead_from_the_dog():
    """001: the Hound "transfers the right to lead to the player's partner"; a lead is an ordinary
    turn, so the partner holding the wished rank must lead it ("The wish remains in force until
    someone fulfils it")."""
    t = Table(
        {
            0: ["Mahjong", "2j", "3s", "4p", "5r", "Dog", "6j", "6s", "6p", "8j", "8s", "8p", "Phoenix"],
            1: ["7r"],
            2: ["7j", "7s", "7p", "Aj"],
            3: ["6r", "8r"],
        }
    )
    t.play(0, "Mahjong", "2j", "3s", "4p", "5r", wish="7")
    t.pass_(1, 2, 3)
    assert t.turn == 0 and t.wish == "7"
    t.play(0, "Dog")  # seat 0 holds no 7
    assert t.turn == 2
    t.refuse_play("wish_not_fulfilled", 2, "Aj")
    offered = [a for a in legal_actions(t.state) if a.get("seat") == 2 and a["type"] == "play"]
    assert offered and all(any(c[0] == "7" for c in a["cards"]) for a in offered)
    t.play(2, "7j")
    assert t.wish is None


def test_wish_for_a_rank_inside_the_mahjongs_own_straight_lasts():
    """The books leave open whether the Mahjong's own play fulfils the wish made with it;
    docs/rules.md decides: "A wish for a rank inside the Mahjong's own straight lasts (the play that
    makes a wish does not fulfil it)" (001: "The wish remains in force until someone fulfils it")."""
    t = Table({0: ["Mahjong", "2j", "3s", "4p", "5r"], 1: ["3j", "Aj"]})
    t.play(0, "Mahjong", "2j", "3s", "4p", "5r", wish="3")
    assert t.wish == "3"


# ================================================================================================
# Calls and scoring
# ================================================================================================


def test_tichu_success_plus_100_and_failed_grand_tichu_minus_200_in_a_played_hand():
    """001: small tichu "If he then wins the round (going out first) his team gets 100 extra
    points"; grand tichu "If not, his team loses 200 points"; both "independently of, and in
    addition to, the normal scoring of the hand"."""
    t = two_out(tichu=[2], grand_tichu=[1])
    seat0_goes_out(t, dragon="first")
    line = t.last_line
    assert line["card_points"] == [35, 65]
    assert line["points"] == [35 + 100, 65 - 200]


def test_tichu_may_be_called_while_a_dragon_trick_waits_for_its_gift():
    """001: "Each player may, until he plays his first card in a hand, call 'small tichu'." A player
    who has only passed may call while a Dragon trick waits for its gift mid-hand."""
    t = Table({0: ["Mahjong", "Dragon", "2j"]})
    t.play(0, "Dragon").pass_(1, 2, 3)
    assert t.phase == "dragon_gift"
    t.apply({"type": "tichu", "seat": 2})
    t.refuse({"type": "tichu", "seat": 0}, "call_too_late")
    assert t.js["calls"] == {"2": "tichu"}


def test_card_points_100_per_hand():
    """001: "+10 for each king and each ten, +5 for each five, +25 for the Dragon, and -25 for the
    Phoenix. There are, thus, 100 points for the whole hand"."""
    assert card_points(TICHU_DECK) == 100
    assert [card_points([c]) for c in ("Ks", "Tj", "5p", "Dragon", "Phoenix", "Aj", "Mahjong", "Dog")] == [
        10,
        10,
        5,
        25,
        -25,
        0,
        0,
        0,
    ]


def test_game_ends_when_a_team_reaches_exactly_the_target():
    """001: "The team which reaches (or exceeds) a total score of 1000 points at the end of a round
    wins the game." """
    g = new_game("nanking", None, PLAYERS)
    dv0 = {"type": "hand_result", "calls": {"0": "grand_tichu"}, "out": [0, 2]}  # 200 + 200
    g.apply(dv0)
    g.apply(dv0)
    g.apply({"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3], "points": [100, 0]})
    assert g.totals == [1000, 0]
    assert g.is_over and g.winner == 0
    assert state_json(g)["complete"] is True
