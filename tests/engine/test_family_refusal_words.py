"""Every refusal of the Tichu family (Nanking, Threechu, Tientsin, Grand Seigneur) in words
(issue #21): the engine refuses an event, a record or a game's setup with a code, a ``rule`` where
the code has more than one sentence, and the parameters its template needs
(games/engine/family_refusals.py, shared_refusals.py), so that ``refusal_words`` says it in
English, French, German and Ukrainian from the engine's catalogue, never falling back to the
English message.

As tests/engine/test_tzq_refusal_words.py does for Tien Zi Que: bot-played games of every game of
the family (``random_record``) are folded event by event, and at each position a set of probes
(every seat, held and unheld cards, wrong combinations, wrong fields, events of the wrong phase) is
tried on a copy; the refusals no position of a bot game reaches (a record's shape, a game's setup,
the score-sheet line's checks, the checks behind the shared schema) are tried on what is made for
them. The refusals found must be all the family's templates: a template no refusal uses, or a
refusal without a template, fails."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import EngineError, GameState, random_record, registry, variants
from games.engine import record as record_module
from games.engine.family_refusals import FAMILY_REFUSAL_WORDS
from games.engine.shared_refusals import SHARED_REFUSAL_WORDS
from tests.engine import refusal_words_check
from tests.engine.refusal_words_check import OTHER_LANGUAGES

#: each game of the family with the options its bot games are played under (short games that end,
#: and the house rules that have refusals of their own)
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("nanking", {"hands": 2}, 4),
    (
        "nanking",
        {
            "hands": 2,
            "deal_method": "western",
            "wish_required": True,
            "grand_tichu": False,
            "dragon_gift_to_out": False,
        },
        4,
    ),
    ("threechu", {"hands": 3}, 3),
    ("tientsin", {"hands": 1}, 6),
    ("grand-seigneur", {"hands": 2, "return_worst": True, "dog": True}, 5),
]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
#: words a translation keeps as they are: field and option names, the games' names, a file's name,
#: the special cards' codes
_KEPT = re.compile(
    r"\{\w+:\w+\}|\S*_\S*|'\w+'|record-format\.md section \d|Grand Seigneur|Grand Tichu|Tichu|Threechu|Tientsin"
    r"|Mahjong, Dog, Phoenix, Dragon|Mahjong"
)


_TEMPLATES = {**FAMILY_REFUSAL_WORDS, **SHARED_REFUSAL_WORDS}


def key_of(error: EngineError) -> str:
    rule = error.params.get("rule")
    return f"{error.code}:{rule}" if rule else error.code


def words_problems(error: EngineError) -> list[str]:
    """What is wrong with a refusal's words (tests/engine/refusal_words_check.py)."""
    return refusal_words_check.words_problems(error, key_of(error), _TEMPLATES, NAMES, _KEPT)


def _refusal(state: GameState, event: Any) -> EngineError | None:
    try:
        state.copy().apply(event)
    except EngineError as error:
        return error
    return None


def _refused(make: Callable[[], Any]) -> EngineError:
    try:
        make()
    except EngineError as error:
        return error
    raise AssertionError("accepted")


