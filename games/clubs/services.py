"""Club life: memberships, invitations and the roster of players, each change audited.

One home for every change a club admin (or a member about themselves) makes, used by the API
(games.api.clubs) and by the pages (replay.clubs). Each function runs in one transaction and
writes its `AuditEntry` in it, so a change and its history line are stored together or not at all.

A club never loses its last admin: every change of roles or members first locks the club's
membership rows (SELECT ... FOR UPDATE, in id order so that two such changes cannot deadlock),
then checks, on what it has locked, that the actor is still an admin and that an admin remains.
Two admins demoting each other at once are thus serialised: the second sees the first's change.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from games import hooks, ids, selectors
from games import services as game_services
from games.clubs.models import AuditEntry, ClaimRequest, Invitation
from games.models import Club, Game, GameSeat, Membership, Player, default_time_zone, validate_club_slug
from games.services import InvalidInput, WriteForbidden

logger = logging.getLogger(__name__)
Role = Membership.Role
ROLE_RANK = {Role.VIEWER: 0, Role.SCORER: 1, Role.ADMIN: 2}
MAX_INVITATION_DAYS = 90
MAX_ROSTER_BATCH = 200


class LastAdmin(InvalidInput):
    def __init__(self) -> None:
        super().__init__("a club keeps at least one admin: make someone else admin first", code="last_admin")


class PlayerInOpenGame(InvalidInput):
    """A player's account decides whose hand its holder sees in the games the player sits in:
    it does not change while one of them is open (issue 30, finding 1)."""

    def __init__(self, player: Player, game_id: int) -> None:
        super().__init__(
            _(
                "the player '%(name)s' sits in game %(game)s, which is still open (in play, or a table of a "
                "tournament in progress): who that player is can change only once it is over"
            )
            % {"name": player.name, "game": game_id},
            code="player_in_open_game",
        )
        self.game_id = game_id


class InvitationUnusable(InvalidInput):
    def __init__(self, state: str) -> None:
        super().__init__(f"this invitation is {state}; ask the club's admin for a new link", code=f"invitation_{state}")
        self.state = state


def _now():
    return timezone.now()


def audit(club: Club, actor, action: str, summary: str, **details) -> AuditEntry:
    return AuditEntry.objects.create(
        club=club, actor=actor if actor is not None and actor.is_authenticated else None,
        actor_name=actor.get_username() if actor is not None and actor.is_authenticated else "(system)",
        action=action, summary=summary[:300], details=details,
    )  # fmt: skip


def lock_memberships(club: Club) -> dict[int, Membership]:
    """The club's memberships by user id, locked for this transaction."""
    rows = Membership.objects.select_for_update(of=("self",)).filter(club=club).select_related("user").order_by("pk")
    return {m.user_id: m for m in rows}


def require_admin(members: dict[int, Membership], actor) -> None:
    pk = getattr(actor, "pk", None)
    m = members.get(pk) if pk is not None else None
    if m is None or m.role != Role.ADMIN:
        raise WriteForbidden(_("this needs the admin role in the club"))


def admins_after(members: dict[int, Membership], changes: dict[int, str | None]) -> int:
    """The club's admins once `changes` are made: user id -> their new role (None: they leave)."""
    roles = {uid: m.role for uid, m in members.items()}
    for uid, role in changes.items():
        if role is None:
            roles.pop(uid, None)
        else:
            roles[uid] = role
    return sum(1 for role in roles.values() if role == Role.ADMIN)


def _admins_after(members: dict[int, Membership], user_id: int, role: str | None) -> int:
    return admins_after(members, {user_id: role})


def require_an_admin_after(club: Club, changes: dict[int, str | None]) -> None:
    """The last-admin rule for changes made elsewhere than here (the Django admin): raise
    `LastAdmin` when `club` has an admin and would keep none once `changes` (user id -> new role,
    None: removed) are made. Locks the club's memberships: call it inside the transaction that
    makes them."""
    members = lock_memberships(club) if club.pk is not None else {}
    if changes and admins_after(members, {}) > 0 and admins_after(members, changes) == 0:
        raise LastAdmin()


# --- clubs ------------------------------------------------------------------------------------


