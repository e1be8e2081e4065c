"""The app's server side, without Streamlit: what app servers share and what they answer outside a page's run.

* :mod:`bpe_server.store_db` -- the one database interface (SQLite by default, or PostgreSQL shared by every server).
* :mod:`bpe_server.corpus_store` -- corpus texts kept for links (``?corpus=<id>``); texts packed into a URL.
* :mod:`bpe_server.live_class`, :mod:`bpe_server.class_db` -- live classes: who may do what, rounds and picks; their
  SQL.
* :mod:`bpe_server.class_poll` -- the live class's poll endpoint, a route ``serve.py`` adds to Streamlit's server.
* :mod:`bpe_server.store_migrate` -- ``python -m bpe_server.store_migrate``: an SQLite store's links into PostgreSQL.

Nothing here imports :mod:`ui` or Streamlit (the poll route reads Streamlit's config when ``serve.py`` builds it); the
pages (:mod:`ui`) call these modules and word their messages themselves. See docs/ARCHITECTURE.md.
"""
