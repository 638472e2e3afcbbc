#!/usr/bin/env bash
# Runs inside the rig VM: see gpio_tally.py (gpio-sim, built on the host by
# scripts/gpio-sim-module, which the rig VM lane runs before booting).
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/gpio_tally.py"
