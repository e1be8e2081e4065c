"""The GPT tokenizers page (app_pages/5_Real_tokenizers.py) in AppTest: it renders in English and in
Chinese, and its token counts, replay, merge overlap and dropout samples are the library's and
tiktoken's (tiktoken built offline from the shipped rank files, as tests/test_models_tiktoken.py does)."""

from __future__ import annotations

import re

import pytest
import tiktoken
from app_helpers import body_with, flat_text, new_app, no_exception, token_ids
from tiktoken.load import load_tiktoken_bpe

from bpe_core import TrainConfig, corpus_words, load_gpt, merge_overlap, train
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.i18n import translations
from bpe_core.models import HERE, MODELS
from bpe_core.pretokenize import PATTERNS
from ui.corpus import PRESETS

PAGE = "app_pages/5_Real_tokenizers.py"
ZH_EMOJI = "今天我们很开心 😀！明天去北京看熊猫 🐼。👨‍👩‍👧 一家人 🇨🇳 👍🏽 OK"
GPT = ("gpt2", "cl100k", "o200k")


def reference(name: str) -> tiktoken.Encoding:
    """tiktoken's encoder for a shipped model, built offline from the same rank file and pattern."""
    stem, pretokenizer, _ = MODELS[name]
    ranks = load_tiktoken_bpe(str(HERE / f"{stem}.tiktoken"))
    return tiktoken.Encoding(stem, pat_str=PATTERNS[pretokenizer], mergeable_ranks=ranks, special_tokens={})


def open_page(text: str | None = None, **params):
    at = new_app(**params)
    no_exception(at)
    at = at.switch_page(PAGE).run()
    no_exception(at)
    if text is not None:
        at.text_area[0].input(text).run()
        no_exception(at)
    return at


def captions(at) -> str:
    """The page's captions as plain text (their Markdown escapes removed)."""
    return re.sub(r"\\(.)", r"\1", " ".join(c.value for c in at.caption))


def replay_ids(at) -> list[int]:
    """The ids of the replay's chips (after the merge line, which has chips of its own)."""
    card = body_with(at, "id='rt-replay-tokens'")
    return token_ids(card[card.index("id='rt-replay-tokens'") :])


def row_tokens(at, key: str) -> int:
    summary = body_with(at, "id='rt-summary'")
    found = re.search(rf"id='rt-row-{key}' data-tokens='(\d+)'", summary)
    assert found, summary[:300]
    return int(found.group(1))


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_counts_and_chips_equal_tiktoken_on_chinese_and_emoji(lang):
    at = open_page(ZH_EMOJI, preset="zh-emoji", lang=lang)
    for name in GPT:
        expected = reference(name).encode_ordinary(ZH_EMOJI)
        assert row_tokens(at, name) == len(expected), name
        assert token_ids(body_with(at, f"id='rt-toks-{name}'")) == expected, name
    # The student's tokenizer is the sidebar's run (the preset: byte-level, gpt2 pattern, 40 merges, min freq 2).
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=40, min_frequency=2)
    own = Tokenizer.from_run(train(corpus_words(PRESETS["zh-emoji"].load_text(), cfg), cfg)).encode(ZH_EMOJI)
    assert row_tokens(at, "yours") == len(own)
    assert token_ids(body_with(at, "id='rt-toks-yours'")) == own
    # Partial-UTF-8 tokens are drawn hatched, as everywhere in the app: GPT-2 splits 🐼 into byte pieces.
    assert 'class="bpe-chip partial"' in body_with(at, "id='rt-toks-gpt2'")
    # The cost table: 今 on its own costs what tiktoken says, in every tokenizer.
    costs = body_with(at, "id='rt-costs'")
    for name in GPT:
        for g in ("今", "🐼", "👨‍👩‍👧"):
            n = len(reference(name).encode_ordinary(g))
            start = costs.index("id='rt-cost-" + "-".join(f"{ord(c):X}" for c in g) + "'")
            row = costs[start : costs.index("</tr>", start)]
            assert f"data-model='{name}' data-tokens='{n}'" in row, (name, g)
    # The headings are the session language's catalog entries (English until a catalog translates them).
    assert at.title[0].value == translations(lang).gettext(
        "Your BPE beside GPT, Qwen3, DeepSeek-V3 or any tokenizer.json"
    )
    assert at.header[0].value == translations(lang).gettext("1 · The same text, several tokenizers")


