"""bpe_server.corpus_store: the store of corpus texts (a real SQLite file in tmp_path, and a real PostgreSQL
database: the same tests on both engines, ``store_target`` in conftest), old store files, and texts packed into
URLs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest
from store_files import CHINESE, ENGLISH, old_store_file

from bpe_server import corpus_store
from bpe_server.corpus_store import (
    PACK_MAX_CHARS,
    CorpusStore,
    PackedTextError,
    StoreError,
    corpus_id,
    is_corpus_id,
    pack_text,
    unpack_text,
)


def test_round_trip_and_content_ids(store_target):
    store = CorpusStore(store_target)
    cid = store.put(CHINESE, "text")
    assert is_corpus_id(cid) and len(cid) == 16 and cid == corpus_id(CHINESE, "text")
    assert store.get(cid) == (CHINESE, "text")
    assert store.put(CHINESE, "text") == cid  # same content, same id, stored once
    assert store.ids() == [cid]
    words = store.put("low 5\nlower 2\n", "words")
    assert store.get(words) == ("low 5\nlower 2\n", "words")
    assert corpus_id("low 5\nlower 2\n", "text") != words  # the kind is part of the id
    crlf = "a\r\nb\rc\x00\ufeff"
    assert store.get(store.put(crlf, "upload")) == (crlf, "upload")  # bytes kept as they are
    assert store.get("") is None and store.get(corpus_id("never stored")) is None
    assert store.get("'; DROP TABLE corpora; --") is None and store.get("A" * 16) is None


def test_bad_kinds_are_refused(store_target):
    store = CorpusStore(store_target)
    for kind in ("", "Text", "a b", "x" * 40):
        with pytest.raises(ValueError):
            store.put("abc", kind)


def test_the_store_outlives_the_object_and_the_process(store_target, tmp_path):
    sqlite = not store_target.startswith("postgresql:")
    path = tmp_path / "deep" / "folder" / "s.sqlite3" if sqlite else store_target  # folders created on demand
    cid = CorpusStore(path).put(ENGLISH, "upload")
    assert CorpusStore(path).get(cid) == (ENGLISH, "upload")
    script = (
        "import sys; from bpe_server.corpus_store import CorpusStore; "
        "text, kind = CorpusStore(sys.argv[1]).get(sys.argv[2]); print(len(text), kind)"
    )
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-c", script, str(path), cid], capture_output=True, text=True, cwd=root, check=True
    )
    assert proc.stdout.split() == [str(len(ENGLISH)), "upload"]
    if sqlite:
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _texts(n: int, size: int = 4_000) -> list[str]:
    # different and hard to compress, so each stored text takes about `size` bytes
    import random

    rng = random.Random(7)
    return [f"{i}:" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ,.") for _ in range(size)) for i in range(n)]


def _stored_size(text: str) -> int:
    return len(zlib.compress(text.encode("utf-8"), 6))


def test_least_recently_used_texts_are_evicted_first(store_target):
    a, b, c, d = _texts(4)
    bound = _stored_size(a) + _stored_size(b) + _stored_size(c) + 10
    store = CorpusStore(store_target, max_bytes=bound)
    ia, ib, ic = store.put(a), store.put(b), store.put(c)
    assert store.ids() == [ia, ib, ic]
    assert store.get(ia) == (a, "text")  # a is now the most recently used: b goes first
    id_d = store.put(d)
    assert store.get(ib) is None
    assert store.ids() == [ic, ia, id_d]
    assert store.total_bytes() <= bound
    store.put(c)  # putting again counts as a use
    e = _texts(5)[4]
    store.put(e)
    assert ia not in store and ic in store and id_d in store


def test_total_size_stays_under_the_bound(store_target):
    texts = _texts(30, 3_000)
    bound = 5 * _stored_size(texts[0])
    store = CorpusStore(store_target, max_bytes=bound)
    for t in texts:
        cid = store.put(t)
        assert store.total_bytes() <= bound
        assert store.get(cid) == (t, "text")  # the text just put is never the one evicted
    assert 3 <= len(store.ids()) <= 5
    with pytest.raises(StoreError):
        store.put(_texts(1, 20_000)[0])  # larger than the whole bound alone


def test_concurrent_writers_and_readers_from_threads(store_target):
    path = store_target
    texts = _texts(64, 500)
    results: dict = {}
    errors: list = []
    barrier = threading.Barrier(8)

    def worker(k: int) -> None:
        try:
            store = CorpusStore(path)  # each session opens the store itself, as the app's sessions do
            barrier.wait()
            for t in texts[k::8]:
                cid = store.put(t, "text")
                results[cid] = t
                assert store.get(cid) == (t, "text")
            for cid in list(results)[:20]:
                got = store.get(cid)
                assert got is not None and got[0] == results[cid]
        except BaseException as err:  # reported below: an assertion in a thread would be lost
            errors.append(err)
            barrier.abort()  # the others stop waiting for this one (BrokenBarrierError) instead of hanging

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    store = CorpusStore(path)
    assert sorted(store.ids()) == sorted(corpus_id(t) for t in texts)
    assert all(store.get(corpus_id(t)) == (t, "text") for t in texts)


def test_sessions_opening_a_new_store_at_the_same_moment_all_succeed(tmp_path):
    # Turning a new file to WAL mode needs it alone, and SQLite answers "database is locked" at once (no busy
    # wait) to the others: about one open in 200 failed with eight at a time, before the store retried.
    errors: list = []
    for round_ in range(100):
        path = tmp_path / f"s{round_}.sqlite3"
        barrier = threading.Barrier(8)

        def opener(path: Path, barrier: threading.Barrier) -> None:
            try:
                barrier.wait()
                CorpusStore(path)
            except BaseException as err:
                errors.append(err)

        threads = [threading.Thread(target=opener, args=(path, barrier)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    with sqlite3.connect(tmp_path / "s0.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_default_store_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(tmp_path / "env" / "c.sqlite3"))
    monkeypatch.setenv("BPE_EXPLORER_STORE_MAX_BYTES", "12345")
    assert corpus_store.default_path() == tmp_path / "env" / "c.sqlite3"
    assert corpus_store.default_max_bytes() == 12345
    cid = corpus_store.put("hello world", "text")
    assert corpus_store.get(cid) == ("hello world", "text")
    assert (tmp_path / "env" / "c.sqlite3").exists()
    monkeypatch.delenv("BPE_EXPLORER_STORE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("BPE_EXPLORER_STORE_MAX_BYTES", "lots")
    assert corpus_store.default_path() == tmp_path / "cache" / "bpe-explorer" / "corpora.sqlite3"
    assert corpus_store.default_max_bytes() == corpus_store.DEFAULT_MAX_BYTES


# ------------------------------------------------------------------------------------ packed texts
@pytest.mark.parametrize(
    "text", ["", "low low low lower", "你好啊 你好 你好啊 你好 我 啊 走", "👨\u200d👩\u200d👧\r\n\t\x00", CHINESE[:300]]
)
def test_short_texts_travel_in_the_url(text):
    token = pack_text(text)
    assert token is not None and len(token) <= PACK_MAX_CHARS
    assert all(c.isascii() and (c.isalnum() or c in "-_") for c in token)
    assert unpack_text(token) == text


def test_long_texts_do_not_fit_in_the_url():
    assert pack_text(ENGLISH) is None
    assert pack_text(CHINESE) is None


@pytest.mark.parametrize(
    "token",
    [
        "",
        "hello",
        "z",
        "z!!!!",
        "zAAAA",
        pack_text("the lowest price is lower than the last one")[:-6],  # cut short
        "z" + "A" * 10_000,
    ],
)
def test_garbage_tokens_raise_a_clear_error(token):
    with pytest.raises(PackedTextError, match="the text in the link"):
        unpack_text(token)


def test_a_crafted_token_cannot_inflate_past_the_limit():
    import base64

    bomb = zlib.compress(b"a" * 2_000_000, 9)
    token = "z" + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(token) <= 4 * PACK_MAX_CHARS
    with pytest.raises(PackedTextError, match="too large"):
        unpack_text(token)


def test_a_store_file_of_the_first_release_opens_with_its_links_kept(tmp_path):
    from bpe_server.live_class import Classes

    path = tmp_path / "old.sqlite3"
    ids = old_store_file(path, [(CHINESE, "text"), ("low 5\nlower 2\n", "words")])
    store = CorpusStore(path)
    assert store.schema_version() == corpus_store.SCHEMA_VERSION == 2
    assert store.get(ids[0]) == (CHINESE, "text") and store.get(ids[1]) == ("low 5\nlower 2\n", "words")
    assert store.ids() == ids  # the use order is kept too
    code, _key = Classes(store).start({"corpus": ids[0]}, 0, ids[0])  # the newer tables are there
    assert Classes(CorpusStore(path)).state(code).params == {"corpus": ids[0]}


def test_a_store_from_a_newer_release_is_refused(store_target):
    from contextlib import closing

    store = CorpusStore(store_target)
    with closing(store.connect()) as conn:
        conn.execute("UPDATE store_meta SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(StoreError, match="schema version 99"):
        CorpusStore(store_target)


def test_sessions_opening_a_new_postgres_store_at_the_same_moment_all_succeed(postgres_url):
    import psycopg

    errors: list = []
    for _round in range(4):
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("DROP SCHEMA public CASCADE")
            conn.execute("CREATE SCHEMA public")
        barrier = threading.Barrier(6)

        def opener(barrier: threading.Barrier) -> None:
            try:
                barrier.wait()
                CorpusStore(postgres_url).put("low lower", "text")
            except BaseException as err:
                errors.append(err)
                barrier.abort()

        threads = [threading.Thread(target=opener, args=(barrier,)) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert CorpusStore(postgres_url).ids() == [corpus_id("low lower")]


def test_the_database_url_switches_the_default_store_to_postgres(postgres_url, tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setenv("BPE_EXPLORER_DATABASE_URL", postgres_url)
    assert corpus_store.default_target() == postgres_url
    cid = corpus_store.put("a text every server sees", "text")
    assert CorpusStore(postgres_url).get(cid) == ("a text every server sees", "text")
    assert not (tmp_path / "unused.sqlite3").exists()
    monkeypatch.setenv("BPE_EXPLORER_DATABASE_URL", " ")
    assert corpus_store.default_target() == str(tmp_path / "unused.sqlite3")
