def shop_prompt(name=None):
    """Mark a function as a prompt; the loader registers it."""

    def mark(fn):
        fn._shop_prompt = True
        fn._prompt_name = name or fn.__name__
        return fn

    return mark
