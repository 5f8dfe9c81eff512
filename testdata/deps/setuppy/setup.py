from setuptools import setup

DEPS = ["mcp>=1.12,<2", f"httpx>={1}", "esc\x61ped"]

setup(
    name="demo",
    install_requires=DEPS,
    extras_require={"fast": ("fastmcp==3.1.0",), "other": open("x").read()},
)
