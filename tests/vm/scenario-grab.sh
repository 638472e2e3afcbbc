#!/usr/bin/env bash
# Runs inside the rig VM: see grab.py.
set -euo pipefail
exec python3 "$(dirname "$0")/grab.py"
