"""The other Tichu games of the books: Tichu Tientsin (6), Threechu (3 and a dummy) and Grand
Seigneur (5 to 12). Each overrides only what differs from Nanking (:class:`~.variants.Variant`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .cards import DOG, DRAGON, MAHJONG, NORMAL_CARDS, PHOENIX, card_points, describe, rank
from .combos import ComboRules
from .errors import EngineError
from .interpreted import interpreted_class
from .options import DIRECTION_OPTION, TICHU_OPTIONS, Choice, Kind, _bool, _choice, _int_or_null, option
from .variants import HandView, Variant

if TYPE_CHECKING:  # pragma: no cover
    from .state import Hand


@interpreted_class  # Variant's subclasses stay Python classes too (variants.py)
class Tientsin(Variant):
    """Six players, two teams of three alternating; 10/10/9/9/9/9 drawn; Grand Tichu before the
    7th card; pushes to the two partners; the Dog to a chosen partner; triple victory 300."""

    name = "tientsin"
    label = "Tientsin"
    seat_counts = (6,)
    grand_tichu_cards = 6
    sweep_size = 3  # no bonus for a double victory; the three of a team out first: 300
    double_victory_bonus = 300

    def push_targets(self, hand: "Hand", seat: int) -> tuple[int, ...]:
        return tuple(s for s in hand.order if s != seat and hand.team_of[s] == hand.team_of[seat])

    def dog_choices(self, hand: "Hand", seat: int) -> list[int]:
        """The partners who may get the lead from the Dog: those still holding cards."""
        return [s for s in hand.order if s != seat and hand.team_of[s] == hand.team_of[seat] and hand.cards[s]]

    def dog_lead(self, hand: "Hand", seat: int, to: int | None) -> int:
        choices = self.dog_choices(hand, seat)
        if not choices:
            if to is not None:
                raise EngineError(
                    "invalid_combination",
                    f"both partners of seat {seat} are out: the Dog's lead passes on in order, 'to' names nobody",
                    params={"rule": "dog_partners_out", "seat": seat},
                )
            return super().dog_lead(hand, seat, None)  # on after the partner next in order, as in Nanking
        if to is None:
            raise EngineError(
                "malformed",
                f"in Tientsin the Dog's player names the partner who leads ('to': one of {choices})",
                params={"rule": "dog_to_required", "choices": ", ".join(map(str, choices))},
            )
        if to not in choices:
            raise EngineError(
                "invalid_combination",
                f"the Dog's lead goes to a partner still holding cards ({', '.join(map(str, choices))}), not seat {to}",
                params={"rule": "dog_to_partner", "choices": ", ".join(map(str, choices)), "to": to},
            )
        return to

    def card_points_by_team(self, hand: "Hand") -> list[int]:
        """The fifth out gives their tricks to the first out; the last gives hand cards and tricks
        to the opposing team."""
        piles = [list(cards) for cards in hand.won]
        to_team: list[list[str]] = [[] for _ in hand.teams]
        remaining = [s for s in hand.order if hand.cards[s]]
        if remaining and len(hand.out) >= 5:
            last, fifth, first = remaining[0], hand.out[4], hand.out[0]
            piles[first] += piles[fifth]
            piles[fifth] = []
            opponents = 1 - hand.team_of[last]
            to_team[opponents] += hand.cards[last] + piles[last]
            piles[last] = []
        points = [card_points(to_team[t]) for t in range(len(hand.teams))]
        for seat, pile in enumerate(piles):
            points[hand.team_of[seat]] += card_points(pile)
        return points


THREECHU_OPTIONS = tuple(o for o in TICHU_OPTIONS if o.name != "hands") + (
    option(
        "hands",
        9,
        _int_or_null(3),
        "the game lasts this many hands (a multiple of 3)",
        label="Number of hands",
        help="The game lasts this many hands, a multiple of 3 so that everyone deals equally often.",
    ),
    option(
        "threechu_push",
        lambda p: "real_players" if p == "tiki" else "opponents",
        _choice(("opponents", "to each opponent"), ("real_players", "between the three players")),
        "opponents (rio): every hand, the dummy's too, pushes one card to each of its two opponents; "
        "real_players (tiki): each real player gives one card to each other real player, the dummy nothing",
        label="Exchange",
        help="Every hand, the dummy's too, gives one card to each opponent; or the three players give "
        "one card to each other and the dummy none.",
    ),
    option(
        "dealer_rotation",
        lambda p: {"tiki": "first_out", "rio": "previous"}.get(p, "next"),
        _choice(
            ("next", "the next player"),
            ("previous", "the player on the dealer's left"),
            ("first_out", "the first player out"),
        ),
        "next (abacus): the deal passes on each hand, to the next player in order of play; previous (rio): "
        "to the dealer's left, against the order of play (the Rio text's words: \"passes to the left\"); "
        "first_out (tiki): the first player out deals (if the dummy went out first, the dealer stays)",
        label="Next dealer",
        help="Who deals the next hand: the next player in order of play, the player on the dealer's left, "
        "or the first player out.",
    ),
)


@interpreted_class  # Variant's subclasses stay Python classes too (variants.py)
class Threechu(Variant):
    """Three players and a dummy at seat 3, opposite the dealer, who plays it."""

    name = "threechu"
    label = "Threechu"
    seat_counts = (3,)
    options = THREECHU_OPTIONS
    DUMMY = 3
    #: the dummy's name in English; in other languages the engine catalogue's ``seat_name:dummy``
    DUMMY_NAME = "Dummy"
    shuffler_rule = "the dealer rotation of option dealer_rotation"
    hand_spread = 150.0  # between two players (random bots: 126)

    def seat_count(self, players: Sequence[str]) -> int:
        return 4

    def seat_names(self, players: Sequence[str], lang: str | None = None) -> list[str]:
        from .wording import words  # wording reads the variants: imported here, not at the top

        return list(players) + [words(lang).terms["seat_name:dummy"]]

    def hands_seen(self, seat: int, shuffler: int | None) -> frozenset[int]:
        # spec/rules.md: "The dealer sees both hands before the exchange, plays the dummy's cards"
        return frozenset((seat, self.DUMMY)) if seat == shuffler else frozenset((seat,))

    def check_options(self, options: dict[str, Any], n: int) -> None:
        if options.get("hands") is not None and options["hands"] % 3:
            raise EngineError(
                "malformed",
                f"a Threechu game lasts a number of hands divisible by 3, not {options['hands']}",
                params={"rule": "threechu_hands", "option": "hands", "given": options["hands"]},
            )

    def dealers(self, n: int) -> tuple[int, ...]:
        return (0, 1, 2)  # the dummy (seat 3) never deals

    def order_of_play(self, n: int, shuffler: int) -> tuple[int, ...]:
        d = shuffler
        return (d, (d + 1) % 3, self.DUMMY, (d + 2) % 3)

    def teams(self, n: int, shuffler: int | None) -> tuple[tuple[int, ...], ...]:
        if shuffler is None:
            return ((0, 3), (1, 2))  # placeholder before the first deal; hands name their dealer
        d = shuffler
        return ((d, self.DUMMY), ((d + 1) % 3, (d + 2) % 3))

    def score_columns(self, n: int) -> int:
        return 4

    def grand_tichu_limit(self, hand: HandView, seat: int) -> int | None:
        if seat in (hand.shuffler, self.DUMMY):
            return None  # neither the dealer nor the dummy may call Grand Tichu
        return super().grand_tichu_limit(hand, seat)

    def push_targets(self, hand: "Hand", seat: int) -> tuple[int, ...]:
        scheme = hand.options.get("threechu_push", "opponents")
        if scheme == "real_players":
            if seat == self.DUMMY:
                return ()
            return tuple(s for s in hand.order if s not in (seat, self.DUMMY))
        return tuple(s for s in hand.order if hand.team_of[s] != hand.team_of[seat])

    def wish_exempt(self, hand: "Hand", seat: int) -> bool:
        return seat == self.DUMMY  # the dummy need not fulfil a wish

    def per_column(self, team_points: list[int], team_of: Sequence[int]) -> list[int]:
        """Each partner scores what the team would score in Nanking; the dummy last."""
        return [team_points[team_of[s]] for s in range(4)]

    def result_teams(self, n: int, event: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
        dealer = event.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in (0, 1, 2):
            raise EngineError(
                "result_invalid",
                "a Threechu hand result names its dealer (seat 0, 1 or 2): the dealer plays with the dummy",
                params={"rule": "threechu_dealer"},
            )
        return self.teams(n, dealer)

    def next_shuffler(self, line: dict[str, Any], options: dict[str, Any]) -> int | None:
        dealer = line.get("shuffler")
        if dealer is None:
            return None
        if options.get("dealer_rotation") == "first_out":
            first = line["out"][0] if line["out"] else None
            return dealer if first in (None, self.DUMMY) else first
        if options.get("dealer_rotation") == "previous":
            return (dealer + 2) % 3  # the player on the dealer's left plays last in the dealer's hand
        return (dealer + 1) % 3


# --- Grand Seigneur ------------------------------------------------------------------------------

#: The order of the "best" cards for the tribute: Dragon, Phoenix, Mahjong, Dog, A, K, ..., 2.
TRIBUTE_ORDER = {DRAGON: 18, PHOENIX: 17, MAHJONG: 16, DOG: 15}


def tribute_rank(card: str) -> int:
    return TRIBUTE_ORDER.get(card) or rank(card)


GRAND_SEIGNEUR_OPTIONS = (
    option(
        "decks",
        None,
        Kind("choice", "null, 1 or 2", (Choice(1, "one deck"), Choice(2, "two decks")), nullable=True),
        "1 or 2 decks (null: rio two from 7 players on, as Rio advises; abacus and tiki always two, "
        "the French texts' 108 cards)",
        label="Decks",
        help="Play with one deck or two; unset: two from 7 players on (Rio Grande), always two in the French editions.",
    ),
    option(
        "dog",
        lambda p: p != "rio",
        _bool(),
        "keep the Dog (abacus); rio removes it",
        label="Keep the Dog",
        help="Play with the Dog (the Rio Grande edition takes it out).",
    ),
    option(
        "lord_seat",
        lambda p: "left" if p == "rio" else "right",
        _choice(("right", "in finishing order"), ("left", "the Lord on the Great Lord's left")),
        "where the ranks sit from the second hand, play going to the right: right (the French texts): "
        "the others sit to the Great Lord's right in the order they went out, so play follows the ranks; "
        "left (rio): the Lord on the Great Lord's left, the Wretch on his right, so the Wretch plays "
        "right after the Great Lord and the Lord last",
        label="Seating from the second hand",
        help="The players sit to the Great Lord's right in the order they went out, or the Lord sits on "
        "the Great Lord's left and the Wretch on his right.",
    ),
    option(
        "double_specials",
        False,
        _bool(),
        "Rio's literal two-deck reading: the second deck's Dragon and Phoenix stay in (its Dog and Mahjong are removed)",
        label="Two Dragons and two Phoenixes",
        help="With two decks, the second deck's Dragon and Phoenix stay in (only its Dog and Mahjong are taken out).",
    ),
    # Abacus "Le T...": "Le jeu de la carte est le même qu'au Tichu": the Tichu option, same presets
    next(o for o in TICHU_OPTIONS if o.name == "pass_is_final"),
    option(
        "distinct_suit_trios",
        lambda p: p == "abacus",
        _bool(),
        "trios, in full houses too, must be of three different suits (the French books)",
        label="Trios of three suits",
        help="Three of a kind, in a full house too, must be of three different suits.",
    ),
    option(
        "return_worst",
        lambda p: p == "abacus",
        _bool(),
        "the recipients of the tribute return their worst cards (abacus) instead of cards of their choice",
        label="Worst cards back",
        help="Those who receive the tribute give back their worst cards, not cards of their choice.",
    ),
    option(
        "scoring",
        "none",
        _choice(("none", "no points"), ("ranks", "points by finishing place")),
        "ranks: first out scores n-1, next n-2, ..., last 0",
        label="Points",
        help="Keep no score, or score each hand by finishing place: the first out one point per other player, "
        "each next one fewer, the last none.",
    ),
    option(
        "hands",
        None,
        _int_or_null(1),
        "a fixed number of hands (the game has no other end)",
        label="Number of hands",
        help="Play a fixed number of hands; without it the game has no set end.",
    ),
    DIRECTION_OPTION,
    option(
        "shuffler",
        "first_out",
        _choice(("first_out", "the Wretch"), ("any", "anyone")),
        "first_out: the Wretch (last of the previous hand) deals; any: not checked",
        label="Who deals",
        help="The Wretch, last out of the previous hand, deals the next one, or anyone may (not checked).",
    ),
)


#: Grand Seigneur's two ways of reading combinations (by option distinct_suit_trios), one object
#: each: the readings cache finds a rules object's table by its identity (combos.readings_of)
_GRAND_SEIGNEUR_COMBOS = {
    trios: ComboRules(four_of_a_kind_distinct_suits=True, trios_distinct_suits=trios, dragon_beats_dragon=True)
    for trios in (False, True)
}


@interpreted_class  # Variant's subclasses stay Python classes too (variants.py)
class GrandSeigneur(Variant):
    """Five to twelve players, each for themselves; seats change with each hand's finishing order."""

    name = "grand-seigneur"
    label = "Grand Seigneur"
    seat_counts = tuple(range(5, 13))
    options = GRAND_SEIGNEUR_OPTIONS
    has_calls = False
    has_wish = False
    has_dragon_gift = False
    sweep_size = 0
    result_has_card_points = False  # a hand result gives the finishing order alone
    max_hand = 12
    shuffler_rule = "the Wretch, last of the previous hand, deals"
    plain_push = False  # the tribute: counts by rank, the best (or worst) cards
    rank_scoring = True
    hand_spread = 3.0  # ranks, not card points

    def finish_options(self, options: dict[str, Any], n: int) -> dict[str, Any]:
        if options.get("decks") is None:
            # Rio: "We recommend the use of two decks when playing Grand Seigneur with 7 or more
            # players". The French texts (000's Abacus translation, 003) always play with 108
            # cards: "A 8 joueurs ou moins, il reste des cartes qui ne sont pas utilisées".
            options["decks"] = 2 if n >= 7 or options.get("preset") != "rio" else 1
        return options

    def combo_rules_for(self, options: dict[str, Any]) -> ComboRules:
        return _GRAND_SEIGNEUR_COMBOS[bool(options.get("distinct_suit_trios"))]

    def deck(self, options: dict[str, Any]) -> tuple[str, ...]:
        decks = options.get("decks") or 1
        specials = [MAHJONG, PHOENIX, DRAGON] + ([DOG] if options.get("dog") else [])
        if decks == 2 and options.get("double_specials"):
            specials += [PHOENIX, DRAGON]
        return tuple(NORMAL_CARDS) * decks + tuple(specials)

    def teams(self, n: int, shuffler: int | None) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(n))

    def score_columns(self, n: int) -> int:
        return n

    def layout(
        self, n: int, shuffler: int, ranks: tuple[int, ...], options: dict[str, Any]
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The players sit by the previous hand's finishing order, the Great Lord at the head of the
        table; play goes to the right, as in Tichu. The books seat the others differently (option
        `lord_seat`):

        - right (the French texts): "les autres joueurs se placent autour de la table, à sa droite,
          selon l'ordre de leur sortie": the order of play is the finishing order, Great Lord,
          Lord, ..., Wretch;
        - left (Rio, 001): "On his left is the number two in the hierarchy, the Lord ... In last
          place - so at the right of the Great Lord - sits the Wretch": play goes from the Great
          Lord to the Wretch, then up the ranks to the Lord.

        The Great Lord comes first in the order of play either way. The first hand keeps the
        record's seat order."""
        if not ranks:
            order = tuple(range(n))
        elif options.get("lord_seat") == "left":
            order = ranks[:1] + ranks[:0:-1]
        else:
            order = ranks
        return order, self.teams(n, shuffler)

    def hand_sizes(self, n: int, shuffler: int, order: tuple[int, ...], deck_size: int) -> list[int]:
        """Dealt one at a time from the dealer's next player on, at most 12 each; what is left lies aside."""
        sizes = [0] * n
        start = order.index(shuffler) + 1
        for k in range(min(deck_size, self.max_hand * n)):
            sizes[order[(start + k) % n]] += 1
        return sizes

    def grand_tichu_limit(self, hand: HandView, seat: int) -> int | None:
        return None

    def may_call(self, hand: HandView, seat: int) -> bool:
        return False

    def _tribute_levels(self, hand: "Hand") -> list[tuple[int, int, int]]:
        """(giver, receiver, cards) from the Wretch up, from the second hand on."""
        ranks = hand.ranks
        if not ranks:
            return []
        n = len(ranks)
        levels = 3 if n >= 6 else 2
        return [(ranks[n - 1 - i], ranks[i], levels - i) for i in range(levels)]

    def push_targets(self, hand: "Hand", seat: int) -> tuple[int, ...]:
        for giver, receiver, _ in self._tribute_levels(hand):
            if seat == giver:
                return (receiver,)
            if seat == receiver:
                return (giver,)
        return ()

    def push_counts(self, hand: "Hand", seat: int) -> dict[int, int]:
        for giver, receiver, k in self._tribute_levels(hand):
            if seat == giver:
                return {receiver: k}
            if seat == receiver:
                return {giver: k}
        return {}

    def _must_give(self, hand: "Hand", seat: int, k: int) -> tuple[list[str], str] | None:
        """The `k` cards the seat must give (one choice among equal ranks) and which they are:
        a giver its best, with return_worst a receiver its worst; None where it chooses."""
        ranked = sorted(hand.cards[seat], key=tribute_rank)
        if any(seat == g for g, _, _ in self._tribute_levels(hand)):
            return ranked[-k:], "best"
        if hand.options.get("return_worst"):
            return ranked[:k], "worst"
        return None

    def push_forced(self, hand: "Hand", seat: int) -> dict[int, list[str]]:
        for target, k in self.push_counts(hand, seat).items():
            must = self._must_give(hand, seat, k)
            return {target: must[0]} if must else {}
        return {}

    def check_push(self, hand: "Hand", seat: int, given: dict[int, list[str]]) -> None:
        """The lower ranks give their best cards; with return_worst the upper ranks their worst."""
        (cards,) = given.values()
        k = len(cards)
        forced = self._must_give(hand, seat, k)
        if forced is None:
            return
        must, what = forced
        if sorted(map(tribute_rank, cards)) != sorted(map(tribute_rank, must)):
            raise EngineError(
                "push_invalid",
                f"seat {seat} must give its {k} {what} card{'s' if k > 1 else ''} ({describe(must)}), not {describe(cards)}",
                params={
                    "rule": f"tribute_{what}",
                    "seat": seat,
                    "count": k,
                    "expected": list(must),
                    "cards": list(cards),
                },
            )

    def first_leader(self, hand: "Hand") -> int:
        for seat in hand.order:
            if MAHJONG in hand.cards[seat]:
                return seat
        return hand.order[0]  # the Mahjong lies aside: the Great Lord (first in order of play) leads

    def dog_lead(self, hand: "Hand", seat: int, to: int | None) -> int:
        if to is not None:
            raise EngineError(
                "not_in_variant",
                "in Grand Seigneur the Dog gives the lead to the Wretch; 'to' is not chosen",
                params={"rule": "wretch_dog"},
            )
        wretch = hand.ranks[-1] if hand.ranks else hand.next_holder(seat)
        return hand.next_holder(wretch, include_self=True)

    def is_opponent(self, hand: "Hand", seat: int, other: int) -> bool:
        return seat != other

    def hand_over(self, hand: "Hand") -> bool:
        return hand.holders_count() <= 1

    def rank_points(self, out: list[int], n: int, options: dict[str, Any]) -> list[int]:
        points = [0] * n
        if options.get("scoring") == "ranks":
            for i, seat in enumerate(out):
                points[seat] = n - 1 - i
        return points

    def score_hand(self, hand: "Hand", options: dict[str, Any]) -> dict[str, Any]:
        n = len(hand.order)
        out = list(hand.out) + [s for s in hand.order if hand.cards[s]]
        return {
            "card_points": [0] * n,
            "points": self.rank_points(out, n, options),
            "out": out,
            "double_victory": False,
        }

    def result_line(
        self, n: int, event: dict[str, Any], calls: dict[int, str], out: list[int], options: dict[str, Any]
    ) -> dict[str, Any]:
        if event.get("points") is not None:
            raise EngineError(
                "result_invalid",
                "Grand Seigneur has no card points: a hand result gives the finishing order",
                params={"rule": "gs_no_points"},
            )
        if len(out) != n:
            raise EngineError(
                "result_invalid",
                f"a Grand Seigneur hand result gives the whole finishing order ({n} seats)",
                params={"rule": "gs_whole_order", "seats": n},
            )
        return {
            "card_points": [0] * n,
            "points": self.rank_points(out, n, options),
            "out": list(out),
            "double_victory": False,
        }

    def next_shuffler(self, line: dict[str, Any], options: dict[str, Any]) -> int | None:
        return line["out"][-1] if line["out"] else None  # the Wretch deals

    def game_result(self, totals: list[int], hands_played: int, options: dict[str, Any]) -> tuple[bool, int | None]:
        if not options.get("hands") or hands_played < options["hands"]:
            return False, None
        if options.get("scoring") == "ranks":
            best = max(totals)
            leaders = [i for i, t in enumerate(totals) if t == best]
            return True, leaders[0] if len(leaders) == 1 else None
        return True, None


TIENTSIN = Tientsin()
THREECHU = Threechu()
GRAND_SEIGNEUR = GrandSeigneur()

__all__ = ["TIENTSIN", "THREECHU", "GRAND_SEIGNEUR", "tribute_rank"]
