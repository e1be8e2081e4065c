"""The Apache-2.0 BoundlessBPE reference (``shared/references/boundlessbpe``), run as the tests' oracle: its trainer
(``FasterHalfDirectRegexTokenizer``) and its inference (``FasterRegexInference``), quietly (both print every step).

The reference numbers merges, deletions and supermerges from one class-wide counter (``IndexGenerator``), which
starts again at 0 here before each training. Its periodic re-count from scratch (``recalc``) is left off: it only
checks the reference's own bookkeeping, and it costs a whole re-count per step (on these corpora the reference
passes it at ``recalc=1`` as well).

Run as a script, it writes the fixture ``tests/fixtures/boundless_reference.json`` (:data:`FIXTURE_CASE`): the
reference's events and its tokens of a held-out text, so the facts are kept beside the tests.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys
import warnings
from functools import cache
from pathlib import Path

from corpus_excerpts import CORPORA, excerpt

RECALC = 10**9
REFERENCE = CORPORA.parent / "references" / "boundlessbpe"


def reference_modules(*names: str) -> list:
    """The modules ``names`` of the reference's package ``boundlessbpe``, imported from ``shared/references``."""
    sys.path.insert(0, str(REFERENCE))
    try:
        with warnings.catch_warnings():  # its patterns hold "\\p" in plain byte strings (its own source, not ours)
            warnings.simplefilter("ignore", DeprecationWarning)
            return [importlib.import_module(f"boundlessbpe.{name}") for name in names]
    finally:
        sys.path.remove(str(REFERENCE))


@cache
def reference():
    """The reference's ``boundlessbpetrain`` and ``boundlessbpeinference`` modules."""
    return reference_modules("boundlessbpetrain", "boundlessbpeinference")


def oracle_train(docs: list[str], pattern: str, tau: float, merges: int, tmp_path) -> dict:
    """Train the reference on ``docs`` (one JSON line each) to ``256 + merges``: ``{"events": [(kind, token
    bytes), ...] in order (kind ``merge``, ``supermerge`` or ``removal``), "model": the path of its saved model}``."""
    train, _ = reference()
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps({"text": d}) + "\n" for d in docs), encoding="utf-8")
    train.IndexGenerator._next_index = 0
    ref = train.FasterHalfDirectRegexTokenizer(tau, pattern=pattern)
    with contextlib.redirect_stdout(io.StringIO()):
        ref.train(str(path), str(tmp_path / "ref"), len(docs), 256 + merges, recalc=RECALC, blowup=True)
        ref.save(str(tmp_path / "ref"))
    words, supers = ref.words_state, ref.superwords_state
    events = [(i, "merge", a + b) for i, (a, b) in words.merges.items()]
    events += [(i, "removal", t) for i, t in words.deletions.items()]
    events += [(i, "supermerge", a + b) for i, (a, b) in supers.merges.items()]
    return {"events": [(kind, tok) for _, kind, tok in sorted(events)], "model": str(tmp_path / "ref.model")}


def oracle_encode(model: str, text: str, ids: bool = False) -> list:
    """The reference inference's tokens (bytes) of ``text`` under its saved ``model``; with ``ids``, their ids."""
    _, infer = reference()
    ref = infer.FasterRegexInference()
    with contextlib.redirect_stdout(io.StringIO()):
        ref.load(model)
        return ref.encode_ordinary(text) if ids else ref.encode_ordinary_chunks(text)


#: The fixture's case: training text and held-out text as ``(corpus, bytes, start)`` of ``excerpt``; tau; merges.
FIXTURE_CASE = {
    "train": ("pg16457.txt", 1500, 30_000),
    "held_out": ("pg16457.txt", 700, 150_000),
    "tau": 0.9,
    "merges": 400,
}
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "boundless_reference.json"


def fixture_texts(case: dict = FIXTURE_CASE) -> tuple[str, str]:
    """The fixture's training text and held-out text."""
    return excerpt(*case["train"]), excerpt(*case["held_out"])


def write_fixture() -> None:
    """Run the reference on :data:`FIXTURE_CASE` and write :data:`FIXTURE` (tokens in GPT-2's byte aliases)."""
    import tempfile

    from bpe_core.byte_display import to_gpt2
    from bpe_core.pretokenize import GPT2_PATTERN

    train_text, held_out = fixture_texts()
    with tempfile.TemporaryDirectory() as tmp:
        got = oracle_train([train_text], GPT2_PATTERN, FIXTURE_CASE["tau"], FIXTURE_CASE["merges"], Path(tmp))
        tokens = oracle_encode(got["model"], held_out)
    doc = {
        "about": "The BoundlessBPE reference (shared/references/boundlessbpe) on FIXTURE_CASE of "
        "tests/boundless_oracle.py, GPT-2's pattern; written by running that module. Tokens in GPT-2's byte aliases.",
        "case": FIXTURE_CASE,
        "events": [[kind, to_gpt2(tok)] for kind, tok in got["events"]],
        "held_out_tokens": [to_gpt2(t) for t in tokens],
    }
    FIXTURE.parent.mkdir(exist_ok=True)
    # One event per line: the file reads (and diffs) as the list of steps it is.
    parts = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items() if k != "events"]
    events = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in doc["events"])
    parts.insert(2, f' "events": [\n  {events}\n ]')
    FIXTURE.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    write_fixture()
