"""CSV downloads: the one writer every CSV export uses, which never hands a spreadsheet a formula.

OWASP's rule against CSV injection: a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage
return is read as a formula by Excel, LibreOffice and Google Sheets (`=HYPERLINK(...)` from a
player's name would become a live link). Such a cell is written with a leading apostrophe, which
spreadsheets show as text. Plain numbers (`-12.5`, `+3.0`) are left alone: they cannot be formulas,
and a rating change must stay a number.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any, Iterable, Sequence

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?\Z")


def safe_cell(value: Any) -> Any:
    """The cell as written: None is empty; text that a spreadsheet would run gets a `'`."""
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.match(text):
        return "'" + text
    return text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return buf.getvalue()


def csv_response(header: Sequence[str], rows: Iterable[Sequence[Any]], filename: str) -> HttpResponse:
    """A CSV attachment named `filename` (ASCII: the callers build it from slugs and ids)."""
    response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