def test_replay_steps_are_the_library_replay():
    at = open_page(ZH_EMOJI, preset="zh-emoji")
    tok = load_gpt("gpt2")
    replay = tok.replay(ZH_EMOJI)
    assert f"Step 0 of {len(replay)}" in flat_text(body_with(at, "id='rt-replay-label'"))
    # Steps, not merges: "merge 2" of the replay would clash with GPT-2's own merge numbers on the card.
    assert "Jump to merge" not in [s.label for s in at.slider] and "Jump to step" in [s.label for s in at.slider]
    assert replay_ids(at) == replay.ids_at(0)
    at.button(key="rt.next").click().run()
    at.button(key="rt.next").click().run()
    no_exception(at)
    step = replay.steps[1]
    merge = flat_text(body_with(at, "id='rt-replay-merge'"))
    # Merge k of the app is rank and id 255 + k in the rank file (the token's id under tiktoken).
    assert f"GPT-2's merge {step.merge_number:,} (rank and id {step.token:,})" in merge
    assert step.token == step.merge_number + 255
    assert f"applies here {step.count} time" in merge
    assert replay_ids(at) == replay.ids_at(2)
    at.button(key="rt.last").click().run()
    assert replay_ids(at) == tok.encode(ZH_EMOJI)
    # The merge tree of the first token offered: its merge numbers.
    tid = at.selectbox(key="rt.tree.gpt2").value
    numbers = tok.merge_tree(tid).merge_numbers()
    assert ", ".join(f"{r:,}" for r in numbers) in flat_text(body_with(at, "id='rt-tree-ranks'"))
    # GPT-4o replays its own merges.
    at.radio(key="rt.replay.model").set_value("o200k").run()
    no_exception(at)
    assert f"Step 0 of {len(load_gpt('o200k').replay(ZH_EMOJI))}" in flat_text(body_with(at, "id='rt-replay-label'"))


def test_rediscovery_compares_the_first_100_merges_with_gpt2():
    at = open_page(preset="pg16457-chapter")
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=100, min_frequency=2)
    run = train(corpus_words(PRESETS["pg16457-chapter"].load_text(), cfg), cfg)
    expected = merge_overlap(Tokenizer.from_run(run).merges, load_gpt("gpt2").merges, 100)
    note = body_with(at, "id='rt-overlap'")
    assert f"data-shared='{expected.shared}'" in note
    assert f"data-first='{expected.first_difference or 0}'" in note
    assert expected.shared > 20  # English prose does rediscover many of GPT-2's first merges
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    caption = captions(at)
    assert "Byte-level BPE with GPT-2's pre-tokenizer, trained on" in caption
    assert "Its 100 merges beside GPT-2's first 100" in caption and "8 million" not in caption


def test_rediscovery_caption_says_what_ran_on_a_word_count_list():
    """The textbook list: no pre-tokenizer, no leading spaces, and 12 merges before no pair is left."""
    at = open_page(preset="textbook-low")
    caption = captions(at)
    assert "a word-count list: no pre-tokenizer ran on it and its words have no leading space" in caption
    assert "It asked for 100 merges and stopped after 12 merges" in caption
    assert "Its 12 merges beside GPT-2's first 100" in caption
    assert "GPT-2's pre-tokenizer, trained on" not in caption


def test_vocabulary_arithmetic_is_counted_from_the_rank_files():
    at = open_page(preset="textbook-low")
    items = flat_text(body_with(at, "id='rt-vocab'"))
    assert "GPT-2: 256 bytes + 50,000 merges + 1 special token (<|endoftext|>) = 50,257 tokens." in items
    assert "GPT-4: 256 bytes + 100,000 merges + 5 special tokens" in items
    assert "GPT-4o: 256 bytes + 199,742 merges + 2 special tokens" in items and "= 200,000 tokens." in items


def test_dropout_samples_show_the_variety_and_p_zero_is_the_encoding():
    at = open_page(preset="pg16457-chapter")
    at.text_input(key="w.pg.rt.dropout.word").input("unbelievably").run()
    at.radio(key="rt.dropout.model").set_value("gpt2").run()
    at.slider(key="rt.dropout.p").set_value(0.3).run()
    no_exception(at)
    tok = load_gpt("gpt2")
    from collections import Counter

    samples = Counter(tuple(tok.encode("unbelievably", dropout=0.3, seed=i)) for i in range(30))
    summary = body_with(at, "id='rt-dropout-summary'")
    assert f"data-distinct='{len(samples)}'" in summary and len(samples) > 1
    at.slider(key="rt.dropout.p").set_value(0.0).run()
    table = body_with(at, "id='rt-dropout'")
    assert "data-distinct='1'" in body_with(at, "id='rt-dropout-summary'")
    assert token_ids(table) == tok.encode("unbelievably")


def test_empty_text_and_html_in_the_text_are_handled():
    at = open_page("   ")
    assert any("Type or paste" in i.value for i in at.info)
    at = open_page("<b>bold</b> & <script>x</script>")
    shown = "".join(h.proto.body for h in at.get("html"))
    assert "<script>x" not in shown and "<b>bold" not in shown
    assert ">&lt;/</span>" in body_with(at, "id='rt-toks-gpt2'")  # the token "</", escaped


def test_a_character_run_in_presentation_mode_counts_unknown_characters():
    # The default preset (textbook words, characters + end-of-word marker): Chinese and emoji are <unk>.
    at = open_page(ZH_EMOJI, present=1)
    summary = body_with(at, "id='rt-summary'")
    assert "Unknown (&lt;unk&gt;)" in summary
    yours = summary[summary.index("id='rt-row-yours'") :]
    unknown = int(re.findall(r"<td class='num'>([\d,]+)</td>", yours[: yours.index("</tr>")])[-1].replace(",", ""))
    assert unknown >= len([g for g in ZH_EMOJI if "\u4e00" <= g <= "\u9fff"])  # every Han character at least
    for name in GPT:
        assert row_tokens(at, name) == len(reference(name).encode_ordinary(ZH_EMOJI))
    assert not at.title  # presentation mode: no page title, more room