def probes(g: GameState) -> list[dict]:
    """Events to try at a position: every seat (and one past the last), held and unheld cards,
    wrong combinations and fields, every event type whatever the phase."""
    n = g.n
    h = g.hand
    out: list[dict] = [
        {"type": "hand_result", "out": [0, 1], "points": [50, 50]},
        {"type": "bogus"},
        # a finished hand's correction: a hand in progress, a hand that is not on the sheet, no reason
        {"type": "hand_corrected", "hand": len(g.history) + 1, "out": [0, 1], "points": [50, 50], "reason": "r"},
        {"type": "hand_corrected", "hand": 1, "out": [0, 1], "points": [50, 50], "reason": " "},
        {"type": "undo"} if not g.events_applied else {"type": "pass", "seat": n},
    ]
    everyone = list(range(n))
    for seat in everyone + [n]:
        out += [
            {"type": "shuffle", "seat": seat},
            {"type": "grand_tichu", "seat": seat},
            {"type": "tichu", "seat": seat},
        ]
        out += [{"type": "pass", "seat": seat}, {"type": "penalty", "seat": seat, "reason": "missed_wish"}]
        out.append({"type": "penalty", "seat": seat, "reason": ""})
    if h is None:
        return out
    pile = sorted(Counter(h.pile).elements())
    held = [c for cards in h.cards for c in cards]
    for seat in everyone:
        hand = list(h.cards[seat])
        other = next((c for c in held if c not in hand), None) or next(iter(pile), "Dog")
        out += [
            {"type": "draw", "seat": seat, "card": pile[0] if pile else "Kj"},
            {"type": "draw", "seat": seat, "card": other},
            {"type": "draw", "seat": seat, "card": "Zz"},
            {"type": "deal", "seat": seat, "cards": pile[: h.sizes[seat] + 1] or ["Kj"]},
            {"type": "deal", "seat": seat, "cards": [other]},
            {"type": "deal", "seat": seat, "cards": ["Zz"]},
            {"type": "deal", "seat": seat, "cards": []},
            {"type": "play", "seat": seat, "cards": [other]},
            {"type": "play", "seat": seat, "cards": hand[:1], "to": (seat + 1) % n},
            {"type": "play", "seat": seat, "cards": hand[:1], "wish": "8"},
            {"type": "play", "seat": seat, "cards": hand[:1], "wish": "Z"},
            {"type": "play", "seat": seat, "cards": hand[:1], "phoenix": "7"},
            {"type": "play", "seat": seat, "cards": hand[:1]},
            {"type": "play", "seat": seat, "cards": []},
            {"type": "play", "seat": seat, "cards": ["Zz"]},
            {"type": "push", "seat": seat, "cards": {}},
            {"type": "push", "seat": seat, "cards": {"x": hand[:1]}},
            {"type": "push", "seat": seat, "cards": {"1": []}},
            {"type": "push", "seat": seat, "cards": {"1": "Zz"}},
        ]
        for special in ("Dog", "Mahjong", "Phoenix"):
            if special in hand:
                out += [
                    {"type": "play", "seat": seat, "cards": [special]},
                    {"type": "play", "seat": seat, "cards": [special], "to": seat},
                    {"type": "play", "seat": seat, "cards": [special], "to": (seat + 1) % n},
                    {"type": "play", "seat": seat, "cards": [special], "to": (seat + 2) % n},
                ]
        if "Phoenix" in hand:
            single = next((c for c in hand if c != "Phoenix"), None)
            if single:
                out += [
                    {
                        "type": "play",
                        "seat": seat,
                        "cards": ["Phoenix", single],
                        "phoenix": "A" if single[0] != "A" else "2",
                    },
                    {"type": "play", "seat": seat, "cards": ["Phoenix", single], "phoenix": single[0]},
                ]
        if len(hand) > 1:  # two different ranks: no combination; and a pair whatever the turn
            low, high = sorted(hand, key=lambda c: str(c))[:1], [c for c in hand if c[0] != hand[0][0]][:1]
            out.append({"type": "play", "seat": seat, "cards": low + high})
        targets = g.variant.push_targets(h, seat)
        counts = g.variant.push_counts(h, seat) if targets else {}
        if targets:
            given = {str(t): hand[i * 3 : i * 3 + counts[t]] for i, t in enumerate(targets)}
            out += [
                {"type": "push", "seat": seat, "cards": given},
                {"type": "push", "seat": seat, "cards": {str(t): hand[: counts[t] + 1] for t in targets}},
                {"type": "push", "seat": seat, "cards": {str(t): [other] * counts[t] for t in targets}},
                {"type": "push", "seat": seat, "cards": {str(targets[0]): hand[: counts[targets[0]]]}},
                {"type": "push", "seat": seat, "cards": {str(t): hand[-counts[t] :] for t in targets}},
            ]
        for to in everyone:
            out.append({"type": "dragon_gift", "seat": seat, "to": to})
    if h.gift_from is not None:
        out.append({"type": "tichu", "seat": h.gift_from})
    for action in engine.legal_actions(g):  # a legal play by the wrong seat, out of turn
        if action.get("seat") is not None:
            out.append({**action, "seat": (action["seat"] + 1) % n})
            if action["type"] == "push":  # and again, once it is given
                out.append(action)
    return out


