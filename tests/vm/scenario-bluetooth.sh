#!/usr/bin/env bash
# Scenario: a real Bluetooth headset's clicks, holds and reconnects, through
# BlueZ's bluetoothd, reach `slate run` (tests/vm/bluetooth.py says what is checked).
# rig-vm-timeout: 400
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/bluetooth.py"
