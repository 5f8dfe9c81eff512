class Store:
    async def write(self, doc: str) -> str:
        return doc


db = Store()
