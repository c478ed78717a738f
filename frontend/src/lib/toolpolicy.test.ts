import { describe, expect, it } from 'vitest';
import { modeOf, withMode } from './toolpolicy';

describe('tool policy', () => {
  const none = { disabled: [], forceApproval: [] };
  it('reads a tool as allowed, asked first or off', () => {
    const p = { disabled: ['runtime_send'], forceApproval: ['todo_list'] };
    expect(modeOf(p, 'runtime_send')).toBe('off');
    expect(modeOf(p, 'todo_list')).toBe('ask');
    expect(modeOf(p, 'memory_search')).toBe('allowed');
  });
  it('moves a tool between the lists and leaves the others', () => {
    let p = withMode(none, 'todo_list', 'ask');
    p = withMode(p, 'runtime_send', 'off');
    expect(p).toEqual({ disabled: ['runtime_send'], forceApproval: ['todo_list'] });
    p = withMode(p, 'todo_list', 'off');
    expect(p).toEqual({ disabled: ['runtime_send', 'todo_list'], forceApproval: [] });
    expect(withMode(p, 'runtime_send', 'allowed')).toEqual({ disabled: ['todo_list'], forceApproval: [] });
  });
});
