#!/usr/bin/env python3
"""A 云快充 (YKC) pile scripted from the specification, independent of the
Rust codec: its own frame packing, CRC, BCD and CP56Time2a, standard
library only.

Source: 《充电桩与云快充服务平台交互协议》 V1.6 (江苏云快充新能源科技有限公司,
2020-10-29); V1.5 has the same frames but the parallel-charging ones.

    pile.py selftest
        Checks this pile's CRC and packing on the specification's example
        frames whose CRC is right (login answer, tariff-check answer, start
        confirmation, remote update).

    pile.py run [--version 1.5|1.6] [--pile DIGITS]
        Plays a whole day of a pile over stdin/stdout, as text lines:
          out  "send <hex>"   bytes for the platform (a frame, part of one,
                              several, or garbage: the platform must cope)
          out  "note <json>"  what the pile decoded from the platform
          out  "end"          the script finished and every check held
          in   "recv <hex>"   bytes from the platform
        It logs in, heartbeats, checks and requests its tariff, runs a card
        session (real-time data, the charging-process frames, a transaction
        record priced from the tariff it was given, to the 0.0001 yuan),
        answers a remote start and stop, takes a tariff push and a time sync,
        takes a reboot (and logs in again), tries a parallel start (refused
        by a 1.5 platform), and sends bad frames. Any answer that is not what
        the specification says makes it exit with status 1 and say why.
"""

import datetime
import json
import sys

START = 0x68


