import { describe, expect, it } from 'vitest';
import { chosenProject, NEW_PROJECT } from './place';

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
