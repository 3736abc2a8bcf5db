"""``crfdeid review``: the privacy officer's desk, a local web app to check what leaves the hospital.

The folder tree reads as the data flow:

- ``notes.py``    the notes of the inputs, listed at once and read one at a time when needed;
- ``state.py``    the officer's decisions (accept, reject, relabel, add, reroll, edit), in a
                  review file written atomically with mode 0600, so a review can be resumed;
- ``log.py``      the review log: who did what to which span, originals only as keyed hashes;
- ``session.py``  detection (lazy, cached per note), the de-identified view the decisions give,
                  and why each span was found — all through the engine (``Deidentifier``,
                  ``Pseudonymiser``, the rules and ``crfdeid.explain``);
- ``export.py``   the corrected annotations as BRAT (``crfdeid train`` reads them), the
                  de-identified notes and the review log;
- ``app.py``      the Flask app (token on every request), ``server.py`` binds it to 127.0.0.1;
- ``static/``     the page, its CSS and vanilla JS: no external asset, it works offline.
"""
