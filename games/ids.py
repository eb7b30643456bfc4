"""Ids that come from outside (a path's integer, a body's or a query's number) are any length; the
database's id columns are not. Django's ORM answers an out-of-range number in a lookup on a
model's own integer field with no rows, but passes it to the driver in a foreign key's lookup
(`TableGame.objects.filter(game_id=...)`) and in raw SQL (games.sql), where it is refused
(SQLite: OverflowError; PostgreSQL: out of range): a 500. Such a number names no row, so code
that looks an outside id up that way asks here first, and answers as for any id that matches
nothing."""

from __future__ import annotations

from django.db import connection


def in_range(value: int) -> bool:
    """Whether `value` fits the database's id columns (BigAutoField, DEFAULT_AUTO_FIELD)."""
    low, high = connection.ops.integer_field_range("BigAutoField")
    return low <= value <= high


def from_text(text: str) -> int | None:
    """`text` (ASCII digits) as an id, or None when it names no row: past the range, or longer than
    any id (int() of thousands of digits is itself refused, ValueError). Callers decide first that
    the text is meant as an id (`str.isdigit` is not enough: "²" is a digit to Python, not to int)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        return None
    value = int(text)
    return value if in_range(value) else None
