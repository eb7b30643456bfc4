"""A play: the cards and their reading, the wish, a bomb out of turn, the Dog's lead; the cards go
on the table and the turn moves on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .cards import DRAGON, MAHJONG, PHOENIX, describe, rank_code
from .combos import DOG_LEAD, Combination, beats, can_play_rank, contains_rank, on_table, readings_of
from .errors import EngineError
from .event_fields import CARD_CODES, card_list, holds, rank_field, seat_of
from .family_fold import FamilyFold
from .hand import Hand
from .interpreted import interpreted_class

LONE_PHOENIX = (PHOENIX,)


@interpreted_class
class PlayPhase(FamilyFold):
    """The ``play`` event, the whole way and the quick way."""

    __slots__ = ()

    def _on_play(self, event: dict[str, Any]) -> None:
        """A play, checked step by step before anything changes: the cards and what they can be
        read as, the call on the table this beats (or the bomb played out of turn), the wish,
        the Dog's lead; then the cards go on the table and the turn moves on."""
        h = self._hand_in_play("play")
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = seat_of(event, self.n)
        cards = card_list(event)
        wish = event.get("wish")
        if wish is not None:
            wish = rank_field(event, "wish")
        stand_in = event.get("phoenix")
        if stand_in is not None:
            stand_in = rank_field(event, "phoenix")
        to = event.get("to")
        if to is not None:
            to = seat_of(event, self.n, "to")
        self._play(h, seat, cards, wish, stand_in, to)

    def _play(
        self, h: Hand, seat: int, cards: list[str], wish: int | None, stand_in: int | None, to: int | None
    ) -> None:
        """The rules of a play once its fields are read: the one set of checks of both ways in
        (:meth:`_on_play` and :meth:`_quick_play`), then the cards go on the table and the turn
        moves on. One method, its steps inline (what the cards read as, the choice of reading, the
        wish, the table, who acts next): every play of every fold takes it, and each call cost
        about as much as a step."""
        # What the seat's cards can be read as (the Phoenix as the play names it).
        if not h.cards[seat]:
            raise EngineError(
                "not_your_turn", f"seat {seat} is out and holds no cards", params={"seat": seat, "rule": "out"}
            )
        distinct = set(cards)  # holds(), its usual case inline: no card twice, a set test at C speed
        if not (len(distinct) == len(cards) and distinct.issubset(h.cards[seat])) and not holds(h.cards[seat], cards):
            missing = list((Counter(cards) - Counter(h.cards[seat])).elements())
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(missing)}",
                params={"seat": seat, "cards": missing},
            )
        options: Sequence[Combination] = readings_of(tuple(cards), self.rules)
        if not options:
            raise EngineError(
                "invalid_combination", f"{describe(cards)} is not a combination", params={"cards": list(cards)}
            )
        if stand_in is not None:
            if PHOENIX not in cards or len(cards) == 1:
                raise EngineError(
                    "invalid_combination",
                    f"'phoenix' reads the Phoenix in a combination; {describe(cards)} has none to read",
                    params={"rule": "no_phoenix", "cards": list(cards)},
                )
            options = [c for c in options if c.phoenix == stand_in]
            if not options:
                raise EngineError(
                    "invalid_combination",
                    f"the Phoenix cannot stand for {rank_code(stand_in)} in {describe(cards)}",
                    params={"rule": "phoenix_rank", "phoenix": rank_code(stand_in), "cards": list(cards)},
                )
        if wish is not None or MAHJONG in cards:  # (the wish's rules concern the Mahjong alone)
            self._check_wish_named(cards, wish)
        in_turn = h.gift_from is None and seat == h.turn
        top = h.trick[-1][1] if h.trick else None
        leading = in_turn and (top is None or h.closed)
        combo = options[0]
        if not (  # the usual play (one reading, in turn, led or beating the top) needs no choice
            in_turn
            and len(options) == 1
            and combo.kind != DOG_LEAD
            and combo.cards != LONE_PHOENIX
            and (leading or beats(combo, top, self.rules))
        ):
            combo = self._played_combination(h, cards, options, top, in_turn, leading)
        if h.wish is not None:  # (no wish stands: nothing to fulfil)
            self._check_wish_fulfilled(h, seat, cards, combo, top, in_turn, leading)
        dog_target = self.variant.dog_lead(h, seat, to) if combo.kind == DOG_LEAD else None
        if combo.kind != DOG_LEAD and to is not None:
            raise EngineError("malformed", "play: 'to' goes only with the Dog", params={"rule": "to_without_dog"})
        # --- every check passed: change the state ---
        # The cards leave the hand for the trick (a closed trick is collected first), the trick
        # log and the wish follow (inline: one call less per play).
        if leading and h.closed:
            self._collect(h, h.trick[-1][0])
        if not in_turn and h.gift_from is not None:
            h.gift_from = None  # the Dragon was bombed: it did not win the trick
        h.closed = False
        hand_cards = h.cards[seat]
        for c in cards:  # _remove's loop, inline: every play takes this way
            hand_cards.remove(c)
        h.played.add(seat)
        h.trick.append((seat, combo))
        h.log.append((seat, combo, wish, in_turn))  # the display's entry, written when asked (Hand.trick_log)
        if h.wish is not None and contains_rank(cards, h.wish):
            h.wish = None
        if wish is not None:
            h.wish = wish
        if h.passed and not self.options.get("pass_is_final"):  # a new empty set only when it held passes
            h.passed = set()
        if not hand_cards:
            h.out.append(seat)
        # Who acts next: the Dog's lead, the end of the hand (the last Dragon trick still to be
        # given away), or the next holder in order of play (the trick closes when it comes back).
        v = self.variant
        if combo.kind == DOG_LEAD:
            self._collect(h, seat)
            assert dog_target is not None
            h.turn = h.next_holder(dog_target, include_self=True)
            if v.hand_over(h):
                self._finish_hand(h)
            return
        # A play is accepted only while the hand is not over, and it takes cards from this seat
        # alone: while the seat still holds cards, who holds cards and who is out are as before.
        if not h.cards[seat] and v.hand_over(h):
            swept = v.sweep(h) is not None
            if (
                not swept
                and combo.cards == (DRAGON,)
                and v.has_dragon_gift
                and not self.options.get("keep_last_dragon_trick")
            ):
                h.closed, h.turn, h.gift_from = True, None, seat  # the last trick is still given away
                return
            if not swept:
                self._collect(h, seat)
            self._finish_hand(h)
            return
        if self.options.get("pass_is_final"):
            h.turn = h.next_holder(seat, skip=h.passed)
        else:  # next_holder(seat) inline (h.after[seat] ends with the seat itself): one call less per play
            held = h.cards
            for s in h.after[seat]:
                if held[s]:
                    h.turn = s
                    break
            else:
                h.turn = seat
        if h.turn == seat:
            self._close_trick(h)

    def _quick_play(self, event: dict[str, Any]) -> None:
        """The usual play's way in: the seat to act, no field but its seat and cards (a list of
        card codes), the hand in play. These tests stand for what the field check and
        :meth:`_on_play`'s reading of the fields would find (nothing to refuse, nothing to read);
        the rules are then :meth:`_play`'s, the same checks as the whole way's. Anything else goes
        the whole way (:meth:`_checked`), which gives every refusal in its order;
        tests/engine/test_quick_handlers.py folds games both ways."""
        h = self.hand
        seat = event.get("seat")
        cards = event.get("cards")
        if (
            h is not None
            and seat == h.turn
            and seat.__class__ is int
            and cards.__class__ is list
            and cards
            and len(event) == 3  # type, seat and cards: no wish, phoenix or to
            and h.dealt
            and not self.over
        ):
            try:
                plain = CARD_CODES.issuperset(cards)
            except TypeError:  # an unhashable element: the whole way refuses it
                plain = False
            if plain:
                self._play(h, seat, cards, None, None, None)
                return
        self._checked("play", event)

    def _wish_lets_through(self, h: Hand, seat: int, cards: list[str] | None, top: Combination | None) -> bool:
        """While a wish stands: whether the seat to act may play ``cards`` (``None``: pass) on
        ``top`` (``None``: leading) as far as the wish goes. True when the cards fulfil it, the
        seat is exempt, or it cannot fulfil it (:meth:`_can_fulfil_wish`): the wish's one test,
        asked by a play (:meth:`_check_wish_fulfilled`) and a pass (:meth:`_pass`)."""
        assert h.wish is not None
        if cards is not None and contains_rank(cards, h.wish):
            return True
        return self.variant.wish_exempt(h, seat) or not self._can_fulfil_wish(h, seat, top)

    def _check_wish_named(self, cards: list[str], wish: int | None) -> None:
        """A wish goes with the Mahjong only, and must go with it under option wish_required."""
        v = self.variant
        if wish is not None:
            if not v.has_wish:
                raise EngineError(
                    "not_in_variant", f"there is no wish in {v.label}", params={"rule": "no_wish", "variant": v.name}
                )
            if MAHJONG not in cards:
                raise EngineError(
                    "invalid_combination",
                    "a wish is made only with the Mahjong",
                    params={"rule": "wish_without_mahjong"},
                )
        elif MAHJONG in cards and self.options.get("wish_required") and v.has_wish:
            raise EngineError(
                "invalid_combination",
                "the Mahjong's player must name a wish (option wish_required)",
                params={"rule": "wish_required", "option": "wish_required"},
            )

    def _played_combination(
        self,
        h: Hand,
        cards: list[str],
        options: Sequence[Combination],
        top: Combination | None,
        in_turn: bool,
        leading: bool,
    ) -> Combination:
        """The reading that goes on the table: a bomb out of turn that beats the top, the highest
        reading of a lead, or the highest reading that beats the top."""
        if not in_turn:
            combo = self._bomb_out_of_turn(h, cards, options, top)
        elif leading:
            combo = on_table(options[0] if len(options) == 1 else max(options, key=lambda c: c.rank), None)
        else:
            assert top is not None
            if len(options) == 1:  # one reading (the usual play): it beats the top or nothing does
                combo = options[0]
                if combo.cards == LONE_PHOENIX:  # (on_table gives a lone Phoenix its rank now)
                    combo = on_table(combo, top)
                legal = [combo] if beats(combo, top, self.rules) else []
            else:
                legal = [c for c in (on_table(c, top) for c in options) if beats(c, top, self.rules)]
            if not legal:
                if options[0].kind == DOG_LEAD:
                    raise EngineError(
                        "does_not_beat",
                        "the Dog can only be led, never played on a combination",
                        params={"rule": "dog"},
                    )
                raise EngineError(
                    "does_not_beat",
                    f"{describe(cards)} does not beat {top.describe()}",
                    params={"cards": list(cards), "top": list(top.cards)},
                )
            combo = legal[0] if len(legal) == 1 else max(legal, key=lambda c: c.rank)
        if combo.kind == DOG_LEAD and not leading:
            raise EngineError("does_not_beat", "the Dog can only be led", params={"rule": "dog"})
        return combo

    def _bomb_out_of_turn(
        self, h: Hand, cards: list[str], options: Sequence[Combination], top: Combination | None
    ) -> Combination:
        bombs = [c for c in options if c.is_bomb]
        if not bombs:
            if h.gift_from is not None:
                raise EngineError(
                    "gift_required",
                    f"seat {h.gift_from} must first give the Dragon trick to an opponent",
                    params={"seat": h.gift_from},
                )
            raise EngineError(
                "not_your_turn",
                f"seat {h.turn} is to play; out of turn only a bomb may be played, and {describe(cards)} is not one",
                params={"expected_seat": h.turn, "cards": list(cards), "rule": "out_of_turn"},
            )
        if h.gift_from is not None and self.variant.hand_over(h):
            raise EngineError(
                "bomb_not_allowed",
                "the hand is over: its last trick is ended at once and only the Dragon gift remains",
                params={"rule": "hand_over"},
            )
        if top is None:
            raise EngineError(
                "bomb_not_allowed",
                f"a bomb out of turn is played on a combination on the table; nothing lies there now (seat {h.turn} leads)",
                params={"expected_seat": h.turn, "rule": "nothing_to_bomb"},
            )
        combo = bombs[0]
        if not beats(combo, top, self.rules):
            raise EngineError(
                "does_not_beat",
                f"{combo.describe()} does not beat {top.describe()}",
                params={"cards": list(cards), "top": list(top.cards)},
            )
        return combo

    def _check_wish_fulfilled(
        self,
        h: Hand,
        seat: int,
        cards: list[str],
        combo: Combination,
        top: Combination | None,
        in_turn: bool,
        leading: bool,
    ) -> None:
        """The wish binds the seat to act when it can fulfil it. A bomb on the table's combination by
        the seat to act may have been played "before its turn" (001 FAQ, the K-bomb example): like
        any bomb out of turn it need not fulfil the wish. Leading, or playing anything else, the
        wish binds."""
        bomb_before_turn = in_turn and not leading and combo.is_bomb
        if in_turn and not bomb_before_turn and h.wish is not None:
            if not self._wish_lets_through(h, seat, cards, None if leading else top):
                raise EngineError(
                    "wish_not_fulfilled",
                    f"seat {seat} holds a {rank_code(h.wish)} and can play it: the wish must be fulfilled ({describe(cards)} has no {rank_code(h.wish)})",
                    params={"seat": seat, "wish": rank_code(h.wish), "cards": list(cards)},
                )

    def _can_fulfil_wish(self, h: Hand, seat: int, top: Combination | None) -> bool:
        """Whether the seat holds the wished rank and could lawfully play it now."""
        assert h.wish is not None
        if not contains_rank(h.cards[seat], h.wish):
            return False
        if top is None:
            return True
        return can_play_rank(h.cards[seat], top, self.rules, h.wish)
