"""The shared store on a real PostgreSQL cluster (conftest ``postgres_cluster``): the database stopped in the middle
(a clear message, no traceback, the pages' presets still step; links and classes work again once it is back) and
the command that moves an SQLite store's links into PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from app_helpers import errors, new_app, no_exception, paste, shown_step
from corpora import PASTED_ZH_EMOJI
from store_files import CHINESE, ENGLISH, old_store_file

from bpe_server import corpus_store, store_db
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes
from bpe_server.store_migrate import migrate
from ui import links

REPO = __import__("pathlib").Path(__file__).resolve().parents[1]
UNREACHABLE = "The shared store is unreachable"


def _until(check, seconds: float = 60.0):
    """``check()``'s first result that is not an exception, trying until ``seconds`` pass (then its error)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return check()
        except store_db.StoreUnavailable:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


@pytest.fixture
def shared(postgres_url, monkeypatch, tmp_path):
    """Every store call of this process goes to the cluster's database (as on an app server with the URL set)."""
    monkeypatch.setenv(store_db.DATABASE_URL_ENV, postgres_url)
    monkeypatch.setenv(corpus_store.STORE_ENV, str(tmp_path / "not-used.sqlite3"))
    return postgres_url


def test_postgres_stopped_then_started_again(shared, postgres_cluster):
    store = CorpusStore(shared)
    classes = Classes(store)
    cid = store.put(ENGLISH, "upload")
    code, key = classes.start({"corpus": cid}, 0, cid)

    postgres_cluster.stop()
    with pytest.raises(store_db.StoreUnavailable):
        store.get(cid)
    with pytest.raises(store_db.StoreUnavailable):  # at once now (fail fast), not another wait
        store.put("another text", "text")
    with pytest.raises(store_db.StoreUnavailable):
        classes.set_step(code, key, 3)
    linked = links.open_link({"corpus": cid})
    assert linked.text is None and UNREACHABLE in linked.message  # not "gone": the link itself is fine
    with pytest.raises(store_db.StoreUnavailable):
        links.link_ref("paste", CHINESE)

    postgres_cluster.start()
    assert _until(lambda: store.get(cid)) == (ENGLISH, "upload")  # the same pool, new connections
    assert classes.set_step(code, key, 3) == 3 and classes.state(code).step == 3
    assert links.open_link({"corpus": cid}).text == ENGLISH
    assert store.get(links.link_ref("paste", CHINESE)["corpus"]) == (CHINESE, "text")


def test_a_restart_unseen_by_the_pool_costs_one_wait_not_one_per_dead_connection(postgres_url, postgres_cluster):
    """Idle connections from before a restart are all dead; the first call after it still gets a connection."""
    db = store_db.PostgresDatabase(postgres_url)
    try:
        held = [db.checkout() for _ in range(5)]
        for conn in held:
            db.pool.putconn(conn)  # five idle connections in the pool
        postgres_cluster.stop()
        postgres_cluster.start()  # nothing used the pool meanwhile: it learns of the restart on the next call
        conn = db.checkout()  # psycopg_pool alone drops one dead connection per back-off (1 s, 2 s, ...): 4 s out
        assert db.run(conn, "SELECT 1").fetchone() == (1,)
        db.pool.putconn(conn)
    finally:
        db.pool.close()


def test_the_app_says_so_and_presets_still_step_while_postgres_is_down(shared, postgres_cluster):
    at = paste(new_app(), PASTED_ZH_EMOJI)  # a long text: its link is stored in PostgreSQL
    no_exception(at)
    link = {k: at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k]
            for k in at.query_params}  # fmt: skip
    assert corpus_store.is_corpus_id(link["corpus"])

    postgres_cluster.stop()
    opened = new_app(**link)  # another browser opens the link
    no_exception(opened)
    assert UNREACHABLE in errors(opened) and shown_step(opened) is None
    made = paste(new_app(), CHINESE)  # a new long paste: trains and steps, its link waits for the database
    no_exception(made)
    assert UNREACHABLE in " ".join(w.value for w in made.warning)
    assert "corpus" not in made.query_params
    made.button(key="stepper.next").click().run()
    no_exception(made)
    assert shown_step(made).step == 1
    preset = new_app(preset="textbook")
    preset.button(key="stepper.next").click().run()
    no_exception(preset)
    assert not preset.error and shown_step(preset).step == 1

    postgres_cluster.start()
    _until(lambda: corpus_store.get(link["corpus"]))
    again = new_app(**link)
    no_exception(again)
    assert not again.error and again.text_area(key="w.paste").value == PASTED_ZH_EMOJI


# ------------------------------------------------------------------------------------ moving links
def test_the_links_of_an_sqlite_store_move_into_postgres(postgres_url, tmp_path):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    old = tmp_path / "old.sqlite3"
    ids = old_store_file(old, [(CHINESE, "text"), ("low 5\nlower 2\n", "words")])  # a first-release file
    newer = CorpusStore(old)
    ids.append(newer.put(ENGLISH, "upload"))
    target = CorpusStore(postgres_url)
    mine = target.put("already in the database", "text")

    assert migrate(old, postgres_url) == (3, 0)
    assert target.get(ids[0]) == (CHINESE, "text") and target.get(ids[1]) == ("low 5\nlower 2\n", "words")
    assert target.get(ids[2]) == (ENGLISH, "upload") and target.get(mine) == ("already in the database", "text")
    assert migrate(old, postgres_url) == (0, 3)  # again: nothing doubled
    assert sorted(target.ids()) == sorted([*ids, mine])

    # The command's home is the server package; the path earlier docs gave (ui.store_migrate) still runs it.
    for module in ("bpe_server.store_migrate", "ui.store_migrate"):
        proc = subprocess.run(
            [sys.executable, "-m", module, str(old), postgres_url],
            capture_output=True, text=True, cwd=REPO, timeout=120,
        )  # fmt: skip
        assert proc.returncode == 0 and proc.stdout.strip() == "copied 0 corpora; 3 were there already", module
    for args in ([str(tmp_path / "missing.sqlite3"), postgres_url], [str(old), str(tmp_path / "x.sqlite3")]):
        proc = subprocess.run(
            [sys.executable, "-m", "bpe_server.store_migrate", *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )
        assert proc.returncode == 2 and proc.stderr.startswith("store_migrate: error:")
        assert "Traceback" not in proc.stderr


def _param(at, name: str) -> str:
    value = at.query_params[name]
    return value[0] if isinstance(value, list) else value


def test_class_actions_say_so_while_postgres_is_down(shared, postgres_cluster):
    teacher = new_app()
    teacher.button(key="class-start").click().run()
    no_exception(teacher)
    code = _param(teacher, "class")

    postgres_cluster.stop()
    student = new_app(**{"class": code})  # joining
    no_exception(student)
    assert UNREACHABLE in errors(student)
    student.button(key="stepper.next").click().run()  # the preset still steps
    no_exception(student)
    assert shown_step(student).step == 1
    other = new_app()
    other.button(key="class-start").click().run()  # starting another class
    no_exception(other)
    assert UNREACHABLE in errors(other) and "class" not in other.query_params
    teacher.button(key="stepper.next").click().run()  # the teacher's step
    no_exception(teacher)
    assert UNREACHABLE in errors(teacher)

    postgres_cluster.start()
    _until(lambda: corpus_store.default_store().ids())
    joined = new_app(**{"class": code})
    no_exception(joined)
    assert not joined.error and _param(joined, "class") == code
