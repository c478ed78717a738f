import { describe, expect, it } from 'vitest';
import type { Connection, PickWorkspace } from './api/connect';
import { opensText, panelWorkspace } from './connected';

describe('what a project opens', () => {
  it('lists knowledge bases and Record channels by name, then the discussion channel', () => {
    expect(
      opensText([
        { kind: 'knowledge_base', id: 'kb-2', name: 'Roadmap FAQ' },
        { kind: 'knowledge_base', id: 'kb-1', name: 'Roadmap decisions' },
        { kind: 'record_channel', id: 'rc-1', name: 'Pricing pages' },
        { kind: 'message_channel', id: 'ch-1', name: 'discussion' },
      ]),
    ).toBe('Knowledge: Roadmap decisions, Roadmap FAQ · Records: Pricing pages · #discussion');
  });
  it('leaves out what the project does not have', () => {
    expect(opensText([{ kind: 'message_channel', id: 'ch-1', name: 'discussion' }])).toBe('#discussion');
    expect(opensText([])).toBe('');
    expect(opensText(undefined)).toBe('');
  });
});

describe('the workspace under the title', () => {
  const conn = (workspace: string) => ({ id: 'c', workspace }) as Connection;
  const two: PickWorkspace[] = [
    { id: 'ws-1', name: 'Acme' },
    { id: 'ws-2', name: 'Beta' },
  ];
  it("names a connection's workspace", () => {
    expect(panelWorkspace(conn('ws-2'), two)).toBe('Workspace: Beta');
    expect(panelWorkspace(conn('ws-gone'), two)).toBe('Workspace: ws-gone');
  });
  it('before the consent: the only workspace, or that the consent chooses', () => {
    expect(panelWorkspace(conn(''), [two[0]])).toBe('Workspace: Acme');
    expect(panelWorkspace(null, [two[0]])).toBe('Workspace: Acme');
    expect(panelWorkspace(conn(''), two)).toBe('Workspace: chosen when you approve the assistant');
    expect(panelWorkspace(null, [])).toBe('No workspace yet: create one in Notes first.');
  });
});
