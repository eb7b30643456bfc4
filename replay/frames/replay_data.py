"""``ReplayData``: everything the pages need about one record's frames, computed once (and cached
by ``replay.data``), with random access to a whole frame and the payload the page's script reads."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from games import engine

from .compaction import PER_SEAT_KEYS, apply_delta
from .deals import deals
from .faces import variant_cards
from .script import script_text
from .wording import labels

#: in the cache key: 2 added Tien Zi Que card faces, event words and masking; 3 the engine's
#: masking per reader; 4 the undone marks; 5 the words in the reader's language (``lang``); 6
#: Threechu's dummy named in that language and a nameless seat's new words (engine catalogue); 7
#: each hand's deal at a glance (``deals``)
FORMAT = 7


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
    lang: str = "en"  # the language of ``texts``, ``labels`` and card names (the engine's words)

    def frame_at(self, n: int) -> dict:
        """The whole frame at position ``n`` (clamped to 0..length), rebuilt from the nearest
        checkpoint (a hand's start) and the deltas after it."""
        n = max(0, min(n, self.length))
        if n == self.length:
            return copy.deepcopy(self.final)
        base = max((c for c in self.checkpoints if c <= n), default=None)
        frame: dict = dict(self.checkpoints[base]) if base is not None else {}
        start = base + 1 if base is not None else 0
        for delta in self.deltas[start : n + 1]:
            apply_delta(frame, delta)  # replaces values, never mutates them: shared until the copy below
        frame["n"] = n
        frame["text"] = self.texts[n]
        return copy.deepcopy(frame)

    def labels(self) -> dict[str, dict[str, str]]:
        """Combination, call and rank names in ``lang`` (the engine's terms)."""
        return labels(self.lang)

    def payload(self) -> dict:
        """The JSON object embedded in the replay page."""
        words = engine.words(self.lang)
        return {
            "format": FORMAT,
            "players": self.players,
            "variant": self.variant,
            "hidden": self.hidden,
            "options": self.options,
            "length": self.length,
            "marks": self.marks,
            "lang": self.lang,
            "labels": self.labels(),
            "cards": {code: words.card_face(code) for code in variant_cards(self.variant)},
            "per_seat": list(PER_SEAT_KEYS),
            "frames": self.deltas,
            "texts": self.texts,
            "deals": deals(self),
            "hand_word": engine.game_info(self.variant).hand_word,
        }

    def payload_script_text(self) -> str:
        """``payload()`` as JSON text for a script element (``script.script_text``)."""
        if self.script:
            return self.script
        return script_text(self.payload())
