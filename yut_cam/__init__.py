"""yut-cam: a Raspberry Pi referee companion for tournament 윷놀이.

The package imports on any machine; Pi-only modules (picamera2, lgpio) are imported
lazily by the camera and GPIO backends that need them.
"""

__version__ = "0.1.0"
