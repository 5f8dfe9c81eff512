from ydbish.server import PingServer


def test_name():
    assert PingServer().name == "ping"


def test_subclass_tool():
    # A test's own subclass registers a handler: its construction is a
    # served site, but in tests/, so the guard still goes beside __main__.py.
    class Custom(PingServer):
        def __init__(self) -> None:
            super().__init__()

            @self.tool()
            async def extra() -> str:
                return "extra"

    assert Custom().name == "ping"
