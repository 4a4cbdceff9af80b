import { describe, expect, it } from 'vitest';
import zh from '../../../shared/envelope/messages/zh.json';
import en from '../../../shared/envelope/messages/en.json';
import { capitalised, messageCatalogue, renderMessage } from './messages';

describe('the server message catalogue', () => {
  it('is the server files themselves, one per language, with the same keys', async () => {
    expect(await messageCatalogue('zh')).toEqual(zh);
    expect(await messageCatalogue('en')).toEqual(en);
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('fills placeholders, nested messages, lists and braces in the language asked', () => {
    const catalogue = {
      'a.outer': '{who}: {inner} {{x}}',
      'a.inner': 'is {n}',
      'common.separator.semicolon': '; ',
    };
    expect(renderMessage(catalogue, 'a.outer', { who: 'field', inner: { key: 'a.inner', args: { n: 3 } } }, 'en')).toBe('field: is 3 {x}');
    const list = { list: [{ key: 'a.inner', args: { n: 1 } }, { en: 'two', zh: '二' }], separator: 'common.separator.semicolon' };
    expect(renderMessage({ ...catalogue, 'a.list': '{all}' }, 'a.list', { all: list }, 'zh')).toBe('is 1; 二');
    expect(renderMessage(catalogue, 'a.missing', {}, 'en')).toBeUndefined();
    expect(renderMessage(catalogue, 'a.outer', {}, 'en')).toBeUndefined();
    expect(capitalised('is required')).toBe('Is required');
  });

  it('words a real answer as the server does', () => {
    // What the back-office answers for a field its parser refused (request.fieldWords with request.tooLong).
    const args = { field: 'note', words: { key: 'request.tooLong', args: { max: '64' } } };
    expect(renderMessage(en, 'request.fieldWords', args, 'en')).toBe('note is too long (at most 64 characters)');
    expect(renderMessage(zh, 'request.fieldWords', args, 'zh')).toBe('note 过长（最多 64 个字符）');
  });
});
