"""A catalog of operations, unrelated to MCP, whose API looks like a server's."""


class Catalog:
    def __init__(self, entries: dict) -> None:
        self.entries = entries

    @classmethod
    def from_openapi(cls, spec: dict) -> "Catalog":
        return cls(dict(spec.get("paths", {})))

    def tool(self):
        def register(fn):
            self.entries[fn.__name__] = fn
            return fn

        return register
