package rules

import "testing"

func TestMCP105Detection(t *testing.T) {
	files := map[string]string{
		"server.py": `from mcp.server.fastmcp import FastMCP, Context
from mcp.server.session import ServerSession
from helpers import ask

mcp = FastMCP("demo")

@mcp.tool()
async def roots(ctx: Context) -> str:
    r = await ctx.session.list_roots()  # want: MCP105
    answer = await ctx.elicit("sure?", schema=Confirm)  # want: MCP105
    await ask(ctx.session)
    await ctx.info("done")
    return str(r)

@mcp.tool()
async def sample(ctx: Context) -> str:
    s = ctx.request_context.session
    await s.create_message(messages=[], max_tokens=5)  # want: MCP105 (s is the session the line above takes)
    await ctx.request_context.session.create_message(messages=[], max_tokens=5)  # want: MCP105
    await other.list_roots()
    return ""

async def not_a_handler(session: ServerSession):
    await session.list_roots()
`,
		"helpers.py": `async def ask(session):
    return await session.elicit("name?", requestedSchema={})  # want: MCP105
`,
	}
	checkProjectWants(t, "MCP105", files, projectRun(t, mcp105, files))
}
