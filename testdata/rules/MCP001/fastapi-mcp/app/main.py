from fastapi import FastAPI
from fastapi_mcp import FastApiMCP

app = FastAPI()


@app.get("/images/{prompt}", operation_id="generate_image")
async def generate_image(prompt: str) -> dict:
    return {"prompt": prompt}


mcp_server = FastApiMCP(app)
mcp_server.mount_http()
