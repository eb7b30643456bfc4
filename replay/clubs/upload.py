"""The imports page's upload (issue 39): a club's admin imports one file from the browser, a
Brettspielwelt log (`.tch`) or a game record (`.json`, spec/record-format.md), through the same
services as the API's imports (games.importing.import_bsw_log, games.services.game_import). What
happened is said in words on the page; bad input never crashes and never half-writes (the
services' own atomic writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.importing import import_bsw_log
from games.services import ServiceError, game_import

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Club

#: the largest file the page takes (a season's BSW log is a few hundred KiB)
MAX_BYTES = 8 * 1024 * 1024


class UploadForm(forms.Form):
    game_file = forms.FileField(
        label=gettext_lazy("A game file"),
        help_text=gettext_lazy("A Brettspielwelt log (<code>.tch</code>) or a game record (<code>.json</code>)."),
    )

    def clean_game_file(self):
        f = self.cleaned_data["game_file"]
        if f.size > MAX_BYTES:
            raise forms.ValidationError(
                gettext("The file is too big (at most %(mb)s MB).") % {"mb": MAX_BYTES // 2**20}
            )
        try:
            return f.name, f.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                f.seek(0)
                return f.name, f.read().decode("latin-1")  # old BSW logs
            except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes any byte
                raise forms.ValidationError(gettext("The file is not text.")) from None


def import_upload(club: Club, name: str, text: str, user) -> tuple[bool, str]:
    """Import one uploaded file; (stored anything?, what happened in words)."""
    if name.lower().endswith(".json"):
        try:
            record = json.loads(text)
        except ValueError:
            return False, gettext("%(name)s is not a JSON game record.") % {"name": name}
        try:
            result = game_import(club=club, record=record, user=user)
        except ServiceError as err:
            return False, gettext("%(name)s was not imported: %(reason)s") % {"name": name, "reason": err.message}
        if not result.created:
            return False, gettext("%(name)s: the club has this game already.") % {"name": name}
        return True, gettext("%(name)s: 1 game imported.") % {"name": name}
    report = import_bsw_log(club=club, text=text, user=user, path=Path(name)).body
    stored, errors = report["stored"], report["errors"]
    words = ngettext("%(name)s: %(count)s game imported", "%(name)s: %(count)s games imported", stored) % {
        "name": name,
        "count": stored,
    }
    if report["already_imported"]:
        words += "; " + ngettext(
            "%(count)s the club had already", "%(count)s the club had already", report["already_imported"]
        ) % {"count": report["already_imported"]}
    if errors:
        words += "; " + ngettext(
            "%(count)s problem: %(first)s", "%(count)s problems, the first: %(first)s", len(errors)
        ) % {"count": len(errors), "first": errors[0]}
    return stored > 0, words + "."
