import { describe, expect, it } from 'vitest';
import { busyLine } from './quit.svelte';
import type { BusyPane } from './api/quit';

const busy = (over: Partial<BusyPane> = {}): BusyPane => ({ id: 'p-1', folder: 'work', what: 'sleep 300', agent: false, state: 'working', ...over });

describe('busyLine', () => {
  it('names a pane by its folder until the person renames it', () => {
    expect(busyLine(busy())).toBe('sleep 300 is running in work');
    expect(busyLine(busy({ name: '' }))).toBe('sleep 300 is running in work');
  });
  it('names a renamed pane by its name, as the rail does', () => {
    expect(busyLine(busy({ name: 'checkout fix' }))).toBe('sleep 300 is running in checkout fix');
    expect(busyLine(busy({ name: 'checkout fix', what: 'Claude Code', agent: true }))).toBe('Claude Code is working in checkout fix');
    expect(busyLine(busy({ name: 'checkout fix', what: 'Claude Code', agent: true, state: 'blocked' }))).toBe('Claude Code is waiting for your decision in checkout fix');
  });
});
