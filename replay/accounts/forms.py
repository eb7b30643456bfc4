"""Forms of the account pages: Django's auth forms, plus sign-up with an optional email."""
from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: needed only to reset a forgotten password by email."
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
