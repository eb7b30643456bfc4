"""Frames for the replay viewer: one per position of a record, folded by the engine.

Frame ``n`` is the engine's ``state_json`` after the first ``n`` events (docs/engine-api.md), minus
what never changes within a game (players, options), plus a few display annotations that are
*read off* the engine's output, never computed from the rules:

- ``n``: the position; ``e``: the event that led here (``None`` at 0); ``text``: that event in words;
- ``trick_no``: the trick's number within its hand (counted where the engine's ``trick_log`` starts
  afresh); ``bombs``: the plays of this hand whose engine ``combination`` is ``bomb``;
  ``gifts``: the ``dragon_gift`` events of this hand;
- every ``score_sheet`` line gets ``totals``: the engine's running ``totals`` when that line appeared,
  ``at``: that position (the hand's end), and ``from``: the position where its hand began.

Navigation marks (``hands``: positions where the engine's ``hand_number`` changes; ``tricks``:
positions where a new ``trick_log`` begins) come from the same frames, so the viewer's script holds
no rule logic: it only looks frames up. ``undone``: the positions of corrections, folded away for
viewers: every ``undo`` event and the event it retracted (the latest event still in force, as the
record format says), so stepping goes from the state before a mistake to the state after its fix.

For the browser the frames are *compacted*: frame 0 whole, then each frame as the keys that changed
since the previous one; per-seat lists (``hands``, ``received``, ``tricks_won``) change seat by seat
(``{"hands": {"2": [...]}}``), and a list that only grew is sent as its new tail under ``key + "+"``.
The words of each frame (``text``) travel apart, in ``texts`` (they also make the hand's event list).
``apply_delta`` (here) and ``replay.js`` (in the page) undo the compaction the same way.
"""
from __future__ import annotations

import copy
import itertools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import _json_script_escapes  # the escaping of the json_script filter

from games import engine
# Card faces and names are the engine's (one home for the pages, the API and the scripts).
from games.engine import card_face, card_table  # noqa: F401 - re-exported: the pages and replay_tags read them here
from games.engine import RANK_NAMES, card_name, cards_text, variant_cards, with_article

FORMAT = 4  # in the cache key: 2 added Tien Zi Que card faces, event words and masking; 3 the engine's masking per reader; 4 the undone marks
HIDDEN = engine.HIDDEN  # a card whose face the reader may not see
#: state_json keys that are the same in every frame of a game: sent once, not per frame.
CONSTANT_KEYS = ("ok", "variant", "players", "seat_names", "options", "events")
#: lists with one entry per seat: compacted entry by entry.
PER_SEAT_KEYS = ("hands", "received", "tricks_won")

COMBINATION_NAMES = {
    "single": "single", "pair": "pair", "stairs": "stairs", "trio": "trio", "full_house": "full house",
    "straight": "straight", "bomb": "bomb", "dog": "Dog",
}
CALL_NAMES = {"tichu": "Tichu", "grand_tichu": "Grand Tichu"}


# --- words for events -----------------------------------------------------------------------------


def _name(players: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}"


