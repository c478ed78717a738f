import { describe, expect, it } from 'vitest';
import { lazy } from './lazy';

const A = (() => {}) as any;

describe('lazy', () => {
  it('imports the module once and remembers the component', async () => {
    let calls = 0;
    const v = lazy(async () => {
      calls++;
      return { default: A };
    });
    expect(v.loaded).toBeUndefined();
    const [x, y] = await Promise.all([v.load(), v.load()]);
    expect(x).toBe(A);
    expect(y).toBe(A);
    expect(v.loaded).toBe(A);
    await v.load();
    expect(calls).toBe(1);
  });

  it('tries again after a failed import', async () => {
    let calls = 0;
    const v = lazy(async () => {
      calls++;
      if (calls === 1) throw new Error('network down');
      return { default: A };
    });
    await expect(v.load()).rejects.toThrow('network down');
    expect(v.loaded).toBeUndefined();
    expect(await v.load()).toBe(A);
    expect(calls).toBe(2);
  });
});
