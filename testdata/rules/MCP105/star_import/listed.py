__all__ = ["public_roots"]


async def public_roots(ctx) -> list[str]:
    return []


# Not in __all__: the tools keep runtime's other_roots.
async def other_roots(ctx) -> list[str]:
    roots = await ctx.session.list_roots()
    return [str(r.uri) for r in roots.roots]
