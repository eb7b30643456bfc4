"""Tien Zi Que's refusals in words (English): the templates ``wording.REFUSAL_WORDS`` adds, keyed
``<code>:<rule>``. Every refusal of this package carries its ``rule`` and the parameters its
template names (a ``tzq_`` rule, so that no Tichu template of the same code words it), and the
engine's catalogue says each in French, German and Ukrainian (docs/engine-api.md, "Words").
The English message of each EngineError stays as it was; these are the same sentences with
players named and cards by their names."""

from __future__ import annotations

_CODES_GRAMMAR = "a face C1-C9, E S W N, D or J, then a colour w b k r g; the Tien Zi Que is Jk"

#: what keeps cards from being a Tien Zi Que deck (cards.deck_faults' rules), after the whole's name
_DECK_FAULTS = {
    "deck_codes": "{number:codes}: not card codes (" + _CODES_GRAMMAR + ")",
    "deck_size": "{number:given} cards instead of {number:expected}",
    "deck_face": "{number:given} × {words:tzq_face} instead of {number:expected}",
    "deck_series": "two {words:tzq_face} of the same colour: the four series have four different colours",
    "deck_colours": "the coins' colours differ from number to number: each of the four series is one colour",
}
#: cards that are not the ones expected (state._missing_and_extra): the rule's suffix and its words
_MISSING_EXTRA = {
    "missing": "missing {cards:missing}",
    "extra": "not in it (or too many): {cards:extra}",
    "both": "missing {cards:missing}; not in it (or too many): {cards:extra}",
}
_NEW_STOCK = "the new stock is the whole discard pile, in any order: "
_NEW_STOCK_KEPT = (
    "the new stock is the discard pile except the two cards the combination just discarded "
    "({cards:kept}), in any order: "
)

