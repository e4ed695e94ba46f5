"""Competition formats with their own models and screens, one Django app each.

Each app has the same shape (pure ``rules``/``draw`` engines, models and migrations, selectors,
services, views, urls with their own namespace, templates, exchange keys) and plugs into the
core through the seam in :mod:`events.formats`. The core apps never import them.
"""