@lru_cache(maxsize=None)
def _game_refusals(i: int, seed: int) -> dict[str, EngineError]:
    """Every refusal (by template key) the probes meet along a bot game of ``GAMES[i]``."""
    variant, options, players = GAMES[i]
    record = random_record(seed, variant, options, NAMES[:players])
    g = GameState(variant, options, NAMES[:players])
    found: dict[str, EngineError] = {}
    for event in list(record["events"]) + [None]:
        for probe in probes(g):
            error = _refusal(g, probe)
            if error is not None:
                found.setdefault(key_of(error), error)
        if event is not None:
            g.apply(event)
    return found


def _game(variant: str, options: dict | None = None, players: int = 4, events=()) -> GameState:
    g = GameState(variant, options or {}, NAMES[:players])
    for event in events:
        g.apply(event)
    return g


def _special_refusals() -> list[EngineError]:
    """Refusals outside a bot game's positions: a record's shape, what may be stored, a game's
    setup, the score-sheet line, and the checks behind the shared schema (which refuses those
    shapes first)."""
    errors: list[EngineError] = []
    record = {"format": "tichu-record/1", "variant": "nanking", "players": NAMES[:4], "events": []}
    for broken in (
        [], {**record, "redacted": True}, {**record, "colour": 1}, {**record, "format": "x"},
        {**record, "players": [""]}, {**record, "options": [1]}, {**record, "events": {}},
        {**record, "events": [1]}, {**record, "variant": 3},
    ):  # fmt: skip
        errors.append(_refused(lambda broken=broken: engine.parse_record(broken)))
    for events in (
        [{"type": "pass", "seat": 0, "colour": 1}], [{"type": "undo", "colour": 1}],
        [{"type": "penalty", "seat": 0, "reason": "x" * 100}], [{"type": "play", "seat": 0, "cards": ["Kj"] * 500}],
    ):  # fmt: skip
        errors.append(_refused(lambda events=events: record_module.check_incoming("nanking", events)))
    # a game's setup
    for variant, count in (("nanking", 3), ("grand-seigneur", 4), ("tientsin", 4)):
        errors.append(_refused(lambda variant=variant, count=count: GameState(variant, {}, NAMES[:count])))
    errors.append(_refused(lambda: GameState("threechu", {"hands": 4}, NAMES[:3])))
    errors.append(_refused(lambda: GameState("tien-zi-que", {}, NAMES[:2])))
    errors.append(_refused(lambda: variants.get_variant("chess")))
    errors.append(_refused(lambda: registry.game_info("chess")))
    errors.append(_refused(lambda: engine.finishing_order_points("nanking", [0, 1, 2, 3], 4)))
    # the score-sheet line
    line = {"type": "hand_result"}
    nanking, threechu, seigneur = _game("nanking"), _game("threechu", players=3), _game("grand-seigneur", players=5)
    for fields in (
        {"out": [0], "calls": {"x": "tichu"}}, {"out": [0], "calls": {"1": "big"}}, {"out": [0, 7]}, {"out": []},
        {"out": [0, 2], "points": [50, 50]}, {"out": [0]}, {"out": [0], "points": [50]},
        {"out": [0], "points": [51, 49]}, {"out": [0], "points": [60, 60]},
    ):  # fmt: skip
        errors.append(_refusal(nanking, {**line, **fields}))
    for fields in (
        {"out": [0], "points": [50, 50]}, {"out": [0], "points": [50, 50], "dealer": 1, "calls": {"1": "grand_tichu"}},
        {"out": [0], "points": [50, 50], "dealer": 1, "calls": {"3": "tichu"}},
    ):  # fmt: skip
        errors.append(_refusal(threechu, {**line, **fields}))
    for fields in (
        {"out": [0, 1, 2, 3, 4], "points": [1]},
        {"out": [0]},
        {"out": [0, 1, 2, 3, 4], "calls": {"1": "tichu"}},
    ):
        errors.append(_refusal(seigneur, {**line, **fields}))
    # the checks behind the shared schema
    dealt = _game("nanking", events=[{"type": "shuffle", "seat": 0}])
    errors.append(_refused(lambda: dealt.copy()._on_draw({"type": "draw", "seat": 0, "card": 7})))
    errors.append(_refused(lambda: nanking.copy()._on_hand_result({**line, "out": [0], "calls": []})))
    errors.append(_refused(lambda: nanking.copy()._on_hand_result({**line, "out": "x"})))
    return [e for e in errors if e is not None]


