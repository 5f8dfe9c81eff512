import pytest

from ydbish.server import PingServer


@pytest.fixture
def server():
    return PingServer()
