"""The Swiss capability of the ``draws`` app, in one folder (issue 31).

``pairing/`` is the pure engine (FIDE Dutch system, C.04.3; no Django, mypy strict);
beside it the Django layer: :mod:`.selectors` (reads), :mod:`.services` (writes, audited),
:mod:`.views` and :mod:`.forms` (the director's Swiss pages), :mod:`.trf_import` (a TRF
continued here, and the TRF export of a Swiss paired here) and :mod:`.exchange` (the exchange
format's ``swiss`` key).
"""
