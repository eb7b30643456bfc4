"""A pairing's explanation in the reader's language (issue #21): the core (games.tournament.pairing)
explains each proposal in English and with the numbers its method used (`window`, `berger`,
`movement`, `design`); the pairing page says the method from those numbers and each system's
constraints here. tests/tournament/test_explanation_words.py holds the English lines equal to the
core's, so each constraint keeps one meaning in both places."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: Each system's constraints, as the core lists them (gettext_lazy: said when the page is drawn)
CONSTRAINTS = {
    "swiss": [
        gettext_lazy("no rematch while one can be avoided"),
        gettext_lazy("no second bye while one can be avoided"),
        gettext_lazy("bye to the lowest-placed entry without a bye"),
        gettext_lazy("closest scores first, then closest places"),
    ],
    "round_robin": [gettext_lazy("everyone meets everyone once a leg"), gettext_lazy("second leg: sides swapped")],
    "duplicate": [
        gettext_lazy("every pair meets every other once"),
        gettext_lazy("each pair plays each board once"),
        gettext_lazy("every table of the round plays the round's boards"),
        gettext_lazy("sit-outs rotate"),
    ],
    "individual": [
        gettext_lazy("no repeated partner while one can be avoided"),
        gettext_lazy("fewest repeated opponents"),
        gettext_lazy("fewest returns to a table number"),
        gettext_lazy("sit-outs to those who sat out least"),
    ],
}


def plain(explanation: dict) -> str:
    """The pairing in a player's words, said first on the pairing page (issue 33 finding 5); the
    method's name and algebra (`method`, `constraints`) follow behind "details"."""
    system = explanation.get("system")
    if system == "manual":
        return _("The tournament director seats every table.")
    if system == "swiss":
        return _("Pairs with the closest scores meet, and no two pairs meet twice while that can be avoided.")
    if system == "round_robin":
        return _("Every pair meets every other pair once.")
    if system == "duplicate":
        return _(
            "Every pair meets every other pair once and plays every board once; all tables of a round "
            "play the same boards."
        )
    if system == "individual":
        design = explanation.get("design")
        if isinstance(design, dict) and design.get("of"):
            if int(design.get("players", 0)) % 4 == 1:  # 4k+1 players: one sits out each round
                return _(
                    "Over %(of)s rounds everyone partners everyone else exactly once, meets everyone else "
                    "twice as an opponent and sits out once."
                ) % {"of": design["of"]}
            return _(
                "Over %(of)s rounds everyone partners everyone else exactly once and meets everyone else "
                "twice as an opponent."
            ) % {"of": design["of"]}
        return _("A new partner for everyone wherever possible, then as few repeated opponents as possible.")
    return ""


def method(explanation: dict) -> str:
    """How the proposal was made; the core's English when the explanation lacks the numbers (one
    stored before they were written, or from another source)."""
    system = explanation.get("system")
    try:
        if system == "manual":
            return _("seated by the tournament director")
        if system == "swiss" and "window" in explanation:
            if explanation["window"]:
                return _("maximum-weight matching, on opponents at most %(window)s places apart") % {
                    "window": explanation["window"]
                }
            return _("maximum-weight matching")
        if system == "round_robin" and "berger" in explanation:
            words = explanation["berger"]
            if words["phantom"]:
                return (
                    _(
                        "Berger tables for %(size)s (with a phantom entry for the bye, leg %(leg)s, "
                        "round %(round)s of %(of)s)"
                    )
                    % words
                )
            return _("Berger tables for %(size)s (leg %(leg)s, round %(round)s of %(of)s)") % words
        if system == "duplicate" and "movement" in explanation:
            return (
                _("movement for %(pairs)s pairs (circle method), round %(round)s of %(of)s") % explanation["movement"]
            )
        if system == "individual" and "design" in explanation:
            design = explanation["design"]
            if design and "group" in design:  # the design's parts: its English name says "over", "infinity"
                if design["fixed_point"]:
                    return (
                        _(
                            "whist design for %(players)s players over the group %(group)s with a fixed point, "
                            "round %(round)s of %(of)s"
                        )
                        % design
                    )
                return (
                    _("whist design for %(players)s players over the group %(group)s, round %(round)s of %(of)s")
                    % design
                )
            if design:  # stored before the parts were
                return _("whist design %(name)s, round %(round)s of %(of)s") % design
            return _("maximum-weight matching of partners, then of partnerships to tables, then seeded local search")
    except (KeyError, TypeError):
        pass
    return str(explanation.get("method", ""))


def constraints(explanation: dict) -> list[str]:
    """The constraints the proposal kept; the core's own list when the system is not one of ours."""
    said = CONSTRAINTS.get(explanation.get("system", ""))
    return [str(c) for c in said] if said is not None else list(explanation.get("constraints") or [])
