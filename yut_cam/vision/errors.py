"""Exceptions of :mod:`yut_cam.vision` (one base for the package).

``VisionError`` is the base every vision module raises from.  Bad input (a corrupt
image, a calibration file that does not validate) also subclasses ``ValueError`` so
callers that only know the standard library still catch it.  Messages quote the bad
input (path, device, value).
"""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by :mod:`yut_cam.vision`."""


class CameraError(VisionError):
    """A frame source cannot be opened or used (missing device, closed source, bad spec)."""


class CameraLost(CameraError):
    """A source that was working stopped delivering frames (unplugged, driver crash)."""


class CalibrationError(VisionError, ValueError):
    """A calibration cannot be computed, loaded or validated."""


class ImageError(VisionError, ValueError):
    """An image is missing, unreadable, corrupt or of an unusable shape."""
