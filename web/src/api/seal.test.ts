import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { encryptPayload } from './seal';

/** Decrypts as the server does: base64, then 128-byte chunks for a 1024-bit key. */
function open(privateKey: forge.pki.rsa.PrivateKey, sealed: string): unknown {
  const bytes = forge.util.decode64(sealed);
  let plain = '';
  for (let at = 0; at < bytes.length; at += 128) plain += privateKey.decrypt(bytes.slice(at, at + 128), 'RSAES-PKCS1-V1_5');
  return JSON.parse(forge.util.decodeUtf8(plain));
}

describe('RSA payload sealing (117-byte chunks, base64)', () => {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
  const pem = forge.pki.publicKeyToPem(keys.publicKey);

  it('a short payload is one 128-byte chunk', async () => {
    const sealed = await encryptPayload(pem, { username: 'admin', password: 'secret-1' });
    expect(forge.util.decode64(sealed).length).toBe(128);
    expect(open(keys.privateKey, sealed)).toEqual({ username: 'admin', password: 'secret-1' });
  });

  it('splits on 117 UTF-8 bytes, so Chinese text survives chunk edges', async () => {
    const payload = { username: '运营-张三', password: '密码'.repeat(40), email: 'ops@charge.cn' };
    const sealed = await encryptPayload(pem, payload);
    const utf8Length = new TextEncoder().encode(JSON.stringify(payload)).length;
    expect(forge.util.decode64(sealed).length).toBe(Math.ceil(utf8Length / 117) * 128);
    expect(open(keys.privateKey, sealed)).toEqual(payload);
  });
});