def describe(event: dict, frame: dict, players: list[str]) -> str:
    """The event that led to ``frame``, in words (what it was, read from the event and the engine).

    Cards the reader may not see (``HIDDEN`` in a masked event) are not named."""
    kind = event.get("type")
    who = _name(players, event.get("seat"))
    if kind == "push" and HIDDEN in json.dumps(event.get("cards")):
        return f"{who} pushes cards"
    if kind == "round_start":  # Tien Zi Que (docs/tien-zi-que.md section 2)
        text = f"Round {frame.get('round')} begins: {who} plays first"
    elif kind == "draw":  # a card the reader may not see (a hidden hand, a Tien Zi Que draw) is not named
        text = f"{who} draws the {card_name(event['card'])}" if event.get("card", HIDDEN) != HIDDEN else f"{who} draws a card"
    elif kind == "discard":
        text = f"{who} discards the {card_name(event.get('card', '?'))}"
    elif kind in ("pung", "chow"):
        text = f"{who}: {kind.capitalize()} {cards_text(event.get('cards') or [])}, keeps the {card_name(event.get('keep', '?'))}"
        if kind == "chow":
            text += f" (takes the {card_name(event.get('take', '?'))})"
    elif kind == "reshuffle":
        text = f"{who}: the discard pile is shuffled into the stock"
    elif kind == "shuffle":
        text = f"{who} shuffles: hand {frame.get('hand_number')} begins"
    elif kind == "deal":
        text = f"{who} is dealt {len(event.get('cards') or [])} cards"
    elif kind in CALL_NAMES:
        text = f"{who} calls {CALL_NAMES[kind]}"
    elif kind == "push":
        gifts = event.get("cards") or {}
        parts = []
        for target, cards in gifts.items():
            cards = cards if isinstance(cards, list) else [cards]
            parts.append(f"{cards_text(cards)} to {_name(players, int(target))}")
        text = f"{who} pushes " + "; ".join(parts)
    elif kind == "play":
        top = frame.get("trick") or []
        entry = top[-1] if top and top[-1].get("seat") == event.get("seat") else None
        combination = COMBINATION_NAMES.get(entry["combination"], entry["combination"]) if entry else "cards"
        verb = "bombs with" if entry and entry.get("combination") == "bomb" else "plays"
        text = f"{who} {verb} {cards_text(event.get('cards') or [])}"
        if entry:
            text += f" ({combination}"
            if entry.get("phoenix"):
                text += f", Phoenix as {RANK_NAMES.get(entry['phoenix'], entry['phoenix'])}"
            text += ")"
        if event.get("wish"):
            text += f" and wishes for {with_article(RANK_NAMES.get(event['wish'], event['wish']))}"
        if event.get("to") is not None:
            text += f"; the lead goes to {_name(players, event['to'])}"
    elif kind == "pass":
        text = f"{who} passes"
    elif kind == "dragon_gift":
        text = f"{who} gives the Dragon trick to {_name(players, event.get('to'))}"
    elif kind == "penalty":
        text = f"{who}: penalty ({str(event.get('reason', '')).replace('_', ' ')})"
    elif kind == "hand_result":
        text = f"Hand {frame.get('hand_number')} recorded from the score sheet"
    elif kind == "round_result":  # Tien Zi Que: a whole round by its score line
        line = (frame.get("score_sheet") or [{}])[-1]
        if line.get("drawn"):
            text = f"Round {line.get('round')} recorded from the score line: drawn"
        else:
            winner = line.get("winner")
            points = (line.get("points") or [0, 0])[winner] if isinstance(winner, int) else 0
            text = (f"Round {line.get('round')} recorded from the score line: {_name(players, winner)} "
                    f"+{points}, Mah-jong by a {str(line.get('by', '')).capitalize()}")
    elif kind == "undo":
        text = "Undo: the latest event is retracted"
    else:
        text = f"{kind} by {who}"
    return text


# --- building -------------------------------------------------------------------------------------


@dataclass
class ReplayData:
    """Everything the pages need about one record, computed once."""

    players: list[str]
    variant: str
    hidden: bool
    options: dict
    given_options: dict | None
    length: int  # number of valid events (frames are 0..length)
    error: dict | None  # the engine's refusal of event `length`, if the record has one
    deltas: list[dict] = field(default_factory=list)
    marks: dict[str, list[int]] = field(default_factory=dict)
    final: dict = field(default_factory=dict)
    script: str = ""  # payload_script_text(), once computed (kept with the cached data)
    checkpoints: dict[int, dict] = field(default_factory=dict)  # whole frames at hand starts
    texts: list[str] = field(default_factory=list)  # every frame's ``text`` (sent apart from the deltas)
    seats: list[int] = field(default_factory=list)  # the seats the reader holds (their hands shown) when ``hidden``

    def frame_at(self, n: int) -> dict:
        """The whole frame at position ``n`` (clamped to 0..length), rebuilt from the nearest
        checkpoint (a hand's start) and the deltas after it."""
        n = max(0, min(n, self.length))
        if n == self.length:
            return copy.deepcopy(self.final)
        base = max((c for c in self.checkpoints if c <= n), default=None)
        frame: dict = dict(self.checkpoints[base]) if base is not None else {}
        start = base + 1 if base is not None else 0
        for delta in self.deltas[start: n + 1]:
            apply_delta(frame, delta)  # replaces values, never mutates them: shared until the copy below
        frame["n"] = n
        frame["text"] = self.texts[n]
        return copy.deepcopy(frame)

    def payload(self) -> dict:
        """The JSON object embedded in the replay page."""
        return {
            "format": FORMAT,
            "players": self.players,
            "variant": self.variant,
            "hidden": self.hidden,
            "options": self.options,
            "length": self.length,
            "marks": self.marks,
            "labels": {"combinations": COMBINATION_NAMES, "calls": CALL_NAMES, "ranks": RANK_NAMES},
            "cards": variant_cards(self.variant),
            "per_seat": list(PER_SEAT_KEYS),
            "frames": self.deltas,
            "texts": self.texts,
        }

    def payload_script_text(self) -> str:
        """``payload()`` as JSON, escaped exactly as Django's ``json_script`` escapes it."""
        if self.script:
            return self.script
        return json.dumps(self.payload(), separators=(",", ":")).translate(_json_script_escapes)


