import asyncio

from langchain_mcp_adapters.client import MultiServerMCPClient
from langgraph.prebuilt import create_react_agent


async def main() -> None:
    client = MultiServerMCPClient({"math": {"command": "python", "args": ["math_server.py"], "transport": "stdio"}})
    tools = await client.get_tools()
    agent = create_react_agent("openai:gpt-4.1", tools)
    print(await agent.ainvoke({"messages": "what is 3 + 5?"}))


asyncio.run(main())
