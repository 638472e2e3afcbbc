"""The torture lane under pytest (tests/pytest.ini): its short form, each fault point once."""

import harness


def test_torture_short():
    harness.run_main("torture", "--short")