PRIVATE_KEYS = ("_new_trick", "_raw_sheet")


def _public(frame: dict) -> dict:
    return {k: v for k, v in frame.items() if k not in PRIVATE_KEYS}


def _frame_of(state_obj: dict) -> dict:
    return {k: v for k, v in state_obj.items() if k not in CONSTANT_KEYS}


def delta_of(prev: dict, cur: dict) -> dict:
    """The keys of ``cur`` that differ from ``prev`` (see the module docstring for the encoding)."""
    out: dict[str, Any] = {}
    for key, value in cur.items():
        if key in SKIP_IN_DELTA:
            continue
        old = prev.get(key, _MISSING)
        if old == value:
            continue
        if key in PER_SEAT_KEYS and isinstance(old, list) and isinstance(value, list) and len(old) == len(value):
            out[key] = {str(i): v for i, (o, v) in enumerate(zip(old, value)) if o != v}
        elif isinstance(old, list) and isinstance(value, list) and len(value) > len(old) and value[: len(old)] == old:
            out[key + "+"] = value[len(old):]
        else:
            out[key] = value
    for key in prev:
        if key not in cur and key not in SKIP_IN_DELTA:
            out[key] = None  # not expected: state_json always gives the same keys for a phase
            out.setdefault("-", []).append(key)
    return out


_MISSING = object()
#: not sent per frame: "n" is the frame's index, "text" goes in ``texts``, the private keys are
#: build-time helpers.
SKIP_IN_DELTA = frozenset(("n", "text") + PRIVATE_KEYS)


def apply_delta(frame: dict, delta: dict, copy_values: bool = False) -> dict:
    """Apply one compacted delta to ``frame`` in place (the inverse of ``delta_of``)."""
    for key, value in delta.items():
        if key == "-":
            continue
        if copy_values:
            value = copy.deepcopy(value)
        if key.endswith("+"):
            base = key[:-1]
            frame[base] = list(frame.get(base) or []) + value
        elif key in PER_SEAT_KEYS and isinstance(value, dict):
            seats = list(frame.get(key) or [])
            for i, v in value.items():
                seats[int(i)] = v
            frame[key] = seats
        else:
            frame[key] = value
    for key in delta.get("-", []):
        frame.pop(key, None)
    return frame


def build(record: Any, sight: engine.Sight = engine.EVERYTHING) -> ReplayData:
    """The frames of a record that is not stored (the tests, the bench, a record read from a file):
    folded by the engine's ``fold_steps``. A stored game's frames come from its cached states
    (``replay.data``: ``games.snapshots.states``)."""
    rec = engine.parse_record(record)
    state = engine.new_game(rec["variant"], rec["options"], players=list(rec["players"]))
    steps = itertools.chain([(0, None, state)], engine.fold_steps(state, rec["events"]))
    return from_states(steps, sight, given_options=record.get("options") if isinstance(record, dict) else None)


def from_states(steps: Iterable[tuple[int, dict | None, Any]], sight: engine.Sight = engine.EVERYTHING,
                *, given_options: dict | None = None) -> ReplayData:
    """Build the frames, marks and final frame of a game from its states in order: ``steps``
    yields ``(n, the event that led there, the engine state after n events)`` from ``n = 0``
    (``games.snapshots.states`` or the engine's ``fold_steps``). The frames only read the states;
    nothing here applies an event.

    A record whose event ``i`` the engine refuses (the steps raise its EngineError) is shown up to
    ``i`` (``error`` says why). ``sight``: what the reader may see
    (games.visibility.reader_sight); every frame and event is masked by the engine's rule
    (``engine.redact_state``, ``engine.redact_event``)."""
    steps = iter(steps)
    _, _, state = next(steps)
    first = engine.state_json(state)
    # one name per seat: Threechu's dummy is a seat without a player of its own
    players = engine.seat_names(first["variant"], list(first["players"]))
    data = ReplayData(
        players=players,
        variant=first["variant"],
        hidden=not sight.everything,
        seats=sorted(sight.seats or ()),
        options=first["options"],
        given_options=given_options,
        length=0,
        error=None,
    )
    hand_marks: list[int] = [0]
    trick_marks: list[int] = []
    in_force: list[int] = []  # positions of the events still in force, the latest last
    undone: list[int] = []
    prev = _annotate(_frame_of(first), None, None, players)
    data.deltas.append({k: v for k, v in copy.deepcopy(_public(prev)).items() if k not in SKIP_IN_DELTA})
    data.texts.append(prev["text"])
    try:
        for n, event, state in steps:
            assert event is not None  # only the first step (n = 0) has no event
            shown = engine.redact_state(engine.state_json(state), sight, n)
            cur = _annotate(_frame_of(shown), engine.redact_event(event, sight, n - 1), prev, players)
            cur["n"] = n
            if event.get("type") == "undo":
                if in_force:
                    undone.append(in_force.pop())
                undone.append(n)
            else:
                in_force.append(n)
            if cur.get("hand_number") != prev.get("hand_number"):
                hand_marks.append(n)
                data.checkpoints[n] = _public(cur)
            if cur.get("_new_trick"):
                trick_marks.append(n)
            for line in cur["score_sheet"][len(prev["score_sheet"]):]:
                if "at" not in line:  # a line new here: where its hand began and ended
                    line["from"], line["at"] = hand_marks[-1], n
            data.deltas.append(delta_of(prev, cur))
            data.texts.append(cur["text"])
            prev = cur
            data.length = n
    except engine.EngineError as err:
        data.error = {"index": err.index, **err.as_dict()}
    data.final = _public(prev)
    data.marks = {"hands": hand_marks, "tricks": trick_marks, "undone": sorted(undone)}
    return data


