import { describe, expect, it } from 'vitest';
import { pickTab } from './keys.svelte';

describe('pickTab', () => {
  const tabs = [{ id: 'external-ai' }, { id: 'connected' }];
  it.each([
    ['connected', tabs, 'connected'],
    ['', tabs, 'external-ai'],
    ['gone', tabs, 'external-ai'],
    ['connected', [], ''],
  ])('%j → %j', (req, list, want) => expect(pickTab(req, list)).toBe(want));
});
