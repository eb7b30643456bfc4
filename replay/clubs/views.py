"""Club pages: the list of clubs and a club's page with its games (for every reader the club's
visibility lets in, as the API does); for members and club admins: create a club, members and
invitations, the roster of players, the club's history; and the invitation link's page.

Thin: every change goes through games.clubs.services (one transaction, audited); a refused
change comes back as a message on the page it was made from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import engine, selectors
from games.clubs import selectors as club_selectors
from games.clubs import services
from games.services import ServiceError
from replay.accounts.forms import SignUpForm

from . import audit_lines, summary
from .forms import ROLE_HELP, ClubCreateForm, InvitationForm, RosterAddForm
from .upload import UploadForm, import_upload

if TYPE_CHECKING:  # types only: the pages read through the selectors
    from games.models import Club, ImportJob, Player

GAMES_PER_PAGE = 50
HISTORY_PER_PAGE = 50


def _club(request, slug: str) -> Club:
    return get_object_or_404(selectors.clubs_visible(request.user), selectors.club_q(slug))  # slug or id


def _member_club(request, slug: str) -> tuple[Club, str]:
    """The club and the user's role in it; 404 for non-members (the pages are the members')."""
    club = _club(request, slug)
    role = selectors.membership_role(request.user, club)
    if role is None:
        raise Http404("members only")
    return club, role


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _run(request, action, success=None):
    """Run a service call; its refusal becomes an error message. True if it went through."""
    try:
        result = action()
    except ServiceError as err:
        messages.error(request, err.message)
        return False
    except Http404:
        messages.error(request, _("That is no longer there (someone else changed it meanwhile?)."))
        return False
    if success:
        messages.success(request, success(result) if callable(success) else success)
    return True


# --- the clubs and a club's games (public as the club's visibility allows) ---------------------


def club_list(request):
    held = selectors.unlisted_game_ids(request.user)  # a held table's game is not counted either
    clubs = selectors.clubs_visible(request.user).annotate(
        game_count=Count("games", filter=~Q(games__in=held)) if held else Count("games")
    )
    return render(request, "clubs/list.html", {"clubs": clubs})


def _player_filter(request, roster: list[Player]) -> Player | None:
    """The club page's `?player=ID` (a roster player of this club), or None: an unknown id shows
    every game rather than failing."""
    raw = request.GET.get("player", "")
    return next((p for p in roster if str(p.pk) == raw), None) if raw.isdigit() else None


def club_detail(request, slug: str):
    club = _club(request, slug)
    listed = selectors.games_listed(selectors.club_games(club), request.user)  # less held tables' games
    # the filter offers the players of the games listed to this reader (not a held table's: its
    # seating is the table's and the TD's until the round closes)
    roster = selectors.players_of(listed, club)
    who = _player_filter(request, roster)
    games = listed.filter(seats__player=who) if who else listed
    # when the games were played, newest first (an imported history keeps its own dates)
    games = games.prefetch_related("seats__player").order_by("-played_at", "-id")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "clubs/detail.html",
        {
            "club": club,
            "page": page,
            "games": summary.summarise_all(list(page)),
            "roster": roster,
            "who": who,
            "filter_query": f"&player={who.pk}" if who else "",
            "evening": summary.latest_evening(listed, club.time_zone, request.user)
            if page.number == 1 and not who
            else None,
            "league_url": reverse("league:league", args=[club.pk]),
            "role": selectors.membership_role(request.user, club),
            "can_record": selectors.can_write(request.user, club),
        },
    )


# --- create a club ------------------------------------------------------------------------------


@login_required
def club_create(request):
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = services.club_create(
                name=data["name"],
                slug=data["slug"],
                visibility=data["visibility"],
                reveal_hands=data.get("reveal_hands") or None,
                user=request.user,
                time_zone=data.get("time_zone") or None,
            )
        except ServiceError as err:
            form.add_error("slug" if err.code in {"duplicate", "invalid_slug"} else None, err.message)
        else:
            messages.success(
                request, _("%(club)s is open: you are its admin. Invite your scorers next.") % {"club": club.name}
            )
            return redirect("clubs:members", club.slug)
    return render(request, "clubs/create.html", {"form": form, "time_zones": selectors.time_zone_names()})


# --- members and invitations --------------------------------------------------------------------


@login_required
def members(request, slug: str):
    club, role = _member_club(request, slug)
    is_admin = role == selectors.Role.ADMIN
    if request.method == "POST":
        if not is_admin:
            raise Http404("admins only")
        _members_post(request, club)
        return redirect("clubs:members", club.slug)
    rows = selectors.club_memberships(club)
    players = selectors.linked_players(club)
    context = {
        "club": club, "role": role, "is_admin": is_admin,
        "members": [{"m": m, "player": players.get(m.user_id)} for m in rows],
        "roles": selectors.Role.choices,
        "roles_explained": [(label, ROLE_HELP[value]) for value, label in selectors.Role.choices],
    }  # fmt: skip
    if is_admin:
        context["invite_form"] = InvitationForm(
            initial={"days": services.invitation_days_default()},
            players=selectors.unlinked_players(club),
        )
        context["invitations"] = [
            {"i": i, "url": request.build_absolute_uri(reverse("clubs:invitation", args=[i.token]))}
            for i in club_selectors.invitations(club, 50)
        ]
    return render(request, "clubs/members.html", context)


def _members_post(request, club: Club) -> None:
    action = request.POST.get("action")
    actor = request.user
    if action == "role":
        role = request.POST.get("role", "")
        _run(request, lambda: services.member_set_role(club=club, actor=actor, user_id=_int(request.POST.get("user")),
                                                       role=role),
             lambda result: _("%(user)s is now %(role)s.") % {"user": result.user.username, "role": result.get_role_display().lower()})  # fmt: skip
    elif action == "remove":
        _run(
            request,
            lambda: services.member_remove(club=club, actor=actor, user_id=_int(request.POST.get("user"))),
            _("Member removed."),
        )
    elif action == "invite":
        players = selectors.unlinked_players(club)
        form = InvitationForm(request.POST, players=players)
        if not form.is_valid():
            messages.error(
                request,
                _("The invitation was not made: %(errors)s")
                % {
                    "errors": "; ".join(
                        f"{form.fields[k].label or k}: {' '.join(v)}" if k in form.fields else " ".join(v)
                        for k, v in form.errors.items()
                    )
                },
            )
            return
        data = form.cleaned_data
        player = players.filter(pk=data["player"]).first() if data["player"] else None
        if _run(
            request,
            lambda: services.invitation_create(
                club=club, actor=actor, role=data["role"], days=data["days"], note=data["note"], player=player
            ),
        ):
            messages.success(request, _("Invitation made: copy its link below and send it (it works once)."))
    elif action == "revoke":
        invitation = club_selectors.invitation(club, _int(request.POST.get("invitation")))
        if invitation is None:
            messages.error(request, _("No such invitation."))
            return
        _run(request, lambda: services.invitation_revoke(invitation=invitation, actor=actor), _("Invitation revoked."))
    else:
        messages.error(request, _("Unknown action."))


@login_required
@require_POST
def leave(request, slug: str):
    club, _role = _member_club(request, slug)
    if _run(request, lambda: services.member_remove(club=club, actor=request.user, user_id=request.user.pk)):
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
        return redirect("accounts:home")
    return redirect("clubs:members", club.slug)


# --- the roster ---------------------------------------------------------------------------------


def roster(request, slug: str):
    club = _club(request, slug)
    role = selectors.membership_role(request.user, club)
    if request.method == "POST":
        if role is None:
            raise Http404("members only")
        _roster_post(request, club)
        return redirect("clubs:players", club.slug)
    players = selectors.roster(club)
    member_users = [m.user for m in selectors.club_memberships(club)]
    is_admin = role == selectors.Role.ADMIN
    pending = club_selectors.pending_claims(club)
    return render(request, "clubs/players.html", {
        "club": club, "role": role,
        "is_admin": is_admin,
        "can_add": role in selectors.WRITER_ROLES,
        "claims": list(pending) if is_admin else [],
        "my_claim": pending.filter(user=request.user).first() if role else None,
        "players": players,
        "my_player": next((p for p in players if p.user_id == request.user.pk), None) if role else None,
        "member_users": member_users,
        "add_form": RosterAddForm(),
    })  # fmt: skip


def _roster_post(request, club: Club) -> None:
    action = request.POST.get("action")
    actor = request.user

    def player(field: str = "player") -> Player:
        found = selectors.club_player(club, _int(request.POST.get(field)))
        if found is None:
            raise Http404("no such player")
        return found

    if action == "add":
        form = RosterAddForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Give at least one name."))
            return
        try:
            created, existing = services.players_add(club=club, actor=actor, names=form.names_list())
        except ServiceError as err:
            messages.error(request, err.message)
            return
        if created:
            messages.success(
                request,
                ngettext("Added %(count)d: %(names)s.", "Added %(count)d: %(names)s.", len(created))
                % {"count": len(created), "names": ", ".join(p.name for p in created)},
            )
        if existing:
            messages.info(request, _("Already on the roster: %(names)s.") % {"names": ", ".join(existing)})
    elif action == "rename":
        p = player()
        _run(
            request,
            lambda: services.player_rename(player=p, actor=actor, name=request.POST.get("name", "")),
            lambda result: _("Renamed to %(name)s.") % {"name": result.name},
        )
    elif action == "merge":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm the two are one person."))
            return
        source, target = player("source"), player("target")
        _run(
            request,
            lambda: services.player_merge(source=source, target=target, actor=actor),
            _("%(source)s merged into %(target)s: their games follow.")
            % {"source": source.name, "target": target.name},
        )
    elif action == "link":
        p = player()
        _run(
            request,
            lambda: services.player_link(player=p, actor=actor, user_id=_int(request.POST.get("user"))),
            _("Linked."),
        )
    elif action == "claim":  # "This is me": a request the admins approve
        p = player()
        _run(
            request,
            lambda: services.claim_request(player=p, actor=actor),
            _("Your request to be %(name)s is sent: an admin of the club approves it.") % {"name": p.name},
        )
    elif action in {"approve", "refuse", "withdraw"}:
        claim = club_selectors.claim(club, _int(request.POST.get("claim")))
        if claim is None:
            raise Http404("no such request")
        if action == "withdraw":
            _run(request, lambda: services.claim_withdraw(claim=claim, actor=actor), _("Request withdrawn."))
        else:
            approve = action == "approve"
            _run(
                request,
                lambda: services.claim_decide(claim=claim, actor=actor, approve=approve),
                (_("%(user)s is now the player %(name)s.") if approve else _("Request refused."))
                % {"user": claim.user.get_username(), "name": claim.player.name},
            )
    elif action == "unlink":
        p = player()
        _run(request, lambda: services.player_link(player=p, actor=actor, user_id=None), _("Unlinked."))
    else:
        messages.error(request, _("Unknown action."))


# --- history ------------------------------------------------------------------------------------


@login_required
def history(request, slug: str):
    club, role = _member_club(request, slug)
    entries = club_selectors.history(club)
    page = Paginator(entries, HISTORY_PER_PAGE).get_page(request.GET.get("page"))
    lines = [(e, audit_lines.line(e)) for e in page]
    return render(request, "clubs/history.html", {"club": club, "role": role, "page": page, "lines": lines})


# --- the invitation link ------------------------------------------------------------------------


def invitation(request, token: str):
    """Join a club by an invitation link: signed in, one button; otherwise sign in first, or
    create an account here (even with open sign-up off: the invitation is the way in)."""
    try:
        inv = services.invitation_pending(token)
    except services.InvitationUnusable as err:
        return render(request, "clubs/invitation.html", {"unusable": err.state}, status=410)
    form = SignUpForm(request.POST if request.POST.get("action") == "sign-up" else None)
    if request.method == "POST":
        if request.POST.get("action") == "sign-up" and not request.user.is_authenticated:
            if form.is_valid():
                user = form.save()
                login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
                return _accept(request, token)
        elif request.user.is_authenticated and request.POST.get("action") == "accept":
            return _accept(request, token)
    member = selectors.membership(request.user, inv.club)
    return render(
        request,
        "clubs/invitation.html",
        {
            "inv": inv,
            "club": inv.club,
            "form": form,
            "member": member,
            "role_help": ROLE_HELP.get(inv.role, ""),
        },
    )


def _accept(request, token: str):
    try:
        membership = services.invitation_accept(token=token, user=request.user)
    except services.InvitationUnusable as err:
        return render(request, "clubs/invitation.html", {"unusable": err.state}, status=410)
    messages.success(
        request,
        _("Welcome to %(club)s: you are a %(role)s.")
        % {"club": membership.club.name, "role": membership.get_role_display().lower()},
    )
    return redirect("clubs:club-detail", membership.club.slug)


# --- imports -------------------------------------------------------------------------------------

#: Seconds between the imports page's reloads while a job runs (a meta refresh: no script).
IMPORTS_REFRESH_S = 5


@login_required
def imports(request, slug: str):
    """The club's `import_bsw --workers` jobs, newest first, with their progress (club admins)."""
    club, role = _member_club(request, slug)
    if role != selectors.Role.ADMIN:
        raise Http404("admins only")
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if form.is_valid():
            name, text = form.cleaned_data["game_file"]
            stored, words = import_upload(club, name, text, request.user)
            (messages.success if stored else messages.warning)(request, words)
            return redirect("clubs:imports", club.slug)
    jobs = selectors.import_jobs(club, 20)
    rows = [
        {
            "job": j,
            "handled": min(j.files_handled, j.files_total),
            "percent": 100 if not j.files_total else min(100, 100 * j.files_handled // j.files_total),
        }
        for j in jobs
    ]
    running = any(j.finished_at is None for j in jobs)
    return render(
        request,
        "clubs/imports.html",
        {
            "club": club,
            "role": role,
            "rows": rows,
            "running": running,
            "form": form,
            "refresh_s": IMPORTS_REFRESH_S,
            **_mended_files(club, jobs),
        },
    )


#: Files whose mended hands the imports page lists (the newest first)
IMPORTS_MENDED_FILES = 50


def _mended_files(club: Club, jobs: list[ImportJob]) -> dict:
    """The files of these jobs with a hand repaired, kept as its score-sheet line or skipped, each
    hand's line in the page's language (the engine's words; a file imported before the reasons
    had their rule shows the English reason)."""
    lang = get_language()
    files = selectors.mended_files(club, jobs, IMPORTS_MENDED_FILES)
    return {
        "mended_heading": engine.report_heading(lang),
        "mended_files": [{"file": f, "lines": [engine.note_line(n, lang) for n in f.hands_mended]} for f in files],
    }
