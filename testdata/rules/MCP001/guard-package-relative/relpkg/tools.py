async def ping() -> str:
    return "pong"
