async def pick_root(session) -> str:
    roots = await session.list_roots()  # want: MCP105
    return str(roots.roots[0].uri)


class Library:
    async def list_roots(self) -> list:
        return []


async def not_a_session(lib: Library) -> list:
    return await lib.list_roots()
