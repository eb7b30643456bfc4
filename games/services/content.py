"""A game's record content as one hash, kept up to date by every write: how an import recognises a
game the club already holds, whoever recorded it (by appends, by an import, by the bulk import).

The content is the record without its players and its `format`: the variant, the options, the other
header keys kept verbatim (an importer's `meta`: a tracker's game id or a log's game number tells
two games with equal events apart), and the events in order. The players are compared by name at
the import (case and surrounding spaces aside, as the club's roster compares them), against the
seats as they are *now*: so a player renamed or merged after the game changes nothing stored, and
the export of a game, which carries the current names, is recognised.

The hash is a chain, so that an append extends it from the stored value with the batch alone
(O(batch), never a pass over the game's events):

    start  = SHA-256("tichu-content/1" + canonical JSON of {variant, options, header})
    h(e_i) = SHA-256(h(e_{i-1}) + canonical JSON of event i)     (the 32 bytes of the digest, then the text)

stored as hex. An import computes the same chain over the record's events: about 6 µs an event on
a loaded 2-core machine (a whole game of ~2,500 events: 15 ms), a third of it the encoding. `Game.content_hash`
holds it, indexed with the club (migration 0025, which also fills it for the games stored before).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

_FORMAT = "format"  # the record format's name: the same content whichever version carried it
_VERSION = "tichu-content/1"


# one encoder, built once: json.dumps with these arguments builds a new one on every call, which
# was most of the cost of an event's link (16 µs an event against 3 µs now, a loaded machine)
_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode


def content_start(variant: str, options: Any, header: Mapping[str, Any]) -> str:
    """The hash of a game with no event yet: its variant, options and header (less `format`)."""
    kept = {k: v for k, v in header.items() if k != _FORMAT}
    text = _VERSION + _canonical({"variant": variant, "options": options, "header": kept})
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def content_extended(content: str, events: Iterable[Mapping[str, Any]]) -> str:
    """The hash after `events` are appended to a game whose hash was `content`."""
    digest, sha256, encode = bytes.fromhex(content), hashlib.sha256, _canonical
    for event in events:
        digest = sha256(digest + encode(event).encode("ascii")).digest()
    return digest.hex()


def record_content(variant: str, options: Any, header: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> str:
    """The hash of a whole record's content (an import's, before it is stored)."""
    return content_extended(content_start(variant, options, header), events)


def name_key(name: str) -> str:
    """A player's name as the roster compares it (games.models.Player's constraint: LOWER(TRIM()))."""
    return name.strip().lower()
