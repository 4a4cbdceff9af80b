"""A 云快充 (YKC) pile over a real TCP socket, for the gateway tests.

The frame packing, CRC, BCD, CP56Time2a and the stream parser are the ones
of `tests/ykc/pile.py` (the independent pile written from the
specification V1.6), imported from there; this module gives it a socket,
a reader thread, and the frames a test needs with their fields as
arguments. Offsets and sizes follow the specification's tables.
"""
import datetime
import importlib.util
import socket
import threading
import time
from pathlib import Path

_SPEC_PILE = Path(__file__).resolve().parents[1] / "ykc" / "pile.py"
_loader = importlib.util.spec_from_file_location("ykc_spec_pile", _SPEC_PILE)
spec = importlib.util.module_from_spec(_loader)
_loader.loader.exec_module(spec)

frame, bcd, unbcd, le, from_le = spec.frame, spec.bcd, spec.unbcd, spec.le, spec.from_le
cp56, from_cp56, card, ascii_field = spec.cp56, spec.from_cp56, spec.card, spec.ascii_field

VERSION_BYTE = {"1.5": 0x0F, "1.6": 0x10}
BJ = 8 * 3600  # the piles' clocks are Beijing time (UTC+8)
ZERO_ORDER = bytes(16)
# 时段费率号: 0x00 尖, 0x01 峰, 0x02 平, 0x03 谷
RATE_OF_TIER = {"sharp": 0, "peak": 1, "flat": 2, "valley": 3}
TIER_OF_RATE = {v: k for k, v in RATE_OF_TIER.items()}


def bj(ts):
    """Unix seconds as the pile's local (Beijing) wall-clock time."""
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=int(ts) + BJ)


def unix(local):
    """The pile's local (Beijing) wall-clock time as unix seconds."""
    return int((local - datetime.datetime(1970, 1, 1)).total_seconds()) - BJ


