#!/bin/bash
# Install yut-cam on Raspberry Pi OS (Bookworm, 64-bit; Pi 4 or Pi 5).
#
#   sudo ./firmware/install.sh [--kiosk-user USER] [--no-kiosk]
#
# Run from a checkout of the project. It installs the apt packages (picamera2 and lgpio
# come from Raspberry Pi OS, not pip), copies the project to /opt/yut-cam, makes a venv
# with --system-site-packages (so the venv sees python3-picamera2 and python3-lgpio),
# pip-installs the project into it, installs the hardware settings, the systemd unit, the
# config.txt lines and the kiosk autostart, and enables the service. Safe to run again.
set -euo pipefail

KIOSK_USER=${SUDO_USER:-pi}
KIOSK=1
while [ $# -gt 0 ]; do
    case "$1" in
        --kiosk-user) KIOSK_USER=$2; shift 2 ;;
        --no-kiosk) KIOSK=0; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 2
fi
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$SRC/pyproject.toml" ] || [ ! -d "$SRC/yut_cam" ]; then
    echo "install.sh: $SRC does not look like a yut-cam checkout" >&2
    exit 2
fi
PREFIX=/opt/yut-cam
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt

echo "== apt packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# chromium is called chromium-browser on older images
CHROMIUM=chromium
apt-cache show chromium >/dev/null 2>&1 || CHROMIUM=chromium-browser
# fonts-noto-cjk: the kiosk's scoreboard and console are in Korean (without a Hangul font
# Chromium draws empty boxes)
apt-get install -y -q \
    python3-venv python3-pip python3-picamera2 python3-lgpio python3-libcamera curl "$CHROMIUM" fonts-noto-cjk
# rpicam-hello lets wait-camera.sh ask libcamera itself (optional; older images lack it)
apt-get install -y -q rpicam-apps-lite || echo "   (no rpicam-apps-lite: wait-camera.sh watches /dev/media*)"

echo "== user and directories"
id yutcam >/dev/null 2>&1 || useradd --system --home-dir /var/lib/yut-cam --shell /usr/sbin/nologin yutcam
usermod -a -G gpio,video,render yutcam
install -d -o yutcam -g yutcam -m 0750 /var/lib/yut-cam
install -d -m 0755 /etc/yut-cam "$PREFIX"

echo "== project into $PREFIX"
# Copy the sources (not the developer's venv, caches or recordings).
tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=var --exclude='__pycache__' \
    --exclude=.pytest_cache --exclude=.mypy_cache -cf - . | tar -C "$PREFIX" -xf -
python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --upgrade pip
"$PREFIX/venv/bin/pip" install -q "$PREFIX"
# The system picamera2 must be the one the venv sees (pip cannot build it off Raspberry Pi OS).
"$PREFIX/venv/bin/python" -c "import picamera2, lgpio" \
    || { echo "install.sh: picamera2/lgpio not visible in the venv" >&2; exit 1; }
chmod +x "$PREFIX/firmware/kiosk.sh" "$PREFIX/firmware/wait-camera.sh"

echo "== hardware settings"
if [ ! -f /etc/yut-cam/hardware.json ]; then
    install -m 0644 "$PREFIX/firmware/hardware.json" /etc/yut-cam/hardware.json
else
    echo "   keeping the existing /etc/yut-cam/hardware.json"
fi
"$PREFIX/venv/bin/python" -c "from yut_cam.hardware.settings import load_settings; load_settings('/etc/yut-cam/hardware.json')"

echo "== boot config ($BOOT_CONFIG)"
if ! grep -q '^# >>> yut-cam >>>' "$BOOT_CONFIG"; then
    cp "$BOOT_CONFIG" "$BOOT_CONFIG.before-yut-cam"
    { echo; sed -n '/^# >>> yut-cam >>>/,/^# <<< yut-cam <<</p' "$PREFIX/firmware/config.txt"; } >> "$BOOT_CONFIG"
    REBOOT=1
else
    echo "   already there (edit it by hand if you rewired)"
    REBOOT=0
fi

echo "== systemd"
install -m 0644 "$PREFIX/firmware/yut-cam.service" /etc/systemd/system/yut-cam.service
systemctl daemon-reload
systemctl enable systemd-networkd-wait-online.service NetworkManager-wait-online.service 2>/dev/null || true
systemctl enable yut-cam.service
systemctl restart yut-cam.service || true

if [ "$KIOSK" = 1 ]; then
    echo "== kiosk for $KIOSK_USER"
    home=$(getent passwd "$KIOSK_USER" | cut -d: -f6)
    if [ -z "$home" ]; then
        echo "install.sh: no user $KIOSK_USER for the kiosk (use --kiosk-user)" >&2
        exit 2
    fi
    line="$PREFIX/firmware/kiosk.sh &"
    # labwc (the default since late 2024) and wayfire (earlier Bookworm images)
    install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$home/.config/labwc"
    touch "$home/.config/labwc/autostart"
    grep -qF "$line" "$home/.config/labwc/autostart" || echo "$line" >> "$home/.config/labwc/autostart"
    chown "$KIOSK_USER:" "$home/.config/labwc/autostart"
    if [ -f "$home/.config/wayfire.ini" ] && ! grep -q 'yut-cam' "$home/.config/wayfire.ini"; then
        printf '\n[autostart]\nyut_cam_kiosk = %s/firmware/kiosk.sh\n' "$PREFIX" >> "$home/.config/wayfire.ini"
    fi
    # The kiosk needs the desktop to log in by itself (raspi-config: B4 desktop autologin).
    if command -v raspi-config >/dev/null 2>&1; then
        raspi-config nonint do_boot_behaviour B4 || true
    fi
fi

echo "== done"
systemctl --no-pager --lines=5 status yut-cam.service || true
if [ "$REBOOT" = 1 ]; then
    echo "Reboot once so the config.txt lines (camera, pin states) take effect: sudo reboot"
fi
