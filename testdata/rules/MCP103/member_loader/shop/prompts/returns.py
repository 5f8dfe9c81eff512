from shop.prompts.marker import shop_prompt


@shop_prompt(name="start_return")
def start_return(order_id: str) -> str:  # want: MCP103
    return f"Start a return for order {order_id}."


@shop_prompt()
async def track_return(order_id: str) -> str:
    return f"Track the return of {order_id}."


def _format(order_id: str) -> str:
    """A helper the loader skips: nothing marks it."""
    return order_id.upper()
