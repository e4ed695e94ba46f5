"""Mind Sports Olympiad (seed 003): multi-player tables with their own tie-break chain, and the
extra rounds for several perfect scores in two-player games. One app: engines, models, screens,
exchange keys."""
