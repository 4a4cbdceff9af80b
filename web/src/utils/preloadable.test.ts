import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '@/config';
import { ChunkLoadError, preloadable, withChunkTimeout } from './preloadable';

afterEach(() => vi.useRealTimers());

describe('chunk loading (120 s timeout)', () => {
  it('a chunk that does not arrive within the timeout fails with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    const never = withChunkTimeout(() => new Promise<never>(() => {}));
    const caught = never.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    void caught.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await caught;
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect((err as ChunkLoadError).timedOut).toBe(true);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('a failed chunk is a ChunkLoadError, and the next attempt loads it again', async () => {
    let calls = 0;
    const mod = { default: () => null };
    const v = preloadable(() => (++calls === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve(mod)));
    const first = await v.preload().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ChunkLoadError);
    expect((first as ChunkLoadError).timedOut).toBe(false);
    await expect(v.preload()).resolves.toBe(mod);
    expect(calls).toBe(2);
    expect(v.fresh()).not.toBe(v.Component);
  });

  it('a chunk that arrives in time is handed over as it is', async () => {
    const mod = { default: () => null };
    await expect(withChunkTimeout(() => Promise.resolve(mod), 50)).resolves.toBe(mod);
  });
});