class YkcPile(spec.Pile):
    """One pile's connection. Frames from the platform are parsed by a
    reader thread and queued; time syncs (0x56) and tariff pushes (0x58)
    are answered at once (and kept in `time_syncs` / `tariff_sets`) unless
    told otherwise. Every frame received is also kept in `received`."""

    def __init__(self, port, number, version="1.6", host="127.0.0.1", auto=(0x56, 0x58), ssl_context=None):
        super().__init__(version, number)
        self.auto = set(auto)
        deadline = time.time() + 10
        while True:
            try:
                self.sock = socket.create_connection((host, port), timeout=5)
                if ssl_context is not None:
                    self.sock = ssl_context.wrap_socket(self.sock, server_hostname=host)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.sock.settimeout(None)
        self.cond = threading.Condition()
        self.send_lock = threading.Lock()
        self.received, self.time_syncs, self.tariff_sets, self.sent, self.checked_models = [], [], [], [], []
        self.closed = False
        self.error = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    # --- transport ----------------------------------------------------
    def _read(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                with self.cond:
                    self.closed = True
                    self.cond.notify_all()
                return
            with self.cond:
                self.parser.push(data)
                try:
                    frames = self.parser.frames()
                except spec.Fail as e:
                    self.error = str(e)
                    frames = []
                for seq, frame_type, body in frames:
                    self.received.append((seq, frame_type, body))
                    if frame_type == 0x56 and 0x56 in self.auto:
                        self.time_syncs.append(from_cp56(body[7:14]))
                        self._write(frame(seq, 0x55, self.pile_bcd + body[7:14]))
                    elif frame_type == 0x58 and 0x58 in self.auto:
                        self.tariff_sets.append(self.read_tariff(body))
                        self._write(frame(seq, 0x57, self.pile_bcd + bytes([1])))
                    else:
                        self.pending.append((seq, frame_type, body))
                self.cond.notify_all()

    def _write(self, data):
        with self.send_lock:
            self.sent.append(data)
            try:
                self.sock.sendall(data)
            except OSError:
                pass

    def write(self, data):
        self._write(data)

    def note(self, **fields):
        pass

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def receive(self, expected_type, seq=None, timeout=5.0):
        """The next platform frame of `expected_type` (answering `seq` when
        given): (seq, body). Other frames stay queued."""
        deadline = time.time() + timeout
        with self.cond:
            while True:
                assert self.error is None, self.error
                for i, (got_seq, frame_type, body) in enumerate(self.pending):
                    if frame_type != expected_type:
                        continue
                    if seq is not None:
                        assert got_seq == seq, f"0x{frame_type:02X} answered sequence {got_seq}, asked {seq}"
                    del self.pending[i]
                    # The pile number is the first field, but after the order number in 0x32 and 0x34 (and 0x40 has none).
                    at = 16 if frame_type in (0x32, 0x34) else 0
                    assert frame_type == 0x40 or body[at:at + 7] == self.pile_bcd, f"0x{frame_type:02X} for another pile: {body.hex()}"
                    return got_seq, body
                waiting = ", ".join(f"0x{t:02X}" for _, t, _ in self.pending)
                assert not self.closed, f"the platform closed the link while 0x{expected_type:02X} was awaited (queued: {waiting})"
                left = deadline - time.time()
                assert left > 0, f"no 0x{expected_type:02X} within {timeout} s (queued: {waiting})"
                self.cond.wait(left)

    def types_received(self):
        with self.cond:
            return [t for _, t, _ in self.received]

    def wait_closed(self, timeout=5.0):
        deadline = time.time() + timeout
        with self.cond:
            while not self.closed:
                left = deadline - time.time()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True

    def wait_for(self, what, timeout=5.0):
        """Waits until `what()` (called under the lock) is true."""
        deadline = time.time() + timeout
        with self.cond:
            while not what():
                left = deadline - time.time()
                assert left > 0, f"timed out after {timeout} s"
                self.cond.wait(left)

    # --- 6: login, heartbeat, tariff ----------------------------------
    def login_body(self, version_byte=None):
        # 桩编码 7, 桩类型 1 (0 直流), 充电枪数量 1, 通信协议版本 1, 程序版本 8 ASCII,
        # 网络链接类型 1, SIM 卡 10 BCD, 运营商 1
        vb = VERSION_BYTE[self.version] if version_byte is None else version_byte
        return (self.pile_bcd + bytes([0, 2, vb]) + ascii_field("v2.3.4", 8) + bytes([1])
                + bcd("89860000000000000001", 10) + bytes([0]))

    def login_result(self, version_byte=None):
        """Sends 0x01 and returns the 0x02 result byte (0 accepted)."""
        self.seq = 0
        seq = self.send(0x01, self.login_body(version_byte))
        _, answer = self.receive(0x02, seq)
        assert len(answer) == 8, f"login answer of {len(answer)} bytes"
        return answer[7]

    def log_in(self):
        result = self.login_result()
        assert result == 0, f"login refused ({result})"
        return self

    def tariff_check_result(self, model):
        """0x05 with `model`; returns the 0x06 result (0 the same model)."""
        seq = self.send(0x05, self.pile_bcd + model)
        _, answer = self.receive(0x06, seq)
        assert len(answer) == 10, f"tariff check answer {answer.hex()}"
        self.checked_models.append(answer[7:9])
        return answer[9]

    # --- 7: real-time data --------------------------------------------
    def realtime_body(self, order, gun, state, energy=0, amount=0, minutes=0, volts=0, amps=0, soc=0, plugged=1,
                      fault=0):
        """0x13's 60 bytes: state 0 离线 1 故障 2 空闲 3 充电; volts and amps
        in 0.1, energy in 0.0001 kWh, amount in 0.0001 yuan."""
        body = (order + self.pile_bcd + bcd(gun, 1) + bytes([state, 0, plugged]) + le(volts, 2) + le(amps, 2)
                + bytes([30]) + bytes(8) + bytes([soc, 35]) + le(minutes, 2) + le(20, 2) + le(energy, 4)
                + le(energy, 4) + le(amount, 4) + le(fault, 2))
        assert len(body) == 60
        return body

    def realtime(self, order, gun, state, **fields):
        """Sends 0x13 of its own accord (the pile's next sequence number)."""
        self.send(0x13, self.realtime_body(order, gun, state, **fields))

    def answer_read_realtime(self, order, state, own_number=False, timeout=5.0, **fields):
        """0x12 读取实时监测数据: 桩编码 7, 枪号 1. The pile answers with 0x13
        上传实时监测数据 of that gun, under the request's sequence number or
        (`own_number`) its own, as it sends the periodic ones. Returns the gun."""
        seq, body = self.receive(0x12, timeout=timeout)
        assert len(body) == 8, f"real-time data request of {len(body)} bytes"
        gun = unbcd(body[7:8])
        answer = self.realtime_body(order, gun, state, **fields)
        if own_number:
            self.send(0x13, answer)
        else:
            self.write(frame(seq, 0x13, answer))
        return gun

    # --- 8: sessions --------------------------------------------------
    def card_start(self, card_hex, gun="01"):
        """0x31 with a physical card; returns the 0x32 answer's fields."""
        seq = self.send(0x31, self.pile_bcd + bcd(gun, 1) + bytes([1, 0]) + card(card_hex) + bytes(16) + bytes(17))
        _, a = self.receive(0x32, seq)
        assert len(a) == 38, f"start answer of {len(a)} bytes"
        return {"order": a[0:16], "gun": unbcd(a[23:24]), "logical_card": unbcd(a[24:32]),
                "balance": from_le(a[32:36]), "authorised": a[36], "reason": a[37]}

    def record_body(self, order, gun, started, ended, tiers, meter_start, trade_kind, stop_reason, card_hex,
                    prices=None, total_amount=None):
        """0x3B's 158 bytes. `tiers`: {rate: (energy 0.0001 kWh, amount 0.0001 yuan)};
        prices (0.00001 yuan/kWh) per rate default to the tariff this pile was given."""
        out = b""
        for rate in range(4):
            energy, amount = tiers.get(rate, (0, 0))
            price = prices[rate] if prices else (self.price(rate) if self.tariff else 0)
            out += le(price, 4) + le(energy, 4) + le(energy, 4) + le(amount, 4)
        energy = sum(e for e, _ in tiers.values())
        amount = sum(a for _, a in tiers.values()) if total_amount is None else total_amount
        body = (order + self.pile_bcd + bcd(gun, 1) + cp56(started) + cp56(ended) + out
                + le(meter_start, 5) + le(meter_start + energy, 5) + le(energy, 4) + le(energy, 4) + le(amount, 4)
                + ascii_field("LSVAU2180N2183294", 17) + bytes([trade_kind]) + cp56(ended) + bytes([stop_reason])
                + card(card_hex))
        assert len(body) == 158
        return body

    def send_record(self, body):
        """Sends a 0x3B and returns its 0x40 (order number, result)."""
        seq = self.send(0x3B, body)
        _, confirm = self.receive(0x40, seq)
        assert len(confirm) == 17, f"record confirmation of {len(confirm)} bytes"
        return confirm[0:16], confirm[16]

    def tier_amounts(self, energies):
        """{rate: energy} priced as the pile does with the tariff it was given."""
        return {rate: (e, self.amount(self.price(rate), e)) for rate, e in energies.items()}

    # --- answers to the platform's commands ---------------------------
    def answer_remote_start(self, result=1, reason=0, timeout=5.0):
        seq, body = self.receive(0x34, timeout=timeout)
        assert len(body) == 44, f"remote start of {len(body)} bytes"
        self.write(frame(seq, 0x33, body[0:16] + self.pile_bcd + body[23:24] + bytes([result, reason])))
        return {"order": body[0:16], "gun": unbcd(body[23:24]), "logical_card": unbcd(body[24:32]),
                "physical_card": body[32:40].hex().upper(), "balance": from_le(body[40:44])}

    def answer_remote_stop(self, result=1, reason=0, timeout=5.0):
        seq, body = self.receive(0x36, timeout=timeout)
        assert len(body) == 8, f"remote stop of {len(body)} bytes"
        self.write(frame(seq, 0x35, self.pile_bcd + body[7:8] + bytes([result, reason])))
        return unbcd(body[7:8])

    def answer_reboot(self, result=1, timeout=5.0):
        seq, body = self.receive(0x92, timeout=timeout)
        assert len(body) == 8, f"reboot of {len(body)} bytes"
        self.write(frame(seq, 0x91, self.pile_bcd + bytes([result])))
        return body[7]

    def answer_work_params(self, result=1, timeout=5.0):
        """0x52 充电桩工作参数设置: 桩编码 7, 是否允许工作 1 (0x00 允许, 0x01
        禁止), 充电桩最大允许输出功率 1 (%). Answered by 0x51: 桩编码 7,
        设置结果 1 (0x00 失败, 0x01 成功). Returns (allowed, percent)."""
        seq, body = self.receive(0x52, timeout=timeout)
        assert len(body) == 9, f"work parameters of {len(body)} bytes"
        self.write(frame(seq, 0x51, self.pile_bcd + bytes([result])))
        return body[7] == 0x00, body[8]

    def answer_update(self, status=0, timeout=5.0):
        """0x94 远程更新: 桩编码 7, 桩型号 1, 桩功率 2, 升级服务器地址 16,
        升级服务器端口 2, 用户名 16, 密码 16, 文件路径 32, 执行控制 1,
        下载超时时间 1 (94 bytes). Answered by 0x93: 桩编码 7, 升级状态 1
        (0x00 成功, 0x01 编号错误, 0x02 程序与桩型号不符, 0x03 下载更新文件超时)."""
        seq, body = self.receive(0x94, timeout=timeout)
        assert len(body) == 94, f"remote update of {len(body)} bytes"
        text = lambda b: b.rstrip(b"\x00").decode("ascii")
        self.write(frame(seq, 0x93, self.pile_bcd + bytes([status])))
        return {"model": body[7], "power": from_le(body[8:10]), "server": text(body[10:26]), "port": from_le(body[26:28]),
                "user": text(body[28:44]), "password": text(body[44:60]), "path": text(body[60:92]),
                "when": body[92], "timeout": body[93]}

    def answer_offline_card_sync(self, saved=1, reason=0, timeout=5.0):
        """0x44 离线卡数据同步: 桩编码 7, 下发卡个数 1, then per card 第N个卡逻辑卡号
        8 (BCD) and 第N个卡物理卡号 8. Answered by 0x43: 桩编码 7, 保存结果 1
        (0x00 失败, 0x01 成功), 失败原因 1. Returns [(logical, physical hex)]."""
        seq, body = self.receive(0x44, timeout=timeout)
        count = body[7]
        assert len(body) == 8 + 16 * count, f"{count} cards in {len(body)} bytes"
        cards = [(unbcd(body[8 + 16 * i:16 + 16 * i]), body[16 + 16 * i:24 + 16 * i].hex().upper()) for i in range(count)]
        self.write(frame(seq, 0x43, self.pile_bcd + bytes([saved, reason])))
        return cards

    def answer_offline_card_query(self, held, timeout=5.0):
        """0x48 离线卡数据查询: 桩编码 7, 查询卡个数 1, then 第N个卡物理卡号 8.
        Answered by 0x47 离线卡数据查询应答: 桩编码 7, then per card 物理卡号 8
        and 查询结果 1 (0x00 不存在, 0x01 存在). `held`: the cards (hex) this
        pile holds. Returns the cards asked about."""
        seq, body = self.receive(0x48, timeout=timeout)
        count = body[7]
        assert len(body) == 8 + 8 * count, f"{count} cards in {len(body)} bytes"
        asked = [body[8 + 8 * i:16 + 8 * i] for i in range(count)]
        held = {h.zfill(16).upper() for h in held}
        self.write(frame(seq, 0x47, self.pile_bcd + b"".join(c + bytes([c.hex().upper() in held]) for c in asked)))
        return [c.hex().upper() for c in asked]

    def answer_balance_update(self, result=0, timeout=5.0):
        """0x42 远程账户余额更新: 桩编码 7, 枪号 1, 物理卡号 8, 修改后账户金额 4
        (two decimals, fen). Answered by 0x41: 桩编码 7, 物理卡号 8, 修改结果 1
        (0x00 修改成功, 0x01 设备编号错误, 0x02 卡号错误). Returns what it was told."""
        seq, body = self.receive(0x42, timeout=timeout)
        assert len(body) == 20, f"balance update of {len(body)} bytes"
        self.write(frame(seq, 0x41, self.pile_bcd + body[8:16] + bytes([result])))
        return {"gun": unbcd(body[7:8]), "physical_card": body[8:16].hex().upper(), "balance": from_le(body[16:20])}

    def answer_parking_lock(self, result=1, timeout=5.0):
        """0x62 遥控地锁升锁与降锁命令: 桩编码 7, 枪号 1 (BIN), 升/降地锁 1
        (0x55 升锁, 0xFF 降锁), 预留位 4. Answered by 0x63 充电桩返回数据:
        桩编码 7, 枪号 1, 地锁控制返回标志 1 (0x00 失败, 0x01 成功), 预留位 4.
        Returns (gun, action byte)."""
        seq, body = self.receive(0x62, timeout=timeout)
        assert len(body) == 13, f"parking lock command of {len(body)} bytes"
        self.write(frame(seq, 0x63, self.pile_bcd + body[7:8] + bytes([result]) + bytes(4)))
        return body[7], body[8]

    def parking_lock_status(self, gun, position=0x55, space=0x00, battery=90, alarm=0x00):
        """0x61 地锁数据上送: 桩编码 7, 枪号 1, 车位锁状态 1, 车位状态 1,
        地锁电量状态 1, 报警状态 1, 预留位 4. The platform does not answer it."""
        self.send(0x61, self.pile_bcd + bytes([gun, position, space, battery, alarm]) + bytes(4))
