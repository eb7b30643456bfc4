"""The exchange: each seat pushes its cards to the seats its variant names; then the play begins."""

from __future__ import annotations

from typing import Any

from .cards import CARD_INFO, describe
from .errors import EngineError
from .event_fields import TARGET_OF_KEY, holds, remove_cards, seat_of
from .family_fold import FamilyFold
from .hand import EXCHANGE, Hand
from .interpreted import interpreted_class


@interpreted_class
class ExchangePhase(FamilyFold):
    """The ``push`` event, the whole way and the quick way."""

    __slots__ = ()

    def _on_push(self, event: dict[str, Any]) -> None:
        h = self._require_hand("push", EXCHANGE)
        seat = seat_of(event, self.n)
        if seat in h.pushes:
            raise EngineError(
                "push_invalid", f"seat {seat} has already pushed its cards", params={"rule": "pushed", "seat": seat}
            )
        raw = event.get("cards")
        if not isinstance(raw, dict):
            raise EngineError(
                "malformed", "push: 'cards' must be an object from target seat to card", params={"rule": "push_cards"}
            )
        given: dict[int, list[str]] = {}
        for key, value in raw.items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit()):
                raise EngineError(
                    "push_invalid",
                    f"push: target {key!r} is not a seat number",
                    params={"rule": "push_target", "target": repr(key)},
                )
            if value.__class__ is str and value in CARD_INFO:  # the usual gift, one card: what the checks below pass
                given[int(key)] = [value]
                continue
            cards = [value] if isinstance(value, str) else value
            if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
                raise EngineError(
                    "malformed",
                    f"push: the cards for seat {key} must be a card code or a list of them",
                    params={"rule": "push_gift", "target": key},
                )
            for c in cards:
                if c not in CARD_INFO:
                    raise EngineError(
                        "unknown_card", f"{c!r} is not a card code", params={"rule": "not_card_code", "code": repr(c)}
                    )
            given[int(key)] = list(cards)
        self._push(h, seat, given)

    def _push(self, h: Hand, seat: int, given: dict[int, list[str]]) -> None:
        """The rules of a push once its cards are read (target seat -> cards): the one set of
        checks of both ways in (:meth:`_on_push` and :meth:`_quick_push`), then the cards go."""
        targets = self.variant.push_targets(h, seat)
        if not targets:
            raise EngineError(
                "push_invalid", f"seat {seat} gives no cards at this exchange", params={"rule": "no_push", "seat": seat}
            )
        if set(given) != set(targets):
            raise EngineError(
                "push_invalid",
                f"seat {seat} pushes to seats {', '.join(map(str, targets))}, not to {', '.join(map(str, sorted(given))) or 'nobody'}",
                params={
                    "rule": "push_targets" if given else "push_targets_none",
                    "seat": seat,
                    "targets": ", ".join(map(str, targets)),
                    "given": ", ".join(map(str, sorted(given))),
                },
            )
        counts = self.variant.push_counts(h, seat)
        for t, cards in given.items():
            if len(cards) != counts[t]:
                raise EngineError(
                    "push_invalid",
                    f"seat {seat} gives exactly {counts[t]} card{'s' if counts[t] > 1 else ''} to seat {t}, not {len(cards)}",
                    params={
                        "rule": "push_count" if counts[t] > 1 else "push_count_one",
                        "seat": seat,
                        "to": t,
                        "expected": counts[t],
                        "given": len(cards),
                    },
                )
        all_cards = [c for cards in given.values() for c in cards]
        if not holds(h.cards[seat], all_cards):
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(all_cards)}",
                params={"seat": seat, "cards": all_cards},
            )
        self.variant.check_push(h, seat, given)
        self._pushed(h, seat, given, all_cards)

    def _pushed(self, h: Hand, seat: int, given: dict[int, list[str]], all_cards: list[str]) -> None:
        """A push that every check let through: the cards leave the seat's hand, and once every
        pusher has given, each target takes its gifts and the play begins."""
        remove_cards(h.cards[seat], all_cards)
        h.pushes[seat] = given
        if len(h.pushes) == self._pushers_count(h):
            for _pusher, gifts in sorted(h.pushes.items()):
                for target, cards in gifts.items():
                    h.cards[target].extend(cards)
            self._start_play(h)

    def _quick_push(self, event: dict[str, Any]) -> None:
        """The usual push's way in: in the exchange, a seat in range that has not pushed, one card
        code to each seat written as the seat number's plain text (read as the whole way reads a
        card code: a gift of one card). These tests stand for what the field check and
        :meth:`_on_push`'s reading of the cards would find; the rules are then :meth:`_push`'s, the
        same checks as the whole way's. Anything else goes the whole way (:meth:`_checked`), which
        gives every refusal in its order."""
        h = self.hand
        seat = event.get("seat")
        raw = event.get("cards")
        if (
            h is not None
            and seat.__class__ is int
            and raw.__class__ is dict
            and h.dealt
            and h.turn is None
            and h.gift_from is None
            and not self.over
            and h.pushers is not None
            and len(h.pushes) < h.pushers  # with the three tests before: the exchange phase
            and 0 <= seat < self.n
            and seat not in h.pushes
        ):
            given: dict[int, list[str]] | None = {}
            for key, card in raw.items():
                target = TARGET_OF_KEY.get(key)
                if target is None or card.__class__ is not str or card not in CARD_INFO:
                    given = None
                    break
                given[target] = [card]  # type: ignore[index]
            if given is not None:
                self._push(h, seat, given)
                return
        self._checked("push", event)

    def _start_play(self, h: Hand) -> None:
        h.turn = self.variant.first_leader(h)
