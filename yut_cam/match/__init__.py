"""A refereed match on top of the rules engine: rosters, throw-off, clocks, warnings,
작전타임, substitutions, undo and the judged victory.  Pure: event log in, state out; the
match-clock time is always handed in (each event's ``t``), never read.
"""

from yut_cam.match import clock
from yut_cam.match.errors import IllegalEventError, MatchError, RecordFormatError
from yut_cam.match.events import EVENT_TYPES, WARNING_REASONS, parse_event
from yut_cam.match.record import Record, dumps_event, read_record, replay, replay_text, validate_record
from yut_cam.match.roster import Header, Team
from yut_cam.match.state import MatchState, ShotClock, WarningEntry, apply, start_state
from yut_cam.match.view import moves_json, referee_json, state_json

__all__ = [
    "clock", "IllegalEventError", "MatchError", "RecordFormatError", "EVENT_TYPES",
    "WARNING_REASONS", "parse_event", "Record", "dumps_event", "read_record", "replay",
    "replay_text", "validate_record", "Header", "Team", "MatchState", "ShotClock",
    "WarningEntry", "apply", "start_state", "moves_json", "referee_json", "state_json",
]  # fmt: skip
