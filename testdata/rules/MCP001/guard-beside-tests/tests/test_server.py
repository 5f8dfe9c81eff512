from ydbish.server import PingServer


def test_name():
    assert PingServer().name == "ping"
