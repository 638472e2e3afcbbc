#!/usr/bin/env bash
# Runs inside the rig VM: see access_race.py.
set -euo pipefail
exec python3 "$(dirname "$0")/access_race.py"
