import { describe, expect, it } from 'vitest';
import { sendsOnEnter } from './composer';

const key = (o: Partial<{ key: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; isComposing: boolean; keyCode: number }>) => ({
  key: 'Enter', shiftKey: false, altKey: false, ctrlKey: false, isComposing: false, keyCode: 13, ...o,
});

describe('sendsOnEnter', () => {
  it.each([
    ['Enter sends', key({}), true],
    ['Ctrl+Enter sends too (the old Messages habit)', key({ ctrlKey: true }), true],
    ['Shift+Enter is a new line', key({ shiftKey: true }), false],
    ['Alt+Enter is not a send', key({ altKey: true }), false],
    ['Enter while an input method composes picks the character', key({ isComposing: true }), false],
    ['WebKit composition keydown', key({ keyCode: 229 }), false],
    ['another key', key({ key: 'a', keyCode: 65 }), false],
  ])('%s', (_, e, want) => expect(sendsOnEnter(e)).toBe(want));
});
