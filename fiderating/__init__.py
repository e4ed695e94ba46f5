"""FIDE-rated events (issue 30): each player's rating change and performance (B.02), title
norms (B.01) and the rating report, above the foundation like a format: nothing below imports
it; it plugs into the event's pages through ``events.contributions``."""
