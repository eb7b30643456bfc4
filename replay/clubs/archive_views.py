"""A club's archive on the site (docs/club-archive.md): a club admin's "Export this club" page
(the download) and the site administrators' "Import a club" page (an upload into a new club).
Thin: the archive is games.clubs.archive's."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from games import selectors
from games.clubs import archive

from .views import _member_club


class ArchiveImportForm(forms.Form):
    archive = forms.FileField(
        label=gettext_lazy("Archive file"),
        help_text=gettext_lazy("The <code>.tichu-club.jsonl.gz</code> file a club's export gave."),
    )
    slug = forms.SlugField(
        max_length=100,
        required=False,
        label=gettext_lazy("Short name for links"),
        help_text=gettext_lazy("Leave empty to keep the club's own; give another when a club here has it already."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_export(request, slug: str):
    """The club's admins: what the archive holds, and its download (a POST: no prefetch or crawler
    builds a club's archive)."""
    club, role = _member_club(request, slug)
    if role != selectors.Role.ADMIN:
        raise Http404("admins only")
    if request.method == "POST":
        return FileResponse(
            archive.spooled_archive(club),
            as_attachment=True,
            filename=archive.archive_name(club),
            content_type="application/gzip",
        )
    return render(request, "clubs/export.html", {"club": club, "role": role})


@login_required
@require_http_methods(["GET", "POST"])
def club_import(request):
    """Upload a club's archive; it becomes a new club of this site (a site administrator, or an admin
    of the archive's club whose other accounts are new here: archive.importer_for)."""
    if not archive.may_import(request.user):
        raise Http404("site administrators only")
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["archive"]
        try:
            if upload.size > archive.max_upload_bytes():
                raise archive.ArchiveError(
                    _("the archive is larger than %(limit)s bytes: import it with manage.py import_club")
                    % {"limit": archive.max_upload_bytes()},
                    code="archive_too_large",
                )
            done = archive.import_archive(
                upload, slug=form.cleaned_data["slug"] or None, importer=archive.importer_for(request.user)
            )
        except archive.ArchiveError as err:
            form.add_error(
                None,
                _("The archive was not imported (%(code)s): %(reason)s") % {"code": err.code, "reason": err.message},
            )
        else:
            games = done.counts.get("game", 0)
            messages.success(
                request,
                ngettext(
                    "Imported the club “%(name)s” with %(games)s game.",
                    "Imported the club “%(name)s” with %(games)s games.",
                    games,
                )
                % {"name": done.club.name, "games": games},
            )
            if done.users_created:
                messages.info(
                    request,
                    _("Accounts created without a password (they set one with “Forgot your password?”): %(names)s")
                    % {"names": ", ".join(done.users_created)},
                )
            return redirect("clubs:club-detail", done.club.slug)
    return render(request, "clubs/import.html", {"form": form}, status=400 if form.errors else 200)