class _NoTichu(variants.Variant):
    """A game where nobody may call Tichu, though there are calls: none of the books' (Grand
    Seigneur has no calls at all, refused before), but the fold words its refusal."""

    def may_call(self, hand, seat):
        return False


def _first(record: dict, options: dict, players: int, where: Callable[[GameState], bool]) -> GameState:
    """The first position of a bot game's record where ``where`` holds."""
    g = GameState(record["variant"], options, NAMES[:players])
    for event in record["events"]:
        if where(g):
            return g
        g.apply(event)
    raise AssertionError("no such position")


def _made_positions() -> list[tuple[GameState, list[dict]]]:
    """Positions a bot game seldom reaches, made from one: a Tientsin Dog whose partners are out, a
    bomb out of turn with nothing on the table or when only the last Dragon trick's gift remains
    (a call then too), a Dragon trick given to a player who is out against the house rule, a game
    without Tichu calls."""
    out = []
    options = {"hands": 1, "dragon_gift_to_out": False}
    leading = _first(random_record(3, "nanking", options, NAMES[:4]), options, 4,
                     lambda g: g.phase == "play" and g.hand is not None and not g.hand.trick)  # fmt: skip
    h = leading.hand
    assert h is not None and h.turn is not None
    bomber, partner = (h.turn + 1) % 4, (h.turn + 2) % 4
    bomb = ["2j", "2s", "2p", "2r"]
    made = leading.copy()
    made.hand.cards[bomber] = bomb + [c for c in made.hand.cards[bomber] if c not in bomb]  # type: ignore[union-attr]
    out.append((made, [{"type": "play", "seat": bomber, "cards": bomb}]))
    over = leading.copy()  # only the bomber holds cards, and the Dragon trick is to be given
    for seat in range(4):
        over.hand.cards[seat] = bomb if seat == bomber else []  # type: ignore[union-attr]
    over.hand.turn, over.hand.gift_from = None, h.turn  # type: ignore[union-attr]
    over.hand.calls.pop(partner, None)  # type: ignore[union-attr]
    out.append((over, [{"type": "play", "seat": bomber, "cards": bomb}, {"type": "tichu", "seat": partner},
                       {"type": "dragon_gift", "seat": h.turn, "to": (h.turn + 3) % 4}]))  # fmt: skip
    exchange = _first(random_record(4, "nanking", {}, NAMES[:4]), {}, 4, lambda g: g.phase == "exchange")
    out.append((exchange, [{"type": "push", "seat": 0, "cards": "x"}]))
    no_tichu = GameState(_NoTichu(), {}, NAMES[:4])
    out.append((no_tichu, [{"type": "shuffle", "seat": 0}]))
    no_tichu_dealt = no_tichu.copy()
    no_tichu_dealt.apply({"type": "shuffle", "seat": 0})
    out.append((no_tichu_dealt, [{"type": "tichu", "seat": 1}]))
    record = random_record(7, "tientsin", {"hands": 1}, NAMES[:6])
    g = GameState("tientsin", {"hands": 1}, NAMES[:6])
    for event in record["events"]:
        g.apply(event)
        h = g.hand
        if h is not None and h.turn is not None and not h.trick and h.dealt and g.phase == "play":
            seat = h.turn
            partners = [s for s in range(6) if s != seat and h.team_of[s] == h.team_of[seat]]
            made = g.copy()
            assert made.hand is not None
            for p in partners:
                made.hand.cards[p] = []
            made.hand.cards[seat] = ["Dog"] + made.hand.cards[seat]
            out.append((made, [{"type": "play", "seat": seat, "cards": ["Dog"], "to": partners[0]}]))
            break
    return out


