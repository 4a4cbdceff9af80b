#!/usr/bin/env python3
"""A 云快充 (YKC) 1.6 pile over TCP for the end-to-end tests, built on the
specification's primitives of tests/ykc/pile.py (frame, bcd, cp56, card,
its pricing and its frames), standard library only.

    ykc_pile.py HOST PORT PILE_NUMBER CARD [--version 1.5|1.6]

It logs in (and answers the platform's time sync), heartbeats both guns,
checks and asks its tariff, starts a card session on gun 1 (0x31), sends
real-time data a few seconds apart (the order's curve) with the
charging-process frames, ends it and sends the transaction record priced
from the tariff it was given; then it stays online, heartbeating, until it
is killed, taking tariff pushes and parking lock commands. It prints what it sends ("send HEX"), "order DIGITS" once the
platform numbered the session, "record HEX" (the record frame) and
"session done AMOUNT" (in 0.0001 yuan) once the record was confirmed; any
answer that is not what the specification says ends it with status 1.
"""

import datetime
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ykc"))

import pile as spec  # noqa: E402  (tests/ykc/pile.py)

CHINA = datetime.timezone(datetime.timedelta(hours=8))


class SocketLines:
    """What the pile reads as its platform's lines ("recv HEX"), from the socket."""

    def __init__(self, sock):
        self.sock = sock

    def readline(self):
        data = self.sock.recv(4096)
        return f"recv {data.hex()}\n" if data else ""


class TcpPile(spec.Pile):
    def __init__(self, sock, version, number):
        super().__init__(version, number)
        self.sock = sock

    def write(self, data):
        self.sock.sendall(data)
        print("send " + data.hex().upper(), flush=True)

    def card_session(self, card_no, gun="01"):
        """A card at the pile, a session priced from the tariff, its record."""
        seq = self.send(0x31, self.pile_bcd + spec.bcd(gun, 1) + bytes([1, 0]) + spec.card(card_no) + bytes(16) + bytes(17))
        _, answer = self.receive(0x32, seq)
        spec.check(answer[36] == 1, f"card refused, reason {answer[37]}")
        order = answer[0:16]
        print("order " + spec.unbcd(order), flush=True)
        now = datetime.datetime.now(CHINA).replace(tzinfo=None, microsecond=0)
        t0 = now - datetime.timedelta(minutes=50)
        segments = [(t0, 123_456), (t0 + datetime.timedelta(minutes=20), 100_001), (t0 + datetime.timedelta(minutes=40), 33_333)]
        self.process_frames(order, gun)
        energy = 0
        for i, (_, e) in enumerate(segments):
            energy += e
            partial = self.bill(segments[:i + 1])
            self.realtime(order, gun, 3, energy, sum(a for _, a in partial.values()), 20 * (i + 1))
            # The platform stamps each reading when it arrives: apart, they draw a curve.
            time.sleep(1.5)
        self.stop_frames(order, gun)
        self.realtime(order, gun, 2, 0, 0, 0)
        lines = self.bill(segments)
        tiers = b""
        for rate in range(4):
            e, a = lines[rate]
            tiers += spec.le(self.price(rate), 4) + spec.le(e, 4) + spec.le(e, 4) + spec.le(a, 4)
        total_e = sum(e for e, _ in lines.values())
        amount = sum(a for _, a in lines.values())
        meter = 123_456_789_012
        ended = now
        body = (order + self.pile_bcd + spec.bcd(gun, 1) + spec.cp56(t0) + spec.cp56(ended) + tiers
                + spec.le(meter, 5) + spec.le(meter + total_e, 5) + spec.le(total_e, 4) + spec.le(total_e, 4)
                + spec.le(amount, 4) + spec.ascii_field("LSVAU2180N2183294", 17) + bytes([0x02]) + spec.cp56(ended)
                + bytes([0x45]) + spec.card(card_no))
        spec.check(len(body) == 158, f"record of {len(body)} bytes")
        print("record " + spec.frame(self.seq, 0x3B, body).hex().upper(), flush=True)
        seq = self.send(0x3B, body)
        _, confirm = self.receive(0x40, seq)
        spec.check(confirm[0:16] == order and confirm[16] == 0, f"record not confirmed: {confirm.hex()}")
        print(f"session done {amount}", flush=True)


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    host, port, number, card_no = argv[1], int(argv[2]), argv[3], argv[4]
    args = dict(zip(argv[5::2], argv[6::2]))
    sock = socket.create_connection((host, port), timeout=20)
    sys.stdin = SocketLines(sock)
    p = TcpPile(sock, args.get("--version", "1.6"), number)
    try:
        p.login()
        p.time_sync()
        p.heartbeat("01")
        p.heartbeat("02")
        p.tariff_check(expect_same=False)
        p.tariff_request()
        p.card_session(card_no)
        p.finish()
        print("online", flush=True)
        while True:
            time.sleep(2)
            p.heartbeat("01")
            # A tariff the operator saved comes as a model set (0x58): take it
            # (0x57), then check that it is the platform's model now.
            if any(frame_type == 0x58 for _, frame_type, _ in p.pending):
                p.tariff_push()
                print("tariff taken " + p.model.hex(), flush=True)
            # A parking lock command (0x62: pile 7, gun 1 BIN, 0x55 raise or
            # 0xFF lower, 4 reserved) is done and answered (0x63, 0x01 done).
            if any(frame_type == 0x62 for _, frame_type, _ in p.pending):
                seq, body = p.receive(0x62)
                spec.check(len(body) == 13, f"parking lock command of {len(body)} bytes")
                p.write(spec.frame(seq, 0x63, p.pile_bcd + body[7:8] + bytes([1]) + bytes(4)))
                print(f"parking lock {'raised' if body[8] == 0x55 else 'lowered'} on gun {body[7]}", flush=True)
    except spec.Fail as e:
        print(f"pile: {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
