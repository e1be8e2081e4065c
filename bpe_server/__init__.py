"""The app's server side, without Streamlit: what app servers share and what they answer outside a page's run.

* :mod:`bpe_server.store_db` -- the one database interface (SQLite by default, or PostgreSQL shared by every server).
* :mod:`bpe_server.corpus_store` -- corpus texts kept for links (``?corpus=<id>``); texts packed into a URL.
* :mod:`bpe_server.live_class` -- live classes (:class:`bpe_server.live_class.Classes`): who may do what, rounds
  and picks; :mod:`bpe_server.class_state` what screens read of a class; :mod:`bpe_server.class_codes` codes, keys,
  ids and nicknames; :mod:`bpe_server.class_db` their SQL. The results' numbers are
  :mod:`bpe_core.teaching.class_results`'s.
* :mod:`bpe_server.class_poll` -- the live class's poll endpoint, a route ``serve.py`` adds to Streamlit's server.
* :mod:`bpe_server.store_migrate` -- ``python -m bpe_server.store_migrate``: an SQLite store's links into PostgreSQL.

Nothing here imports :mod:`ui` or Streamlit (the poll route reads Streamlit's config when ``serve.py`` builds it); the
pages (:mod:`ui`) call these modules and word their messages themselves. See docs/ARCHITECTURE.md.
"""