def _annotate(frame: dict, event: dict | None, prev: dict | None, players: list[str]) -> dict:
    """Add the display annotations of the module docstring to a fresh frame (``event`` as the
    reader may see it)."""
    frame["n"] = 0
    frame["e"] = event
    log = frame.get("trick_log") or []
    old_log = (prev or {}).get("trick_log") or []
    # A hand is on the table while state_json describes one (it then names its shuffler); between
    # hands the engine shows none, and neither do the hand's annotations.
    on_table = "shuffler" in frame
    same_hand = prev is not None and prev.get("hand_number") == frame.get("hand_number") and on_table
    new_trick = bool(log) and not (len(log) >= len(old_log) and log[: len(old_log)] == old_log and old_log)
    frame["_new_trick"] = new_trick
    trick_no = (prev or {}).get("trick_no", 0) if same_hand else 0
    if new_trick:
        trick_no += 1
    frame["trick_no"] = trick_no if log or same_hand else 0
    bombs = list((prev or {}).get("bombs", [])) if same_hand else []
    gifts = list((prev or {}).get("gifts", [])) if same_hand else []
    if event is not None and event.get("type") == "play":
        top = (frame.get("trick") or [None])[-1]
        if top and top.get("combination") == "bomb" and top.get("seat") == event.get("seat"):
            bombs.append({"seat": top["seat"], "cards": top["cards"], "trick_no": frame["trick_no"]})
    if event is not None and event.get("type") == "dragon_gift":
        gifts.append({"from": event.get("seat"), "to": event.get("to")})
    frame["bombs"] = bombs
    frame["gifts"] = gifts
    # Running totals on the score sheet: the engine's totals when each line appeared.
    raw = frame.get("score_sheet") or []
    old_raw = (prev or {}).get("_raw_sheet") or []
    old_sheet = (prev or {}).get("score_sheet") or []
    if raw == old_raw:
        sheet = old_sheet
    else:
        sheet = [
            old_sheet[k] if k < len(old_raw) and old_raw[k] == line else {**line, "totals": list(frame.get("totals") or [])}
            for k, line in enumerate(raw)
        ]
    frame["_raw_sheet"] = raw
    frame["score_sheet"] = sheet
    frame["text"] = describe(event, frame, players) if event is not None else "Before the first event"
    if event is not None and len(sheet) > len(old_sheet):
        frame["text"] += f". Hand {len(sheet)} ends: " + " / ".join(str(p) for p in sheet[-1].get("points", []))
    if event is not None and frame.get("complete") and not (prev or {}).get("complete"):
        frame["text"] += ". The game is over"
    return frame


# --- table geometry (display only) ----------------------------------------------------------------


def seat_positions(order: list[int], bottom: int, direction: str) -> dict[int, dict[str, float]]:
    """Where each seat sits on screen, as ``left``/``top`` percentages of the table.

    ``order`` is the engine's order of play; ``bottom`` the seat drawn nearest the viewer. Going
    counter-clockwise (the default) the next seat to play sits on the viewer's right."""
    n = len(order)
    if n == 0:
        return {}
    start = order.index(bottom) if bottom in order else 0
    sign = 1 if direction != "clockwise" else -1
    out = {}
    for k in range(n):
        seat = order[(start + k) % n]
        angle = math.pi / 2 - sign * 2 * math.pi * k / n  # screen angle, y pointing down
        out[seat] = {"left": round(50 + 38 * math.cos(angle), 2), "top": round(50 + 38 * math.sin(angle), 2)}
    return out
