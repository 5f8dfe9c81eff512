def fetch(city: str) -> str:
    return city + ": sunny"