@lru_cache(maxsize=None)
def all_refusals() -> dict[str, EngineError]:
    found: dict[str, EngineError] = {}
    for i in range(len(GAMES)):
        for seed in (1, 2):
            for key, error in _game_refusals(i, seed).items():
                found.setdefault(key, error)
    for error in _special_refusals():
        found.setdefault(key_of(error), error)
    for g, events in _made_positions():
        for event in events:
            error = (
                _refusal(g, event)
                if event.get("cards") != "x"
                else _refused(lambda g=g, event=event: g.copy()._on_push(event))
            )
            if error is not None:
                found.setdefault(key_of(error), error)
    return found


def test_every_refusal_is_worded_in_every_language():
    problems = sorted({p for e in all_refusals().values() for p in words_problems(e)})
    assert problems == []


def test_the_refusals_found_are_every_template():
    """Every template of the family words a refusal the engine gives (and the enumeration above
    meets them all, so the test before covers each)."""
    found = set(all_refusals())
    assert sorted(set(FAMILY_REFUSAL_WORDS) - found) == []
    assert found <= set(FAMILY_REFUSAL_WORDS) | set(SHARED_REFUSAL_WORDS)


def test_a_refusal_keeps_its_english_message_and_says_it_in_french():
    error = all_refusals()["malformed:threechu_hands"]
    assert error.message == "a Threechu game lasts a number of hands divisible by 3, not 4"
    assert engine.refusal_words(error.as_dict(), NAMES) == error.message
    assert engine.refusal_words(error.as_dict(), NAMES, "fr") == (
        "une partie de Trichu dure un nombre de donnes divisible par 3, pas 4"
    )
    event = _refused(lambda: engine.parse_record({"format": "tichu-record/1", "variant": "nanking",
                                                   "players": NAMES[:4], "events": [{}, 3]}))  # fmt: skip
    assert event.message == "event 0 must be an object with a string 'type'" and event.index == 0
    assert (
        engine.refusal_words(event.as_dict(), NAMES, "de") == "Ereignis 0 muss ein Objekt mit einem String 'type' sein"
    )


@settings(max_examples=60, deadline=None)
@given(
    game=st.integers(0, len(GAMES) - 1),
    seed=st.integers(0, 40),
    at=st.floats(0, 1),
    pick=st.integers(0, 10_000),
    lang=st.sampled_from(OTHER_LANGUAGES),
)
def test_a_random_wrong_event_on_a_bot_game_is_worded(game, seed, at, pick, lang):
    """Any probe at any position of a bot game of any game of the family: refused, it has words in
    ``lang``, not English."""
    variant, options, players = GAMES[game]
    record = random_record(seed, variant, options, NAMES[:players])
    g = GameState(variant, options, NAMES[:players])
    for event in record["events"][: int(at * len(record["events"]))]:
        g.apply(event)
    options_ = probes(g)
    error = _refusal(g, options_[pick % len(options_)])
    if error is not None:
        assert words_problems(error) == []
        assert engine.refusal_words(error.as_dict(), NAMES, lang) != error.message
