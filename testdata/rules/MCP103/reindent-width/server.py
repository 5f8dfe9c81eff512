# Moving report's body into an inner function would push its longest line
# past the 88 characters black keeps: the fix keeps the def as it is and
# registers an async wrapper after it.
from fastmcp import FastMCP

mcp = FastMCP("reports")


def render(project, title, context, problem, solution, tags, summary):
    return title


@mcp.tool
def report(project: str, title: str, context: str, problem: str) -> str:  # want: MCP103
    """Write a report."""
    status = render(project, title, context, problem, "solution", "tags", "a summary")
    return status


@mcp.tool
def short(project: str) -> str:  # want: MCP103
    """Fits either way."""
    return render(project, "t", "c", "p", "s", "x", "y")


@mcp.tool
def tagged(  # want: MCP103
    project: str,
    tags: list[str] = [],  # noqa: B006
) -> str:
    """A comment among the parameters: the wrapper copies them as written (the
    want comment on the first line too)."""
    status = render(project, "a title", "a context", "a problem", "fix", tags, "sum")
    return status
