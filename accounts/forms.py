"""The password change form, with its old password checked through the login throttle."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpRequest


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's form checks the old password with ``check_password``, which no throttle sees:
    someone at a logged-in session could guess it as often as they liked (issue 29). Here it
    goes through ``authenticate``, as a login does, so django-axes counts a wrong one against
    the (address, account) pair and refuses every try once the pair is locked (429), the right
    password included: the change form and the login page share one limit."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        checked = authenticate(
            self.request, username=self.user.get_username(), password=old_password
        )
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password
