"""The club's league settings form (shape only; the change goes through
games.clubs.services.club_update, which checks the admin role and audits it)."""

from __future__ import annotations

from django import forms
from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _

from games.models import Club


class LeagueSettingsForm(forms.ModelForm):
    league_season_start_month = forms.TypedChoiceField(
        coerce=int,
        choices=list(MONTHS.items()),
        label=_("Season starts in"),
        help_text=_("The league's “this season” runs from the first day of this month."),
    )

    class Meta:
        model = Club
        fields = [
            "league_leads_with",
            "league_min_games",
            "league_inactive_days",
            "league_season_start_month",
            "time_zone",
            "league_rates_bot_games",
        ]
        labels = {
            "time_zone": _("Time zone"),
            "league_rates_bot_games": _("Rate the games the bot played a seat of"),
            "league_leads_with": _("The league page leads with"),
            "league_min_games": _("Games to be ranked"),
            "league_inactive_days": _("Inactive after (days without a game)"),
        }
        help_texts = {
            "league_rates_bot_games": _(
                "Online tables can seat the engine's bot. Off: its games are "
                "kept but not rated. Changing this recomputes the ratings."
            ),
            "league_min_games": _(
                "A player with fewer rated games is listed below the ranked players, "
                "with how many more games they need."
            ),
            "league_inactive_days": _(
                "Counted back from the club's latest game in the period shown; "
                "an inactive player is listed below the ranked ones. 0: never."
            ),
            "time_zone": _(
                "Where the club plays, by its IANA name (Europe/Berlin). An evening runs "
                "from 06:00 to 06:00 the next morning there: a game at 01:30 counts on "
                "the evening before."
            ),
        }
        # a text field that offers the zones as one types (the page's datalist), checked against
        # the server's tz database by the model's validator: a clear message for a typo
        widgets = {
            "league_leads_with": forms.RadioSelect,
            "time_zone": forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}),
        }
