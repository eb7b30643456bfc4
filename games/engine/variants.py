"""Variant descriptions: everything the fold asks of a game of the family.

The fold in :mod:`state` knows nothing of seat counts, teams or deck sizes: it asks the variant
(seats, teams, the deck, hand sizes, the Grand Tichu window, the exchange pattern, the Dog's lead,
when a hand is over, how it scores, when the game is over). Tichu Nanking is the base class;
other games override what differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .cards import MAHJONG, TICHU_DECK, card_points
from .combos import NANKING_COMBOS, ComboRules
from .errors import EngineError
from .interpreted import interpreted_class
from .options import TICHU_OPTIONS, Option

if TYPE_CHECKING:  # pragma: no cover
    from .state import Hand

CALL_BONUS = {"tichu": 100, "grand_tichu": 200}

#: what the call hooks and score_penalty are given: a Hand, or a stand-in with the fields they
#: read (a score-sheet line's probe in hand_end.py, tests' namespaces). Any, not Hand: compiled,
#: a parameter typed Hand refuses every other class.
HandView = Any


@interpreted_class  # a Python class whose methods compile: the family's games and tests subclass it
class Variant:
    """Tichu Nanking: four players, teams {0,2} and {1,3}, 56 cards drawn 14 each."""

    name = "nanking"
    label = "Tichu"  # the game's name in words (pages, messages)
    seat_counts: tuple[int, ...] = (4,)
    options: tuple[Option, ...] = TICHU_OPTIONS
    combo_rules: ComboRules = NANKING_COMBOS
    grand_tichu_cards = 8  # Grand Tichu while a seat has received at most this many cards
    double_victory_bonus = 200
    has_calls = True
    has_wish = True
    has_dragon_gift = True
    #: a hand result (and the score sheet) names each team's card points (Grand Seigneur: the
    #: finishing order alone)
    result_has_card_points = True
    #: the exchange is one card to each other seat, any card (push_counts and check_push as
    #: here): the quick push, the bot's and the legal actions' shortcut (Grand Seigneur: False)
    plain_push = True
    #: a hand can be scored by its finishing order alone (rank_points; Grand Seigneur)
    rank_scoring = False
    #: the spread of one hand's score difference between two sides (GameInfo.hand_spread)
    hand_spread = 200.0

    # --- seats and teams ---------------------------------------------------------------------

    def check_players(self, players: Sequence[str]) -> None:
        if len(players) not in self.seat_counts:
            seats = sorted(self.seat_counts)
            contiguous = len(seats) > 2 and seats[-1] - seats[0] == len(seats) - 1
            counts = f"{seats[0]} to {seats[-1]}" if contiguous else " or ".join(map(str, seats))
            if len(seats) == 1:
                said: dict[str, Any] = {"rule": "players", "count": seats[0]}
            elif contiguous:
                said = {"rule": "players_range", "low": seats[0], "high": seats[-1]}
            else:  # no game yet: "4 or 6" has no words ("or" is English), the message is said
                said = {}
            raise EngineError(
                "malformed",
                f"{self.label} is played by {counts} players, the record names {len(players)}",
                params={**said, "variant": self.name, "given": len(players)},
            )

    def seat_count(self, players: Sequence[str]) -> int:
        return len(players)

    def seat_names(self, players: Sequence[str], lang: str | None = None) -> list[str]:
        """What to call each seat (Threechu's dummy has no player of its own, and its name is the
        engine's word in ``lang``: wording's ``seat_name:dummy``)."""
        return list(players)

    def hands_seen(self, seat: int, shuffler: int | None) -> frozenset[int]:
        """The seats whose hands the player at ``seat`` sees during a hand shuffled by
        ``shuffler``: its own (Threechu's dealer sees the dummy's too)."""
        return frozenset((seat,))

    def teams(self, n: int, shuffler: int | None) -> tuple[tuple[int, ...], ...]:
        """Seats by team; teams alternate around the table."""
        return tuple(tuple(range(t, n, 2)) for t in range(2))

    def score_columns(self, n: int) -> int:
        """How many totals the score sheet keeps (teams here, players in Threechu)."""
        return 2

    def order_of_play(self, n: int, shuffler: int) -> tuple[int, ...]:
        return tuple(range(n))

    def layout(
        self, n: int, shuffler: int, ranks: tuple[int, ...], options: dict[str, Any]
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The order of play and the teams of a new hand (`ranks`: the previous hand's whole
        finishing order, or empty)."""
        return self.order_of_play(n, shuffler), self.teams(n, shuffler)

    def dealers(self, n: int) -> tuple[int, ...]:
        """The seats that may shuffle or deal at all."""
        return tuple(range(n))

    def check_shuffler(self, n: int, seat: int) -> None:
        """Who may shuffle at all (the dummy of Threechu never deals)."""
        if seat not in self.dealers(n):
            raise EngineError(
                "not_your_turn",
                f"seat {seat} never deals in {self.label}: the dealer is one of seats {', '.join(map(str, self.dealers(n)))}",
                params={
                    "rule": "never_deals",
                    "seat": seat,
                    "variant": self.name,
                    "dealers": ", ".join(map(str, self.dealers(n))),
                },
            )

    def finish_options(self, options: dict[str, Any], n: int) -> dict[str, Any]:
        """Fill options whose default depends on the number of players."""
        return options

    def check_options(self, options: dict[str, Any], n: int) -> None:
        """Refuse option values that contradict each other or the table."""

    def combo_rules_for(self, options: dict[str, Any]) -> ComboRules:
        return self.combo_rules

    # --- the deal ----------------------------------------------------------------------------

    def deck(self, options: dict[str, Any]) -> tuple[str, ...]:
        return TICHU_DECK

    def hand_sizes(self, n: int, shuffler: int, order: tuple[int, ...], deck_size: int) -> list[int]:
        """Cards each seat receives: the deck drawn one by one in order of play from the shuffler.
        Counted, not drawn (every hand asks): each seat in order gets the same share, and the
        first ``deck_size % len(order)`` from the shuffler on one card more."""
        sizes = [0] * n
        m = len(order)
        start = order.index(shuffler)
        share, extra = divmod(deck_size, m)
        for j in range(m):
            sizes[order[(start + j) % m]] += share + (1 if j < extra else 0)
        return sizes

    def grand_tichu_limit(self, hand: HandView, seat: int) -> int | None:
        """The most cards a seat may hold when calling Grand Tichu (None: it may not call)."""
        if not hand.options.get("grand_tichu", True):
            return None
        return self.grand_tichu_cards

    def sweep_points(self, options: dict[str, Any]) -> int:
        """The card points of a double (Tientsin: triple) victory, option double_victory_points."""
        value = options.get("double_victory_points")
        return self.double_victory_bonus if value is None else value

    def may_call(self, hand: HandView, seat: int) -> bool:
        return True

    def push_targets(self, hand: "Hand", seat: int) -> tuple[int, ...]:
        """Seats this seat pushes one card each to at the exchange (empty: no exchange)."""
        # the others in order of play (every push asks): compiled, a comprehension of native ints
        # is several times cheaper than filter() over a bound __ne__
        return tuple([s for s in hand.order if s != seat])

    def push_counts(self, hand: "Hand", seat: int) -> dict[int, int]:
        """How many cards the seat gives each target."""
        return dict.fromkeys(self.push_targets(hand, seat), 1)

    def check_push(self, hand: "Hand", seat: int, given: dict[int, list[str]]) -> None:
        """Rules on which cards are given (Grand Seigneur's tribute of the best cards)."""

    def push_forced(self, hand: "Hand", seat: int) -> dict[int, list[str]]:
        """The cards the seat must give, where the rules leave it no choice but among cards of
        equal rank (Grand Seigneur's tribute): one such choice, by target; {} where it chooses."""
        return {}

    def first_leader(self, hand: "Hand") -> int:
        for seat in hand.order:
            if MAHJONG in hand.cards[seat]:
                return seat
        return hand.shuffler

    # --- play --------------------------------------------------------------------------------

    def wish_exempt(self, hand: "Hand", seat: int) -> bool:
        return False

    def dog_lead(self, hand: "Hand", seat: int, to: int | None) -> int:
        """Who leads after the Dog: the partner (the next teammate in order of play: the seat
        opposite with four), or the next player after the partner who still holds cards (back to
        the Dog's player if need be)."""
        i, n = hand.order.index(seat), len(hand.order)
        partner = next(
            s for s in (hand.order[(i + k) % n] for k in range(1, n)) if hand.team_of[s] == hand.team_of[seat]
        )
        if to is not None and to != partner:
            raise EngineError(
                "not_in_variant",
                f"in {self.label} the Dog gives the lead to the partner (seat {partner}); 'to' is not chosen",
                params={"rule": "dog_to", "variant": self.name, "partner": partner},
            )
        return hand.next_holder(partner, include_self=True)

    def is_opponent(self, hand: "Hand", seat: int, other: int) -> bool:
        return hand.team_of[seat] != hand.team_of[other]

    # --- hand end and scoring ----------------------------------------------------------------

    sweep_size = 2  # the first two out are partners: a double victory

    def sweep_of(self, out: Sequence[int], team_of: Sequence[int]) -> int | None:
        """The team that ended the hand at once by going out together, if any."""
        k = self.sweep_size
        if k and len(out) >= k and len({team_of[s] for s in out[:k]}) == 1:
            return team_of[out[0]]
        return None

    def sweep(self, hand: "Hand") -> int | None:
        return self.sweep_of(hand.out, hand.team_of)

    def hand_over(self, hand: "Hand") -> bool:
        return hand.holders_count() <= 1 or self.sweep(hand) is not None

    def card_points_by_team(self, hand: "Hand") -> list[int]:
        """Card points after the end-of-hand transfers: the tailender's hand cards go to the
        opposing team and the tailender's tricks to the first player out."""
        piles = [list(cards) for cards in hand.won]
        to_team: list[list[str]] = [[] for _ in hand.teams]
        tail = [s for s in hand.order if hand.cards[s]]
        if tail:
            last = tail[0]
            first = hand.out[0]
            piles[first] += piles[last]
            piles[last] = []
            opponents = next(t for t, seats in enumerate(hand.teams) if last not in seats)
            to_team[opponents] += hand.cards[last]
        points = [card_points(to_team[t]) for t in range(len(hand.teams))]
        for seat, pile in enumerate(piles):
            points[hand.team_of[seat]] += card_points(pile)
        return points

    def call_points(
        self, calls: dict[int, str], first_out: int | None, team_of: Sequence[int], options: dict[str, Any]
    ) -> list[int]:
        """Calls are individual: each caller's team wins the bonus if the caller went out first,
        else loses it."""
        points = [0] * (max(team_of) + 1)
        quirk_dropped: set[int] = set()
        quirk = options.get("bsw_grand_tichu_quirk")
        if quirk and first_out is not None:
            # BSW does not charge the failed Grand Tichu of the first out's partner: always
            # (partner_grand), or only when the first out called Grand Tichu too (both_grand, true)
            grand = [s for s, c in calls.items() if c == "grand_tichu"]
            for s in grand:
                if (
                    s != first_out
                    and team_of[s] == team_of[first_out]
                    and (quirk == "partner_grand" or first_out in grand)
                ):
                    quirk_dropped.add(s)
        for seat, call in calls.items():
            if seat in quirk_dropped:
                continue
            bonus = CALL_BONUS[call]
            points[team_of[seat]] += bonus if seat == first_out else -bonus
        return points

    def rank_points(self, out: list[int], n: int, options: dict[str, Any]) -> list[int] | None:
        """Each seat's points for a hand scored by its finishing order alone (Grand Seigneur's
        ``scoring: ranks``), or None in a game without that scoring."""
        return None

    def score_hand(self, hand: "Hand", options: dict[str, Any]) -> dict[str, Any]:
        sweep = self.sweep(hand)
        if sweep is not None:
            cards = [0] * len(hand.teams)
            cards[sweep] = self.sweep_points(options)
        else:
            cards = self.card_points_by_team(hand)
        out = list(hand.out) + [s for s in hand.order if hand.cards[s]]
        calls = self.call_points(hand.calls, hand.out[0] if hand.out else None, hand.team_of, options)
        return {
            "card_points": self.per_column(cards, hand.team_of),
            "points": self.per_column([c + k for c, k in zip(cards, calls)], hand.team_of),
            "out": out,
            "double_victory": sweep is not None,
        }

    def score_penalty(self, hand: HandView, offender: int, options: dict[str, Any]) -> dict[str, Any]:
        """A missed wish noticed at the table (tiki FAQ): the offender's opponents score 200, the
        offender's team nothing; a call succeeds only if its caller was already out first."""
        cards = [0] * len(hand.teams)
        for t, seats in enumerate(hand.teams):
            if offender not in seats:
                cards[t] = 200
        calls = self.call_points(hand.calls, hand.out[0] if hand.out else None, hand.team_of, options)
        return {
            "card_points": self.per_column(cards, hand.team_of),
            "points": self.per_column([c + k for c, k in zip(cards, calls)], hand.team_of),
            "out": list(hand.out),
            "double_victory": False,
        }

    def result_teams(self, n: int, event: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
        """The teams of a hand recorded as a score-sheet line."""
        return self.teams(n, None)

    def result_line(
        self, n: int, event: dict[str, Any], calls: dict[int, str], out: list[int], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Check a ``hand_result`` (record-format.md section 3) and score it like a played hand."""
        teams = self.result_teams(n, event)
        team_of = [0] * n
        for t, seats in enumerate(teams):
            for s in seats:
                team_of[s] = t
        points = event.get("points")
        if not out:
            raise EngineError(
                "result_invalid", "a hand result names at least who went out first", params={"rule": "result_no_out"}
            )
        sweep = self.sweep_of(out, team_of)
        if sweep is not None:
            if points is not None:
                raise EngineError(
                    "result_invalid",
                    f"seats {', '.join(map(str, out[: self.sweep_size]))} went out first as a team: that hand has no card points",
                    params={"rule": "result_sweep_points", "seats": ", ".join(map(str, out[: self.sweep_size]))},
                )
            cards = [0] * len(teams)
            cards[sweep] = self.sweep_points(options)
        else:
            self._check_card_points(points, len(teams))
            assert points is not None  # checked just above
            cards = list(points)
        bonus = self.call_points(calls, out[0], team_of, options)
        return {
            "card_points": self.per_column(cards, team_of),
            "points": self.per_column([c + k for c, k in zip(cards, bonus)], team_of),
            "out": list(out),
            "double_victory": sweep is not None,
        }

    def _check_card_points(self, points: Any, teams: int) -> None:
        if points is None:
            raise EngineError(
                "result_invalid",
                "card points are required unless one team went out first together",
                params={"rule": "result_points_required"},
            )
        if (
            not isinstance(points, list)
            or len(points) != teams
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        ):
            raise EngineError(
                "result_invalid",
                f"points must be a list of {teams} integers, one per team",
                params={"rule": "result_points_list", "teams": teams},
            )
        for p in points:
            if p % 5 or not -25 <= p <= 125:
                raise EngineError(
                    "result_invalid",
                    f"card points {p} must be a multiple of 5 between -25 and 125",
                    params={"rule": "result_points_value", "points": p},
                )
        if sum(points) != 100:
            raise EngineError(
                "result_invalid",
                f"card points {points} must sum to 100, not {sum(points)}",
                params={"rule": "result_points_sum", "points": str(points), "total": sum(points)},
            )

    def per_column(self, team_points: list[int], team_of: Sequence[int]) -> list[int]:
        """Team points as the score sheet keeps them (per team here; per player in Threechu)."""
        return team_points

    # --- game end ----------------------------------------------------------------------------

    def game_result(self, totals: list[int], hands_played: int, options: dict[str, Any]) -> tuple[bool, int | None]:
        """(over, winner): a fixed number of hands, or a target reached with a unique leader."""
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        if options.get("hands"):
            if hands_played >= options["hands"]:
                return True, leaders[0] if len(leaders) == 1 else None
            return False, None
        if best >= options["target_score"] and len(leaders) == 1:
            return True, leaders[0]
        return False, None

    shuffler_rule = "the first player out of the previous hand shuffles"

    def next_shuffler(self, line: dict[str, Any], options: dict[str, Any]) -> int | None:
        out = line["out"]
        return out[0] if out else None

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


NANKING = Variant()

VARIANTS: dict[str, Variant] = {"nanking": NANKING}
#: the games of the Tichu family, in the order pages list them (family_game.py)
FAMILY_VARIANTS = ("nanking", "threechu", "tientsin", "grand-seigneur")


def get_variant(name: object) -> Variant:
    if name not in VARIANTS and name in FAMILY_VARIANTS:
        from . import family  # noqa: F401  (registers the other games of the books)

        VARIANTS.update({v.name: v for v in (family.TIENTSIN, family.THREECHU, family.GRAND_SEIGNEUR)})
    if name in VARIANTS:
        return VARIANTS[name]
    from .game import find_game, unknown_variant  # the register of every game (game.py)

    if find_game(name) is not None:  # a game of its own rules, not of the family
        raise EngineError(
            "not_in_variant",
            f"the {name} rules are not implemented yet",
            params={"rule": "not_implemented", "variant": name},
        )
    raise unknown_variant(name)
