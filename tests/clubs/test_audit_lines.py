"""The club history's lines are said in the reader's language from each entry's details
(replay/clubs/audit_lines.py, issue #21), not shown as the English summary written at the time."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from games.admin import audit_membership_change
from games.clubs import services
from games.clubs.models import AuditEntry
from games.models import Membership
from games.ratings.league_rules import league_settings_update
from replay.clubs import audit_lines

pytestmark = pytest.mark.django_db


def test_each_change_of_a_clubs_life_reads_in_german(make_user):
    ada, bea = make_user("ada"), make_user("bea")
    club = services.club_create(name="Zürich", slug="zh", visibility="public", user=ada)
    invitation = services.invitation_create(club=club, actor=ada, role="viewer", days=1, note="Bea")
    services.invitation_accept(token=invitation.token, user=bea)
    services.member_set_role(club=club, actor=ada, user_id=bea.pk, role=Membership.Role.SCORER)
    revoked = services.invitation_create(club=club, actor=ada, role="scorer", days=3)
    services.invitation_revoke(invitation=revoked, actor=ada)
    (carl, dina), _ = services.players_add(club=club, actor=ada, names=["Carl", "Dina"])
    services.player_rename(player=carl, actor=ada, name="Carlo")
    withdrawn = services.claim_request(player=carl, actor=bea)
    services.claim_withdraw(claim=withdrawn, actor=bea)
    services.claim_decide(claim=services.claim_request(player=carl, actor=bea), actor=ada, approve=False)
    services.claim_decide(claim=services.claim_request(player=dina, actor=bea), actor=ada, approve=True)
    services.player_link(player=dina, actor=ada, user_id=None)
    services.player_link(player=dina, actor=ada, user_id=bea.pk)
    services.player_merge(source=carl, target=dina, actor=ada)
    services.member_remove(club=club, actor=ada, user_id=bea.pk)
    services.club_update(club=club, actor=ada, visibility="members")
    league_settings_update(club=club, actor=ada, season_start_month=3)
    audit_membership_change(
        SimpleNamespace(user=ada), Membership.objects.create(club=club, user=bea, role="viewer"), change=False
    )
    entries = list(AuditEntry.objects.filter(club=club).order_by("id"))
    assert len({e.action for e in entries}) == 17, [e.action for e in entries]
    with translation.override("de"):
        lines = [audit_lines.line(e) for e in entries]
    for entry, line in zip(entries, lines):
        assert line != entry.summary, (entry.action, line)
    assert lines[1].startswith("hat Bea als ") and lines[1].endswith("(Link 1 Tag gültig)"), lines[1]
    assert "März" in lines[-2] and "Januar" in lines[-2] and "Die Saison beginnt im" in lines[-2], lines[-2]
    assert "Nur Mitglieder" in lines[-3], lines[-3]  # the club's own setting, its own entry
    assert lines[-1].startswith("hat bea als ") and "Django-Admin" in lines[-1], lines[-1]
    assert "„Carlo“" in lines[-5] and "„Dina“" in lines[-5] and "(0 Partien verschoben)" in lines[-5], lines[-5]
