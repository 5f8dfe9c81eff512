"""A test builds a component only to look at it: it is never served."""
from fastmcp.tools.tool import Tool


def test_looks_only():
    def probe() -> str:
        return "probe"

    tool = Tool.from_function(fn=probe, name="probe")
    assert tool.name == "probe"
    assert tool.fn() == "probe"


def test_positional_looks_only():
    def probe2() -> str:
        return "probe"

    tool = Tool.from_function(probe2)
    assert tool.fn() == "probe"
