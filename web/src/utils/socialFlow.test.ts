import { beforeEach, describe, expect, it } from 'vitest';
import { rememberFlow, takeFlow } from './socialFlow';

describe('social-login flows kept by this tab', () => {
  beforeEach(() => sessionStorage.clear());

  it('gives a flow back once, by its state', () => {
    rememberFlow('state-1', { binding: 'b-1', intent: 'link', back: '/setting/personalCenter' });
    expect(takeFlow('state-1')).toEqual({ binding: 'b-1', intent: 'link', back: '/setting/personalCenter' });
    expect(takeFlow('state-1')).toBeNull();
  });

  it('knows nothing of a state another tab or browser started', () => {
    rememberFlow('mine', { binding: 'b', intent: 'signIn' });
    expect(takeFlow('theirs')).toBeNull();
    expect(takeFlow('mine')?.intent).toBe('signIn');
  });

  it('ignores a damaged entry', () => {
    sessionStorage.setItem('social-flow:x', '{not json');
    sessionStorage.setItem('social-flow:y', JSON.stringify({ binding: 'b', intent: 'admin' }));
    expect(takeFlow('x')).toBeNull();
    expect(takeFlow('y')).toBeNull();
  });
});
