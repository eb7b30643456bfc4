"""Account pages: sign in and out, sign up (when open, or through an invitation), the account
page, password change and reset (Django's auth views with the site's templates)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors
from games.api import tokens

from .forms import SignUpForm


def signup_open() -> bool:
    return bool(getattr(settings, "TICHU_OPEN_SIGNUP", False))


def sign_up(request):
    """Open sign-up (TICHU_OPEN_SIGNUP=1). With sign-up off, people join through an invitation
    link, whose page has its own sign-up form (replay.clubs.views.invitation)."""
    if not signup_open():
        raise Http404("sign-up is by invitation only")
    if request.user.is_authenticated:
        return redirect("accounts:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
            target = reverse("accounts:home")
        return redirect(target)
    return render(request, "accounts/sign_up.html", {"form": form, "next": request.GET.get("next", "")})


@login_required
def home(request):
    memberships = selectors.user_memberships(request.user)
    players = selectors.user_players(request.user)
    return render(
        request,
        "accounts/home.html",
        {"memberships": memberships, "players": players, "token_created": tokens.created_at(request.user)},
    )


@login_required
@require_POST
def token_revoke(request):
    """The owner ends their API token (the key is never shown here: scripts keep it)."""
    if tokens.revoke(request.user):
        messages.success(request, _("Your API token is revoked: scripts using it are signed out."))
    return redirect("accounts:home")
