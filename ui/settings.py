"""The training settings as plain values: defaults, labels, the URL's form of them (pure functions,
both ways) and the one place a :class:`bpe_core.TrainConfig` is built from them.

Settings use the URL parameter names ``variant`` (char|eow|byte), ``pre`` (whitespace|gpt2|gpt4|o200k|none|jieba|regex),
``pattern`` (the user's regular expression, written only when ``pre`` is ``regex``),
``merges`` (int) or ``vocab`` (int), ``minf`` (int >= 1), ``tie`` (first-seen|hf|lexical), ``eow``
(separate|attached), ``marker`` (text), ``bytes`` (utf8|hex|gpt2) and ``algo`` (a registered training algorithm,
:func:`bpe_core.algorithms.seam.algorithm_names`; written only when it is not ``bpe``), ``transition`` (SuperBPE's
transition point, a merge number >= 0; written only when set; byte-level BPE only), plus ``limit`` (``merges`` or
:func:`bpe_core.algorithms.seam.algorithm_names`; written only when it is not ``bpe``), ``picky`` (PickyBPE's
IoS threshold, a number above 0 and at most 1; read with ``algo=picky``), ``tau`` (BoundlessBPE's, the same kind of
number; read with ``algo=boundless``), plus ``limit`` (``merges`` or
``vocab``: which one stops training; the URL writes one of them). The URL also has ``preset``,
``present`` (1) and ``step``, and for the session's own text ``corpus`` or ``text`` (:mod:`ui.links`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import PRETOKENIZER_CHOICES, TIE_BREAKS, VARIANTS, InputError, PatternError, TrainConfig
from bpe_core.algorithms.seam import algorithm_names, get_algorithm
from bpe_core.algorithms.superbpe import TransitionError
from bpe_core.inputs import env_positive_int, max_input_bytes
from bpe_core.pretokenize import REGEX
from bpe_core.teaching.explain import TIE_RULES

from .corpus import DEFAULT_PRESET, PRESETS, Preset, get_preset
from .i18n import N_, _, tr

#: Defaults of every setting (URL names). A preset's ``settings`` override these.
DEFAULT_SETTINGS: dict = {
    "variant": "eow",
    "pre": "whitespace",
    "limit": "merges",
    "merges": 10,
    "vocab": 300,
    "minf": 2,
    "tie": "first-seen",
    "eow": "separate",
    "marker": "</w>",
    "bytes": "utf8",
    "pattern": "",
    "algo": "bpe",
    "transition": None,
    "picky": 0.9,
    "tau": 0.9,
}

#: URL parameter names of the settings, in the order they are written.
SETTING_PARAMS = (
    *("variant", "pre", "pattern", "merges", "vocab", "minf", "tie", "eow", "marker", "bytes", "algo"),
    *("transition", "picky", "tau"),
)
#: Longest pattern a link may carry (characters); a longer one is cut with a note.
MAX_PATTERN_CHARS = 1_000
#: Characters of the corpus the pattern preview (:mod:`ui.pattern_preview`) splits at most: the sidebar passes it
#: that much of a preset, without loading the preview unless a pattern of one's own is chosen.
PREVIEW_CHARS = 2_000

BYTE_MODES = ("utf8", "hex", "gpt2")
EOW_STYLES = ("separate", "attached")
SOURCES = ("preset", "paste", "upload", "words", "mix")

VARIANT_LABELS = {
    "char": N_("Characters"),
    "eow": N_("Characters + end-of-word marker"),
    "byte": N_("Bytes (UTF-8, 256 base tokens)"),
}
#: Column headings of the variants (Side by side names the end-of-word marker in its own heading).
VARIANT_TITLES = {"char": N_("Characters"), "eow": N_("Characters + end of word"), "byte": N_("Bytes (UTF-8)")}
PRE_LABELS = {
    "whitespace": N_("Whitespace (split at spaces)"),
    "gpt2": N_("GPT-2 regex (space joins next word)"),
    "gpt4": N_("GPT-4 regex (cl100k)"),
    "o200k": N_("GPT-4o regex (o200k)"),
    "none": N_("None (the text is one piece)"),
    "jieba": N_("Chinese words (jieba word segmentation)"),
    "regex": N_("Your own regular expression"),
}
TIE_LABELS = {name: rule.label for name, rule in TIE_RULES.items()}
BYTE_LABELS = {"utf8": N_("UTF-8 text"), "hex": N_("hex"), "gpt2": N_("GPT-2 alias (Ġ = space)")}
SOURCE_LABELS = {
    "preset": N_("Preset"),
    "paste": N_("Paste text"),
    "upload": N_("Upload .txt"),
    "words": N_("Word counts"),
    "mix": N_("Languages"),
}
EOW_LABELS = {"separate": N_("separate symbol (l o w </w>)"), "attached": N_("attached (l o w</w>)")}

#: Longest end-of-word marker accepted.
MAX_MARKER_CHARS = 12


@dataclass(frozen=True)
class Display:
    """How a page draws, separate from what is trained: byte tokens as ``utf8``, ``hex`` or ``gpt2``
    text, and presentation mode (large type, colour-blind-safe palette, fewer controls)."""

    byte_mode: str = "utf8"
    presentation: bool = False


def max_merges() -> int:
    """The app's limit on merges (``BPE_EXPLORER_MAX_MERGES``, default 20,000)."""
    return env_positive_int("BPE_EXPLORER_MAX_MERGES", 20_000)


