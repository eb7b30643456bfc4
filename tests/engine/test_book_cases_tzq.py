"""Audit of the Tien Zi Que engine against its rule book (seed 004, French) and the project's
contract (spec/record-format.md, spec/rules.md, docs/tien-zi-que.md).

Only cases that tests/engine/test_tien_zi_que.py does not already cover. Each test quotes the
book line it checks (with a translation). Everything goes through the public engine API:
``TienZiQueState.apply`` / ``fold`` and the JSON of ``state_json`` / ``score_json``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import fold, score_json
from games.engine.tien_zi_que import score_pile
from tests.engine.tzq_table import DECK, PLAYERS, Game


def draw(seat, card=None):
    return {"type": "draw", "seat": seat, **({"card": card} if card else {})}


def discard(seat, card):
    return {"type": "discard", "seat": seat, "card": card}


def pung(seat, cards, keep):
    return {"type": "pung", "seat": seat, "cards": cards, "keep": keep}


def chow(seat, take, cards, keep):
    return {"type": "chow", "seat": seat, "take": take, "cards": cards, "keep": keep}


# --- the jokers, through play ------------------------------------------------------------------


def test_book_joker_example_1_a_drawn_five_with_a_four_and_a_tzq_makes_a_sequence():
    # 004: "Un joueur a en Main une carte Monnaie numérotée 4 et une carte TZQ. S'il pioche un 5,
    # la carte TZQ pourra être considérée comme un 6 ou un 3" (holding a 4 and a TZQ, a drawn 5
    # makes a sequence, the TZQ standing for the 6 or the 3).
    g = Game()
    g.start(0, ["C4b", "Jk", "Ew", "Sw", "Nw"], ["C9k", "C9r", "C8k", "Sg", "Wk"], stock_top=["C5r"])
    g.do(draw(0, "C5r"), pung(0, ["C4b", "C5r", "Jk"], "C5r"))
    assert g.js["combinations"][0][0]["kind"] == "sequence"
    assert g.js["score_piles"][0] == ["C5r"] and sorted(g.js["discard"]) == ["C4b", "Jk"]


def test_book_joker_example_2_chow_of_a_discarded_east_with_east_and_tzq_in_hand():
    # 004: "Un joueur a une carte Est et une carte TZQ en Main. Si son adversaire défausse une
    # autre carte Est, le joueur pourra effectuer un Chow pour prendre cette carte et constituer
    # un Triplon de cartes Est" (East + TZQ in hand, the opponent discards an East: a Chow makes an
    # East triplet, the TZQ standing for the missing East).
    g = Game()
    g.start(0, ["Eb", "C1b", "C3k", "C5r", "C7g"], ["Ew", "Jk", "C2b", "C4k", "C6r"], stock_top=["C9g"])
    g.do(draw(0), discard(0, "Eb"))
    g.do(chow(1, "Eb", ["Eb", "Ew", "Jk"], "Ew"))
    (combo,) = g.js["combinations"][1]
    assert combo == {"action": "chow", "kind": "triplet", "cards": ["Eb", "Ew", "Jk"], "keep": "Ew", "take": "Eb"}
    assert g.js["score_piles"][1] == ["Ew"] and len(g.js["hands"][1]) == 5 and g.state.turn == 0


def test_a_tzq_among_the_two_cards_a_combination_discards_may_not_be_taken():
    # 004: "Il est interdit de constituer une Combinaison à l'aide d'une carte TZQ venant d'être
    # défaussée" (a TZQ just discarded may not be used for a combination): this holds for a TZQ
    # sent to the discard pile by a Pung too, while the other card of the two may be taken.
    g = Game()
    g.start(0, ["C4b", "C5b", "Jk", "Ew", "Eb"], ["C4k", "C6r", "Sw", "Sr", "Dw"], stock_top=["C9g"])
    g.do(draw(0), pung(0, ["C4b", "C5b", "Jk"], "C4b"))
    assert g.js["chowable"] == ["C5b", "Jk"]
    g.refuse(chow(1, "Jk", ["C4k", "C6r", "Jk"], "C4k"), "invalid_combination", "Tien Zi Que just discarded")
    assert all(a.get("take") != "Jk" for a in g.state.legal_actions())
    g.do(chow(1, "C5b", ["C4k", "C5b", "C6r"], "C6r"))
    assert g.js["score_piles"][1] == ["C6r"]


# --- the Chow and who may take a discard -------------------------------------------------------


def test_a_chow_must_contain_the_card_taken_and_its_other_cards_come_from_the_hand():
    # 004: "crée une Combinaison comportant obligatoirement la carte qu'il vient de prendre"
    # (the combination must contain the card just taken); the other two cards come from the hand.
    g = Game()
    g.start(0, ["Eb", "C1b", "C3k", "C5r", "C7g"], ["Ew", "Jk", "C2b", "C4k", "C6r"], stock_top=["C9g"])
    g.do(draw(0), discard(0, "Eb"))
    # C2b C4k + TZQ is a sequence, but without the East taken
    g.refuse(chow(1, "Eb", ["C2b", "C4k", "Jk"], "C2b"), "invalid_combination", "must hold the discarded card")
    # an East triplet needs a second East from the hand: seat 1 holds only one
    g.refuse(chow(1, "Eb", ["Eb", "Ew", "Ew"], "Ew"), "card_not_in_hand", "Ew")


def test_only_the_player_whose_turn_it_is_may_take_the_discard():
    # 004: "Le joueur dont c'est le Tour prend la carte au sommet de la Pile de Défausse" (the
    # player whose turn it is takes the top discard): the discarder cannot take it back.
    g = Game()
    g.start(0, ["C4b", "C5b", "Ew", "Sw", "Nw"], ["C9k", "C9r", "C8k", "Sg", "Wk"], stock_top=["C6b"])
    g.do(draw(0), discard(0, "C6b"))
    g.refuse(chow(0, "C6b", ["C4b", "C5b", "C6b"], "C6b"), "not_your_turn")


def test_never_more_than_one_combination_in_a_turn():
    # 004: "Un joueur ne peut jamais exposer plus d'une Combinaison par Tour, même s'il a en mains
    # toutes les cartes pour ce faire" (never more than one combination a turn, even holding the
    # cards for more). After a Pung the turn is over, the second combination waits.
    g = Game()
    g.start(0, ["C1b", "C2b", "C3b", "C4k", "C5k"], ["C9k", "C9r", "C8k", "Sg", "Wk"], stock_top=["C6k", "Ew", "Sw"])
    g.do(draw(0), pung(0, ["C1b", "C2b", "C3b"], "C1b"))
    assert g.js["hands"][0] == ["C4k", "C5k", "C6k", "Ew", "Sw"] and g.state.turn == 1
    # refused: no Pung before a draw (wrong_phase is checked before the seat)
    g.refuse(pung(0, ["C4k", "C5k", "C6k"], "C4k"), "wrong_phase")
    g.refuse(draw(0), "not_your_turn")
    g.refuse(chow(0, "C2b", ["C2b", "Jk", "C4k"], "C2b"), "not_your_turn")
    # the second combination is made on seat 0's next turn
    g.pass_turn()
    g.do(draw(0), pung(0, ["C4k", "C5k", "C6k"], "C4k"))
    assert g.js["score_piles"][0] == ["C1b", "C4k"]
    # a Chow is the whole turn too: no draw after it
    g2 = Game()
    g2.start(0, ["Eb", "C1b", "C3k", "C5r", "C7g"], ["Ew", "Jk", "C2b", "C4k", "C6r"], stock_top=["C9g"])
    g2.do(draw(0), discard(0, "Eb"), chow(1, "Eb", ["Eb", "Ew", "Jk"], "Ew"))
    g2.refuse(draw(1), "not_your_turn")


# --- refill and reshuffle ----------------------------------------------------------------------


def test_a_refill_that_takes_the_last_two_cards_needs_no_reshuffle_yet():
    # 004: "Le joueur actif complète sa Main à cinq cartes en prenant les deux cartes supérieures
    # de la pioche" (the active player refills to five with the two top cards of the stock).
    # When the stock holds exactly those two cards, the project's reading (docs/tien-zi-que.md
    # 4.3) is: no reshuffle during the refill; the opponent may take one of the two discards for a
    # Chow, or reshuffle the whole discard pile to draw. (The book's exception, "si la pioche est
    # épuisée lorsqu'un joueur est en train de compléter sa Main", is read as a refill left short.)
    g = Game()
    # seat 1 starts: every turn takes an odd number of cards, so seat 0 acts with an odd stock
    g.start(1, ["C4b", "C5b", "Jk", "Ew", "Eb"], ["C4k", "C6r", "Sw", "Sr", "Dw"], stock_bottom=["C6k", "C9r", "C9g"])
    while g.js["stock_size"] > 3:
        g.pass_turn()
    assert g.state.turn == 0
    g.do(draw(0, "C6k"), pung(0, ["C4b", "C5b", "C6k"], "C6k"))
    js = g.js
    assert js["phase"] == "action" and js["turn"] == 1 and js["stock_size"] == 0
    assert "C9r" in js["hands"][0] and "C9g" in js["hands"][0] and len(js["hands"][0]) == 5
    assert js["chowable"] == ["C4b", "C5b"]
    pile = list(js["discard"])
    g.refuse({"type": "reshuffle", "seat": 1, "stock": pile[:-2]}, "deal_invalid", "whole discard pile")
    g.do({"type": "reshuffle", "seat": 1, "stock": pile})
    assert g.js["discard"] == [] and g.js["stock_size"] == len(pile)


# --- end of the round --------------------------------------------------------------------------


#: seat 0 holds C1b C2b and makes five sequences of blue and black coins (a score pile worth 0);
#: seat 1 makes two triplets on the way (East, South) and keeps East and South (worth 3).
HAND0 = ["C1b", "C2b", "C9r", "C9g", "Nw"]
HAND1 = ["Ew", "Ew", "Sw", "Sr", "Ng"]
DRAWS = [
    "C3b",
    "C4b",
    "C5b",  # seat 0: draws C3b, pungs C1-C3, refills C4b C5b
    "Eb",
    "Sg",
    "C1r",  # seat 1: draws Eb, pungs the East triplet, refills Sg C1r
    "C6b",
    "C7b",
    "C8b",  # seat 0: C4-C6, refill C7b C8b
    "C1g",
    "C2r",
    "C2g",  # seat 1: draws C1g, pungs the South triplet, refills
    "C9b",
    "C1k",
    "C2k",  # seat 0: C7-C9, refill C1k C2k
    "C3r",  # seat 1: draws and discards
    "C3k",
    "C6k",
    "C7k",
]  # seat 0: C1k-C3k, refill C6k C7k; C8k makes the fifth
ACTIONS = [
    draw(0),
    pung(0, ["C1b", "C2b", "C3b"], "C1b"),
    draw(1),
    pung(1, ["Ew", "Ew", "Eb"], "Ew"),
    draw(0),
    pung(0, ["C4b", "C5b", "C6b"], "C4b"),
    draw(1),
    pung(1, ["Sw", "Sr", "Sg"], "Sw"),
    draw(0),
    pung(0, ["C7b", "C8b", "C9b"], "C9b"),
    draw(1),
    discard(1, "C3r"),
    draw(0),
    pung(0, ["C1k", "C2k", "C3k"], "C3k"),
]
FIFTH = [draw(0, "C8k"), pung(0, ["C6k", "C7k", "C8k"], "C8k")]


def test_the_fifth_combination_ends_the_round_and_only_the_winner_s_pile_scores():
    # 004: "Lorsqu'un joueur constitue sa 5ème Combinaison, il fait Mah-jong et gagne ainsi le
    # Round. ... Seul celui qui a fait Mah-jong marque des points pour ce Round" (the fifth
    # combination is Mah-jong and wins the round; only the Mah-jong player scores). The loser's
    # score pile (East, South: Caractères +3) scores nothing; the winner's (worth 0) scores the
    # Pioche gagnante point only.
    g = Game()
    g.start(0, HAND0, HAND1, stock_top=DRAWS + ["C4r", "C8k"])
    g.do(*ACTIONS, draw(1, "C4r"), discard(1, "C4r"))
    assert g.js["score_piles"] == [["C1b", "C4b", "C9b", "C3k"], ["Ew", "Sw"]]
    assert score_pile(["Ew", "Sw"])[0] == 3
    g.do(*FIFTH)
    (line,) = score_json(g.state)["hands"]
    assert line["winner"] == 0 and line["points"] == [1, 0] and line["by"] == "pung"
    assert line["score_pile"] == ["C1b", "C4b", "C9b", "C3k", "C8k"]
    assert g.state.round is None and g.state.phase == "between_rounds" and g.state.totals == [1, 0]
    g.refuse(draw(1), "wrong_phase", "round_start comes first")


def test_exhausted_stock_option_a_mahjong_on_the_last_card_wins_the_round():
    # 004, optional rules: "Un Round se termine à la fin du Tour où la pioche est entièrement
    # épuisée. Si aucun des 2 joueurs n'a pu faire Mah-jong, le Round se conclut par une égalité"
    # (the round ends at the end of the turn that empties the stock; drawn only if nobody made
    # Mah-jong). A Mah-jong made with the very last card of the stock wins.
    g = Game({"exhausted_stock_draws": True})
    # seat 1 starts and burns one card, so that seat 0 acts when a single card is left
    g.start(1, HAND0, HAND1, stock_top=["C4g"] + DRAWS, stock_bottom=["C8k"])
    g.do(draw(1, "C4g"), discard(1, "C4g"), *ACTIONS)
    while g.js["stock_size"] > 1:
        g.pass_turn()
    assert g.state.turn == 0 and g.js["hands"][0][:2] == ["C6k", "C7k"]
    g.do(*FIFTH)
    (line,) = score_json(g.state)["hands"]
    assert line["drawn"] is False and line["winner"] == 0 and line["kind"] == "mahjong"
    assert line["points"] == [1, 0]


def test_a_mahjong_by_chow_on_an_empty_stock_needs_no_refill_nor_reshuffle():
    # 004: "Lorsqu'un joueur constitue sa 5ème Combinaison, il fait Mah-jong et gagne ainsi le
    # Round" (the fifth combination wins the round at once): the winner does not refill the hand,
    # so an exhausted stock asks for no reshuffle. A Chow is no "Piocher": no Pioche gagnante.
    g = Game()
    g.start(0, HAND0, HAND1, stock_top=DRAWS, stock_bottom=["C8k"])
    g.do(*ACTIONS)
    while g.js["stock_size"] > 0:
        g.pass_turn()
    assert g.state.turn == 0 and g.js["chowable"] == ["C8k"]
    g.do(chow(0, "C8k", ["C6k", "C7k", "C8k"], "C8k"))
    (line,) = score_json(g.state)["hands"]
    assert line["winner"] == 0 and line["by"] == "chow" and line["points"] == [0, 0]
    assert g.state.phase == "between_rounds"
    assert not any(e["type"] == "reshuffle" for e in g.events)


def test_exhausted_stock_option_never_reshuffles():
    # 004, optional rules (as above): with the stock exhausted the round ends, so the discard pile
    # is never made into a new stock (docs/tien-zi-que.md: reshuffle is wrong_phase).
    g = Game({"exhausted_stock_draws": True})
    g.start(0, HAND0, HAND1)
    g.refuse({"type": "reshuffle", "seat": 0, "stock": []}, "wrong_phase")


def test_drawn_rounds_count_among_the_game_s_rounds():
    # 004: "Obtenir le plus de point lors de la fin du jeu, après 4 Rounds" and, optional rules,
    # "le Round se conclut par une égalité et aucun point n'est marqué" (a drawn round scores
    # nothing but is one of the game's rounds; each player still starts two of the four).
    g = Game({"exhausted_stock_draws": True})
    for r in range(4):
        g.start(r % 2, HAND0, HAND1)
        while g.state.round is not None:
            g.pass_turn()
    sheet = score_json(g.state)
    assert [h["drawn"] for h in sheet["hands"]] == [True] * 4
    assert [h["starter"] for h in sheet["hands"]] == [0, 1, 0, 1]
    assert sheet["complete"] is True and sheet["totals"] == [0, 0] and sheet["winner"] is None
    assert (
        score_json(
            fold(
                {
                    "format": "tichu-record/1",
                    "variant": "tien-zi-que",
                    "options": g.options,
                    "players": PLAYERS,
                    "events": g.events,
                }
            )
        )
        == sheet
    )


# --- the deal ----------------------------------------------------------------------------------


def test_the_deal_is_five_cards_each_never_more():
    # 004: "distribuer cinq cartes à chacun" (deal five cards to each player).
    g = Game()
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [DECK[:6], DECK[6:11]], "stock": DECK[11:]},
        "deal_invalid",
        "seat 0 gets 6",
    )
    g.do({"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": DECK[10:]})
    assert [len(h) for h in g.js["hands"]] == [5, 5] and g.js["stock_size"] == 44


# --- the scoring table: lines that combine, not in the existing table -------------------------


def lines_of(pile, winning_draw=False):
    points, lines = score_pile(pile, winning_draw)
    by_name: dict[str, int] = {}
    for line in lines:
        by_name[line["name"]] = by_name.get(line["name"], 0) + line["points"]
    return points, by_name


@pytest.mark.parametrize(
    "pile, points, lines",
    [
        # "Une carte peut être utilisée pour réaliser plusieurs Combinaisons valides" (a card may count
        # in several lines of the table):
        # a Brelan of honours also counts Caractères (one type)
        (["Ew", "Ew", "Eb", "C1b", "C5r"], 6, {"three_of_a_kind": 5, "characters": 1}),
        # Honneurs excludes only Caractères and Rose des vents: its Brelan still counts
        (["Ew", "Ew", "Eb", "Sw", "Dr"], 21, {"honours": 16, "three_of_a_kind": 5}),
        # a Paire of honours and Caractères of two types
        (["Ew", "Ew", "Sr", "C1b", "C2k"], 5, {"pair": 2, "characters": 3}),
        # Couleur (red) with a Paire and Caractères of three types
        (["Dr", "Dr", "Sr", "Nr", "C5r"], 10, {"colour": 3, "pair": 2, "characters": 5}),
        # Rose des vents with Cinq Éléments (four winds of four colours and a blue coin)
        (["Ew", "Sr", "Wk", "Ng", "C1b"], 16, {"wind_rose": 12, "five_elements": 4}),
        # Carré of coins (four series, four colours) with Cinq Éléments and Caractères
        (["C2b", "C2k", "C2r", "C2g", "Ew"], 15, {"four_of_a_kind": 10, "five_elements": 4, "characters": 1}),
        # Jeu Blanc of five white coins (an edition with a white series) with Fier Dragon
        (["C2w", "C3w", "C4w", "C5w", "C6w"], 10, {"white_hand": 4, "proud_dragon": 6}),
        # Empereur des Moineaux with a Paire of coins; the TZQ make no Brelan
        (["C2b", "C2k", "Jk", "Jk", "Jk"], 8, {"sparrow_emperor": 6, "pair": 2}),
        # Honneurs suprêmes with Jeu Blanc: five white honours of the five types
        (["Ew", "Sw", "Ww", "Nw", "Dw"], 24, {"supreme_honours": 20, "white_hand": 4}),
    ],
)
def test_lines_of_the_table_add_up(pile, points, lines):
    assert lines_of(pile) == (points, lines)


def _book_score(pile, winning_draw):
    """The scoring table re-read from the book, independently of the engine."""
    faces, cols = [c[:-1] for c in pile], [c[-1] for c in pile]
    pts = 0
    if len(set(cols)) == 1 and cols[0] in "brg":  # Couleur (bleu, rouge, vert)
        pts += 3
    if len(set(cols)) == 1 and cols[0] == "w":  # Jeu Blanc
        pts += 4
    if len(set(cols)) == 5:  # Cinq Éléments (the TZQ as black)
        pts += 4
    if faces.count("J") == 3:  # Empereur des Moineaux
        pts += 6
    if all(f[0] == "C" for f in faces):  # Fier Dragon
        nums = sorted(int(f[1]) for f in faces)
        pts += 6 if nums == list(range(nums[0], nums[0] + 5)) else 0
    for k in Counter(f for f in faces if f != "J").values():  # Paire / Brelan / Carré
        pts += {2: 2, 3: 5, 4: 10}.get(k, 0)
    honours = [f for f in faces if f in "ESWND"]
    types = set(honours)
    if len(types) == 5:  # Honneurs suprêmes
        pts += 20
    elif len(honours) == 5:  # Honneurs
        pts += 16
    elif set("ESWN") <= types:  # Rose des vents
        pts += 12
    elif types:  # Caractères: only the line of the number of types
        pts += {1: 1, 2: 3, 3: 5, 4: 9}[len(types)]
    return pts + (1 if winning_draw else 0)  # Pioche gagnante


def test_the_scoring_table_agrees_with_an_independent_reading_on_random_piles():
    # 004, "Décompte des points": every line of the table, re-read and summed independently,
    # on random five-card piles of random editions (honour-heavy and coin-run piles included).
    import random

    from games.engine.tien_zi_que import random_deck

    rng = random.Random(4)
    deck = DECK
    for i in range(20000):
        if i % 200 == 0:
            deck = random_deck(rng)
        honours = [c for c in deck if c[0] != "C"]
        coins = [c for c in deck if c[0] == "C"]
        k = rng.randint(0, 5)
        pile = rng.sample(honours, k) + rng.sample(coins, 5 - k)
        if rng.random() < 0.2:
            lo = rng.randint(1, 5)
            pile = rng.sample([c for c in coins if lo <= int(c[1]) < lo + 5], 5)
        wd = rng.random() < 0.5
        assert score_pile(pile, wd)[0] == _book_score(pile, wd), pile
