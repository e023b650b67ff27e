"""The hardware settings file (JSON): pins, chain order, digit encoding, brightness.

Every field is optional (missing ones take the defaults below, which equal
``firmware/hardware.json``); unknown fields are an error, so a typo cannot be silently
ignored. Pins are BCM GPIO numbers. Example::

    {
      "shift_chain": {"data": 10, "clock": 11, "latch": 8, "output_enable": 18,
                      "bit_order": "msb_first", "pwm_frequency": 400,
                      "registers": ["shot1", "shot10", "lamps", "s1", "s10", "m1", "m10"]},
      "digits": {"segments": {"a": 0, "b": 1, "c": 2, "d": 3, "e": 4, "f": 5, "g": 6, "dp": 7},
                 "six_tail": true, "seven_tail": false, "nine_tail": true},
      "lamps": {"colon": 0, "throw": 1, "move": 2, "alert": 3},
      "brightness": 0.8,
      "alert_seconds": {"throw": 5, "move": 10},
      "buzzer": {"pin": 13, "kind": "active"},
      "buttons": {"start_stop": 5, "confirm": 6, "nak": 16, "undo": 26,
                  "debounce_ms": 50, "bounce_ms": 20}
    }

``registers`` lists the chain from the register wired to the Pi outwards.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from yut_cam.hardware.display import SLOTS, SPARE, AlertSeconds, LampBits, PanelLayout
from yut_cam.hardware.errors import EncodingError, SettingsError
from yut_cam.hardware.sevenseg import SEGMENTS, DigitEncoding

BUTTON_ACTIONS: tuple[str, ...] = ("start_stop", "confirm", "nak", "undo")
BUTTON_LABELS: dict[str, str] = {
    "start_stop": "시계 시작/정지",
    "confirm": "판정 확인",
    "nak": "낙",
    "undo": "되돌리기",
}
BCM_RANGE = range(2, 28)
BuzzerKind = Literal["active", "tonal"]


@dataclass(frozen=True)
class ChainPins:
    """The four lines to the TPIC6B595 chain (through the 5 V buffer)."""

    data: int = 10  # SER IN   (SPI0 MOSI pin, used as plain GPIO)
    clock: int = 11  # SRCK    (SPI0 SCLK pin)
    latch: int = 8  # RCK      (SPI0 CE0 pin)
    output_enable: int = 18  # /G, active low, PWM for brightness


@dataclass(frozen=True)
class BuzzerSettings:
    pin: int = 13
    kind: BuzzerKind = "active"  # active: a buzzer with its own oscillator; tonal: a piezo


@dataclass(frozen=True)
class ButtonSettings:
    """Referee buttons: a pin per action (wired to GND, pulled up)."""

    pins: tuple[tuple[str, int], ...] = (("start_stop", 5), ("confirm", 6), ("nak", 16), ("undo", 26))
    debounce_s: float = 0.05  # the line must have been released this long before a press counts
    bounce_s: float = 0.02  # gpiozero bounce_time (the pin library's own filter)

    def pin(self, action: str) -> int:
        return dict(self.pins)[action]


@dataclass(frozen=True)
class HardwareSettings:
    pins: ChainPins = ChainPins()
    layout: PanelLayout = PanelLayout()
    brightness: float = 0.8
    pwm_frequency: int = 400
    alert: AlertSeconds = AlertSeconds()
    buzzer: BuzzerSettings = BuzzerSettings()
    buttons: ButtonSettings = ButtonSettings()
    source: str = field(default="<defaults>", compare=False)

    def all_pins(self) -> dict[str, int]:
        """Every GPIO used, by role (``shift_chain.data`` …)."""
        out = {f"shift_chain.{k}": getattr(self.pins, k) for k in ("data", "clock", "latch", "output_enable")}
        out["buzzer.pin"] = self.buzzer.pin
        out.update({f"buttons.{a}": p for a, p in self.buttons.pins})
        return out


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> SettingsError:
        return SettingsError(f"{self.source}: {where}: {message}")

    def section(self, data: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"expected an object, got {value!r}")
        self.only(value, allowed, key)
        return value

    def only(self, data: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
        for key in data:
            if key not in allowed and not key.startswith("_"):
                raise self.fail(where or "(top level)", f"unknown field {key!r}; known: {', '.join(allowed)}")

    def pin(self, data: Mapping[str, Any], key: str, default: int, where: str) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_RANGE:
            raise self.fail(f"{where}.{key}", f"{value!r} is not a BCM GPIO number (2-27)")
        return value

    def number(self, data: Mapping[str, Any], key: str, default: float, where: str, lo: float, hi: float) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise self.fail(f"{where}{key}", f"{value!r} must be a number from {lo:g} to {hi:g}")
        return float(value)

    def flag(self, data: Mapping[str, Any], key: str, default: bool, where: str) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key}", f"{value!r} must be true or false")
        return value

    def choice(self, data: Mapping[str, Any], key: str, default: str, where: str, options: tuple[str, ...]) -> str:
        value = data.get(key, default)
        if value not in options:
            raise self.fail(f"{where}.{key}", f"{value!r} must be one of {', '.join(options)}")
        return str(value)


def parse_settings(data: object, source: str = "<settings>") -> HardwareSettings:
    """Validate a decoded JSON document; raises :class:`SettingsError` naming the field."""
    r = _Reader(source)
    if not isinstance(data, dict):
        raise r.fail("(top level)", f"expected a JSON object, got {type(data).__name__}")
    top = ("shift_chain", "digits", "lamps", "brightness", "alert_seconds", "buzzer", "buttons")
    r.only(data, top, "")
    d = HardwareSettings()

    sc = r.section(data, "shift_chain", ("data", "clock", "latch", "output_enable", "bit_order", "pwm_frequency", "registers"))
    pins = ChainPins(*(r.pin(sc, k, getattr(d.pins, k), "shift_chain") for k in ("data", "clock", "latch", "output_enable")))
    bit_order = r.choice(sc, "bit_order", d.layout.bit_order, "shift_chain", ("msb_first", "lsb_first"))
    pwm = r.number(sc, "pwm_frequency", d.pwm_frequency, "shift_chain.", 50, 20000)
    registers = sc.get("registers", list(d.layout.chain))
    if not isinstance(registers, list) or not all(isinstance(x, str) for x in registers):
        raise r.fail("shift_chain.registers", f"expected a list of slot names, got {registers!r}")

    dg = r.section(data, "digits", ("segments", "six_tail", "seven_tail", "nine_tail"))
    segs = dg.get("segments", dict(zip(SEGMENTS, d.layout.encoding.segment_bits)))
    if not isinstance(segs, dict):
        raise r.fail("digits.segments", f"expected an object of segment: bit, got {segs!r}")
    r.only(segs, SEGMENTS, "digits.segments")
    missing = [s for s in SEGMENTS if s not in segs]
    if missing:
        raise r.fail("digits.segments", f"missing segment(s) {', '.join(missing)}")
    seg_bits = tuple(int(r.number(segs, s, 0, "digits.segments.", 0, 7)) for s in SEGMENTS)
    for s in SEGMENTS:
        if not isinstance(segs[s], int) or isinstance(segs[s], bool):
            raise r.fail(f"digits.segments.{s}", f"{segs[s]!r} must be a whole bit number 0-7")

    lp = r.section(data, "lamps", ("colon", "throw", "move", "alert"))
    lamp_bits = [int(r.number(lp, k, getattr(d.layout.lamps, k), "lamps.", 0, 7)) for k in ("colon", "throw", "move", "alert")]

    try:
        encoding = DigitEncoding(
            seg_bits,
            six_tail=r.flag(dg, "six_tail", True, "digits"),
            seven_tail=r.flag(dg, "seven_tail", False, "digits"),
            nine_tail=r.flag(dg, "nine_tail", True, "digits"),
        )
        layout = PanelLayout(tuple(registers), encoding, LampBits(*lamp_bits), bit_order)
    except EncodingError as exc:
        raise r.fail("shift_chain/digits/lamps", str(exc)) from None

    brightness = r.number(data, "brightness", d.brightness, "", 0.0, 1.0)
    al = r.section(data, "alert_seconds", ("throw", "move"))
    alert = AlertSeconds(
        int(r.number(al, "throw", d.alert.throw, "alert_seconds.", 0, 99)),
        int(r.number(al, "move", d.alert.move, "alert_seconds.", 0, 99)),
    )
    bz = r.section(data, "buzzer", ("pin", "kind"))
    kind = r.choice(bz, "kind", d.buzzer.kind, "buzzer", ("active", "tonal"))
    buzzer = BuzzerSettings(r.pin(bz, "pin", d.buzzer.pin, "buzzer"), "tonal" if kind == "tonal" else "active")
    bt = r.section(data, "buttons", (*BUTTON_ACTIONS, "debounce_ms", "bounce_ms"))
    buttons = ButtonSettings(
        tuple((a, r.pin(bt, a, d.buttons.pin(a), "buttons")) for a in BUTTON_ACTIONS),
        r.number(bt, "debounce_ms", d.buttons.debounce_s * 1000, "buttons.", 0, 2000) / 1000,
        r.number(bt, "bounce_ms", d.buttons.bounce_s * 1000, "buttons.", 0, 500) / 1000,
    )
    settings = HardwareSettings(pins, layout, brightness, int(pwm), alert, buzzer, buttons, source)
    seen: dict[int, str] = {}
    for role, pin in settings.all_pins().items():
        if pin in seen:
            raise r.fail(role, f"GPIO{pin} is already used by {seen[pin]}")
        seen[pin] = role
    return settings


def load_settings(path: str | Path) -> HardwareSettings:
    """Read and validate a settings file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(f"{p}: cannot read hardware settings: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{p}: line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}") from None
    return parse_settings(data, str(p))