def preset_settings(preset: Preset | None) -> dict:
    """Every setting for ``preset``: :data:`DEFAULT_SETTINGS` with the preset's recommendations."""
    out = dict(DEFAULT_SETTINGS)
    if preset is not None:
        out.update(preset.settings)
        if "vocab" in preset.settings and "merges" not in preset.settings:
            out["limit"] = "vocab"
    return out


# ------------------------------------------------------------------------------------------ config
def make_config(settings: dict, words_source: bool = False, **changes) -> TrainConfig:
    """The :class:`bpe_core.TrainConfig` of ``settings`` (``words_source``: a word-count list, which
    is already split into words). ``changes`` override fields (``variant``, ``num_merges``...), e.g.
    a page training its own text. Raises :class:`bpe_core.InputError` with a message for the user
    when the settings ask more than the app allows or are invalid."""
    limit = max_merges()
    num_merges, vocab = changes.get("num_merges"), changes.get("vocab_size")
    if "num_merges" in changes:
        pass  # the caller bounds its own number of merges
    elif settings["limit"] == "merges":
        num_merges = int(settings["merges"])
        if num_merges > limit:
            raise InputError(
                _("{n} merges asked; the limit is {limit} on this server. Ask for fewer merges.").format(
                    n=f"{num_merges:,}", limit=f"{limit:,}"
                )
            )
    else:
        vocab = int(settings["vocab"])
        if vocab > limit + 256:
            raise InputError(
                _(
                    "A vocabulary of {vocab} tokens needs more merges than the limit is on this server ({limit}). "
                    "Ask for a smaller vocabulary."
                ).format(vocab=f"{vocab:,}", limit=f"{limit:,}")
            )
        num_merges = limit  # vocabulary-size runs are still capped by the merge limit
    marker = settings["marker"]
    variant = changes.get("variant", settings["variant"])
    if variant == "eow" and (not marker or any(c.isspace() for c in marker)):
        raise InputError(_("The end-of-word marker must be non-empty and contain no spaces."))
    pre = "whitespace" if words_source else settings["pre"]
    # SuperBPE's transition: byte-level BPE on a text, with the settings' own number of merges (a page that
    # trains another variant or its own number of merges trains without it).
    algorithm = changes.get("algorithm", settings.get("algo", "bpe"))
    own = not words_source and "num_merges" not in changes and variant == "byte" and algorithm == "bpe"
    transition = settings.get("transition") if own else None
    fields = dict(
        variant=settings["variant"],
        pretokenizer=pre,
        num_merges=num_merges,
        vocab_size=vocab,
        min_frequency=int(settings["minf"]),
        tie_break=settings["tie"],
        eow_style=settings["eow"],
        eow_marker=marker if marker else "</w>",
        pattern=settings.get("pattern") or None if pre == REGEX else None,
        algorithm=settings.get("algo", "bpe"),
        transition=transition,
        # PickyBPE's threshold, or BoundlessBPE's tau (the same IoS threshold, a setting of its own).
        picky_threshold=float(settings.get(threshold_name(algorithm), DEFAULT_SETTINGS["picky"])),
    )
    fields.update(changes)
    try:
        return TrainConfig(**fields).validate()
    except (PatternError, TransitionError) as err:
        raise InputError(err.message(tr())) from None
    except ValueError as err:
        raise InputError(str(err)) from None


