"""The abstract stream: a head row and its events, which games.models' Game/Event and
games.tournaments.models' Tournament/TournamentEvent extend with what is their own (the head's
club, kind and header; the event's foreign key to its head, its writer).

The database keeps the stream's guarantees whatever writes to it (games.streams.triggers, installed
by each app's migrations): an event row is never changed nor deleted, and an INSERT's `seq` is the
next one of its head.
"""

from __future__ import annotations

import json
import uuid

from django.db import models

#: a JSON value's compact text: no blanks, non-ASCII as UTF-8 (JSONTextField's stored form)
compact_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class JSONTextField(models.Field):
    """A JSON value stored as its compact text (`text` on every database: no spaces, non-ASCII as
    UTF-8), decoded on read. A game's events store their payload so (docs/speed.md, "An archive's
    bytes"): PostgreSQL's jsonb took twice the bytes for the small objects an event holds (a
    4-byte entry per key and value, numbers as `numeric`), and nothing queries inside a payload.
    The text keeps the payload's key order as appended; jsonb sorted it."""

    description = "JSON stored as its compact text"
    empty_strings_allowed = False

    def get_internal_type(self) -> str:
        return "TextField"

    def get_prep_value(self, value):
        if value is None:
            return None
        return compact_json(value)

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def value_to_string(self, obj) -> str:
        return self.get_prep_value(self.value_from_object(obj))


class StreamHead(models.Model):
    """The stream head. `seq` is the number of events stored (the seq of the last one), moved
    only under the row lock in the transaction that inserts the events (games.streams.append)."""

    # Names the stream in caches: unlike the integer id it is never reused.
    stream_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    seq = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class StreamEvent(models.Model):
    """One stored event. `seq` is 1-based: the event at index i of the stream has seq i+1, unique
    with its head. `payload` is the event object without its `type`, exactly as it was appended."""

    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    payload = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def as_record_event(self) -> dict:
        return {"type": self.type, **self.payload}
