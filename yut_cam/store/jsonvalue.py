"""JSON values that survive storage unchanged: checking, encoding, strict decoding."""

from __future__ import annotations

import json
import math
from typing import Any

from yut_cam.store.errors import InvalidEventError

_MAX_DEPTH = 64


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_json_value(value: object, where: str = "event", depth: int = 0) -> None:
    """Raise :class:`InvalidEventError` unless ``value`` round-trips through JSON exactly.

    Allowed: dict with str keys, list, str (valid Unicode), int, finite float, bool, None.
    Tuples, sets, bytes, non-string keys, NaN and lone surrogates are refused, since
    JSON would change or reject them.
    """
    if depth > _MAX_DEPTH:
        raise InvalidEventError(f"{where}: nested deeper than {_MAX_DEPTH} levels")
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidEventError(f"{where}: {value!r} is not a JSON number")
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidEventError(f"{where}: {_short(value)} is not valid Unicode text") from None
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            check_json_value(item, f"{where}[{index}]", depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidEventError(
                    f"{where}: key {_short(key)} is not text ({type(key).__name__}); JSON keys are text"
                )
            check_json_value(key, f"{where} key", depth + 1)
            check_json_value(item, f"{where}[{key!r}]", depth + 1)
        return
    raise InvalidEventError(
        f"{where}: {_short(value)} is a {type(value).__name__}, not a JSON value"
        + (" (use a list)" if isinstance(value, tuple) else "")
    )


def check_object(value: object, what: str = "event") -> dict[str, Any]:
    """Check an event (or header): a JSON object with a non-empty text ``"type"``."""
    if not isinstance(value, dict):
        raise InvalidEventError(
            f"{what} must be a JSON object (dict), got {type(value).__name__}: {_short(value)}"
        )
    check_json_value(value, what)
    kind = value.get("type")
    if kind is None:
        raise InvalidEventError(f'{what} has no "type": {_short(value)}')
    if not isinstance(kind, str) or not kind.strip():
        raise InvalidEventError(f'{what} "type" must be non-empty text, got {kind!r}')
    return value


# Characters str.splitlines() breaks on that json.dumps(ensure_ascii=False) leaves raw;
# escaping them keeps one record per line even for naive line readers.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def encode(value: dict[str, Any]) -> str:
    """Compact UTF-8 JSON text of an already checked object, on one line."""
    return one_line(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


def one_line(text: str) -> str:
    """Escape the Unicode line separators in JSON text (valid JSON stays equal)."""
    return text.translate(_LINE_BREAKS)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, item in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = item
    return result


def decode(text: str) -> Any:
    """Strict JSON: no NaN/Infinity, no duplicate keys. Raises ValueError."""
    return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)