TZQ_REFUSAL_WORDS: dict[str, str] = {
    # whose turn, who starts
    "not_your_turn:tzq_turn": "it is {name:expected_seat}'s turn, not {name:seat}'s ({words:event})",
    "not_your_turn:tzq_alternate": (
        "{name:expected_seat} starts round {number:round}: the first player changes every round (option starts: alternate)"
    ),
    "not_your_turn:tzq_half": "{name:seat} has already started {number:starts} rounds; each player starts half of them",
    # what comes now
    "wrong_phase:tzq_between_rounds": "no {words:event} now: no round is in progress (a round start comes first)",
    "wrong_phase:tzq_action": "no {words:event} now: {name:expected_seat} is to draw or to make a Chow",
    "wrong_phase:tzq_drawn": "no {words:event} now: {name:expected_seat} has drawn and now discards a card or makes a Pung",
    "wrong_phase:tzq_reshuffle": (
        "no {words:event} now: the hand of {name:expected_seat} is short after a combination and the stock "
        "is exhausted: a reshuffle comes first"
    ),
    "wrong_phase:tzq_round_on": (
        "round {number:round} is in progress: it must end (by a Mah-jong, or a drawn round) before the next round starts"
    ),
    "wrong_phase:tzq_round_played": (
        "round {number:round} is being played action by action: it must end (or be undone) "
        "before a round is recorded by its score line"
    ),
    "wrong_phase:tzq_no_stock": "the stock is exhausted: a reshuffle of the discard pile comes before the draw",
    "wrong_phase:tzq_never_reshuffled": "under the optional rule exhausted_stock_draws the stock is never reshuffled",
    "wrong_phase:tzq_stock_left": (
        "the stock still holds {number:given} card(s): it is reshuffled only once exhausted"
    ),
    "game_over:tzq_over": "the game is over after {number:rounds} rounds; no {words:event} now (an undo is accepted)",
    "not_in_variant:tzq_tichu_event": (
        "{words:event} is an event of the Tichu games, not of Tien Zi Que "
        "(round start, draw, discard, Pung, Chow, reshuffle, score line, undo)"
    ),
    # the event as written
    "malformed:tzq_seat": "{words:event}: the seat must be 0 or 1, not {number:value}",
    "malformed:tzq_card_code": "{words:event}: '{number:key}' must be a card code",
    "malformed:tzq_card_list": "{words:event}: '{number:key}' must be a list of card codes",
    "malformed:tzq_card_count": "{words:event}: '{number:key}' must list {number:expected} cards, not {number:given}",
    "malformed:tzq_players": "Tien Zi Que is a game for exactly 2 players, not {number:given}",
    "malformed:tzq_event_type": "unknown event type {number:value}",
    "malformed:tzq_hands": "round start: 'hands' must be a list of two hands (seat 0, then seat 1)",
    "malformed:tzq_whole_number": "score line: '{number:key}' must be a whole number",
    "unknown_card:tzq_codes": "{number:codes}: not Tien Zi Que card codes (" + _CODES_GRAMMAR + ")",
    # the deal and the stock
    "deal_invalid:tzq_hand_size": "each player is dealt {number:expected} cards; {name:seat} gets {number:given}",
    "deal_invalid:tzq_top_card": "the top card of the stock is the {card:expected}, not the {card:card}",
    # holding the cards
    "card_not_in_hand:tzq_discard": "{name:seat} does not hold the {card:card} to discard",
    "card_not_in_hand:tzq_pung": "{name:seat} does not hold {cards:cards} for a Pung (hand: {cards:hand})",
    "card_not_in_hand:tzq_chow": (
        "{name:seat} does not hold {cards:cards} for a Chow with the {card:take} (hand: {cards:hand})"
    ),
    # the combination
    "invalid_combination:tzq_jokers": "a combination may hold at most one Tien Zi Que: {cards:cards}",
    "invalid_combination:tzq_combination": (
        "{cards:cards} is neither a triplet (three identical cards) nor a sequence (three coins of consecutive "
        "numbers), a Tien Zi Que standing for any one card"
    ),
    "invalid_combination:tzq_keep": (
        "the card kept on the score pile (the {card:keep}) must be one of the combination's cards: {cards:cards}"
    ),
    "invalid_combination:tzq_take_in": (
        "a Chow's combination must hold the discarded card it takes (the {card:take}): {cards:cards}"
    ),
    "invalid_combination:tzq_take": (
        "a Chow takes the last discarded card, or one of the two a combination just discarded: the {card:take} "
        "is not one (only {cards:available} may be taken)"
    ),
    "invalid_combination:tzq_take_none": (
        "a Chow takes the last discarded card, or one of the two a combination just discarded: the {card:take} "
        "is not one (no discarded card may be taken now)"
    ),
    "invalid_combination:tzq_take_joker": "a Tien Zi Que just discarded may not be used to make a combination",
    "invalid_combination:tzq_min_points": (
        "optional rule min_points: a Mah-jong needs at least {number:minimum} points from the five cards of the "
        "score pile; {cards:cards} would score {number:points} (a winning draw's point does not count)"
    ),
    # the score line (round_result.py)
    "result_invalid:tzq_no_draws": (
        "a round ends by a Mah-jong: name its winner (a drawn round exists only under the optional rule "
        "exhausted_stock_draws)"
    ),
    "result_invalid:tzq_drawn_points": "a drawn round scores no points: no way of winning, no score pile",
    "result_invalid:tzq_winner": "the winner is seat 0 or seat 1, not {number:given}",
    "result_invalid:tzq_by": "say how the Mah-jong was made: by a Pung (a card drawn) or by a Chow (a discard)",
    "result_invalid:tzq_pile_size": "a winner's score pile holds {number:expected} cards, not {number:given}",
    "result_invalid:tzq_pile_not_in_deck": "not in the game's deck (or too many): {cards:cards}",
    "result_invalid:tzq_pile_face": "the deck holds at most {number:expected} cards of that face: {cards:cards}",
    "result_invalid:tzq_pile_twice": "each coin series holds one card of each number: {cards:cards} appears twice",
    "result_invalid:tzq_pile_min_points": (
        "optional rule min_points: a Mah-jong needs at least {number:minimum} points from the five cards of the "
        "score pile; {cards:cards} scores {number:points}"
    ),
    "result_invalid:tzq_pile_points_pung": (
        "the score pile {cards:cards} won by a Pung scores {number:expected}, not {number:given}"
    ),
    "result_invalid:tzq_pile_points_chow": (
        "the score pile {cards:cards} won by a Chow scores {number:expected}, not {number:given}"
    ),
    "result_invalid:tzq_no_points": "give the winner's points, or the five cards of the score pile",
    "result_invalid:tzq_unreachable_pung": (
        "no score pile won by a Pung scores {number:given}; the nearest possible: {number:nearest_1} or {number:nearest_2}"
    ),
    "result_invalid:tzq_unreachable_chow": (
        "no score pile won by a Chow scores {number:given}; the nearest possible: {number:nearest_1} or {number:nearest_2}"
    ),
    "result_invalid:tzq_unreachable_pung_min": (
        "no score pile won by a Pung scores {number:given} with at least {number:minimum} points from its cards "
        "(option min_points); the nearest possible: {number:nearest_1} or {number:nearest_2}"
    ),
    "result_invalid:tzq_unreachable_chow_min": (
        "no score pile won by a Chow scores {number:given} with at least {number:minimum} points from its cards "
        "(option min_points); the nearest possible: {number:nearest_1} or {number:nearest_2}"
    ),
    # a deck that is not one: the option, or a first deal
    **{f"malformed:tzq_option_{rule}": "option 'deck' is not a Tien Zi Que deck: " + said
       for rule, said in _DECK_FAULTS.items()},
    # (a deal's codes that are no cards are refused before, unknown_card:tzq_codes)
    **{f"deal_invalid:tzq_{rule}": "the hands and the stock are not a Tien Zi Que deck: " + said
       for rule, said in _DECK_FAULTS.items() if rule != "deck_codes"},
    # cards that are not the ones expected
    **{f"deal_invalid:tzq_not_the_deck_{which}": "the hands and the stock must be the game's deck: " + said
       for which, said in _MISSING_EXTRA.items()},
    **{f"deal_invalid:tzq_new_stock_all_{which}": _NEW_STOCK + said for which, said in _MISSING_EXTRA.items()},
    **{f"deal_invalid:tzq_new_stock_{which}": _NEW_STOCK_KEPT + said for which, said in _MISSING_EXTRA.items()},
}  # fmt: skip
