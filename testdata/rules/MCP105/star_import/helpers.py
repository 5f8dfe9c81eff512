# No __all__: "from helpers import *" leaves the underscore names out, so the
# tools keep runtime's _cached_roots.


async def _cached_roots(ctx) -> list[str]:
    roots = await ctx.session.list_roots()
    return [str(r.uri) for r in roots.roots]
