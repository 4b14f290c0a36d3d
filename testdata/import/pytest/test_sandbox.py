"""Tests that sandtrap's import tests run with pytest --junitxml: one of each
outcome, and one that prints to both streams."""

import sys

import pytest


@pytest.fixture(scope="session", autouse=True)
def campaign(record_testsuite_property):
    record_testsuite_property("target", "code-interpreter")


@pytest.fixture
def sandbox():
    raise ConnectionError("sandbox did not start")


def test_writes_a_file():
    assert 1 + 1 == 2


def test_prints():
    print("h\u00e9llo from stdout")
    print("warning on stderr", file=sys.stderr)


def test_reads_back():
    assert "h\u00e9llo" == "hello", "round trip changed the text"


def test_needs_a_sandbox(sandbox):
    pass


@pytest.mark.skip(reason="no GPU here")
def test_trains_a_model():
    pass
