"""GNOT bridge teams (NSWBA GNOT 2012): pools, double knock-out with choice of opponents,
Swiss repechage, qualification. One app: engines, models, screens, exchange keys."""
