"""A custom decorator that only collects functions."""

REGISTRY = []
PROMPTS = {}


def logged_tool(name=None):
    def deco(fn):
        REGISTRY.append(fn)
        return fn

    return deco


def logged_prompt(fn):
    PROMPTS[fn.__name__] = fn
    return fn
