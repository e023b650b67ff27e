"""GPIO hardware of yut-cam: the large LED match timer, the buzzer, the referee buttons.

Modules (the pure ones import nothing Pi-specific, the device ones only :mod:`gpiozero`):

- :mod:`.timer` – ``TimerState``, ``TimerSource``, ``ClockAnchor``, ``LocalClocks``, ``TimerDriver``
- :mod:`.display` – pure composition of what the panel shows (``PanelView``, ``compose``)
- :mod:`.sevenseg` – characters to segment bits (``DigitEncoding``)
- :mod:`.settings` – the JSON settings file (``load_settings``, ``HardwareSettings``)
- :mod:`.shiftchain` – the TPIC6B595 chain (``ShiftChain``)
- :mod:`.ledtimer` – the whole LED timer (``LedTimer``, ``mock_pin_factory``)
- :mod:`.decode` – reading back what mock pins were driven to show (``ChainProbe``)
- :mod:`.buzzer` – ``TimerBuzzer``; :mod:`.buttons` – ``RefereeButtons``

Every device takes ``pin_factory=None`` (then gpiozero's default, chosen by the
``GPIOZERO_PIN_FACTORY`` environment variable), is a context manager, and has an
idempotent ``close()``; a closed device raises :class:`DeviceClosedError`.
"""

from yut_cam.hardware.errors import (
    DeviceClosedError,
    EncodingError,
    HardwareError,
    PinSetupError,
    SettingsError,
)

__all__ = ["DeviceClosedError", "EncodingError", "HardwareError", "PinSetupError", "SettingsError"]
