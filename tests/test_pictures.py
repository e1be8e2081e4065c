"""ui.pictures and ui.fonts: a step as a PNG, steps as a GIF, Chinese and colour emoji legible."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bpe_core import TrainConfig, corpus_words, train
from ui.fonts import FontError, Writer, find_fonts, has_glyph
from ui.pictures import MAX_FRAMES, step_png, steps_gif
from ui.text import palette, token_colour

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
MIXED = "我们学习分词。我们学习字节对编码。🙂🙂 学习 👍🏽 学习 👨‍👩‍👧 👨‍👩‍👧 我们 我们 你好 你好"


def _textbook_run(merges=10):
    return train(TEXTBOOK, TrainConfig(variant="eow", num_merges=merges))


def test_png_decodes_and_is_wide():
    run = _textbook_run()
    data = step_png(run, 1)
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG" and img.width >= 1200 and img.height >= 600
    # the new token's chip is drawn in the app's presentation colour for its value
    colour = token_colour(run.token_value(run.snapshot(1).token), True)
    rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    counts = {c: n for n, c in img.convert("RGB").getcolors(1 << 20)}
    assert counts.get(rgb, 0) > 2000
    # the normal palette (ColorBrewer Set3) outside presentation mode
    normal = palette(False)
    assert normal != palette(True) and len(normal) == 12
    colour = normal[(run.snapshot(1).token * 5) % len(normal)]
    rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    img = Image.open(io.BytesIO(step_png(run, 1, presentation=False))).convert("RGB")
    assert {c: n for n, c in img.getcolors(1 << 20)}.get(rgb, 0) > 2000
    # step 0 (before any merge) and the last step draw too; a step outside the run does not
    for step in (0, run.num_steps):
        assert Image.open(io.BytesIO(step_png(run, step))).width == 1600
    with pytest.raises(ValueError):
        step_png(run, run.num_steps + 1)


def test_gif_has_one_frame_per_step():
    run = _textbook_run()
    gif = Image.open(io.BytesIO(steps_gif(run, 1, 5)))
    assert gif.format == "GIF" and gif.n_frames == 5 and gif.width >= 1000
    assert gif.info["loop"] == 0 and gif.info["duration"] == 1200
    frames = []
    for k in range(gif.n_frames):
        gif.seek(k)
        frames.append(gif.convert("RGB").tobytes())
    assert len(set(frames)) == 5


def test_gif_limits():
    run = train({f"w{i}": 3 for i in range(200)}, TrainConfig(variant="char", num_merges=60))
    assert run.num_steps == 60
    with pytest.raises(ValueError):
        steps_gif(run, 1, MAX_FRAMES + 1)
    with pytest.raises(ValueError):
        steps_gif(run, 5, 4)
    gif = Image.open(io.BytesIO(steps_gif(run, 11, 10 + MAX_FRAMES, size=(1200, 675))))
    assert gif.n_frames == MAX_FRAMES and gif.width == 1200


@pytest.mark.parametrize("variant", ["char", "byte"])
def test_chinese_and_emoji_corpus_renders(variant):
    cfg = TrainConfig(variant=variant, num_merges=12)
    run = train(corpus_words(MIXED, cfg), cfg)
    for step in range(run.num_steps + 1):
        img = Image.open(io.BytesIO(step_png(run, step, lang="zh-Hant" if step % 2 else "zh-Hans")))
        assert img.width == 1600


def test_cjk_glyph_is_not_tofu():
    fonts = find_fonts("zh-Hans")
    path, index = fonts.regular
    assert has_glyph(path, index, "你") and has_glyph(path, index, "們")
    # a private-use code point has no glyph: the check can tell tofu from a glyph
    assert not has_glyph(path, index, "\ue000")
    w = Writer(fonts)
    size = 80

    def ink(text):
        img = Image.new("L", (400, 160), 0)
        ImageDraw.Draw(img)
        w.draw(img, (10, 120), text, size, 255)
        return img.getbbox(), img.tobytes()

    _box, tofu = ink("\ue000")
    box, pixels = ink("你")
    assert box is not None and pixels != tofu
    # 你 is a dense glyph, its box is about the em square, not a thin rectangle outline
    assert box[2] - box[0] > size * 0.7 and box[3] - box[1] > size * 0.7
    # every character of the mixed sample goes to a font that has it
    for kind, text in w.runs(MIXED):
        if kind == "main":
            assert all(has_glyph(path, index, ch) for ch in text), text


def test_colour_emoji_are_drawn_in_colour():
    w = Writer(find_fonts())
    assert [k for k, _ in w.runs("a🙂b")] == ["main", "emoji", "main"]
    assert w.runs("👨‍👩‍👧")[0] == ("emoji", "👨‍👩‍👧")
    img = Image.new("RGB", (300, 120), "white")
    width = w.draw(img, (10, 90), "🙂", 64, (0, 0, 0))
    assert 40 < width < 120
    px = img.load()  # not getdata(): deprecated in Pillow 13, and its replacement is not in Pillow 12
    colourful = [p for x in range(img.width) for y in range(img.height) if max(p := px[x, y]) - min(p) > 80]
    assert len(colourful) > 500


def test_no_chinese_font_is_a_clear_error(tmp_path, monkeypatch):
    empty = tmp_path / "fonts"
    empty.mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{empty}</dir><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>'
    )
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    find_fonts.cache_clear()
    try:
        with pytest.raises(FontError, match="fonts-noto-cjk"):
            find_fonts("en")
    finally:
        monkeypatch.undo()
        find_fonts.cache_clear()


def test_partial_byte_chips_name_their_character_in_the_picture():
    from ui.pictures import SIZE, _Canvas

    config = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=3, min_frequency=1)
    run = train(corpus_words("你好啊 你好 你好啊 你好 我 啊 走", config), config)
    c = _Canvas(run, SIZE, find_fonts("zh-Hant"), True)
    a5, bd = ("好".encode()[1:2], "好".encode()[2:3])
    a5_id, bd_id = (next(t for t in range(run.num_base) if run.token_value(t) == b) for b in (a5, bd))
    # alone, bd is first seen in 你 (e4 bd a0); beside a5 it is the last byte of 好
    assert c.notes([bd_id]) == ["你 2/3"]
    assert c.pair_notes((a5_id, bd_id)) == ["好 2/3", "好 3/3"]
    # in a word, each byte is named where it stands
    index = run.words.index("你好啊")
    assert c.notes(run.segmentation(index, 0), "你好啊")[3:6] == ["好 1/3", "好 2/3", "好 3/3"]
    assert c.chip_width(bd_id, 34) > c.chip_width(bd_id, 34, note="")  # the note is drawn inside the chip
    img = Image.open(io.BytesIO(step_png(run, 3, lang="zh-Hant")))
    assert img.width == SIZE[0]
