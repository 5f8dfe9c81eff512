"""Tools are described by dataclasses built from dict definitions."""

from dataclasses import dataclass
from typing import Callable

FLAGS = ["internal", "deprecated"]


@dataclass
class Concept:
    title: str = ""
    internal: bool = False

    @classmethod
    def create_from_dict(cls, definition: dict):
        attrs = {}
        for key, value in definition.items():
            if key not in FLAGS:
                attrs[key] = value
        attrs["internal"] = definition.get("internal", False)
        return cls(**attrs)


@dataclass
class Tool(Concept):
    func: Callable = None
    name: str = None
