"""The web lane under pytest (tests/pytest.ini): each script's main() one test."""

import harness


def test_rig_page():
    harness.run_main("rig_page")


def test_abuse_page():
    harness.run_main("abuse_page")


def test_connections_page():
    harness.run_main("connections_page")


def test_lost_rig():
    harness.run_main("lost_rig")


def test_pairing_page():
    harness.run_main("pairing_page")


def test_takes_page():
    harness.run_main("takes_page")


def test_prompter_page():
    harness.run_main("prompter_page")


def test_tally_page():
    harness.run_main("tally_page")
