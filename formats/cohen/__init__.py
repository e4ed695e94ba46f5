"""Cohen Chess club format (seed 002): pools, Elite Eight, Final Four with extra games,
consolations, the 7-or-fewer format. One app: engines, models, screens, exchange keys."""
