"""Shared fixtures: the repository's test data and the command-line tool."""
import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


@pytest.fixture
def data():
    return DATA


def find_cli():
    """The blockfilter tool: $BLOCKFILTER_CLI, a build under build/, or PATH."""
    env = os.environ.get("BLOCKFILTER_CLI")
    if env:
        return env
    for p in sorted((ROOT / "build").glob("*/tools/blockfilter")):
        if os.access(p, os.X_OK):
            return str(p)
    return shutil.which("blockfilter")


@pytest.fixture
def cli():
    path = find_cli()
    if not path:
        if os.environ.get("BFPY_REQUIRE_CLI"):
            pytest.fail("BFPY_REQUIRE_CLI is set but the blockfilter tool was not found")
        pytest.skip("the blockfilter tool is not built (set BLOCKFILTER_CLI)")
    return path
