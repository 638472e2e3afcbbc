#!/usr/bin/env bash
# Runs inside the rig VM: see sound_sync.py (takes with sound from snd-aloop, in sync, drift corrected, killed).
# rig-vm-timeout: 600
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/sound_sync.py" --long 60
