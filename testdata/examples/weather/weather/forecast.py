"""Forecast computation (blocking code run in worker threads)."""

import time


def load_forecast(city: str) -> dict:
    time.sleep(2)  # stands in for a slow model
    return {"city": city, "days": []}


def render_chart(data: dict) -> bytes:
    return repr(data).encode()
