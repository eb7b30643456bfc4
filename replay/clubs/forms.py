"""Forms of the club pages. They check shape; the rules (who may, last admin, unique names)
are games.clubs.services'."""

from __future__ import annotations

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games import selectors
from games.selectors import default_time_zone, validate_time_zone

ROLE_HELP = {
    "viewer": _("sees the club's games (members-only clubs too)"),
    "scorer": _("records games and adds players"),
    "admin": _("also invites people, sets roles and keeps the roster"),
}


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Club name"))
    slug = forms.SlugField(
        max_length=100,
        required=False,
        label=_("Short name for links"),
        help_text=_(
            "Letters, digits and hyphens, e.g. <code>tuesday-club</code>; "
            "made from the name if left empty. It names the club in links and in the API."
        ),
    )
    visibility = forms.ChoiceField(
        choices=selectors.ClubVisibility.choices,
        initial=selectors.ClubVisibility.PUBLIC,
        widget=forms.RadioSelect,
        label=_("Who sees the club's games"),
    )
    reveal_hands = forms.ChoiceField(
        choices=selectors.RevealHands.choices,
        initial=selectors.RevealHands.AFTER_HAND,
        required=False,
        widget=forms.RadioSelect,
        label=_("When readers see the cards of a game in play"),
        help_text=_("Scorers and admins always see every hand; a player seated in a game sees their own."),
    )
    # also under League › settings; asked here so that a new club's evenings and times are its own
    # from the first game (a text field offering the zones as one types: the page's datalist)
    time_zone = forms.CharField(
        max_length=64,
        initial=default_time_zone,
        validators=[validate_time_zone],
        required=False,
        label=_("Time zone"),
        help_text=_(
            "Where the club plays, by its IANA name (Europe/Berlin). An evening runs "
            "from 06:00 to 06:00 the next morning there: a game at 01:30 counts on "
            "the evening before."
        ),
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}),
    )

    def clean(self):
        data = super().clean()
        if "name" in data and not data.get("slug"):
            data["slug"] = slugify(data["name"])[:100]
            if not data["slug"]:
                self.add_error("slug", _("Choose a short name with letters or digits."))
        return data


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=selectors.Role.choices, initial=selectors.Role.SCORER, label=_("Role"))
    days = forms.IntegerField(min_value=1, max_value=90, label=_("Valid for (days)"))
    note = forms.CharField(max_length=100, required=False, label=_("For whom (a note for you)"))
    player = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Is this roster player"))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("(nobody in particular)"))] + [(p.pk, p.name) for p in players]


class RosterAddForm(forms.Form):
    names = forms.CharField(widget=forms.Textarea(attrs={"rows": 6}), label=_("Names, one per line"), max_length=20_000)

    def names_list(self) -> list[str]:
        return self.cleaned_data["names"].splitlines()