def club_create(
    *, name: str, slug: str, visibility: str, user, reveal_hands: str | None = None, time_zone: str | None = None
) -> Club:
    try:
        validate_club_slug(slug)  # docs/api.md: a slug always has a letter (the model field's rule too)
    except ValidationError as e:
        raise InvalidInput(" ".join(e.messages), code="invalid_slug") from None
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name.strip(),
                slug=slug,
                visibility=visibility,
                reveal_hands=reveal_hands or Club.RevealHands.AFTER_HAND,
                time_zone=time_zone or default_time_zone(),
            )
            Membership.objects.create(user=user, club=club, role=Role.ADMIN)
            audit(
                club,
                user,
                "club_created",
                f"created the club {club.name!r} ({club.get_visibility_display()})",
                name=club.name,
            )
    except IntegrityError:
        raise InvalidInput(_("a club with slug '%(slug)s' exists already") % {"slug": slug}, code="duplicate") from None
    return club


def club_update(*, club: Club, actor, **fields) -> Club:
    with transaction.atomic():
        require_admin(lock_memberships(club), actor)
        before = {k: getattr(club, k) for k in fields}
        for name, value in fields.items():
            setattr(club, name, value)
        club.save(update_fields=list(fields))
        changes = {k: [before[k], v] for k, v in fields.items() if before[k] != v}
        if changes:
            audit(club, actor, "club_updated",
                  "changed the club's " + ", ".join(f"{k} from {a!r} to {b!r}" for k, (a, b) in changes.items()),
                  changes=changes)  # fmt: skip
    return club


# --- members ----------------------------------------------------------------------------------


def member_set_role(*, club: Club, actor, user_id: int, role: str) -> Membership:
    if role not in ROLE_RANK:
        raise InvalidInput(_("role is one of %(roles)s") % {"roles": ", ".join(ROLE_RANK)})
    with transaction.atomic():
        members = lock_memberships(club)
        require_admin(members, actor)
        membership = members.get(user_id)
        if membership is None:
            raise Http404("no such member")
        if membership.role == role:
            return membership
        if _admins_after(members, user_id, role) == 0:
            raise LastAdmin()
        old = membership.role
        membership.role = role
        membership.save(update_fields=["role"])
        audit(club, actor, "member_role", f"changed {membership.user.get_username()}'s role from {old} to {role}",
              user=membership.user.get_username(), old=old, new=role)  # fmt: skip
    return membership


def member_remove(*, club: Club, actor, user_id: int) -> None:
    """An admin removes a member; a member may also leave (actor is the member)."""
    with transaction.atomic():
        members = lock_memberships(club)
        membership = members.get(user_id)
        if getattr(actor, "pk", None) != user_id:
            require_admin(members, actor)
        if membership is None:
            raise Http404("no such member")
        if _admins_after(members, user_id, None) == 0:
            raise LastAdmin()
        membership.delete()
        name = membership.user.get_username()
        summary = "left the club" if actor.pk == user_id else f"removed {name} ({membership.role}) from the club"
        audit(club, actor, "member_removed", summary, user=name, role=membership.role)


# --- invitations ------------------------------------------------------------------------------


def invitation_days_default() -> int:
    return int(getattr(settings, "TICHU_INVITATION_DAYS", 7))


def invitation_create(
    *, club: Club, actor, role: str, days: int | None = None, note: str = "", player: Player | None = None
) -> Invitation:
    days = invitation_days_default() if days is None else days
    if not 1 <= days <= MAX_INVITATION_DAYS:
        raise InvalidInput(_("an invitation lasts 1 to %(days)s days") % {"days": MAX_INVITATION_DAYS})
    if role not in ROLE_RANK:
        raise InvalidInput(_("role is one of %(roles)s") % {"roles": ", ".join(ROLE_RANK)})
    if player is not None and (player.club_id != club.pk or player.user_id is not None):
        raise InvalidInput(_("that player is not an unlinked player of this club"))
    with transaction.atomic():
        require_admin(lock_memberships(club), actor)
        invitation = Invitation.objects.create(
            club=club, role=role, note=note.strip()[:100], player=player, created_by=actor,
            expires_at=_now() + timedelta(days=days),
        )  # fmt: skip
        who = f" for {invitation.note}" if invitation.note else ""
        audit(club, actor, "invitation_created", f"invited someone{who} as {role} (link valid {days} days)",
              invitation=invitation.pk, role=role, days=days, note=invitation.note)  # fmt: skip
    return invitation


