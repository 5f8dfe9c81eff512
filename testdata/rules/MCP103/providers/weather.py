from fastmcp import FastMCP

weather = FastMCP("weather")


@weather.tool
def forecast(city: str) -> str:  # want: MCP103
    return f"sunny in {city}"


@weather.tool(run_in_thread=False)
def cached_forecast(city: str) -> str:
    return "sunny"
