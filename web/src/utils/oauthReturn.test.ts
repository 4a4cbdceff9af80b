import { describe, expect, it } from 'vitest';
import { oauthReturnUrl } from './oauthReturn';

describe('social-login return', () => {
  it('moves code and state from the query to the #/callback route', () => {
    expect(oauthReturnUrl('https://ops.example.com/?code=abc&state=s.t.u')).toBe('https://ops.example.com/#/callback?code=abc&state=s.t.u');
    expect(oauthReturnUrl('https://ops.example.com/app/?code=a%2Fb&state=x&keep=1#/index')).toBe(
      'https://ops.example.com/app/?keep=1#/callback?code=a%2Fb&state=x',
    );
  });

  it('passes a provider error on to the callback page', () => {
    expect(oauthReturnUrl('https://h/?error=access_denied&state=x')).toBe('https://h/#/callback?state=x&error=access_denied');
  });

  it('leaves ordinary URLs alone', () => {
    expect(oauthReturnUrl('https://h/#/login?redirect=%2Findex')).toBeNull();
    expect(oauthReturnUrl('https://h/?code=only')).toBeNull();
  });
});
