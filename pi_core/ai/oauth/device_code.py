"""The device-code grant's polling (RFC 8628) with pi's pacing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pi_core.ai.oauth.errors import OAuthError

INITIAL_MULTIPLIER = 1.2
SLOW_DOWN_MULTIPLIER = 1.4


@dataclass(frozen=True)
class DeviceCode:
    """What the device-code endpoint answered: the code to poll with and the one to show."""

    device_code: str
    user_code: str
    verification_uri: str
    interval: float
    expires_in: float

    @classmethod
    def from_response(cls, data: dict[str, Any]) -> DeviceCode:
        """Read the endpoint's JSON answer; missing or mistyped fields raise OAuthError."""
        try:
            return cls(
                str(data["device_code"]),
                str(data["user_code"]),
                str(data["verification_uri"]),
                float(data["interval"]),
                float(data["expires_in"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise OAuthError(f"Invalid device code response: {error}") from error


async def poll_device_code(
    device: DeviceCode,
    poll: Callable[[], Awaitable[dict[str, Any]]],
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    minimum_interval: float = 1.0,
) -> str:
    """Poll until `poll()` returns an access token: wait pi's multiple of the interval, keep on
    `authorization_pending`, slow down on `slow_down`, stop on any other error or at expiry."""
    deadline = time.monotonic() + device.expires_in
    interval = max(minimum_interval, device.interval)
    multiplier = INITIAL_MULTIPLIER
    slowed = False
    while time.monotonic() < deadline:
        await sleep(min(interval * multiplier, max(0.0, deadline - time.monotonic())))
        answer = await poll()
        token = answer.get("access_token")
        if isinstance(token, str):
            return token
        error = answer.get("error")
        if error == "authorization_pending":
            continue
        if error == "slow_down":
            slowed = True
            given = answer.get("interval")
            if isinstance(given, int | float) and given > 0:
                interval = float(given)
            else:
                interval += 5
            multiplier = SLOW_DOWN_MULTIPLIER
            continue
        description = answer.get("error_description")
        suffix = f": {description}" if description else ""
        raise OAuthError(f"Device flow failed: {error}{suffix}")
    if slowed:
        raise OAuthError(
            "Device flow timed out after slow_down responses; a drifting clock (WSL, VMs) is a "
            "common cause"
        )
    raise OAuthError("Device flow timed out")
