"""The shipped firmware files agree with each other and with the default settings."""

from __future__ import annotations

import re
import xml.dom.minidom
from pathlib import Path

from yut_cam.hardware.settings import HardwareSettings

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def config_gpio_lines() -> dict[int, str]:
    out: dict[int, str] = {}
    for line in (FIRMWARE / "config.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"gpio=([\d,]+)=(\S+)", line)
        if m:
            for pin in m.group(1).split(","):
                out[int(pin)] = m.group(2)
    return out


def test_config_txt_sets_every_pin_the_settings_use() -> None:
    s = HardwareSettings()
    gpio = config_gpio_lines()
    assert gpio[s.pins.output_enable] == "op,dh"  # panel dark from power-on
    for pin in (s.pins.data, s.pins.clock, s.pins.latch, s.buzzer.pin):
        assert gpio[pin] == "op,dl"
    for _, pin in s.buttons.pins:
        assert gpio[pin] == "ip,pu"
    assert set(gpio) == set(s.all_pins().values())
    text = (FIRMWARE / "config.txt").read_text(encoding="utf-8")
    assert "camera_auto_detect=1" in text and "dtparam=spi=off" in text


def test_wiring_md_pin_table_matches_settings() -> None:
    table = (FIRMWARE / "WIRING.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| GPIO(\d+) \|.*\| `([a-z_.]+)` \|$", table, flags=re.M))
    assert {role: int(pin) for pin, role in rows.items()} == HardwareSettings().all_pins()


def test_svg_is_well_formed_and_names_the_pins() -> None:
    svg = (FIRMWARE / "wiring.svg").read_text(encoding="utf-8")
    xml.dom.minidom.parseString(svg)
    for pin in HardwareSettings().all_pins().values():
        assert f"GPIO{pin}" in svg


def test_units_and_scripts() -> None:
    unit = (FIRMWARE / "yut-cam.service").read_text(encoding="utf-8")
    for line in ("Restart=on-failure", "After=network-online.target", "Wants=network-online.target",
                 "GPIOZERO_PIN_FACTORY=lgpio", "ExecStartPre=/opt/yut-cam/firmware/wait-camera.sh"):
        assert line in unit
    install = (FIRMWARE / "install.sh").read_text(encoding="utf-8")
    assert "--system-site-packages" in install and "python3-picamera2" in install
    assert "fonts-noto-cjk" in install  # the kiosk shows Korean
    for script in ("install.sh", "kiosk.sh", "wait-camera.sh"):
        assert (FIRMWARE / script).stat().st_mode & 0o111, f"{script} is not executable"