def invitation_revoke(*, invitation: Invitation, actor) -> Invitation:
    with transaction.atomic():
        require_admin(lock_memberships(invitation.club), actor)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.state != "pending":
            raise InvitationUnusable(invitation.state)
        invitation.revoked_at = _now()
        invitation.save(update_fields=["revoked_at"])
        who = f" for {invitation.note}" if invitation.note else ""
        audit(invitation.club, actor, "invitation_revoked", f"revoked the invitation{who} ({invitation.role})",
              invitation=invitation.pk, role=invitation.role, note=invitation.note)  # fmt: skip
    return invitation


def invitation_pending(token: str) -> Invitation:
    """The invitation behind a link, if it can still be accepted (InvitationUnusable otherwise;
    Http404 for a token that never existed)."""
    invitation = Invitation.objects.select_related("club", "player").filter(token=token).first()
    if invitation is None:
        raise Http404("no such invitation")
    if invitation.state != "pending":
        raise InvitationUnusable(invitation.state)
    return invitation


def invitation_accept(*, token: str, user) -> Membership:
    """`user` joins the club with the invited role (an existing member keeps the higher of the
    two roles); the link is then used up. A player named in the invitation is linked to `user`."""
    with transaction.atomic():
        invitation = invitation_pending(token)
        invitation = (
            Invitation.objects.select_for_update(of=("self",)).select_related("club", "player").get(pk=invitation.pk)
        )
        if invitation.state != "pending":  # accepted or revoked while we waited for the lock
            raise InvitationUnusable(invitation.state)
        club = invitation.club
        members = lock_memberships(club)
        membership = members.get(user.pk)
        if membership is None:
            membership = Membership.objects.create(club=club, user=user, role=invitation.role)
        elif ROLE_RANK[invitation.role] > ROLE_RANK[membership.role]:
            membership.role = invitation.role
            membership.save(update_fields=["role"])
        invitation.accepted_at, invitation.accepted_by = _now(), user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
        audit(club, user, "invitation_accepted", f"joined the club as {membership.role} by invitation",
              invitation=invitation.pk, role=membership.role)  # fmt: skip
        player = invitation.player
        if player is not None and not _has_player(club, user):
            player = Player.objects.select_for_update(of=("self",)).get(pk=player.pk)
            if player.user_id is None and open_game_of(player) is None:
                _link(player, user)
                audit(club, user, "player_linked", f"is the player {player.name!r}", player=player.pk,
                      name=player.name)  # fmt: skip
            elif player.user_id is None:  # the seat plays now: the link waits for an admin's approval
                for older in ClaimRequest.objects.select_for_update().filter(
                    club=club, user=user, state=ClaimRequest.State.PENDING
                ):
                    _withdraw(older, user)  # the admin's invitation names the player: it replaces the member's ask
                _claim_create(club, user, player, source=ClaimRequest.Source.INVITATION)
    return membership


# --- roster -----------------------------------------------------------------------------------


def clean_name(name) -> str:
    """A player name as stored: surrounding spaces trimmed, 1 to 100 characters."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > game_services.MAX_NAME_LENGTH:
        raise InvalidInput(_("a player name is 1 to %(n)s characters") % {"n": game_services.MAX_NAME_LENGTH})
    return name.strip()


def _require_role(club: Club, actor, roles: Iterable[str]) -> Membership:
    m = Membership.objects.filter(club=club, user=actor).first() if actor.is_authenticated else None
    if m is None or m.role not in roles:
        raise WriteForbidden(_role_needed(set(roles)))
    return m


def _role_needed(roles: set[str]) -> str:
    """The refusal as a whole sentence for each set of roles the club's writes ask for."""
    if roles == {Role.ADMIN}:
        return _("this needs the admin role in the club")
    if roles == set(Membership.WRITER_ROLES):
        return _("this needs the scorer or admin role in the club")
    return _("this needs a role in the club")


