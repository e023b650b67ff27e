"""The exception family of :mod:`yut_cam.hardware`.

Every error raised on purpose by this package derives from :class:`HardwareError`; errors
caused by bad input (a settings file, a character that has no 7-segment form) also derive
from :class:`ValueError`, so callers that validate input can catch either.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base class of every error raised by :mod:`yut_cam.hardware`."""


class SettingsError(HardwareError, ValueError):
    """The hardware settings (JSON) are malformed; the message names the field and value."""


class EncodingError(HardwareError, ValueError):
    """Text that a 7-segment digit cannot show, or a frame of the wrong size."""


class DeviceClosedError(HardwareError):
    """An operation on a device after :meth:`close`."""


class PinSetupError(HardwareError):
    """A GPIO line could not be opened (in use, no pin factory, no PWM on that pin)."""
