"""The algorithm seam (bpe_core.algorithms.seam): a tiny made-up algorithm, built on the public seam only, is
registered by name and then trained by name everywhere a name is taken: ``TrainConfig(algorithm=...)``,
``bpe_core.train``, the CLI's ``--algorithm`` and the stepper's URL parameter ``algo``. Unknown names give one
clear message that lists the known ones."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from app_helpers import body_with, new_app, no_exception, shown_step, text_of

from bpe_core import TrainConfig, Trainer, train
from bpe_core.algorithms.reference import count_pairs, merge
from bpe_core.algorithms.seam import STEP_KINDS, StepWhy, algorithm_names, get_algorithm, register, step_why
from bpe_core.cli import main

NAME = "least-frequent"
WHY = "The least frequent pair seen at least twice wins (a made-up rule, to test the seam)."
WORDS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


class LeastFrequent:
    """BPE that merges the LEAST frequent pair seen at least twice (ties: the first seen), written on the public
    seam: it chooses its merges with the textbook loop, then the trainer takes them (``merges=``)."""

    def start(self, words, config):
        corpus = [config.make_variant().symbols(w) for w in words]
        freqs = list(words.values())
        merges = []
        while config.num_merges is None or len(merges) < config.num_merges:
            seen = {p: c for p, c in count_pairs(corpus, freqs).items() if c >= max(2, config.min_frequency)}
            if not seen:
                break
            pair = min(seen, key=seen.get)  # (the first of the least frequent: dicts keep first appearance)
            merges.append(pair)
            corpus = [merge(tokens, *pair) for tokens in corpus]
        return Trainer(words, replace(config, num_merges=len(merges), min_frequency=1), merges=merges)

    def why(self, run, step, tr=None, language_name=None):
        return StepWhy("rule", WHY)


@pytest.fixture(autouse=True, scope="module")
def registered():
    register(NAME, LeastFrequent())
    yield


def merges_of(run) -> list[tuple[str, str, int]]:
    return [(run.token_text(s.left), run.token_text(s.right), s.count) for s in run.snapshots]


def test_the_registry_names_plain_bpe_and_the_new_algorithm():
    assert algorithm_names()[0] == "bpe" and NAME in algorithm_names()
    assert TrainConfig().algorithm == "bpe"
    with pytest.raises(ValueError, match=f"unknown algorithm 'morfessor'; choose one of bpe, .*{NAME}"):
        get_algorithm("morfessor")
    with pytest.raises(ValueError, match="unknown algorithm"):
        TrainConfig(algorithm="morfessor").validate()
    with pytest.raises(ValueError, match="name"):
        register("two words", LeastFrequent())


def test_train_dispatches_by_name_and_the_steps_are_the_algorithms():
    cfg = TrainConfig(variant="eow", num_merges=3)
    plain = train(WORDS, cfg)
    least = train(WORDS, replace(cfg, algorithm=NAME))
    assert merges_of(plain)[0] == ("e", "s", 9)
    # "lower" (seen twice) holds the least frequent pairs seen at least twice: the first of them each time.
    assert merges_of(least) == [("e", "r", 2), ("w", "er", 2), ("o", "wer", 2)]
    assert all(s.kind == "merge" for s in least.snapshots) and "merge" in STEP_KINDS
    assert least.snapshot(1).ties == 1 and least.snapshot(1).tied == (
        (least.snapshot(1).left, least.snapshot(1).right),
    )
    # Each step's pair table is still the most frequent pairs, the chosen pair first.
    assert [least.token_text(t) for t in least.snapshot(1).top_pairs[1][:2]] == ["e", "s"]
    # The tokenizer at step k segments a word as the run does at step k.
    for k in (1, 3):
        assert least.tokenizer(k).encode("lower") == least.segmentation(least.find_word("lower"), k)
    assert step_why(least, 1) == StepWhy("rule", WHY) and step_why(plain, 1) is None and step_why(least, 0) is None


def test_the_cli_trains_with_algorithm(tmp_path, capsys):
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {n}\n" for w, n in WORDS.items()), encoding="utf-8")
    args = ["train", str(path), "--variant", "eow", "--merges", "3", "--jsonl"]
    assert main([*args, "--algorithm", NAME]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["left"], r["right"], r["count"], r["ties"]) for r in lines[:3]] == [
        ("e", "r", 2, 1),
        ("w", "er", 2, 1),
        ("o", "wer", 2, 1),
    ]
    assert lines[3] == {"stop": "num_merges", "merges": 3}
    # The default is plain BPE; an unknown name is a usage error, one line naming the known ones.
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["left"] == "e"
    assert main([*args, "--algorithm", "morfessor"]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        "\n" not in err and err.startswith("bpe_core: unknown algorithm 'morfessor'; choose one of bpe") and NAME in err
    )


def test_the_stepper_steps_the_algorithm_named_in_the_url():
    at = new_app(algo=NAME)
    no_exception(at)
    assert not at.warning and shown_step(at) == (0, 10)
    at.button(key="stepper.next").click().run()
    no_exception(at)
    assert shown_step(at)[0] == 1
    card = " ".join(text_of(body_with(at, "bpe-merge-card")).split())
    assert "Merge 1: e + r → er count 2" in card and WHY in card
    assert at.query_params["algo"] == NAME and at.query_params["step"] == "1"


def test_an_unknown_algo_in_the_url_is_a_note_and_plain_bpe():
    at = new_app(algo="morfessor")
    no_exception(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "algo" in warnings and "morfessor" in warnings
    at.button(key="stepper.next").click().run()
    card = " ".join(text_of(body_with(at, "bpe-merge-card")).split())
    assert "Merge 1: e + s → es count 9" in card
    assert "algo" not in at.query_params


def test_the_language_mix_uses_no_private_name_of_the_trainer():
    # The fair-max rule goes through the seam: it imports no private name, subclasses nothing of the trainer's and
    # reads or writes no private attribute of another object (only its own, through ``self``).
    import ast
    from pathlib import Path

    import bpe_core.algorithms.fair_bpe as fair

    tree = ast.parse(Path(fair.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not [a.name for a in node.names if a.name.startswith("_")], ast.unparse(node)
        if isinstance(node, ast.ClassDef):
            assert not node.bases, f"{node.name} subclasses {ast.unparse(node.bases[0])}"
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            assert isinstance(node.value, ast.Name) and node.value.id == "self", ast.unparse(node)


def test_no_module_of_the_algorithms_is_over_450_lines():
    from pathlib import Path

    import bpe_core.algorithms as algorithms

    sizes = {
        p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in Path(algorithms.__file__).parent.glob("*.py")
    }
    assert max(sizes.values()) <= 450, sizes
