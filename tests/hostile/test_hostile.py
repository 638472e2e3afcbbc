"""A rig whose peers turn hostile under pytest (tests/pytest.ini), as the rigs lane runs it."""

import harness


def test_hostile_peers():
    harness.run_main("hostile_peers")
