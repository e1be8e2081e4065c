"""The app's shared front-end code, used by ``app.py`` and every page in ``pages/``.

* :mod:`ui.presets`  -- built-in corpora (ids, provenance, recommended settings).
* :mod:`ui.state`    -- the shared sidebar (input, settings, URL sync) -> :class:`ui.state.Selection`.
* :mod:`ui.training` -- the bounded, shared cache of finished runs (:func:`ui.training.get_run`).
* :mod:`ui.render`   -- token chips, merge card, pair table, corpus, vocabulary, merge tree, charts,
  step controls.
* :mod:`ui.text`     -- escaping user text for HTML and Markdown, visible whitespace.
"""
