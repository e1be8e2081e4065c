"""Tokens that live inside others (:mod:`bpe_core.encoding.intermediate`): made vs output counts on real texts (two
independent counts agree), and GPT-2's 26 under-trained tokens of the Magikarp report."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core import TrainConfig, load_gpt, train
from bpe_core.encoding import intermediate as im
from bpe_core.languages import declaration as decl

BOOK = Path(__file__).resolve().parent.parent / "presets" / "pg16457.txt"


@pytest.fixture(scope="module")
def declaration():
    return "\n".join(decl.texts().values())


def test_counts_from_merge_trees_equal_the_traced_merges_on_the_declaration(declaration):
    tok = load_gpt("gpt2")
    assert tok.merge_graph().one_merge_per_token()
    uses = im.token_uses(tok, declaration)
    made, output = im._counts_by_replay(tok, declaration)
    assert {t: (u.made, u.output) for t, u in uses.items()} == {t: (n, output[t]) for t, n in made.items()}
    # Every merged token in the encoding was made by a merge; the rest of the output are single bytes.
    ids = tok.encode(declaration)
    merged = [t for t in ids if tok.merge_number(t) is not None]
    assert sum(u.output for u in uses.values()) == len(merged)
    never_alone = im.rarely_alone(uses, min_made=20, max_share=0.0)
    assert never_alone and all(u.output == 0 and u.inside == u.made >= 20 for u in never_alone)
    shares = [(u.alone_share, -u.made) for u in im.rarely_alone(uses)]
    assert shares == sorted(shares)


def test_a_run_that_rebuilds_the_marker_is_counted_from_its_traces():
    # The separate </w> marker's string is rebuilt by merges 1-3 (rule 4), yet each word's marker is a base symbol.
    run = train({"</w></w>": 2, "</w></w></w>": 1, "x</w>": 1}, TrainConfig(variant="eow", min_frequency=1))
    tok = run.tokenizer()
    marker = tok.vocab["</w>"]
    assert tok.merge_graph().merge_number(marker) == 3
    uses = im.token_uses(tok, "low lower")
    by_text = {tok.token_text(t): (u.made, u.output) for t, u in uses.items()}
    textbook = train({"low": 5, "lower": 2}, TrainConfig(variant="eow", num_merges=3)).tokenizer()
    made = {textbook.token_text(t): (u.made, u.output) for t, u in im.token_uses(textbook, "low low lower").items()}
    # l+o -> lo, lo+w -> low, low+</w> -> low</w>: "low" is made three times, output once (in "lower").
    assert made == {"lo": (3, 0), "low": (3, 1), "low</w>": (2, 2)}
    assert all(m >= o for m, o in by_text.values())
    assert marker not in uses  # no merge made it in "low lower": its two markers are base symbols


def test_gpt2_glitch_tokens_live_inside_longer_tokens_and_are_unseen_in_the_reference_texts(declaration):
    glitches = im.glitch_tokens()
    assert len(glitches) == 26 and glitches[0].token == 40241 and glitches[0].text == "InstoreAndOnline"
    tok = load_gpt("gpt2")
    rows = im.glitch_rows(tok, [declaration, BOOK.read_text(encoding="utf-8")])
    for row in rows:
        value = tok.token_value(row.glitch.token).decode("utf-8", "replace")
        assert value == row.glitch.text.replace("▁", " ")
        # Every one was merged on the way to a longer token, and the text holds none of them.
        assert row.holders and all(tok.token_value(row.glitch.token) in tok.token_value(h) for h in row.holders)
        assert row.output == 0 and row.made == 0
        if "×" not in row.glitch.in_other_tokens:  # the report spells the ÃÂ runs as counts
            listed = {t.strip().replace("▁", " ") for t in row.glitch.in_other_tokens.split(",")}
            assert {tok.token_text(h) for h in row.holders} <= listed
    holders = {r.glitch.token: [tok.token_text(h) for h in r.holders] for r in rows}
    assert holders[40241] == ["BuyableInstoreAndOnline"]
    assert holders[30897] == ["embedreportprint", "cloneembedreportprint", "rawdownloadcloneembedreportprint"]
    # The report lists " suburb" because it contains " subur" as text; GPT-2 builds it from " sub" + "urb".
    subur = next(r for r in rows if r.glitch.token == 13150)
    assert holders[13150] == [" suburban", " suburbs"] and "▁suburb" in subur.glitch.in_other_tokens.split(", ")
