"""The event systems that are chess team events (``events.models.EventSystem``)."""

from __future__ import annotations

TEAM_SYSTEMS = ("team_swiss", "team_round_robin", "team_double_round_robin")
