#!/bin/sh
# Open the yut-cam scoreboard full screen on the Pi's HDMI output.
# Started by the desktop session (labwc/wayfire autostart, see install.sh) as the kiosk
# user; waits until the yut-cam service answers, then runs Chromium in kiosk mode and
# restarts it if it exits.
URL=${YUT_CAM_KIOSK_URL:-http://127.0.0.1:${YUT_CAM_PORT:-8000}/}
WAIT=${YUT_CAM_KIOSK_WAIT:-120}

browser=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
if [ -z "$browser" ]; then
    echo "kiosk.sh: chromium is not installed (apt install chromium)" >&2
    exit 1
fi

# Wait for the service (it starts after the network and the camera).
i=0
until curl -fsS -o /dev/null --max-time 2 "${URL%/}/api/matches" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -ge "$WAIT" ]; then
        echo "kiosk.sh: ${URL} did not answer in ${WAIT} s; opening it anyway" >&2
        break
    fi
    sleep 1
done

profile=${XDG_RUNTIME_DIR:-/tmp}/yut-cam-kiosk
while true; do
    # A fresh profile each start: no "restore pages?" bubble after a power cut.
    rm -rf "$profile"
    "$browser" \
        --kiosk "$URL" \
        --user-data-dir="$profile" \
        --noerrdialogs \
        --disable-infobars \
        --disable-session-crashed-bubble \
        --disable-features=Translate \
        --no-first-run \
        --check-for-update-interval=31536000 \
        --ozone-platform-hint=auto \
        --password-store=basic
    sleep 2
done
