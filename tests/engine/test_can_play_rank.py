"""The wish's question (can the seat to act play a combination with a real card of the wished rank
on the table's combination?) is answered by combos.can_play_rank without enumerating the hand for
the usual tops, for speed. It must give the enumeration's answer (iter_combinations_in with
with_rank), which stays the reference: on random hands of one deck and of two (Grand Seigneur's
duplicates), random tops of every kind read from random cards, every wished rank, every rules
flag. Hands are drawn near the top's ranks so that the yes answers are not rare."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import NORMAL_CARDS, PHOENIX, TICHU_DECK
from games.engine.combos import (
    PAIR,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIO,
    ComboRules,
    can_play_rank,
    combinations_in,
    iter_combinations_in,
    on_table,
    readings,
)

RULES = st.builds(ComboRules, st.booleans(), st.booleans(), st.booleans())


def enumerated(hand, top, rules, rank) -> bool:
    return next(iter_combinations_in(hand, top, rules, with_rank=rank), None) is not None


@st.composite
def hands(draw, two_decks: bool):
    deck = list(TICHU_DECK) + (list(NORMAL_CARDS) if two_decks else [])
    size = draw(st.integers(1, 16))
    picks = draw(st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True))
    return [deck[i] for i in picks]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), two_decks=st.booleans(), rules=RULES, rank=st.integers(2, 14))
def test_can_play_rank_answers_as_the_enumeration(data, two_decks, rules, rank):
    source = data.draw(hands(two_decks))
    tops = combinations_in(source, None, rules)
    if not tops:
        return
    top = data.draw(st.sampled_from(tops))
    hand = data.draw(hands(two_decks))
    assert can_play_rank(hand, top, rules, rank) == enumerated(hand, top, rules, rank)


# the kinds answered without enumerating, each with hands likely to hold an answer: runs of ranks
# around the wished one, the Phoenix often, bombs sometimes
KINDS = (SINGLE, PAIR, TRIO, STRAIGHT, STAIRS)


@st.composite
def dense_hands(draw, rank: int):
    """Cards of the ranks around ``rank``, 0 to 4 of each (more than one deck's), the Phoenix half
    of the time, sometimes the Mahjong or the Dragon."""
    codes = "23456789TJQKA"
    cards = []
    for r in range(max(2, rank - 5), min(14, rank + 5) + 1):
        suits = draw(st.lists(st.sampled_from("jspr"), max_size=4))
        cards += [codes[r - 2] + s for s in suits]
    if draw(st.booleans()):
        cards.append(PHOENIX)
    cards += draw(st.lists(st.sampled_from(["Mahjong", "Dragon"]), max_size=1))
    return cards


@st.composite
def tops(draw):
    """A combination of one of KINDS, built from its shape: the enumeration of a random hand's
    combinations gives straights far more often than anything else."""
    kind = draw(st.sampled_from(KINDS))
    codes = "23456789TJQKA"
    suit = st.sampled_from("jspr")
    if kind in (SINGLE, PAIR, TRIO):
        r = draw(st.integers(2, 14))
        cards = [codes[r - 2] + draw(suit) for _ in range({SINGLE: 1, PAIR: 2, TRIO: 3}[kind])]
        if kind == SINGLE:
            cards = [draw(st.sampled_from(cards + ["Dragon", PHOENIX, "Mahjong"]))]
    else:
        per, least = (1, 5) if kind == STRAIGHT else (2, 2)
        n = draw(st.integers(least, 8 if kind == STRAIGHT else 5))
        lo = draw(st.integers(2, 15 - n))
        cards = [codes[r - 2] + draw(suit) for r in range(lo, lo + n) for _ in range(per)]
    found = readings(cards, ComboRules())
    if not found:
        return None
    return on_table(draw(st.sampled_from(found)), None)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=RULES, rank=st.integers(2, 14), top=tops())
def test_can_play_rank_on_hands_near_the_answer(data, rules, rank, top):
    if top is None:
        return
    hand = data.draw(dense_hands(rank))
    assert can_play_rank(hand, top, rules, rank) == enumerated(hand, top, rules, rank)


def test_both_answers_occur():
    """The properties above compare answers of both kinds, not only no."""
    top = combinations_in(["5s", "6s", "7j", "8j", "9r"])
    straight = next(c for c in top if c.kind == STRAIGHT)
    yes = ["6j", "7s", "8s", "9j", "Tr"]
    assert can_play_rank(yes, straight, ComboRules(), 8) and enumerated(yes, straight, ComboRules(), 8)
    assert not can_play_rank(yes[:4], straight, ComboRules(), 8)
    assert can_play_rank(yes[:4] + [PHOENIX], straight, ComboRules(), 8)
    assert not can_play_rank(yes[:4] + [PHOENIX], straight, ComboRules(), 2)
