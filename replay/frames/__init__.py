"""Frames for the replay viewer: one per position of a game, read off the engine states of the one
snapshot path (``games.snapshots.states``; a record that is not stored: the engine's ``fold_steps``).

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
``apply_delta`` (here) and ``expandFrames`` of ``static/replay/frames.js`` (in the page) undo the
compaction the same way.

The package, one concern a module:

- ``faces``: card faces and names (the engine's), ``HIDDEN``;
- ``wording``: an event in the engine's words, with what the frame after it tells;
- ``annotations``: the display annotations above, read off the engine's frames;
- ``masking``: what the reader may see of each frame and event (the engine's rule);
- ``compaction``: frames as deltas and back (``delta_of``, ``apply_delta``);
- ``building``: the frames of a game from its states (``from_states``) or of a record (``build``);
- ``replay_data``: ``ReplayData``, the result, with random access and the page's payload;
- ``script``: the payload as JSON text for a script element (escaped as ``json_script`` escapes);
- ``deals``: each hand's deal at a glance (dealt, passed, received), read off the frames.
"""

from __future__ import annotations

from .annotations import PRIVATE_KEYS
from .building import build, from_states
from .compaction import CONSTANT_KEYS, PER_SEAT_KEYS, SKIP_IN_DELTA, apply_delta, delta_of
from .faces import HIDDEN, RANK_NAMES, card_face, card_name, card_table, cards_text, variant_cards, with_article
from .replay_data import FORMAT, ReplayData
from .script import script_text
from .wording import describe, labels, term

__all__ = [
    "CONSTANT_KEYS",
    "FORMAT",
    "HIDDEN",
    "PER_SEAT_KEYS",
    "PRIVATE_KEYS",
    "RANK_NAMES",
    "SKIP_IN_DELTA",
    "ReplayData",
    "apply_delta",
    "build",
    "card_face",
    "card_name",
    "card_table",
    "cards_text",
    "delta_of",
    "describe",
    "from_states",
    "labels",
    "script_text",
    "term",
    "variant_cards",
    "with_article",
]