# ------------------------------------------------------------------------------------------ the URL
@dataclass(frozen=True)
class UrlState:
    """What a URL asks for: a preset (``None``: keep the session's corpus), the settings, presentation
    mode, the step, and notes for the user about parameters that were ignored."""

    preset: str | None
    settings: dict
    presentation: bool
    step: int
    notes: tuple[str, ...]


def _parse_int(raw: str, name: str, lo: int, notes: list) -> int | None:
    try:
        value = int(raw.strip())
    except (ValueError, AttributeError):
        notes.append(
            _("The link's {name}={value} is not a whole number; it was ignored.").format(
                name=name, value=repr(raw[:40])
            )
        )
        return None
    if value < lo:
        notes.append(
            _("The link's {name}={value} is below {lo}; it was ignored.").format(name=name, value=value, lo=lo)
        )
        return None
    return value


def threshold_name(algorithm: str) -> str:
    """The setting (and URL parameter) of ``algorithm``'s IoS threshold: ``tau`` for BoundlessBPE, else ``picky``."""
    return "tau" if algorithm == "boundless" else "picky"


def _parse_threshold(raw: str, notes: list, name: str = "picky") -> float | None:
    """An IoS threshold from a link (``name``: ``picky`` or ``tau``): a number above 0 and at most 1, else ``None``
    with a note."""
    try:
        value = float(raw.strip())
    except (ValueError, AttributeError):
        value = None
    if value is None or not 0 < value <= 1:
        notes.append(
            _("The link's {name}={value} is not a number above 0 and at most 1; it was ignored.").format(
                name=name, value=repr(raw[:40])
            )
        )
        return None
    return value


def stepper_algorithms() -> tuple[str, ...]:
    """The registered algorithms the stepper draws: those whose runs are merge runs. WordPiece and Unigram say
    ``stepper = False`` (their runs are not drawn by the app yet; the command line trains them)."""
    return tuple(n for n in algorithm_names() if getattr(get_algorithm(n), "stepper", True))


