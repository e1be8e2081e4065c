"""The app's front end: it draws what :mod:`bpe_core` computes. One job per module:

* :mod:`ui.page` -- the page list and page setup (title, sidebar, CSS from ``ui/static``).
* :mod:`ui.sidebar` -- the shared sidebar -> :class:`ui.sidebar.Choice`; :mod:`ui.sources` the sources of one's own
  text (one function per source); :mod:`ui.settings_form` its settings widgets; :mod:`ui.uploads` uploaded files.
* :mod:`ui.blocks` -- small HTML blocks the pages share; :mod:`ui.side_by_side`, :mod:`ui.bbpe_view`,
  :mod:`ui.encode_view`, :mod:`ui.files_view`, :mod:`ui.how_view` -- one page's HTML each (the pages build none).
* :mod:`ui.settings` -- defaults, labels, URL <-> settings (pure), the one place a ``TrainConfig`` is built.
* :mod:`ui.corpus` -- the corpora: the built-in presets and the :class:`ui.corpus.Corpus` value;
  :mod:`ui.training` -- ``get_run(corpus, config)`` and the shared, bounded run cache (:mod:`ui.run_cache`: the
  cache and its training jobs, and the per-run memo, without Streamlit).
* :mod:`ui.persist` -- session values and widgets that survive reruns and page switches, and the state of the
  stepper page's quiz mode and live class (the modes' own modules load once one is on).
* :mod:`ui.chips` -- token chips from a run or a tokenizer (:class:`ui.chips.TokenSource`);
  :mod:`ui.stepper`, :mod:`ui.panels`, :mod:`ui.corpus_panel` (the corpus table and the vocabulary),
  :mod:`ui.charts`, :mod:`ui.explain` (the worded explanations), :mod:`ui.encoding` (tokenizers of a run).
* :mod:`ui.text` -- escaping user text and token colours (no Streamlit); :mod:`ui.i18n` -- translation.
* :mod:`ui.streamlit_patches` -- the patches of Streamlit's internals, each on the Streamlit versions it was
  checked on.

See docs/ARCHITECTURE.md.
"""
