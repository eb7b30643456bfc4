"""The club's league settings form (shape only; the change goes through
games.ratings.league_rules.league_settings_update, which checks the admin role, takes the club's
time zone through the club's own service and audits both)."""

from __future__ import annotations

from django import forms
from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _

from games.ratings.league_rules import RULE_FIELDS, rule_form_fields
from games.selectors import validate_time_zone

LABELS = {
    "rates_bot_games": _("Rate the games the bot played a seat of"),
    "follows_tournament_vp": _("Count a tournament's VP"),
    "leads_with": _("The league page leads with"),
    "min_games": _("Games to be ranked"),
    "inactive_days": _("Inactive after (days without a game)"),
}
HELP_TEXTS = {
    "rates_bot_games": _(
        "Online tables can seat the engine's bot. Off: its games are "
        "kept but not rated. Changing this recomputes the ratings."
    ),
    "follows_tournament_vp": _(
        "On: a game at a tournament table that scores by VP counts as its VP say (more VP "
        "won, equal VP a draw); off: by its points, as every game. Changing this recomputes "
        "the ratings."
    ),
    "min_games": _(
        "A player with fewer rated games is listed below the ranked players, with how many more games they need."
    ),
    "inactive_days": _(
        "Counted back from the club's latest game in the period shown; "
        "an inactive player is listed below the ranked ones. 0: never."
    ),
}


class LeagueSettingsForm(forms.Form):
    """The rules' fields as the ratings declare them (rule_form_fields), worded here; the season's
    month and the club's time zone declared here."""

    season_start_month = forms.TypedChoiceField(
        coerce=int,
        choices=list(MONTHS.items()),
        label=_("Season starts in"),
        help_text=_("The league's “this season” runs from the first day of this month."),
    )
    # the club's, not a rule: its evenings are counted in it
    # a text field that offers the zones as one types (the page's datalist), checked against the
    # server's tz database: a clear message for a typo
    time_zone = forms.CharField(
        max_length=64,
        validators=[validate_time_zone],
        label=_("Time zone"),
        help_text=_(
            "Where the club plays, by its IANA name (Europe/Berlin). An evening runs "
            "from 06:00 to 06:00 the next morning there: a game at 01:30 counts on "
            "the evening before."
        ),
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}),
    )

    field_order = [*RULE_FIELDS[:4], "time_zone", *RULE_FIELDS[4:]]


def _rule_fields() -> None:
    for name, field in rule_form_fields().items():
        if name in LeagueSettingsForm.declared_fields:
            continue  # worded by the form itself (the season's month by its name)
        field.label = LABELS.get(name, field.label)
        field.help_text = HELP_TEXTS.get(name, field.help_text)
        if name == "leads_with":
            field.widget = forms.RadioSelect(choices=field.choices)
        LeagueSettingsForm.base_fields[name] = field


_rule_fields()
