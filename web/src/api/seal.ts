import { get } from './request';
import type { Answer } from './types';

/** What GET /publicKey answers; an empty key or mockServer means no encryption. */
export type PublicKeyAnswer = Answer<'/partnerapi/publicKey', 'get'>;

/** PKCS#1 v1.5 adds 11 bytes: a 1024-bit key (128 bytes) carries 117 per chunk. */
const PKCS1_OVERHEAD = 11;

/**
 * Encrypts a payload for the server: the JSON text's UTF-8
 * bytes in chunks of key size - 11 (117 for 1024 bits), each with RSA
 * PKCS#1 v1.5, the ciphertexts concatenated and base64-encoded. node-forge
 * is loaded only here, so a server without RSA costs the bundle nothing.
 */
export async function encryptPayload(publicKeyPem: string, payload: unknown): Promise<string> {
  const forge = (await import('node-forge')).default;
  const key = forge.pki.publicKeyFromPem(publicKeyPem);
  const chunk = Math.ceil(key.n.bitLength() / 8) - PKCS1_OVERHEAD;
  const bytes = forge.util.encodeUtf8(JSON.stringify(payload));
  let sealed = '';
  for (let at = 0; at < bytes.length || at === 0; at += chunk) {
    sealed += key.encrypt(bytes.slice(at, at + chunk), 'RSAES-PKCS1-V1_5');
  }
  return forge.util.encode64(sealed);
}

/**
 * A sign-in payload as the server wants it: unchanged when the server runs
 * without RSA (mockServer, or no key), else `{ param: <encrypted> }`.
 */
export async function sealed<T>(payload: T): Promise<T | { param: string }> {
  const { data } = await get<PublicKeyAnswer>('/publicKey');
  if (!data || data.mockServer || !data.publicKey) return payload;
  return { param: await encryptPayload(data.publicKey, payload) };
}
