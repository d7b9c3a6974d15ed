"""components/session_cleanup: a session whose browser has gone is closed once it has been
disconnected for the grace period, and only then; a reconnect in between keeps it."""
import pytest

from components import session_cleanup


class FakeServer:
    """Streamlit's runtime as the janitor sees it: which sessions are active, and the close."""

    def __init__(self):
        self.active: set[str] = set()
        self.closed: list[str] = []

    def is_active_session(self, session_id: str) -> bool:
        return session_id in self.active

    def clear_user_info_for_session(self, session_id: str) -> None:
        self.closed.append(session_id)


@pytest.fixture
def server(monkeypatch):
    from streamlit import runtime

    fake = FakeServer()
    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setattr(runtime, "get_instance", lambda: fake)
    monkeypatch.setattr(session_cleanup, "_disconnected_since", {})
    monkeypatch.setattr(session_cleanup, "_holdings", {})
    monkeypatch.setattr(session_cleanup, "_release_memory", lambda: None)
    return fake


def _known(*session_ids):
    for session_id in session_ids:
        session_cleanup._disconnected_since[session_id] = None  # as track() notes a run's session


def test_grace_is_streamlits_reconnect_window_less_two_sweeps():
    from streamlit import config

    window = float(config.get_option("server.disconnectedSessionTTL"))
    assert session_cleanup.grace_seconds() == window - 2 * session_cleanup.SWEEP_SECONDS


def test_a_gone_session_is_closed_after_the_grace_period_and_an_active_one_never(server):
    grace = session_cleanup.grace_seconds()
    server.active = {"open"}
    _known("open", "gone")
    assert session_cleanup.sweep(now=0.0) == 0  # first seen disconnected: the clock starts
    assert session_cleanup.sweep(now=grace - 1) == 0 and server.closed == []
    assert session_cleanup.sweep(now=grace) == 1
    assert server.closed == ["gone"]
    assert session_cleanup.sweep(now=10 * grace) == 0  # closed once, forgotten; the open one stays
    assert server.closed == ["gone"] and "open" in session_cleanup._disconnected_since


def test_a_session_that_reconnects_starts_its_clock_again(server):
    grace = session_cleanup.grace_seconds()
    _known("flaky")
    session_cleanup.sweep(now=0.0)  # disconnected
    server.active = {"flaky"}
    session_cleanup.sweep(now=grace - 5)  # back within the window
    server.active = set()
    assert session_cleanup.sweep(now=grace + 5) == 0  # disconnected again: a new grace period
    assert session_cleanup.sweep(now=2 * grace + 4) == 0
    assert session_cleanup.sweep(now=2 * grace + 5) == 1
    assert server.closed == ["flaky"]


def test_no_runtime_no_work(monkeypatch):
    from streamlit import runtime

    monkeypatch.setattr(runtime, "exists", lambda: False)
    assert session_cleanup.sweep() == 0


def test_track_outside_a_streamlit_run_does_nothing(monkeypatch):
    monkeypatch.setattr(session_cleanup, "_disconnected_since", {})
    session_cleanup.track()
    assert session_cleanup._disconnected_since == {}


def test_a_closed_sessions_state_and_fragments_are_emptied_and_an_open_ones_kept(server):
    """Streamlit keeps the last session its loop sent messages to (a local variable of the
    runtime's loop) after closing it: its state and fragments, the scored set and the uploads
    among them, must not stay with it."""
    from streamlit.runtime.fragment import MemoryFragmentStorage
    from streamlit.runtime.state import SafeSessionState, SessionState

    held = {}
    for session_id in ("gone", "open"):
        state = SafeSessionState(SessionState(), lambda: None)
        state["comparisons"] = {"key": "a scored set"}
        fragments = MemoryFragmentStorage()
        fragments.register("fragment", lambda: None)
        held[session_id] = (state, fragments)
        session_cleanup._holdings[session_id] = held[session_id]
    server.active = {"open"}
    _known("gone", "open")
    session_cleanup.sweep(now=0.0)
    assert session_cleanup.sweep(now=session_cleanup.grace_seconds()) == 1
    gone_state, gone_fragments = held["gone"]
    assert "comparisons" not in gone_state and not gone_fragments.contains("fragment")
    open_state, open_fragments = held["open"]
    assert open_state["comparisons"] == {"key": "a scored set"} and open_fragments.contains("fragment")
    assert list(session_cleanup._holdings) == ["open"]


def test_releasing_memory_forgets_the_scorers_lines(monkeypatch):
    """After closing sessions the janitor empties the scorer's memos of whole lines (visitors'
    texts), as sacrebleu's are emptied after each use."""
    from meteor_core import scorer
    calls = []
    monkeypatch.setattr(scorer, "forget_texts", lambda: calls.append("forgot"))
    monkeypatch.setattr(session_cleanup, "_malloc_trim", lambda: None)
    session_cleanup._release_memory()
    assert calls == ["forgot"]
