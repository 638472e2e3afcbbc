#!/usr/bin/env bash
# Runs inside the rig VM: see hotplug.py.
set -euo pipefail
exec python3 "$(dirname "$0")/hotplug.py"