def players_add(*, club: Club, actor, names: Iterable[str]) -> tuple[list[Player], list[str]]:
    """Add several players at once (blank lines ignored). Returns (created, names already on the
    roster, as the roster spells them)."""
    cleaned = [n.strip() for n in names if n.strip()]
    if len(cleaned) > MAX_ROSTER_BATCH:
        raise InvalidInput(_("at most %(n)s names at once") % {"n": MAX_ROSTER_BATCH})
    cleaned = [clean_name(n) for n in cleaned]
    with transaction.atomic():
        _require_role(club, actor, Membership.WRITER_ROLES)
        created, existing, seen = [], [], set()
        for name in cleaned:
            key = name.lower()
            if key in seen:
                continue
            seen.add(key)
            found = selectors.player_named(club, name)
            if found is not None:
                existing.append(found.name)
                continue
            created.append(Player.objects.create(club=club, name=name))
        if created:
            audit(club, actor, "players_added", "added " + ", ".join(p.name for p in created) + " to the roster",
                  players=[p.pk for p in created], names=[p.name for p in created])  # fmt: skip
    return created, existing


def _new_cache_identity(player_ids: list[int]) -> None:
    """Names are part of every cached state and replay of a game (keyed by the game's stream_id):
    a renamed or merged player's games get a new stream_id, so that no cache shows the old name."""
    for game_id in Game.objects.filter(seats__player_id__in=player_ids).values_list("pk", flat=True).distinct():
        Game.objects.filter(pk=game_id).update(stream_id=uuid.uuid4())


def player_rename(*, player: Player, actor, name: str) -> Player:
    name = clean_name(name)
    with transaction.atomic():
        _require_role(player.club, actor, [Role.ADMIN])
        player = Player.objects.select_for_update().get(pk=player.pk)
        old = player.name
        if old == name:
            return player
        other = selectors.player_named(player.club, name)
        if other is not None and other.pk != player.pk:
            raise InvalidInput(_("'%(name)s' is already on the roster: merge the two players instead") % {"name": other.name},
                               code="duplicate")  # fmt: skip
        player.name = name
        try:
            with transaction.atomic():
                player.save(update_fields=["name"])
        except IntegrityError:
            raise InvalidInput(_("'%(name)s' is already on the roster") % {"name": name}, code="duplicate") from None
        _new_cache_identity([player.pk])
        audit(player.club, actor, "player_renamed", f"renamed the player {old!r} to {name!r}",
              player=player.pk, old=old, new=name)  # fmt: skip
    return player


def player_merge(*, source: Player, target: Player, actor) -> Player:
    """`source` and `target` are one person: source's seats move to target, source goes, the
    club's ratings are recomputed (after the commit). Refused when both sat in one game."""
    if source.pk == target.pk or source.club_id != target.club_id:
        raise InvalidInput(_("pick two different players of the same club"))
    club = target.club
    with transaction.atomic():
        _require_role(club, actor, [Role.ADMIN])
        locked = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk]).order_by("pk")
        }
        if len(locked) != 2:
            raise Http404("no such player")
        source, target = locked[source.pk], locked[target.pk]
        shared = GameSeat.objects.filter(player=source, game__in=GameSeat.objects.filter(player=target).values("game"))
        if shared.exists():
            raise InvalidInput(
                _("'%(a)s' and '%(b)s' sat at the same game (game %(game)s): they are two people")
                % {"a": source.name, "b": target.name, "game": shared.first().game_id},
                code="merge_conflict",
            )
        if source.user_id and target.user_id and source.user_id != target.user_id:
            raise InvalidInput(_("the two players are linked to two different accounts"), code="merge_conflict")
        _require_no_open_seat_changes(source, target)
        games = sorted(set(GameSeat.objects.filter(player=source).values_list("game_id", flat=True)))
        _new_cache_identity([source.pk])
        GameSeat.objects.filter(player=source).update(player=target)
        if source.user_id and not target.user_id:
            target.user_id = source.user_id
            target.save(update_fields=["user"])
        source_name, source_id = source.name, source.pk
        source.delete()
        audit(club, actor, "players_merged",
              f"merged the player {source_name!r} into {target.name!r} "
              f"({len(games)} game{'' if len(games) == 1 else 's'} moved)",
              source=source_id, source_name=source_name, target=target.pk, target_name=target.name,
              games=games)  # fmt: skip
        transaction.on_commit(lambda: _recompute_ratings(club.pk))
    return target


def _recompute_ratings(club_id: int) -> None:
    """Queue the club's recompute (after the merge's commit). The merge stands even if the broker
    is down: the error is logged with the command that catches up."""
    try:
        hooks.club_players_merged.send(club_id)  # the ratings queue the club's recompute
    except Exception:  # noqa: BLE001 - the merge is committed; never turn it into a 500
        logger.exception(
            "club %s: ratings recompute not queued after a merge; run manage.py recompute_ratings --club %s --refold",
            club_id,
            club_id,
        )


