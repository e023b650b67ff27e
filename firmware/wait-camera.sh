#!/bin/sh
# Wait (at most $1 seconds, default 30) until libcamera can see a camera. Never fails: the
# service starts without a camera too (manual entry of throws), this only avoids starting
# a few seconds before the sensor has been probed.
limit=${1:-30}
i=0
while [ "$i" -lt "$limit" ]; do
    if command -v rpicam-hello >/dev/null 2>&1; then
        if rpicam-hello --list-cameras 2>/dev/null | grep -q '^[0-9] : '; then
            exit 0
        fi
    elif ls /dev/media* >/dev/null 2>&1; then
        exit 0
    fi
    i=$((i + 1))
    sleep 1
done
echo "yut-cam: no camera found after ${limit} s; starting without it" >&2
exit 0
