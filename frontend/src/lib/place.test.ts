import { describe, expect, it } from 'vitest';
import { chosenProject, NEW_PROJECT, placeName } from './place';

describe('chosenProject', () => {
  const made: string[] = [];
  const create = async (name: string) => {
    made.push(name);
    return name === 'refused' ? null : `p-${name}`;
  };

  it('takes the picked project, or none, without making one', async () => {
    made.length = 0;
    expect(await chosenProject('p1', 'ignored', create)).toBe('p1');
    expect(await chosenProject('', '', create)).toBe('');
    expect(made).toEqual([]);
  });

  it('makes "New project…" from its trimmed name', async () => {
    made.length = 0;
    expect(await chosenProject(NEW_PROJECT, '  Launch Q3 ', create)).toBe('p-Launch Q3');
    expect(made).toEqual(['Launch Q3']);
  });

  it('makes nothing when the new project has no name or was refused', async () => {
    made.length = 0;
    expect(await chosenProject(NEW_PROJECT, '   ', create)).toBeNull();
    expect(made).toEqual([]);
    expect(await chosenProject(NEW_PROJECT, 'refused', create)).toBeNull();
  });
});

describe('placeName', () => {
  const o = { workspaces: [{ id: 'w1', name: 'Personal' }], projects: [{ id: 'p1', name: 'Site plan' }, { id: 'p2', name: 'Diary' }] };

  it('names a Synced project by its team workspace, a Local-only one by its own', () => {
    const team = { p1: 'Team' };
    expect(placeName(o, 'p1', 'w1', team)).toBe('Team · Site plan');
    expect(placeName(o, 'p2', 'w1', team)).toBe('Personal · Diary');
    expect(placeName(o, '', 'w1')).toBe('Personal · No project');
  });

  it('names the workspace alone when asked, and one not listed yet by its id', () => {
    expect(placeName(o, '', 'w1', {}, '')).toBe('Personal');
    expect(placeName(o, 'p1', 'w9', {}, '')).toBe('w9 · Site plan');
  });
});