def crc16_modbus(data):
    """CRC-16/MODBUS computed bit by bit (not the specification's table)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def frame(seq, frame_type, body, encrypted=0):
    data = seq.to_bytes(2, "little") + bytes([encrypted, frame_type]) + body
    crc = crc16_modbus(data)
    return bytes([START, len(data)]) + data + crc.to_bytes(2, "little")


def bcd(digits, size):
    digits = str(digits).rjust(2 * size, "0")
    if len(digits) != 2 * size or not digits.isdigit():
        raise ValueError(f"{digits!r} is not {2 * size} digits")
    return bytes.fromhex(digits)


def unbcd(data):
    return data.hex().upper()


def le(value, size):
    return int(value).to_bytes(size, "little")


def from_le(data):
    return int.from_bytes(data, "little")


def ascii_field(text, size, reverse=False):
    raw = text.encode("ascii")
    if reverse:
        raw = raw[::-1]
    if len(raw) > size:
        raise ValueError(f"{text!r} is longer than {size}")
    return raw + bytes(size - len(raw))


def card(hex_digits):
    return bytes.fromhex(hex_digits.rjust(16, "0"))


def cp56(at):
    ms = at.second * 1000 + at.microsecond // 1000
    return (ms.to_bytes(2, "little")
            + bytes([at.minute, at.hour, at.day | (at.isoweekday() << 5), at.month, at.year - 2000]))


def from_cp56(data):
    ms = from_le(data[0:2])
    return datetime.datetime(2000 + (data[6] & 0x7F), data[5] & 0x0F, data[4] & 0x1F,
                             data[3] & 0x1F, data[2] & 0x3F, ms // 1000, (ms % 1000) * 1000)


class Fail(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Fail(what)


class StreamParser:
    """Frames out of a byte stream: resynchronises on the start byte and
    drops frames whose CRC is wrong (the platform must never send one)."""

    def __init__(self):
        self.buf = b""

    def push(self, data):
        self.buf += data

    def frames(self):
        out = []
        while True:
            i = self.buf.find(bytes([START]))
            if i < 0:
                self.buf = b""
                return out
            self.buf = self.buf[i:]
            if len(self.buf) < 2:
                return out
            total = self.buf[1] + 4
            if len(self.buf) < total:
                return out
            raw, self.buf = self.buf[:total], self.buf[total:]
            data = raw[2:-2]
            check(crc16_modbus(data) == from_le(raw[-2:]), f"platform frame with a bad CRC: {raw.hex()}")
            check(data[2] == 0, "platform frame marked encrypted")
            out.append((from_le(data[0:2]), data[3], data[4:]))


class Pile:
    def __init__(self, version, pile):
        self.version = version
        self.pile = pile
        self.pile_bcd = bcd(pile, 7)
        self.seq = 0
        self.parser = StreamParser()
        self.pending = []
        self.tariff = None
        self.model = None
        self.clock = datetime.datetime(2026, 3, 16, 9, 58, 0)

    # --- link ---------------------------------------------------------
    def write(self, data):
        print("send " + data.hex(), flush=True)

    def note(self, **fields):
        print("note " + json.dumps(fields, sort_keys=True), flush=True)

    def send(self, frame_type, body):
        seq = self.seq
        self.seq = (self.seq + 1) & 0xFFFF
        self.write(frame(seq, frame_type, body))
        return seq

    def receive(self, expected_type, seq=None):
        """The next platform frame of `expected_type` (answering `seq`, when
        given). Frames of other types stay queued for a later receive: the
        platform's own commands may come between a request and its answer."""
        while True:
            for i, (got_seq, frame_type, body) in enumerate(self.pending):
                if frame_type == expected_type and seq is not None:
                    check(got_seq == seq, f"0x{frame_type:02X} answered sequence {got_seq}, asked {seq}")
                if frame_type == expected_type:
                    del self.pending[i]
                    check(body[0:7] == self.pile_bcd or frame_type == 0x40,
                          f"0x{frame_type:02X} for another pile: {body[0:7].hex()}")
                    return got_seq, body
            line = sys.stdin.readline()
            waiting = ", ".join(f"0x{t:02X}" for _, t, _ in self.pending)
            check(line, f"the platform closed the link while 0x{expected_type:02X} was awaited (queued: {waiting})")
            kind, _, payload = line.strip().partition(" ")
            check(kind == "recv", f"unexpected line {line!r}")
            self.parser.push(bytes.fromhex(payload))
            self.pending.extend(self.parser.frames())

    def finish(self):
        check(not self.pending, "unanswered platform frames: " + ", ".join(f"0x{t:02X}" for _, t, _ in self.pending))

    # --- section 6: login, heartbeat, tariff --------------------------
    def login(self):
        self.seq = 0  # a new connection numbers from 0
        body = (self.pile_bcd + bytes([0, 2, 0x0F if self.version == "1.5" else 0x10])
                + ascii_field("v2.3.4", 8) + bytes([1]) + bcd("89860000000000000001", 10) + bytes([0]))
        seq = self.send(0x01, body)
        _, answer = self.receive(0x02, seq)
        check(answer[7] == 0, f"login refused ({answer[7]})")
        self.note(frame="login answer", accepted=True)

    def heartbeat(self, gun, split=False):
        data = frame(self.seq, 0x03, self.pile_bcd + bcd(gun, 1) + bytes([0]))
        seq = self.seq
        self.seq += 1
        if split:
            self.write(data[:5])
            self.write(data[5:])
        else:
            self.write(data)
        _, answer = self.receive(0x04, seq)
        check(answer[7:9] == bcd(gun, 1) + b"\x00", "heartbeat answer for another gun")

    def read_tariff(self, body):
        rates = [(from_le(body[i:i + 4]), from_le(body[i + 4:i + 8])) for i in range(9, 41, 8)]
        return {"model": unbcd(body[7:9]), "rates": rates, "loss": body[41], "slots": list(body[42:90])}

    def tariff_check(self, expect_same):
        seq = self.send(0x05, self.pile_bcd + (self.model or bcd(0, 2)))
        _, answer = self.receive(0x06, seq)
        check(answer[9] == (0 if expect_same else 1), f"tariff check result {answer[9]}")
        return answer

    def tariff_request(self):
        seq = self.send(0x09, self.pile_bcd)
        _, body = self.receive(0x0A, seq)
        check(len(body) == 90, f"tariff answer of {len(body)} bytes")
        self.tariff = self.read_tariff(body)
        self.model = body[7:9]
        self.note(frame="tariff answer", **self.tariff)

    # --- pricing, as the pile does it --------------------------------
    def price(self, rate):
        electricity, service = self.tariff["rates"][rate]
        return electricity + service  # 0.00001 yuan/kWh

    @staticmethod
    def amount(price, energy):
        """0.00001 yuan/kWh × 0.0001 kWh, in 0.0001 yuan, half up."""
        return (price * energy + 50_000) // 100_000

    def bill(self, segments):
        """segments: (start, energy in 0.0001 kWh) per half-hour slot."""
        lines = {rate: [0, 0] for rate in range(4)}
        for at, energy in segments:
            rate = self.tariff["slots"][at.hour * 2 + at.minute // 30]
            lines[rate][0] += energy
        for rate in range(4):
            lines[rate][1] = self.amount(self.price(rate), lines[rate][0])
        return lines

    # --- section 7 and 8: a session -----------------------------------
    def realtime(self, order, gun, state, energy, amount, minutes, plugged=1):
        body = (order + self.pile_bcd + bcd(gun, 1) + bytes([state, 0, plugged])
                + le(3805 if state == 3 else 0, 2) + le(1250 if state == 3 else 0, 2) + bytes([75])
                + bytes(8) + bytes([62 if state == 3 else 0, 80]) + le(minutes, 2) + le(20, 2)
                + le(energy, 4) + le(energy, 4) + le(amount, 4) + le(0, 2))
        self.send(0x13, body)

    def process_frames(self, order, gun):
        head = order + self.pile_bcd + bcd(gun, 1)
        self.send(0x15, head + bytes([1, 1, 0]) + bytes([3]) + le(1500, 2) + le(3800, 2) + ascii_field("CATL", 4)
                  + bytes(4) + bytes([39, 6, 1]) + le(321, 3) + bytes([1, 0])
                  + ascii_field("LSVAU2180N2183294", 17) + bytes(8))
        self.send(0x17, head + le(420, 2) + le(2500, 2) + le(750, 2) + le(4200, 2) + bytes([105])
                  + le(300, 2) + le(3600, 2) + le(7500, 2) + le(2000, 2) + le(6000, 2) + le(4000, 2))
        self.send(0x23, head + le(3900, 2) + le(2800, 2) + bytes([2]) + le(3805, 2) + le(2750, 2)
                  + le(0x1000 | 395, 2) + bytes([62]) + le(35, 2) + le(3805, 2) + le(2750, 2) + le(25, 2))
        self.send(0x25, head + bytes([12, 80, 3, 70, 9]) + le(0b0100_0000_0000_0000, 2))

    def stop_frames(self, order, gun):
        head = order + self.pile_bcd + bcd(gun, 1)
        self.send(0x19, head + bytes([88]) + le(380, 2) + le(402, 2) + bytes([72, 81]) + le(70, 2) + le(257, 2)
                  + le(7, 4))
        self.send(0x1D, head + bytes([0b01]) + le(0, 2) + bytes([0]))
        self.send(0x21, head + bytes([0b0100]) + le(0, 2) + bytes([0]))
        self.send(0x1B, head + bytes([0, 0, 0, 0, 0, 0, 0b01_0000, 0]))

    def record(self, order, gun, started, ended, lines, meter_start, trade_kind, stop_reason, card_no):
        tiers = b""
        for rate in range(4):
            energy, amount = lines[rate]
            tiers += le(self.price(rate), 4) + le(energy, 4) + le(energy, 4) + le(amount, 4)
        energy = sum(e for e, _ in lines.values())
        amount = sum(a for _, a in lines.values())
        body = (order + self.pile_bcd + bcd(gun, 1) + cp56(started) + cp56(ended) + tiers
                + le(meter_start, 5) + le(meter_start + energy, 5) + le(energy, 4) + le(energy, 4) + le(amount, 4)
                + ascii_field("LSVAU2180N2183294", 17) + bytes([trade_kind]) + cp56(ended) + bytes([stop_reason])
                + card(card_no))
        check(len(body) == 158, f"record of {len(body)} bytes")
        seq = self.send(0x3B, body)
        _, confirm = self.receive(0x40, seq)
        check(confirm[0:16] == order and confirm[16] == 0, f"record not confirmed: {confirm.hex()}")
        self.note(frame="record", energy=energy, amount=amount)

    def card_session(self):
        gun = "01"
        seq = self.send(0x31, self.pile_bcd + bcd(gun, 1) + bytes([1, 0]) + card("D14B0A54") + bytes(16) + bytes(17))
        _, answer = self.receive(0x32, seq)
        check(answer[36] == 1, f"card refused, reason {answer[37]}")
        order = answer[0:16]
        check(order[0:8] == self.pile_bcd + bcd(gun, 1), "order number does not start with pile and gun")
        self.note(frame="start answer", order=unbcd(order), balance=from_le(answer[32:36]),
                  logical_card=unbcd(answer[24:32]))
        t0 = datetime.datetime(2026, 3, 16, 10, 0, 0)
        segments = [(t0, 123_456), (t0 + datetime.timedelta(minutes=30), 100_001),
                    (t0 + datetime.timedelta(minutes=60), 33_333)]
        self.process_frames(order, gun)
        lines = self.bill(segments)
        energy = amount = 0
        for i, (at, e) in enumerate(segments):
            energy += e
            partial = self.bill(segments[:i + 1])
            amount = sum(a for _, a in partial.values())
            self.realtime(order, gun, 3, energy, amount, 30 * (i + 1))
        self.stop_frames(order, gun)
        self.realtime(order, gun, 2, 0, 0, 0)
        self.record(order, gun, t0, t0 + datetime.timedelta(minutes=70), lines, 123_456_789_012, 0x02, 0x45,
                    "D14B0A54")

    def remote_session(self):
        seq, start = self.receive(0x34)
        order, gun = start[0:16], unbcd(start[23:24])
        self.note(frame="remote start", order=unbcd(order), gun=gun, logical_card=unbcd(start[24:32]),
                  physical_card=start[32:40].hex().upper(), balance=from_le(start[40:44]))
        self.write(frame(seq, 0x33, order + self.pile_bcd + bcd(gun, 1) + bytes([1, 0])))
        t0 = datetime.datetime(2026, 3, 16, 23, 0, 0)
        self.realtime(order, gun, 3, 50_000, 0, 5)
        seq, stop = self.receive(0x36)
        check(stop[7:8] == bcd(gun, 1), "remote stop for another gun")
        self.write(frame(seq, 0x35, self.pile_bcd + bcd(gun, 1) + bytes([1, 0])))
        self.note(frame="remote stop", gun=gun)
        lines = self.bill([(t0, 50_000)])
        self.record(order, gun, t0, t0 + datetime.timedelta(minutes=6), lines, 123_456_789_012 + 256_790, 0x01,
                    0x40, "D14B0A54")

    # --- section 9 and 11: settings and maintenance -------------------
    def tariff_push(self):
        seq, body = self.receive(0x58)
        check(len(body) == 90, f"tariff push of {len(body)} bytes")
        self.tariff = self.read_tariff(body)
        self.model = body[7:9]
        self.write(frame(seq, 0x57, self.pile_bcd + bytes([1])))
        self.note(frame="tariff push", **self.tariff)
        self.tariff_check(expect_same=True)

    def time_sync(self):
        seq, body = self.receive(0x56)
        at = from_cp56(body[7:14])
        self.write(frame(seq, 0x55, self.pile_bcd + cp56(at)))
        self.note(frame="time sync", time=at.isoformat())

    def reboot(self):
        seq, body = self.receive(0x92)
        self.write(frame(seq, 0x91, self.pile_bcd + bytes([1])))
        self.note(frame="reboot", when=body[7])
        self.login()

    # --- section 12: parallel charging (1.6) --------------------------
    def parallel_start(self):
        body = (self.pile_bcd + bcd("02", 1) + bytes([3, 0]) + bytes(8) + bytes(16)
                + ascii_field("LSVAU2180N2183294", 17, reverse=True) + bytes([0]) + bcd("260316101500", 6))
        seq = self.send(0xA1, body)
        if self.version == "1.6":
            _, answer = self.receive(0xA2, seq)
            check(answer[38:44] == bcd("260316101500", 6), "parallel number not echoed")
            self.note(frame="parallel start answer", authorised=answer[36])

    # --- bad frames ---------------------------------------------------
    def bad_frames(self):
        hb = frame(self.seq, 0x03, self.pile_bcd + bcd("01", 1) + bytes([0]))
        corrupt = bytearray(hb)
        corrupt[8] ^= 0x01
        self.write(b"\x00\x13\x37")                     # line noise
        self.write(bytes(corrupt))                      # bad CRC
        self.write(bytes([START, 0x02]))                # impossible length
        self.write(frame(self.seq, 0x07, b"\x01\x02"))  # a type the protocol does not have
        self.write(frame(self.seq, 0x03, self.pile_bcd + bcd("01", 1)))  # a heartbeat one byte short
        # Two good frames in one write, then a heartbeat split in two writes.
        a = frame(self.seq + 1, 0x03, self.pile_bcd + bcd("01", 1) + bytes([0]))
        b = frame(self.seq + 2, 0x03, self.pile_bcd + bcd("02", 1) + bytes([1]))
        self.write(a + b)
        self.seq += 3
        self.receive(0x04, self.seq - 2)
        self.receive(0x04, self.seq - 1)
        self.heartbeat("01", split=True)

    def run(self):
        self.login()
        self.heartbeat("01")
        self.heartbeat("02")
        self.tariff_check(expect_same=False)
        self.tariff_request()
        self.card_session()
        self.remote_session()
        self.tariff_push()
        self.time_sync()
        self.reboot()
        self.parallel_start()
        self.bad_frames()
        self.finish()
        print("end", flush=True)


SELFTEST = [
    # Specification examples whose CRC is right: 6.2, 6.6, 8.2, 11.3.
    "68 0C 0000 00 02 55031412782305 00 DA4C",
    "68 0E CE04 00 06 55031412782305 0000 00 8E2F",
    "68 2A 0004 00 32 32010200000001012018061219595785 32010200000001 01 0000000000000000 00000000 00 01 E829",
    "68 62 0026 00 94 55031412782305 01 0F00 3131342E35352E3131342E3137340000 1500"
    " 73720000000000000000000000000000 73723132330000000000000000000000"
    " 41432D374B572F32303138303133310000000000000000000000000000000000 02 3C 7A2C",
]


def selftest():
    for text in SELFTEST:
        raw = bytes.fromhex(text.replace(" ", ""))
        check(raw[1] == len(raw) - 4, f"length byte of {text}")
        rebuilt = frame(from_le(raw[2:4]), raw[5], raw[6:-2])
        check(rebuilt == raw, f"packing or CRC differs: {rebuilt.hex()} vs {raw.hex()}")
    check(crc16_modbus(b"123456789") == 0x4B37, "CRC-16/MODBUS check value")
    # The specification's example time, 2020-03-16 17:14:47 (a Monday: day of
    # week 1 in the top three bits of the day byte, which the example leaves 0).
    at = datetime.datetime(2020, 3, 16, 17, 14, 47)
    check(from_cp56(bytes.fromhex("98B70E11100314")) == at, "CP56Time2a example of the specification")
    check(cp56(at) == bytes.fromhex("98B70E11300314"), "CP56Time2a packing")
    print("selftest ok")


def main(argv):
    if argv[1:2] == ["selftest"]:
        selftest()
        return 0
    if argv[1:2] != ["run"]:
        print(__doc__, file=sys.stderr)
        return 2
    args = dict(zip(argv[2::2], argv[3::2]))
    pile = Pile(args.get("--version", "1.6"), args.get("--pile", "32010600019236"))
    try:
        pile.run()
    except Fail as e:
        print(f"pile: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
