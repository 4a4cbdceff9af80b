/**
 * Strings of the 云快充 (YKC) piles (the pile dialog's protocol choice and
 * address, the charger panel, the message log's frames), under the key
 * `ykc`. The frames' names are the generated catalogue's (`@/api/ykcFrames`).
 */
import { frameNames } from '../model/ykc';

const zh = {
  ykc: {
    protocol: { ocpp16: 'OCPP 1.6J', ocpp201: 'OCPP 2.0.1', ykc15: '云快充 YKC 1.5', ykc16: '云快充 YKC 1.6' },
    protocolLabel: '通信协议',
    linkTitle: '充电桩通信（云快充）',
    protocolHint: 'OCPP：握手时须提供该版本的子协议；云快充：登录时须声明该协议版本',
    registeredAs: '登记为 {{protocol}}',
    pileNumber: '桩编号（14 位数字）',
    pileNumberHint: '云快充充电桩以 14 位数字的桩编号登录，须与充电桩上设置的一致',
    pileNumberRule: '须为 14 位数字',
    connectTo: '充电桩连接地址',
    wsHint: '在充电桩上配置此 WebSocket 地址（OCPP 中央系统地址）',
    tcpHint: '在充电桩上配置此服务器地址与端口（TCP）',
    noPort: '本网关未开启云快充端口（BACKOFFICE_YKC_PORT），云快充充电桩无法连接',
    noPassword: '云快充充电桩以桩编号登录，无需密码',
    ocppOnly: '云快充充电桩只提供云快充协议中有的操作',
    frame: frameNames('zh'),
    log: {
      fields: '解析内容',
      answerFields: '应答内容',
      raw: '原始报文（十六进制）',
      request: '报文',
      answer: '应答报文',
      noAnswer: '（无应答）',
    },
    wholePileHint: '云快充充电桩整桩启停服务，不能单枪设置',
    push: { title: '已向 {{count}} 台云快充充电桩下发新计费模型：', waiting: '等待充电桩应答…' },
    rule: { card: '须为 1 至 16 位十六进制数字（物理卡号）', ftp: '须为 ftp:// 地址（云快充充电桩通过 FTP 立即下载）' },
    answer: { realtime: '实时数据：{{v}} V · {{a}} A · SOC {{soc}}% · 已充 {{kwh}} kWh', cardsHeld: '充电桩存有 {{held}}/{{count}} 张卡' },
  },
};

const en: typeof zh = {
  ykc: {
    protocol: { ocpp16: 'OCPP 1.6J', ocpp201: 'OCPP 2.0.1', ykc15: 'YKC 1.5 (云快充)', ykc16: 'YKC 1.6 (云快充)' },
    protocolLabel: 'Protocol',
    linkTitle: 'Charger link (YKC)',
    protocolHint: "OCPP: the charger's handshake must offer this version's subprotocol; YKC: its login must declare this version",
    registeredAs: 'Registered for {{protocol}}',
    pileNumber: 'Pile number (14 digits)',
    pileNumberHint: 'A YKC pile logs in with its 14-digit pile number: the same as set on the pile',
    pileNumberRule: 'Must be 14 digits',
    connectTo: 'Point the pile to',
    wsHint: 'Configure the charger with this WebSocket URL (the OCPP central system)',
    tcpHint: 'Configure the pile with this server address and port (TCP)',
    noPort: 'This gateway has no YKC port (BACKOFFICE_YKC_PORT): YKC piles cannot connect',
    noPassword: 'A YKC pile logs in with its pile number, no password',
    ocppOnly: 'A YKC pile is offered only what the YKC protocol has',
    frame: frameNames('en'),
    log: {
      fields: 'Decoded',
      answerFields: 'Answer decoded',
      raw: 'Raw frames (hex)',
      request: 'Frame',
      answer: 'Answer frame',
      noAnswer: '(no answer)',
    },
    wholePileHint: 'A YKC pile goes in or out of service as a whole, never one gun',
    push: { title: 'The new tariff model went to {{count}} YKC piles:', waiting: "waiting for the pile's answer…" },
    rule: { card: 'Must be 1 to 16 hexadecimal digits (the physical card number)', ftp: 'Must be an ftp:// address (a YKC pile fetches at once over FTP)' },
    answer: { realtime: 'Real-time data: {{v}} V · {{a}} A · SoC {{soc}}% · {{kwh}} kWh so far', cardsHeld: 'The pile holds {{held}} of {{count}} card(s)' },
  },
};

export default { zh, en };