def _has_player(club: Club, user) -> Player | None:
    return Player.objects.filter(club=club, user=user).first()


def _link(player: Player, user) -> None:
    player.user = user
    player.save(update_fields=["user"])


def open_game_of(player: Player) -> int | None:
    """The id of a game `player` sits in that is still open, or None. Open: in play (its hands
    hidden; an unfinished game, whose source ended, shows them as a finished one), or a table's game of a tournament in progress (a duplicate table's finished
    game stays hidden from the other tables until its round closes; the tournament's end is the
    simple bound that covers every round)."""
    open_games = GameSeat.objects.filter(player=player).filter(
        Q(game__status=Game.Status.ACTIVE) | Q(game__tournament_table__tournament__status="active")
    )
    return open_games.values_list("game_id", flat=True).order_by("game_id").first()


def _require_no_open_game(player: Player) -> None:
    game_id = open_game_of(player)
    if game_id is not None:
        raise PlayerInOpenGame(player, game_id)


def _require_no_open_seat_changes(source: Player, target: Player) -> None:
    """A merge gives source's seats target's account (target's, or source's when target has
    none): refused when that changes the account of a seat in an open game."""
    account = target.user_id or source.user_id
    if source.user_id != account:
        _require_no_open_game(source)
    if target.user_id != account:
        _require_no_open_game(target)


def player_link(*, player: Player, actor, user_id: int | None) -> Player:
    """An admin links `player` to a member's account (None: unlinks it); a member may unlink their
    own player. A member who is a player asks for it (`claim_request`), an admin approves. No link
    changes while the player sits in an open game (`player_in_open_game`)."""
    club = player.club
    with transaction.atomic():
        # the club's memberships locked, as claim_decide locks them: links and approvals in one club
        # are serialised, so no member ends up linked to two players by two admins at once
        lock_memberships(club)
        me = _require_role(club, actor, list(ROLE_RANK))
        player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
        is_admin = me.role == Role.ADMIN
        if user_id is None:
            if not (is_admin or player.user_id == actor.pk):
                raise WriteForbidden(_("only an admin unlinks another member's player"))
            if player.user_id is None:
                return player
            _require_no_open_game(player)
            old = player.user.get_username()
            player.user = None
            player.save(update_fields=["user"])
            audit(club, actor, "player_unlinked", f"unlinked the player {player.name!r} from {old}", player=player.pk,
                  name=player.name, user=old)  # fmt: skip
            return player
        if not is_admin:
            raise WriteForbidden(
                _('only an admin links a player to an account: ask with "This is me", an admin approves')
            )
        member = _link_checked(club, player, user_id)
        _link(player, member.user)
        summary = (
            f"said they are the player {player.name!r}"
            if user_id == actor.pk
            else f"linked the player {player.name!r} to {member.user.get_username()}"
        )
        audit(
            club, actor, "player_linked", summary, player=player.pk, user=member.user.get_username(), name=player.name
        )
    return player


def _link_checked(club: Club, player: Player, user_id: int) -> Membership:
    """The membership `player` (locked) may be linked to, or the coded refusal."""
    member = (
        Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
        if ids.in_range(user_id)
        else None
    )
    if member is None:
        raise InvalidInput(_("a player is linked to a member of the club"), code="not_a_member")
    if player.user_id is not None and player.user_id != member.user_id:
        raise InvalidInput(
            _("the player '%(name)s' is linked to another account: an admin unlinks it first") % {"name": player.name},
            code="player_linked",
        )
    mine = _has_player(club, member.user)
    if mine is not None and mine.pk != player.pk:
        raise InvalidInput(
            _("%(user)s is already the player '%(name)s'") % {"user": member.user.get_username(), "name": mine.name},
            code="duplicate",
        )
    if player.user_id != member.user_id:
        _require_no_open_game(player)
    return member


# --- claims: "This is me", approved by an admin -------------------------------------------------


