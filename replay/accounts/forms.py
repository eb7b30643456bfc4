"""Forms of the account pages: Django's auth forms, plus sign-up with an optional email."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, label=_("Email"), help_text=_("Optional: needed only to reset a forgotten password by email.")
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
