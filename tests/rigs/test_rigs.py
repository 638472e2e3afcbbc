"""Three rigs on one broker under pytest (tests/pytest.ini), as the rigs lane runs it; skipped unless root."""

import harness


def test_three_rigs():
    harness.run_main("three_rigs")
