"""Combinations: what a set of cards is, which combination beats which, and every combination
a hand can form.

A combination is a value (:class:`Combination`): its kind, its length in cards, and the rank that
orders it within its kind (the top rank of a straight or stairs, the trio of a full house). The
Phoenix stands for one rank in a multi-card combination (``phoenix`` says which); as a single it
ranks half above the single it is played on (1.5 when led).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from .cards import (
    CARD_INFO,
    DOG,
    DRAGON,
    DRAGON_RANK,
    PHOENIX,
    rank_code,
)

SINGLE = "single"
PAIR = "pair"
STAIRS = "stairs"  # two or more consecutive pairs
TRIO = "trio"
FULL_HOUSE = "full_house"
STRAIGHT = "straight"
BOMB = "bomb"  # four of a kind (length 4) or straight flush (length >= 5)
DOG_LEAD = "dog"

PHOENIX_LED_RANK = 1.5


@dataclass(frozen=True, slots=True)
class ComboRules:
    """The few ways variants differ on what forms or beats a combination."""

    four_of_a_kind_distinct_suits: bool = False  # Grand Seigneur with two decks
    trios_distinct_suits: bool = False  # Grand Seigneur, French books (option distinct_suit_trios)
    dragon_beats_dragon: bool = False  # Grand Seigneur: a second Dragon beats the first

    def __reduce__(self) -> tuple[type[ComboRules], tuple[bool, bool, bool]]:
        # rebuilt by its constructor: the compiled build (mypyc_build.py) restores a pickled object field
        # by field, which a frozen class refuses
        return ComboRules, (self.four_of_a_kind_distinct_suits, self.trios_distinct_suits, self.dragon_beats_dragon)


NANKING_COMBOS = ComboRules()


@dataclass(frozen=True, slots=True)
class Combination:
    kind: str
    length: int
    rank: float
    cards: tuple[str, ...]
    phoenix: int | None = None  # the rank the Phoenix stands for in a multi-card combination

    def __reduce__(self) -> tuple[type[Combination], tuple[str, int, float, tuple[str, ...], int | None]]:
        # rebuilt by its constructor, as ComboRules is
        return Combination, (self.kind, self.length, self.rank, self.cards, self.phoenix)

    @property
    def is_bomb(self) -> bool:
        return self.kind == BOMB

    def describe(self) -> str:
        name = {
            SINGLE: "single",
            PAIR: "pair",
            STAIRS: f"stairs of {self.length // 2} pairs",
            TRIO: "trio",
            FULL_HOUSE: "full house",
            STRAIGHT: f"straight of {self.length}",
            BOMB: "four-of-a-kind bomb" if self.length == 4 else f"straight-flush bomb of {self.length}",
            DOG_LEAD: "Dog",
        }[self.kind]
        text = f"{name} {' '.join(self.cards)}"
        if self.phoenix is not None:
            text += f" (Phoenix as {rank_code(self.phoenix)})"
        return text


def _consecutive(sorted_ranks: Sequence[int]) -> bool:
    return all(b - a == 1 for a, b in zip(sorted_ranks, sorted_ranks[1:]))


def _plain_reading(
    cards: tuple[str, ...], ranks: list[int], suits: list[str], phoenix: int | None, rules: ComboRules
) -> Combination | None:
    """Classify cards whose ranks are all known (the Phoenix already given a rank)."""
    n = len(ranks)
    counts = Counter(ranks)
    has_mahjong = 1 in counts
    real_suits = [s for s in suits if s]
    if n == 1:
        return Combination(SINGLE, 1, ranks[0], cards)
    if has_mahjong and n < 5:
        return None  # the Mahjong is a 1 only in a straight
    if n == 2:
        return Combination(PAIR, 2, ranks[0], cards, phoenix) if len(counts) == 1 else None
    if n == 3:
        if len(counts) != 1:
            return None
        if rules.trios_distinct_suits and len(set(real_suits)) != len(real_suits):
            return None
        return Combination(TRIO, 3, ranks[0], cards, phoenix)
    if n == 4 and len(counts) == 1:
        if phoenix is not None:
            return None  # the Phoenix never makes a bomb
        if rules.four_of_a_kind_distinct_suits and len(set(suits)) != 4:
            return None
        return Combination(BOMB, 4, ranks[0], cards)
    distinct = sorted(counts)
    if n >= 4 and n % 2 == 0 and not has_mahjong and all(v == 2 for v in counts.values()) and _consecutive(distinct):
        return Combination(STAIRS, n, distinct[-1], cards, phoenix)
    if n == 5 and sorted(counts.values()) == [2, 3]:
        trio_rank = next(r for r, v in counts.items() if v == 3)
        if rules.trios_distinct_suits:
            trio_suits = [s for r, s in zip(ranks, suits) if r == trio_rank and s]
            if len(set(trio_suits)) != len(trio_suits):
                return None
        return Combination(FULL_HOUSE, 5, trio_rank, cards, phoenix)
    if n >= 5 and len(counts) == n and _consecutive(distinct):
        if phoenix is None and not has_mahjong and len(set(suits)) == 1:
            return Combination(BOMB, n, distinct[-1], cards)  # a straight flush is always a bomb
        return Combination(STRAIGHT, n, distinct[-1], cards, phoenix)
    return None


def readings(cards: Sequence[str], rules: ComboRules = NANKING_COMBOS) -> list[Combination]:
    """Every way the cards can be read as one combination (several only with the Phoenix).

    A single Phoenix is returned with rank 0: its rank depends on the table (see :func:`on_table`).

    >>> [c.kind for c in readings(["5s", "5j"])]
    ['pair']
    >>> [(c.kind, c.rank) for c in readings(["5s", "5j", "6s", "6j", "Phoenix"])]
    [('full_house', 5), ('full_house', 6)]
    """
    return list(readings_of(tuple(cards), rules))


# Every play of every fold asks for its readings, and the same plays recur (the engine's hot path):
# the answer depends only on the cards and the variant's rules, and Combination is immutable. The
# answers are kept per rules object, found by its identity (a variant keeps one): an lru_cache
# keyed by (cards, rules) hashed the rules at every call, a Python-level __hash__ (a frozen
# dataclass's), which cost more than the rest of the lookup.
_READINGS: dict[int, tuple[ComboRules, dict[tuple[str, ...], tuple[Combination, ...]]]] = {}
_READINGS_BY_VALUE: dict[ComboRules, dict[tuple[str, ...], tuple[Combination, ...]]] = {}
_READINGS_KEPT = 1 << 16  # per rules value; the table starts again past it


def readings_of(cards: tuple[str, ...], rules: ComboRules) -> tuple[Combination, ...]:
    """:func:`readings` of a tuple of cards, as a tuple (shared: no copy per call)."""
    entry = _READINGS.get(id(rules))
    if entry is not None and entry[0] is rules:
        found = entry[1].get(cards)
        if found is not None:
            return found
    return _keep_readings(cards, rules)


def _keep_readings(cards: tuple[str, ...], rules: ComboRules) -> tuple[Combination, ...]:
    """:func:`readings_of` the first time: read the cards and keep the answer (the entry holds
    the rules object itself, so its id cannot be reused while the table is kept)."""
    entry = _READINGS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_READINGS) >= 64:  # rules objects made per game (equal ones share their table)
            _READINGS.clear()
        entry = _READINGS[id(rules)] = (rules, _READINGS_BY_VALUE.setdefault(rules, {}))
    table = entry[1]
    if len(table) >= _READINGS_KEPT:
        table.clear()
    found = table[cards] = tuple(_read(cards, rules))
    return found


def _read(cards: tuple[str, ...], rules: ComboRules) -> list[Combination]:
    n = len(cards)
    if n == 0:
        return []
    if n == 1:
        card = cards[0]
        if card == DOG:
            return [Combination(DOG_LEAD, 1, 0, cards)]
        if card == PHOENIX:
            return [Combination(SINGLE, 1, 0, cards)]
        return [Combination(SINGLE, 1, CARD_INFO[card][0], cards)]
    if DOG in cards or DRAGON in cards:
        return []  # the Dog and the Dragon are only ever played alone
    phoenixes = cards.count(PHOENIX)
    if phoenixes > 1:
        return []
    ranks = [CARD_INFO[c][0] for c in cards if c != PHOENIX]
    suits = [CARD_INFO[c][1] for c in cards if c != PHOENIX]
    if not phoenixes:
        combo = _plain_reading(cards, ranks, suits, None, rules)
        return [combo] if combo else []
    found: dict[tuple[str, float], Combination] = {}
    for stand_in in range(2, 15):  # never the 1, never a special
        combo = _plain_reading(cards, ranks + [stand_in], suits + [""], stand_in, rules)
        if combo is not None:
            found.setdefault((combo.kind, combo.rank), combo)
    return sorted(found.values(), key=lambda c: (c.kind, c.rank))


def on_table(combo: Combination, top: Combination | None) -> Combination:
    """Give a single Phoenix its rank for this moment: half above the single it is played on."""
    if combo.kind == SINGLE and combo.cards == (PHOENIX,):
        if top is None:
            return Combination(SINGLE, 1, PHOENIX_LED_RANK, combo.cards)
        if top.kind == SINGLE:
            return Combination(SINGLE, 1, top.rank + 0.5, combo.cards)
    return combo


def beats(new: Combination, top: Combination | None, rules: ComboRules = NANKING_COMBOS) -> bool:
    """Whether ``new`` may be played on ``top`` (``None``: leading, anything but nothing goes)."""
    if top is None:
        return True
    if new.kind == DOG_LEAD or top.kind == DOG_LEAD:
        return False
    if new.is_bomb:
        return not top.is_bomb or (new.length, new.rank) > (top.length, top.rank)
    if top.is_bomb or new.kind != top.kind or new.length != top.length:
        return False
    if new.kind == SINGLE:
        if new.cards == (PHOENIX,):
            return top.rank < DRAGON_RANK
        if new.rank == DRAGON_RANK and top.rank == DRAGON_RANK:
            return rules.dragon_beats_dragon and top.cards == (DRAGON,)
    return new.rank > top.rank


# --- enumeration -------------------------------------------------------------------------------


def _distinct_choices(cards: Sequence[str], k: int) -> Iterator[tuple[str, ...]]:
    """k-subsets of a multiset of card codes, each once."""
    seen = set()
    for choice in itertools.combinations(sorted(cards), k):
        if choice not in seen:
            seen.add(choice)
            yield choice


def _runs(
    by_rank: dict[int, list[str]],
    has_phoenix: bool,
    per_rank: int,
    min_len: int,
    start_min: int,
    exact_len: int | None = None,
) -> Iterator[tuple[tuple[str, ...], int | None]]:
    """Card tuples forming a run of consecutive ranks, ``per_rank`` cards each (straights: 1,
    stairs: 2), the Phoenix filling at most one missing card (never the Mahjong's 1)."""
    plain = {r: list(_distinct_choices(cs, per_rank)) for r, cs in by_rank.items()}
    with_phoenix = {}
    if has_phoenix:
        for r in range(max(2, start_min), 15):
            with_phoenix[r] = [c + (PHOENIX,) for c in _distinct_choices(by_rank.get(r, ()), per_rank - 1)]
    max_len = exact_len if exact_len is not None else 15 * per_rank

    def extend(r: int, acc: tuple[str, ...], stand_in: int | None) -> Iterator[tuple[tuple[str, ...], int | None]]:
        if r > 14 or len(acc) + per_rank > max_len:
            return
        for choice in plain.get(r, ()):
            cards = acc + choice
            if len(cards) >= min_len and (exact_len is None or len(cards) == exact_len):
                yield cards, stand_in
            yield from extend(r + 1, cards, stand_in)
        if stand_in is None:
            for choice in with_phoenix.get(r, ()):
                cards = acc + choice
                if len(cards) >= min_len and (exact_len is None or len(cards) == exact_len):
                    yield cards, r
                yield from extend(r + 1, cards, r)

    for start in range(start_min, 15):
        yield from extend(start, (), None)


def _straight_flushes(hand: Sequence[str]) -> Iterator[tuple[tuple[str, ...], None]]:
    """Runs of five or more consecutive ranks in one suit."""
    by_suit: dict[str, dict[int, str]] = {}
    for c in hand:
        r, s = CARD_INFO[c]
        if s:
            by_suit.setdefault(s, {})[r] = c
    for ranks in by_suit.values():
        for lo in range(2, 11):
            hi = lo
            while hi in ranks:
                if hi - lo + 1 >= 5:
                    yield tuple(ranks[r] for r in range(lo, hi + 1)), None
                hi += 1


def _candidates(
    hand: Sequence[str], kinds: set[str] | None, length: int | None
) -> Iterator[tuple[tuple[str, ...], int | None]]:
    """Card tuples (and the Phoenix's rank) that may form a combination of the wanted kinds."""
    want = (lambda k: True) if kinds is None else kinds.__contains__
    has_phoenix = PHOENIX in hand
    by_rank: dict[int, list[str]] = {}
    for c in hand:
        r = CARD_INFO[c][0]
        if 1 <= r <= 14:
            by_rank.setdefault(r, []).append(c)
    normal = {r: cs for r, cs in by_rank.items() if r >= 2}
    if want(SINGLE) or want(DOG_LEAD):
        for c in sorted(set(hand)):
            yield (c,), None
    for k, kind in ((2, PAIR), (3, TRIO), (4, BOMB)):
        if not want(kind):
            continue
        for r, cs in normal.items():
            yield from ((c, None) for c in _distinct_choices(cs, k))
            if has_phoenix and k < 4:
                yield from ((c + (PHOENIX,), r) for c in _distinct_choices(cs, k - 1))
    if want(FULL_HOUSE):
        for tr, tcs in normal.items():
            trios: list[tuple[tuple[str, ...], int | None]] = [(c, None) for c in _distinct_choices(tcs, 3)]
            if has_phoenix:
                trios += [(c + (PHOENIX,), tr) for c in _distinct_choices(tcs, 2)]
            if not trios:
                continue
            for pr, pcs in normal.items():
                if pr == tr:
                    continue
                pairs: list[tuple[tuple[str, ...], int | None]] = [(c, None) for c in _distinct_choices(pcs, 2)]
                if has_phoenix:
                    pairs += [(c + (PHOENIX,), pr) for c in _distinct_choices(pcs, 1)]
                for (t, tp), (p, pp) in itertools.product(trios, pairs):
                    if tp is None or pp is None:
                        yield t + p, tp if tp is not None else pp
    if want(STAIRS):
        yield from _runs(normal, has_phoenix, 2, 4, 2, length)
    if want(STRAIGHT):
        yield from _runs(by_rank, has_phoenix, 1, 5, 1, length)
    if want(BOMB):
        yield from _straight_flushes(hand)


def _reading_with(cards: tuple[str, ...], stand_in: int | None, rules: ComboRules) -> Combination | None:
    """The reading of a candidate whose Phoenix rank (if any) is already chosen."""
    if len(cards) == 1:
        found = readings(cards, rules)
        return found[0] if found else None
    ranks = [CARD_INFO[c][0] for c in cards if c != PHOENIX]
    suits = [CARD_INFO[c][1] for c in cards if c != PHOENIX]
    if stand_in is not None:
        ranks.append(stand_in)
        suits.append("")
    return _plain_reading(cards, ranks, suits, stand_in, rules)


def combinations_in(
    hand: Sequence[str], top: Combination | None = None, rules: ComboRules = NANKING_COMBOS
) -> list[Combination]:
    """Every combination the hand can play on ``top`` (``None``: every lead), each once.

    >>> len(combinations_in(["2s", "2j", "3s"]))
    4
    """
    return list(iter_combinations_in(hand, top, rules))


def iter_combinations_in(
    hand: Sequence[str],
    top: Combination | None = None,
    rules: ComboRules = NANKING_COMBOS,
    with_rank: int | None = None,
) -> Iterator[Combination]:
    """:func:`combinations_in` one at a time, for a caller that may stop at the first it wants;
    ``with_rank``: only those with a real card of that rank (the wish's question), skipped before
    they are read, which is the costly part."""
    if top is None:
        kinds, length = None, None
    elif top.is_bomb:
        kinds, length = {BOMB}, None
    else:
        kinds, length = {top.kind, BOMB}, top.length
    seen: set[tuple[tuple[str, ...], int | None]] = set()
    for cards, stand_in in _candidates(hand, kinds, length):
        if with_rank is not None and not contains_rank(cards, with_rank):
            continue
        key = (tuple(sorted(cards)), stand_in)
        if key in seen:
            continue
        seen.add(key)
        combo = _reading_with(cards, stand_in, rules)
        if combo is None:
            continue
        if top is None and combo.kind == DOG_LEAD:
            yield combo
            continue
        combo = on_table(combo, top)
        if kinds is not None and combo.kind not in kinds:
            continue
        if beats(combo, top, rules):
            yield combo


def can_play_rank(hand: Sequence[str], top: Combination, rules: ComboRules, rank: int) -> bool:
    """Whether the hand holds a combination with a real card of ``rank`` that beats ``top`` (the
    wish's question, asked of the seat to act while a wish stands): the answer of
    ``next(iter_combinations_in(hand, top, rules, with_rank=rank), None) is not None``, found
    without enumerating when ``top`` is a single, pair, trio, straight or stairs (the enumeration
    reads every candidate of the hand when the answer is no, as it is in every lawful record).
    Other tops ask the enumeration. tests/engine/test_can_play_rank.py holds the two equal.
    """
    kind, length = top.kind, top.length
    fast = (
        (kind == SINGLE and length == 1)
        or (kind == PAIR and length == 2)
        or (kind == TRIO and length == 3)
        or (kind == STRAIGHT and length >= 5)
        or (kind == STAIRS and length >= 4 and length % 2 == 0)
    )
    if not fast:
        return next(iter_combinations_in(hand, top, rules, with_rank=rank), None) is not None
    suits = [CARD_INFO[c][1] for c in filter(_CODES_OF_RANK.get(rank, frozenset()).__contains__, hand)]
    if not suits:
        return False  # no real card of the rank
    # any bomb beats a combination that is not one: four cards of the rank, or a straight flush through it
    if len(suits) >= 4 and (not rules.four_of_a_kind_distinct_suits or len(set(suits)) >= 4):
        return True
    if _flush_through(hand, rank, suits):
        return True
    phoenix = PHOENIX in hand
    if kind == SINGLE:
        return rank > top.rank
    if kind == PAIR:
        return rank > top.rank and (len(suits) >= 2 or phoenix)
    if kind == TRIO:
        real = len(set(suits)) if rules.trios_distinct_suits else len(suits)
        return rank > top.rank and (real >= 3 or (phoenix and real >= 2))
    counts = Counter(CARD_INFO[c][0] for c in hand if c != PHOENIX)
    if kind == STRAIGHT:
        return _run_through(counts, 1, length, top.rank, rank, phoenix, 1)
    return _run_through(counts, 2, length // 2, top.rank, rank, phoenix, 2)


def _run_through(
    counts: Counter, per_rank: int, ranks: int, above: float, rank: int, phoenix: bool, lowest: int
) -> bool:
    """Whether ``ranks`` consecutive ranks through ``rank``, ending above ``above``, each held
    ``per_rank`` times (a straight: 1, stairs: 2), the Phoenix making up at most one missing card
    (never the Mahjong's 1), lowest rank ``lowest`` (a straight may start at the Mahjong)."""
    for hi in range(max(rank, lowest + ranks - 1), min(rank + ranks - 1, 14) + 1):
        if not hi > above:
            continue
        short = [(r, per_rank - counts.get(r, 0)) for r in range(hi - ranks + 1, hi + 1) if counts.get(r, 0) < per_rank]
        if not short or (phoenix and len(short) == 1 and short[0][1] == 1 and short[0][0] != 1):
            return True
    return False


def _flush_through(hand: Sequence[str], rank: int, suits: Sequence[str]) -> bool:
    """Whether five or more cards of one suit run through ``rank`` (a straight-flush bomb with it)."""
    # (rank, suit) of each card, at C speed; the specials' suit is "", never five in a row
    held = set(map(CARD_INFO.__getitem__, hand))
    for suit in set(suits):
        lo = hi = rank
        while (lo - 1, suit) in held:
            lo -= 1
        while (hi + 1, suit) in held:
            hi += 1
        if hi - lo + 1 >= 5:
            return True
    return False


#: rank -> the codes of the real cards of that rank (the Phoenix has none)
_CODES_OF_RANK: dict[int, frozenset[str]] = {
    r: frozenset(c for c, (rank, _) in CARD_INFO.items() if rank == r and c != PHOENIX)
    for r in {rank for rank, _ in CARD_INFO.values()}
}


def contains_rank(cards: Iterable[str], wanted: int) -> bool:
    """Whether real cards of that rank are among ``cards`` (the Phoenix never counts). A set test
    at C speed: every play and pass under a standing wish asks it."""
    return not _CODES_OF_RANK.get(wanted, frozenset()).isdisjoint(cards)


__all__ = [
    "BOMB",
    "DOG_LEAD",
    "FULL_HOUSE",
    "PAIR",
    "SINGLE",
    "STAIRS",
    "STRAIGHT",
    "TRIO",
    "ComboRules",
    "Combination",
    "NANKING_COMBOS",
    "beats",
    "can_play_rank",
    "combinations_in",
    "contains_rank",
    "iter_combinations_in",
    "on_table",
    "readings",
    "readings_of",
]
