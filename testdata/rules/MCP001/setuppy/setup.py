from setuptools import setup

REQUIRES = [
    "mcp>=1.12,<2",  # want: MCP001
    "httpx",
]

setup(
    name="demo",
    install_requires=REQUIRES,
    extras_require={"cli": ["mcp[cli]<2"]},  # want: MCP001
)
