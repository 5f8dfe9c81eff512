def lookup(key: str) -> str:
    return key
