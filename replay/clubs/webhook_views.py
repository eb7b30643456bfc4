"""A club's webhooks on the site (its admins): register a URL for the club's feed entries, see
each webhook's delivery log, remove one. Thin: games.clubs.webhook_services does the writing."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games import selectors
from games.clubs import selectors as club_selectors
from games.clubs import webhook_services
from games.clubs.selectors import FeedKind
from games.services import InvalidInput

from .views import _member_club

KIND_WORDS = {
    FeedKind.GAME_STARTED: gettext_lazy("a game started"),
    FeedKind.GAME_FINISHED: gettext_lazy("a game finished"),
    FeedKind.GAME_REOPENED: gettext_lazy("a finished game reopened"),
    FeedKind.ROUND_CLOSED: gettext_lazy("a tournament round closed"),
    FeedKind.TOURNAMENT_FINISHED: gettext_lazy("a tournament finished"),
    FeedKind.RATINGS_RECOMPUTED: gettext_lazy("the ratings recomputed"),
}
LOG_LINES = 20


class WebhookForm(forms.Form):
    url = forms.URLField(
        max_length=500,
        label=gettext_lazy("Address"),
        assume_scheme="https",
        help_text=gettext_lazy("Where the club's news is sent, e.g. https://bot.example.org/tichu"),
    )
    kinds = forms.MultipleChoiceField(
        choices=[(k, KIND_WORDS[k]) for k in FeedKind.values],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Send"),
        help_text=gettext_lazy("Tick none to send everything."),
    )


def _admin_club(request, slug: str):
    club, role = _member_club(request, slug)
    if role != selectors.Role.ADMIN:
        raise Http404("admins only")
    return club, role


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request, slug: str):
    club, role = _admin_club(request, slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            hook = webhook_services.webhook_create(
                club=club, actor=request.user, url=form.cleaned_data["url"], kinds=form.cleaned_data["kinds"]
            )
        except InvalidInput as refused:
            form.add_error("url", refused.message)
        else:
            messages.success(
                request,
                _(
                    "Webhook added. Its secret, shown only now: %(secret)s — the receiver checks "
                    "each delivery's X-Tichu-Signature with it."
                )
                % {"secret": hook.secret},
            )
            return redirect("clubs:webhooks", club.slug)
    hooks = []
    for hook in club_selectors.webhooks(club):
        hooks.append(
            {
                "hook": hook,
                "kinds": [KIND_WORDS.get(k, k) for k in hook.kinds],
                "log": list(hook.deliveries.select_related("entry")[:LOG_LINES]),
            }
        )
    feed_url = request.build_absolute_uri(f"/api/clubs/{club.slug}/feed/")
    return render(
        request, "clubs/webhooks.html", {"club": club, "role": role, "form": form, "hooks": hooks, "feed_url": feed_url}
    )


@login_required
@require_http_methods(["POST"])
def webhook_remove(request, slug: str, webhook_id: int):
    club, _role = _admin_club(request, slug)
    hook = club_selectors.webhook(club, webhook_id)
    if hook is None:
        raise Http404("no such webhook")
    webhook_services.webhook_remove(hook=hook, actor=request.user)
    messages.success(request, _("Webhook to %(url)s removed.") % {"url": hook.url})
    return redirect("clubs:webhooks", club.slug)