def _claim_create(club: Club, user, player: Player, *, source: str) -> ClaimRequest:
    try:
        with transaction.atomic():  # a savepoint: a request made meanwhile is a coded refusal, not a 500
            claim = ClaimRequest.objects.create(club=club, player=player, user=user, source=source)
    except IntegrityError:
        raise InvalidInput(
            _("you asked to be a player of this club already: wait for an admin, or withdraw that request"),
            code="claim_pending",
        ) from None
    audit(
        club,
        user,
        "claim_requested",
        f"asked to be the player {player.name!r}",
        claim=claim.pk,
        player=player.pk,
        name=player.name,
        source=source,
    )
    return claim


def claim_request(*, player: Player, actor) -> ClaimRequest:
    """A member asks to be `player` ("This is me"); an admin approves or refuses (claim_decide).
    Refused: a player linked already, a member who is a player already or has a request waiting."""
    club = player.club
    with transaction.atomic():
        _require_role(club, actor, list(ROLE_RANK))
        player = Player.objects.select_for_update(of=("self",)).get(pk=player.pk)
        if player.user_id is not None:
            raise InvalidInput(
                _("the player '%(name)s' is linked to an account already") % {"name": player.name}, code="player_linked"
            )
        mine = _has_player(club, actor)
        if mine is not None:
            raise InvalidInput(_("you are the player '%(name)s' already") % {"name": mine.name}, code="duplicate")
        waiting = ClaimRequest.objects.filter(club=club, user=actor, state=ClaimRequest.State.PENDING).first()
        if waiting is not None:
            raise InvalidInput(
                _("you asked to be '%(name)s' already: wait for an admin, or withdraw that request")
                % {"name": waiting.player.name},
                code="claim_pending",
            )
        return _claim_create(club, actor, player, source=ClaimRequest.Source.MEMBER)


def _pending_claim(claim: ClaimRequest) -> ClaimRequest:
    claim = ClaimRequest.objects.select_for_update(of=("self",)).select_related("player", "user").get(pk=claim.pk)
    if claim.state != ClaimRequest.State.PENDING:
        raise InvalidInput(
            _("this request is no longer waiting: it was approved, refused or withdrawn"), code=f"claim_{claim.state}"
        )
    return claim


def claim_withdraw(*, claim: ClaimRequest, actor) -> ClaimRequest:
    """The member withdraws their own waiting request."""
    with transaction.atomic():
        claim = _pending_claim(claim)
        if claim.user_id != getattr(actor, "pk", None):
            raise WriteForbidden(_("only the member who asked withdraws a request"))
        _withdraw(claim, actor)
    return claim


def _withdraw(claim: ClaimRequest, actor) -> None:
    claim.state, claim.decided_at, claim.decided_by = ClaimRequest.State.WITHDRAWN, _now(), actor
    claim.save(update_fields=["state", "decided_at", "decided_by"])
    audit(
        claim.club,
        actor,
        "claim_withdrawn",
        f"withdrew the request to be {claim.player.name!r}",
        claim=claim.pk,
        player=claim.player_id,
        name=claim.player.name,
    )


def claim_decide(*, claim: ClaimRequest, actor, approve: bool) -> ClaimRequest:
    """An admin approves (the player is linked to the member, with the checks of an admin's link:
    still a member, no other player, not seated in an open game) or refuses a waiting request.
    Approving one closes the other requests for that player as refused."""
    club = claim.club
    with transaction.atomic():
        require_admin(lock_memberships(club), actor)
        claim = _pending_claim(claim)
        who, name = claim.user.get_username(), claim.player.name
        if approve:
            player = Player.objects.select_for_update(of=("self",)).get(pk=claim.player_id)
            member = _link_checked(club, player, claim.user_id)
            _link(player, member.user)
            others = ClaimRequest.objects.filter(player=player, state=ClaimRequest.State.PENDING).exclude(pk=claim.pk)
            others.update(state=ClaimRequest.State.REFUSED, decided_at=_now(), decided_by=actor)
        claim.state = ClaimRequest.State.APPROVED if approve else ClaimRequest.State.REFUSED
        claim.decided_at, claim.decided_by = _now(), actor
        claim.save(update_fields=["state", "decided_at", "decided_by"])
        if approve:
            audit(
                club,
                actor,
                "claim_approved",
                f"approved that {who} is the player {name!r}",
                claim=claim.pk,
                player=claim.player_id,
                name=name,
                user=who,
            )
        else:
            audit(
                club,
                actor,
                "claim_refused",
                f"refused that {who} is the player {name!r}",
                claim=claim.pk,
                player=claim.player_id,
                name=name,
                user=who,
            )
    return claim
