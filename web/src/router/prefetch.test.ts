import { describe, expect, it } from 'vitest';

describe('prefetchRoute', () => {
  it('reads the path of a hash URL', async () => {
    const { hashPath } = await import('./prefetch');
    expect(hashPath('#/order/orderindex?from=2026-01-01')).toBe('/order/orderindex');
    expect(hashPath('')).toBe('/');
  });
});
