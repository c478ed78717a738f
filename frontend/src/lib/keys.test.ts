import { describe, expect, it } from 'vitest';
import { pickTab, withoutKeysParam } from './keys.svelte';

describe('pickTab', () => {
  const tabs = [{ id: 'external-ai' }, { id: 'connected' }];
  it.each([
    ['connected', tabs, 'connected'],
    ['', tabs, 'external-ai'],
    ['gone', tabs, 'external-ai'],
    ['connected', [], ''],
  ])('%j → %j', (req, list, want) => expect(pickTab(req, list)).toBe(want));
});

describe('withoutKeysParam', () => {
  it.each([
    ['#/terminal?keys=connected', '#/terminal'],
    ['#/x?a=1&keys=connected', '#/x?a=1'],
    ['#/x?keys=connected&a=1', '#/x?a=1'],
    ['#/x?a=1', '#/x?a=1'],
    ['#/x', '#/x'],
    ['', ''],
  ])('%j → %j', (h, want) => expect(withoutKeysParam(h)).toBe(want));
});