SETTINGS_ENV = "YUT_CAM_HARDWARE"


def settings_from_env(environ: Mapping[str, str] | None = None) -> HardwareSettings:
    """The file named by ``$YUT_CAM_HARDWARE`` (``firmware/yut-cam.service`` sets it to
    ``/etc/yut-cam/hardware.json``), or the built-in defaults when it is unset or empty."""
    env = os.environ if environ is None else environ
    path = env.get(SETTINGS_ENV, "")
    return load_settings(path) if path else HardwareSettings()


def settings_to_json(settings: HardwareSettings) -> dict[str, Any]:
    """The JSON document that :func:`parse_settings` turns back into ``settings``."""
    lay = settings.layout
    return {
        "shift_chain": {
            "data": settings.pins.data,
            "clock": settings.pins.clock,
            "latch": settings.pins.latch,
            "output_enable": settings.pins.output_enable,
            "bit_order": lay.bit_order,
            "pwm_frequency": settings.pwm_frequency,
            "registers": list(lay.chain),
        },
        "digits": {
            "segments": dict(zip(SEGMENTS, lay.encoding.segment_bits)),
            "six_tail": lay.encoding.six_tail,
            "seven_tail": lay.encoding.seven_tail,
            "nine_tail": lay.encoding.nine_tail,
        },
        "lamps": {k: getattr(lay.lamps, k) for k in ("colon", "throw", "move", "alert")},
        "brightness": settings.brightness,
        "alert_seconds": {"throw": settings.alert.throw, "move": settings.alert.move},
        "buzzer": {"pin": settings.buzzer.pin, "kind": settings.buzzer.kind},
        "buttons": {
            **dict(settings.buttons.pins),
            "debounce_ms": round(settings.buttons.debounce_s * 1000),
            "bounce_ms": round(settings.buttons.bounce_s * 1000),
        },
    }


__all__ = [
    "BUTTON_ACTIONS",
    "BUTTON_LABELS",
    "ButtonSettings",
    "BuzzerSettings",
    "ChainPins",
    "HardwareSettings",
    "SLOTS",
    "SPARE",
    "load_settings",
    "parse_settings",
    "settings_from_env",
    "settings_to_json",
]
