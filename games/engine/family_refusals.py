"""The refusals of the Tichu family in words (English): Nanking, Threechu, Tientsin and Grand
Seigneur (state.py, variants.py, family.py, registry.py), the templates ``wording.REFUSAL_WORDS``
adds, keyed ``<code>`` or ``<code>:<rule>``. Every refusal of these modules carries the
parameters its template names (and a ``rule`` where a code has more than one sentence), and the
engine's catalogue says each in French, German and Ukrainian (docs/engine-api.md, "Words"). The
English ``message`` of each EngineError stays as it was (record-format.md section 5); these are
the same sentences with players named and cards by their names. ``{number:x}`` says a value as it
is (a field's JSON name, a value as the record wrote it, a list of seat numbers);
``{words:variant}`` the game's name, ``{words:shuffler_rule}`` who shuffles in that game."""

from __future__ import annotations

_RANK_CODES = "2-9, T, J, Q, K or A"

FAMILY_REFUSAL_WORDS: dict[str, str] = {
    # whose turn
    "not_your_turn": "{name:expected_seat} is to play, not {name:seat}",
    "not_your_turn:out_of_turn": "{name:expected_seat} is to play; out of turn only a bomb may be played, and {cards:cards} is not one",
    "not_your_turn:out": "{name:seat} is out and holds no cards",
    "not_your_turn:gift": "{name:expected_seat} won the trick with the Dragon and gives it, not {name:seat}",
    "not_your_turn:shuffle": "{name:expected_seat} shuffles this hand ({words:shuffler_rule}), not {name:seat}",
    "not_your_turn:never_deals": "{name:seat} never deals in {words:variant}: the dealer is one of seats {number:dealers}",
    "draw_out_of_order": "{name:expected_seat} draws next, not {name:seat}",
    # what comes now
    "wrong_phase": "no {words:event} now: the game is in the {words:phase} phase",
    "wrong_phase:lead_pass": "{name:seat} leads the trick and cannot pass",
    "wrong_phase:hand_in_progress": "a hand is in progress ({words:phase} phase): it must end before the next shuffle",
    "wrong_phase:result_in_hand": "a hand is in progress ({words:phase} phase): a hand result replaces a whole hand",
    "wrong_phase:correct_in_hand": (
        "a hand is in progress ({words:phase} phase): correct a finished hand between hands or after the game"
    ),
    "result_invalid:correct_hand_number": "hand correction: 'hand' is the number of a finished hand, 1 to {number:hands}",
    "malformed:correct_reason": "hand correction: 'reason' says why the hand is corrected",
    # the event as written
    "malformed:seat": "{words:event}: '{number:field}' must be a seat from 0 to {number:last}, not {number:value}",
    "malformed:card_list": "{words:event}: '{number:field}' must be a non-empty list of card codes",
    "malformed:rank": "{words:event}: '{number:field}' must name a rank " + _RANK_CODES + ", not {number:value}",
    "malformed:draw_card": "draw: 'card' must be a card code",
    "malformed:push_cards": "push: 'cards' must be an object from target seat to card",
    "malformed:push_gift": "push: the cards for seat {number:target} must be a card code or a list of them",
    "malformed:to_without_dog": "play: 'to' goes only with the Dog",
    "malformed:penalty_reason": "penalty: 'reason' must name the breach, e.g. 'missed_wish'",
    "malformed:result_calls": "hand result: 'calls' must be an object from seat to 'tichu' or 'grand_tichu'",
    "malformed:result_out": "hand result: 'out' must be a list of seats in finishing order",
    "unknown_card:card_code": (
        "{number:code} is not a card code (ranks 2-9 T J Q K A with a suit j s p r, or Mahjong, Dog, Phoenix, Dragon)"
    ),
    "unknown_card:not_card_code": "{number:code} is not a card code",
    # the game and its players
    "malformed:players": "{words:variant} is played by {number:count} players, the record names {number:given}",
    "malformed:players_range": (
        "{words:variant} is played by {number:low} to {number:high} players, the record names {number:given}"
    ),
    "malformed:unknown_variant": "unknown variant {number:given}: expected one of {number:variants}",
    "not_in_variant:not_implemented": "the rules of {words:variant} are not implemented yet",
    "malformed:no_rank_scoring": "{number:given} has no scoring by finishing order",
    "malformed:threechu_hands": "a Threechu game lasts a number of hands divisible by 3, not {number:given}",
    # the deal
    "deal_invalid:taken": "{card:card} is not in the pile: it has already been taken",
    "deal_invalid:dealt": "{cards:cards} not in the pile: already dealt",
    "deal_invalid:too_many": (
        "{name:seat} receives {number:size} cards in all; they have {number:received} and cannot take {number:given} more"
    ),
    # the calls
    "already_called": "{name:seat} has already called {words:call} this hand",
    "not_in_variant:no_calls": "there are no calls in {words:variant}",
    "not_in_variant:no_grand_tichu": "there is no Grand Tichu in this game (option grand_tichu)",
    "not_in_variant:grand_tichu_seat": "{name:seat} may not call Grand Tichu in {words:variant}",
    "not_in_variant:tichu_seat": "{name:seat} may not call Tichu in {words:variant}",
    "call_too_late:hand_over": "the hand is over: only the gift of its last Dragon trick remains",
    "call_too_late:grand_tichu": (
        "Grand Tichu is called while one holds at most {number:limit} cards; {name:seat} has {number:received}"
    ),
    "call_too_late:tichu_played": "Tichu is called before one's first card; {name:seat} has played",
    # the exchange
    "push_invalid:pushed": "{name:seat} has already pushed their cards",
    "push_invalid:push_target": "push: target {number:target} is not a seat number",
    "push_invalid:no_push": "{name:seat} gives no cards at this exchange",
    "push_invalid:push_targets": "{name:seat} pushes to seats {number:targets}, not to {number:given}",
    "push_invalid:push_targets_none": "{name:seat} pushes to seats {number:targets}, not to nobody",
    "push_invalid:push_count": "{name:seat} gives exactly {number:expected} cards to {name:to}, not {number:given}",
    "push_invalid:push_count_one": "{name:seat} gives exactly 1 card to {name:to}, not {number:given}",
    "push_invalid:tribute_best": "{name:seat} must give their {number:count} best card(s) ({cards:expected}), not {cards:cards}",
    "push_invalid:tribute_worst": "{name:seat} must give their {number:count} worst card(s) ({cards:expected}), not {cards:cards}",
    "card_not_in_hand": "{name:seat} does not hold {cards:cards}",
    # the play
    "invalid_combination": "{cards:cards} is not a combination",
    "invalid_combination:no_phoenix": "'phoenix' reads the Phoenix in a combination; {cards:cards} has none to read",
    "invalid_combination:phoenix_rank": "the Phoenix cannot stand for {rank:phoenix} in {cards:cards}",
    "invalid_combination:wish_without_mahjong": "a wish is made only with the Mahjong",
    "invalid_combination:wish_required": "the Mahjong's player must name a wish (option wish_required)",
    "not_in_variant:no_wish": "there is no wish in {words:variant}",
    "does_not_beat": "{cards:cards} does not beat {cards:top}",
    "does_not_beat:dog": "the Dog can only be led, never played on a combination",
    "wish_not_fulfilled": (
        "the wish for {phrase:wish} forbids it: {name:seat} holds {phrase:wish} and can play it "
        "({cards:cards} has none)"
    ),
    "wish_not_fulfilled:pass": (
        "the wish for {phrase:wish} forbids a pass: {name:seat} holds {phrase:wish} and can play it on {cards:top}"
    ),
    "bomb_not_allowed:hand_over": "the hand is over: only the gift of its last Dragon trick remains, no bomb",
    "bomb_not_allowed:nothing_to_bomb": (
        "a bomb out of turn is played on a combination on the table; nothing lies there now ({name:expected_seat} leads)"
    ),
    # the Dog's lead
    "not_in_variant:dog_to": "in {words:variant} the Dog gives the lead to the partner ({name:partner}); 'to' is not chosen",
    "malformed:dog_to_required": (
        "in Tientsin the Dog's player names the partner who leads ('to': one of seats {number:choices})"
    ),
    "invalid_combination:dog_to_partner": (
        "the Dog's lead goes to a partner still holding cards (seats {number:choices}), not {name:to}"
    ),
    "invalid_combination:dog_partners_out": (
        "both partners of {name:seat} are out: the Dog's lead passes on in order, 'to' names nobody"
    ),
    "not_in_variant:wretch_dog": "in Grand Seigneur the Dog gives the lead to the Wretch; 'to' is not chosen",
    # the Dragon's gift
    "gift_required": "{name:seat} must first give the Dragon trick to an opponent",
    "gift_invalid:no_gift": "there is no Dragon trick to give away now",
    "gift_invalid:not_opponent": "the Dragon trick goes to an opponent; {name:to} is not an opponent of {name:seat}",
    "gift_invalid:to_out": (
        "{name:to} is out; the Dragon trick goes to an opponent still playing (option dragon_gift_to_out)"
    ),
    # the penalty
    "not_in_variant:no_penalty": "{name:seat} need not fulfil a wish in {words:variant}, so no missed-wish penalty",
    # the score-sheet line (hand_result)
    "result_invalid:result_seat": "hand result: {number:key} is not a seat",
    "result_invalid:result_call": "hand result: {name:seat} called {number:call}; a call is 'tichu' or 'grand_tichu'",
    "result_invalid:result_out_seats": "hand result: 'out' {number:out} must list distinct seats from 0 to {number:last}",
    "result_invalid:result_no_out": "a hand result names at least who went out first",
    "result_invalid:result_sweep_points": (
        "seats {number:seats} went out first as a team: that hand has no card points"
    ),
    "result_invalid:result_points_required": "card points are required unless one team went out first together",
    "result_invalid:result_points_list": "points must be a list of {number:teams} integers, one per team",
    "result_invalid:result_points_value": "card points {number:points} must be a multiple of 5 between -25 and 125",
    "result_invalid:result_points_sum": "card points {number:points} must sum to 100, not {number:total}",
    "result_invalid:threechu_dealer": (
        "a Threechu hand result names its dealer (seat 0, 1 or 2): the dealer plays with the dummy"
    ),
    "result_invalid:gs_no_points": "Grand Seigneur has no card points: a hand result gives the finishing order",
    "result_invalid:gs_whole_order": "a Grand Seigneur hand result gives the whole finishing order ({number:seats} seats)",
}  # fmt: skip
