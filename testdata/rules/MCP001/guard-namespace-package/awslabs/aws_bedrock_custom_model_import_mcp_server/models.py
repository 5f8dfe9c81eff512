from dataclasses import dataclass


@dataclass
class ImportJob:
    name: str
