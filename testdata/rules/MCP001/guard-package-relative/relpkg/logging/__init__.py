def setup() -> None:
    pass
