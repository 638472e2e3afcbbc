"""The OBS lane under pytest (tests/pytest.ini); skipped where OBS Studio cannot run."""

import harness


def test_obs_bridge():
    harness.run_main("obs_bridge")
