import anyio


class Processor:
    async def run(self, data: str) -> str:
        return await self.process(data)

    async def process(self, data: str) -> str:
        return data


class PdfProcessor(Processor):
    async def process(self, data: str) -> str:
        return await anyio.to_thread.run_sync(self._render, data)  # want: MCP101

    def _render(self, data: str) -> str:
        return data.upper()


class FastPdfProcessor(PdfProcessor):
    async def process(self, data: str) -> str:
        return await anyio.to_thread.run_sync(self._render, data, abandon_on_cancel=True)


class Unrelated:
    """Same method name, not a Processor: a handler never runs it."""

    async def process(self, data: str) -> str:
        return await anyio.to_thread.run_sync(str.lower, data)


def get_processor(kind: str) -> Processor:
    return PdfProcessor() if kind == "pdf" else Processor()
