#!/usr/bin/env python3
"""Prints a free loopback TCP port for a test server (or, imported,
`free_port()` gives one)."""
import random
import socket
from pathlib import Path


# The lowest port picked: browsers and fetch refuse some ports below it
# (10080 among them), and a test server must be reachable from both.
LOWEST = 20000


def ephemeral_range_start():
    """Where the kernel's ephemeral ports begin (32768 on Linux by default)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port():
    """A free loopback port below the kernel's ephemeral range. A port from
    that range (what binding port 0 gives) is also handed to outgoing
    connections, and the tests open thousands, so one picked there can be
    taken before the gateway binds it; below it only another test's pick
    can collide, one chance in thousands within the moment of a start."""
    start = ephemeral_range_start()
    for _ in range(1000):
        port = random.randrange(LOWEST, start) if start > LOWEST + 2000 else 0
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free loopback port")


if __name__ == "__main__":
    print(free_port())
