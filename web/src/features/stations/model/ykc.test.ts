import { describe, expect, it } from 'vitest';
import { YKC_FRAMES } from '@/api/ykcFrames';
import strings from '../locales/ykc';
import { frameTypeHex, hexBytes, isYkc, isYkcPileNumber, protocolKey, PROTOCOLS, ykcAddress, ykcFrame, ykcFrameName } from './ykc';

describe('YKC piles', () => {
  it('are two of the four protocols, each with its words in both languages', () => {
    expect(PROTOCOLS).toEqual(['1.6', '2.0.1', 'ykc1.5', 'ykc1.6']);
    expect(PROTOCOLS.filter(isYkc)).toEqual(['ykc1.5', 'ykc1.6']);
    // No protocol on record: the server's default, OCPP 1.6.
    expect(isYkc(undefined)).toBe(false);
    expect(protocolKey(undefined)).toBe('ocpp16');
    for (const v of PROTOCOLS) {
      expect(strings.zh.ykc.protocol[protocolKey(v) as keyof typeof strings.zh.ykc.protocol]).toBeTruthy();
      expect(strings.en.ykc.protocol[protocolKey(v) as keyof typeof strings.en.ykc.protocol]).toBeTruthy();
    }
    expect(strings.en.ykc.protocol.ykc16).toMatch(/^YKC 1\.6/);
    expect(strings.zh.ykc.protocol.ocpp16).toBe('OCPP 1.6J');
  });

  it('are numbered with 14 digits', () => {
    expect(isYkcPileNumber('32010600019236')).toBe(true);
    expect(isYkcPileNumber(' 32010600019236 ')).toBe(true);
    expect(isYkcPileNumber('3201060001923')).toBe(false);
    expect(isYkcPileNumber('3201060001923A')).toBe(false);
    expect(isYkcPileNumber('E2ECP0001')).toBe(false);
  });

  it('connect to this host on the gateway’s YKC port, or nowhere without one', () => {
    expect(ykcAddress(9300, { hostname: 'ops.example.com' })).toBe('ops.example.com:9300');
    expect(ykcAddress(9300, { hostname: '[::1]' })).toBe('[::1]:9300');
    expect(ykcAddress(null, { hostname: 'ops.example.com' })).toBeNull();
    expect(ykcAddress(undefined, { hostname: 'ops.example.com' })).toBeNull();
  });

  it('name each frame of the log as the catalogue does, in the reader’s language', () => {
    expect(ykcFrameName('TransactionRecord', 'zh')).toBe('交易记录');
    expect(ykcFrameName('TransactionRecord', 'zh-CN')).toBe('交易记录');
    expect(ykcFrameName('TransactionRecord', 'en')).toBe('transaction record');
    expect(ykcFrameName('Login', 'en-GB')).toBe('pile login');
    // Not a YKC frame (an OCPP action, nothing, an inherited property).
    expect(ykcFrameName('BootNotification', 'zh')).toBeUndefined();
    expect(ykcFrameName(null, 'zh')).toBeUndefined();
    expect(ykcFrame('toString')).toBeUndefined();
    expect(frameTypeHex(ykcFrame('TransactionRecord')!.frameType)).toBe('0x3B');
    expect(frameTypeHex(ykcFrame('Login')!.frameType)).toBe('0x01');
    // The locale strings hold every frame's name (actionName's fallback).
    for (const [name, f] of Object.entries(YKC_FRAMES)) {
      expect(strings.zh.ykc.frame[name as keyof typeof YKC_FRAMES]).toBe(f.zh);
      expect(strings.en.ykc.frame[name as keyof typeof YKC_FRAMES]).toBe(f.en);
    }
  });

  it('show their raw frames as hex grouped by byte', () => {
    expect(hexBytes('680C0000000255031412782305 00DA4C')).toBe('68 0C 00 00 00 02 55 03 14 12 78 23 05 00 DA 4C');
    expect(hexBytes('680c')).toBe('68 0C');
    // Not whole bytes of hex: shown as kept.
    expect(hexBytes('680')).toBe('680');
    expect(hexBytes('(cut, 4096 bytes)')).toBe('(cut, 4096 bytes)');
  });
});
