"""Errors of the throw reader (:mod:`yut_cam.vision`).

One base, :class:`VisionError`; bad input (calibration files, images) also subclasses
``ValueError`` so callers that only know the standard library can still catch it.
"""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by :mod:`yut_cam.vision`."""


class CalibrationError(VisionError, ValueError):
    """A calibration file or calibration image is unusable; the message says why."""


class ImageError(VisionError, ValueError):
    """An image is missing, corrupt, empty or of the wrong size; the message says which."""


class CameraError(VisionError):
    """The camera could not be opened or configured."""


class CameraLost(CameraError):
    """The camera stopped delivering frames in the middle of a session."""
