"""A fragment's rerun drops what the run it replaces had not sent yet, its cached elements included.

Streamlit keeps a browser's large elements (10 kB or more) and sends such an element again only as a reference to
its hash (a ``ref_hash`` message). When a new run of a fragment starts before the server has sent everything the
last one drew, the session's outgoing queue drops that run's unsent elements (``ForwardMsgQueue.clear`` with the
fragment's id). Streamlit 1.67 finds them by ``delta.fragment_id``, but a reference message has no delta, so it
stays: the browser gets element 11 of the step view without elements 9 and 10, and stops with "Bad delta path
index 11 (should be between [0, 9])". The page is blank from then on.

That is what happened to students' screens in a live class under load: the class script pressed "sync" for the
teacher's next step while the step view still ran for the step before (recorded in the class benchmark, every
message a tab received: the reference to element 11 came right after the interrupted run's last sent element, 8).

So the server notes which fragment each reference message belongs to as it is made (in the script's thread, which
knows the fragment), and the queue drops a noted reference with the rest of its fragment's elements.
:func:`install` does both, once per process; ``app.py`` calls it, on a Streamlit of :data:`CHECKED` only
(:func:`ui.streamlit_patches.may_install`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from . import may_install

if TYPE_CHECKING:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: The Streamlit versions this patch was written for and checked against (tests/test_fragment_refs.py passes there).
CHECKED = ("1.65.0", "1.67.0")
#: What running without it costs (said when the installed Streamlit is not checked).
MENDS = (
    "a fragment's rerun keeps the unsent references of the run it replaces, and a busy page can go blank "
    '("Bad delta path index")'
)

# A reference message, from when the script's thread makes it until the session's queue takes it (on the server's
# event loop): id(message) -> (message, fragment id). The message is held, so its id stays its own meanwhile.
_MADE: dict[int, tuple[ForwardMsg, str]] = {}
_MADE_LOCK = threading.Lock()
#: More references waiting than this means a queue never took them (a session closed meanwhile): start again.
_MAX_WAITING = 10_000


def fragment_of(ref: ForwardMsg) -> str | None:
    """The fragment whose run made reference message ``ref`` (taken out of the notes), or ``None`` (not a reference,
    or made outside a fragment)."""
    with _MADE_LOCK:
        held = _MADE.pop(id(ref), None)
    return held[1] if held is not None and held[0] is ref else None


def install() -> None:
    """Note the fragment of every reference message, and make a fragment's rerun drop the references of its unsent
    elements with the elements (see the module doc). Calling it again does nothing.

    Raises ``RuntimeError`` on a Streamlit not in :data:`CHECKED` (:func:`ui.streamlit_patches.may_install`:
    the message says the ways out); does nothing when the environment skips this patch."""
    if not may_install("fragment_refs", CHECKED, MENDS):
        return
    # Imported once the version is known to have them: an unchecked Streamlit gets the guard's message, not an
    # ImportError.
    from streamlit.runtime import forward_msg_queue
    from streamlit.runtime.scriptrunner_utils import script_run_context

    Queue = forward_msg_queue.ForwardMsgQueue
    if getattr(Queue.clear, "drops_fragment_refs", False):
        return
    make_ref, enqueue, clear = script_run_context.create_reference_msg, Queue.enqueue, Queue.clear

    def create_reference_msg(msg: ForwardMsg) -> ForwardMsg:
        ref = make_ref(msg)
        if ref is not msg and msg.delta.fragment_id:
            with _MADE_LOCK:
                if len(_MADE) >= _MAX_WAITING:
                    _MADE.clear()
                _MADE[id(ref)] = (ref, msg.delta.fragment_id)
        return ref

    def queue_enqueue(self, msg: ForwardMsg) -> None:
        fragment = fragment_of(msg) if msg.HasField("ref_hash") else None
        enqueue(self, msg)
        if fragment is not None:
            # Held while the message waits in this queue (a clear or flush keeps the notes of those it keeps), so an
            # id here is this message's.
            self.__dict__.setdefault("_fragment_refs", {})[id(msg)] = (msg, fragment)

    def queue_clear(self, retain_lifecycle_msgs: bool = False, fragment_ids_this_run: list[str] | None = None) -> None:
        refs = self.__dict__.pop("_fragment_refs", None)
        if refs and retain_lifecycle_msgs and fragment_ids_this_run is not None:
            rerun = set(fragment_ids_this_run)

            def dropped(msg: ForwardMsg) -> bool:
                held = refs.get(id(msg))
                return held is not None and held[0] is msg and held[1] in rerun

            self._queue = [msg for msg in self._queue if not dropped(msg)]
        clear(self, retain_lifecycle_msgs, fragment_ids_this_run)
        if refs and self._queue:  # another fragment's references still waiting keep their notes for its rerun
            kept = {id(msg): refs[id(msg)] for msg in self._queue if refs.get(id(msg), (None,))[0] is msg}
            if kept:
                self.__dict__["_fragment_refs"] = kept

    queue_clear.drops_fragment_refs = True
    queue_clear.__doc__ = clear.__doc__
    script_run_context.create_reference_msg = create_reference_msg
    Queue.enqueue = queue_enqueue
    Queue.clear = queue_clear
