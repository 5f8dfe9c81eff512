"""Imports every prompt module by name and registers the functions its decorator marked."""

import importlib
import inspect
import os


def register_all_prompts(mcp) -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for file in sorted(os.listdir(here)):
        if not file.endswith(".py") or file in ("__init__.py", "marker.py"):
            continue
        module = importlib.import_module("shop.prompts." + file[:-3])
        for _name, obj in inspect.getmembers(module):
            if inspect.isfunction(obj) and getattr(obj, "_shop_prompt", False):
                mcp.prompt(name=obj._prompt_name)(obj)
