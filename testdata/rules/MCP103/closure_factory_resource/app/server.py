import json

from fastmcp import FastMCP

ENUMS = {"colour": {"values": ["red", "blue"]}, "size": {"values": ["s", "m"]}}


def register(server: FastMCP) -> None:
    def _make_handler(data: dict):
        # A closure over data, which it only passes on: what _make_handler
        # returns is the handler, not a wrapper of data.
        def handler() -> str:  # want: MCP103
            return json.dumps(data)

        return handler

    def _make_template(data: dict):
        def template(item: str) -> str:
            return json.dumps(data.get(item))

        return template

    for name, data in ENUMS.items():
        handler = _make_handler(data)
        handler.__name__ = f"enum_{name}"
        # {name} is filled in by the f-string: a static URI, not a template
        server.resource(f"enums://{name}", name=f"enum_{name}")(handler)
        # {{item}} is a literal brace pair: a template, with no injected
        # parameter, so not this rule's
        server.resource(f"enums://{name}/{{item}}")(_make_template(data))


mcp = FastMCP("enums")
register(mcp)