def settings_from_url(params: dict[str, str], current: Preset | None) -> UrlState:
    """Read query parameters. Settings start from the URL's preset (an unknown one: the default, with
    a note), else from ``current`` (the session's preset, ``None`` for its own text); every other
    parameter overrides one setting. A bad value is ignored with a note; never raises."""
    notes: list[str] = []
    preset_id = None
    if "preset" in params:
        preset = get_preset(params["preset"])
        if preset is None:
            notes.append(
                _("The link names an unknown preset {preset}; showing the default one.").format(
                    preset=repr(params["preset"][:60])
                )
            )
            preset = PRESETS[DEFAULT_PRESET]
        preset_id = preset.id
        settings = preset_settings(preset)
    else:
        settings = preset_settings(current)
    choices = {
        "variant": VARIANTS,
        "pre": PRETOKENIZER_CHOICES,
        "tie": TIE_BREAKS,
        "eow": EOW_STYLES,
        "bytes": BYTE_MODES,
        "algo": stepper_algorithms(),
    }
    for name, allowed in choices.items():
        if name in params:
            if params[name] in allowed:
                settings[name] = params[name]
            else:
                notes.append(
                    _("The link's {name}={value} is not one of {choices}; it was ignored.").format(
                        name=name, value=repr(params[name][:40]), choices=", ".join(allowed)
                    )
                )
    if "marker" in params:
        settings["marker"] = params["marker"][:MAX_MARKER_CHARS]
    if "pattern" in params:
        settings["pattern"] = params["pattern"][:MAX_PATTERN_CHARS]
        if len(params["pattern"]) > MAX_PATTERN_CHARS:
            notes.append(
                _("The link's pattern is longer than {n} characters; it was cut there.").format(
                    n=f"{MAX_PATTERN_CHARS:,}"
                )
            )
    if "minf" in params:
        value = _parse_int(params["minf"], "minf", 1, notes)
        if value is not None:
            settings["minf"] = value
    for name in ("vocab", "merges"):  # merges last: it wins when both are given
        if name in params:
            value = _parse_int(params[name], name, 1 if name == "vocab" else 0, notes)
            if value is not None:
                settings[name], settings["limit"] = value, name
    if "transition" in params:
        _transition_from_url(params["transition"], settings, notes)
    for name in ("picky", "tau"):
        if name in params:
            value = _parse_threshold(params[name], notes, name)
            if value is not None:
                settings[name] = value
    present = params.get("present", "0").strip().lower() in ("1", "true", "yes", "on")
    step = 0
    if "step" in params:
        value = _parse_int(params["step"], "step", 0, notes)
        step = value if value is not None else 0
    return UrlState(preset_id, settings, present, step, tuple(notes))


def _transition_from_url(raw: str, settings: dict, notes: list) -> None:
    """``transition=T`` (a merge number; empty or ``off``: none) into ``settings``; a bad value, or one for another
    variant or algorithm than byte-level BPE, is ignored with a note."""
    if raw.strip().lower() in ("", "off", "none"):
        settings["transition"] = None
        return
    value = _parse_int(raw, "transition", 0, notes)
    if value is None:
        return
    if settings["variant"] != "byte" or settings.get("algo", "bpe") != "bpe":
        notes.append(
            _("The link's transition={value} applies to byte-level BPE only (SuperBPE); it was ignored.").format(
                value=value
            )
        )
        return
    settings["transition"] = value


def url_from_settings(
    preset: Preset | None, settings: dict, presentation: bool, step: int, corpus: dict[str, str] | None = None
) -> dict[str, str]:
    """The query parameters of a state: the preset (``None``: the session's own text, named by ``corpus``,
    ``{"corpus": id}`` or ``{"text": packed}`` from :mod:`ui.links`), the settings that differ from its
    recommended ones (the pattern only with the ``regex`` pre-tokenizer), ``present=1`` in presentation mode,
    and the step."""
    params: dict[str, str] = {}
    if preset is not None:
        params["preset"] = preset.id
    elif corpus:
        params.update(corpus)
    base = preset_settings(preset)
    for name in SETTING_PARAMS:
        if name in ("merges", "vocab"):
            if settings["limit"] == name and (base["limit"] != name or settings[name] != base[name]):
                params[name] = str(settings[name])
        elif name == "pattern":
            if settings["pre"] == REGEX and settings.get("pattern"):
                params[name] = settings["pattern"]
        elif settings.get(name, base[name]) != base[name]:  # (a settings dict from before "algo" has none)
            params[name] = str(settings[name])
    if presentation:
        params["present"] = "1"
    params["step"] = str(int(step))
    return params


def paste_cap() -> int:
    """Longest text box value the browser sends, in UTF-16 code units (JavaScript's ``length``): the
    input limit in bytes plus one. UTF-8 never takes fewer bytes than UTF-16 code units, so a value cut
    there is always over the limit (and answered with :func:`ui.uploads.cut_paste_message`), while at most three
    bytes per code unit keep it under server.maxWidgetStateSize for limits up to 8 MB."""
    return max_input_bytes() + 1
