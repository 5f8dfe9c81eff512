from enum import StrEnum


class ToolName(StrEnum):
    ASK = "ask"
    PING = "ping"

    @classmethod
    def enabled(cls) -> list["ToolName"]:
        return [cls.ASK, cls.PING]
