"""ui.streamlit_patches, the fragment references patch: a fragment's rerun drops the unsent elements of the run it replaces, the references to cached
elements as well as the elements (Streamlit 1.67 kept the references: "Bad delta path index 11")."""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_cache import populate_hash_if_needed
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.runtime.scriptrunner_utils import script_run_context

from ui import streamlit_patches


def _element(path: list[int], fragment: str, text: str) -> ForwardMsg:
    """A markdown element at ``path``, drawn by ``fragment`` ("" outside a fragment), as a script run enqueues it."""
    msg = ForwardMsg()
    msg.metadata.delta_path[:] = path
    msg.delta.new_element.markdown.body = text
    msg.delta.fragment_id = fragment
    populate_hash_if_needed(msg)
    return msg


def _ref(path: list[int], fragment: str) -> ForwardMsg:
    """The reference a script run sends instead of an element the browser holds (made as Streamlit makes it)."""
    return script_run_context.create_reference_msg(_element(path, fragment, f"cached at {path}"))


def _finished() -> ForwardMsg:
    msg = ForwardMsg()
    msg.script_finished = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    return msg


def _paths(queue: ForwardMsgQueue) -> list:
    return [(m.WhichOneof("type"), list(m.metadata.delta_path)) for m in queue._queue]


def test_a_fragments_rerun_drops_its_unsent_references_with_its_elements():
    streamlit_patches.install_fragment_refs()
    queue = ForwardMsgQueue()
    # The step view (fragment F) drew elements 9 and 10, then element 11 as a reference; another fragment (G) and
    # the page's own script (outside any fragment) each left a reference too; then a run of F starts.
    for msg in (
        _element([0, 2, 9], "F", "nine"),
        _element([0, 2, 10], "F", "ten"),
        _ref([0, 2, 11], "F"),
        _ref([0, 3, 5], "G"),
        _ref([1, 4], ""),
        _finished(),
    ):
        queue.enqueue(msg)
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["F"])
    assert _paths(queue) == [("ref_hash", [0, 3, 5]), ("ref_hash", [1, 4]), ("script_finished", [])]


def test_a_reference_left_by_one_fragments_rerun_is_dropped_by_its_own():
    streamlit_patches.install_fragment_refs()
    queue = ForwardMsgQueue()
    # Two fragments left references; G reruns first, then F, before anything is sent.
    for msg in (_ref([0, 2, 11], "F"), _ref([0, 3, 5], "G"), _finished()):
        queue.enqueue(msg)
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["G"])
    assert _paths(queue) == [("ref_hash", [0, 2, 11]), ("script_finished", [])]
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["F"])
    assert _paths(queue) == [("script_finished", [])]


def test_a_reference_is_sent_as_before_and_its_note_goes_with_it():
    streamlit_patches.install_fragment_refs()
    queue = ForwardMsgQueue()
    ref = _ref([0, 2, 11], "F")
    queue.enqueue(ref)
    assert queue.flush() == [ref] and "_fragment_refs" not in queue.__dict__
    # A whole-page run clears as Streamlit does: every unsent element and reference goes, the lifecycle stays.
    queue.enqueue(_ref([0, 2, 11], "F"))
    queue.enqueue(_finished())
    queue.clear(retain_lifecycle_msgs=True)
    assert _paths(queue) == [("script_finished", [])]
    assert not streamlit_patches._MADE  # every note made was taken by the queue


def test_install_wraps_once():
    streamlit_patches.install_fragment_refs()
    clear, make_ref = ForwardMsgQueue.clear, script_run_context.create_reference_msg
    streamlit_patches.install_fragment_refs()
    assert ForwardMsgQueue.clear is clear and script_run_context.create_reference_msg is make_ref
    assert clear.drops_fragment_refs
