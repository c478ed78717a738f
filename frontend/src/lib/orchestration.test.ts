import { describe, expect, it } from 'vitest';
import { elapsed, ended, graphOrder, jobShownState, jobTitle, shownState, limitsLine, money, nextStepId, parseLimits, progressLine, removeStep, stateLabel, jobCost } from './orchestration';

describe('parseLimits', () => {
  it('reads empty fields as no limit', () => {
    expect(parseLimits({ minutes: '', spend: ' ', concurrency: '' })).toEqual({ limits: { maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 }, error: '' });
  });
  it('reads minutes, dollars (with or without $) and runs at once', () => {
    expect(parseLimits({ minutes: '1.5', spend: '$0.50', concurrency: '2' }).limits).toEqual({ maxSeconds: 90, maxSpendUSD: 0.5, concurrency: 2 });
  });
  it.each([
    ['minutes', { minutes: 'ten', spend: '', concurrency: '' }, 'Time limit'],
    ['zero minutes', { minutes: '0', spend: '', concurrency: '' }, 'Time limit'],
    ['negative spend', { minutes: '', spend: '-1', concurrency: '' }, 'Spend limit'],
    ['fractional concurrency', { minutes: '', spend: '', concurrency: '1.5' }, 'At once'],
  ])('refuses %s with what to type', (_, input, start) => {
    const { error } = parseLimits(input);
    expect(error.startsWith(start)).toBe(true);
    expect(error).toContain('leave it empty');
  });
});

describe('limitsLine and money', () => {
  it('says no limits when none is set', () => {
    expect(limitsLine({ maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 })).toBe('No limits');
    expect(limitsLine(undefined)).toBe('No limits');
  });
  it('lists the limits set', () => {
    expect(limitsLine({ maxSeconds: 600, maxSpendUSD: 0.5, concurrency: 2 })).toBe('Limits: time 10 min · spend $0.50 · 2 at once');
    expect(limitsLine({ maxSeconds: 5400 })).toBe('Limits: time 1 h 30 min');
  });
  it('shows small costs to the hundredth of a cent', () => {
    expect(money(0)).toBe('$0.00');
    expect(money(0.0042)).toBe('$0.0042');
    expect(money(1.256)).toBe('$1.26');
  });
});

describe('graphOrder', () => {
  const s = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });
  it('puts independent steps side by side and dependants after them', () => {
    const { levels, error } = graphOrder([s('s3', 's1', 's2'), s('s1'), s('s2'), s('s4', 's3')]);
    expect(error).toBe('');
    expect(levels.map((l) => l.map((x) => x.id))).toEqual([['s1', 's2'], ['s3'], ['s4']]);
  });
  it('names the steps of a cycle', () => {
    const { error } = graphOrder([s('s1'), s('s2', 's3'), s('s3', 's2')]);
    expect(error).toBe('Steps s2, s3 wait for each other in a circle: remove one of their "after" links.');
  });
  it('refuses a step after itself or after a missing step', () => {
    expect(graphOrder([s('s1', 's1')]).error).toContain('depends on itself');
    expect(graphOrder([s('s1', 's9')]).error).toBe('Step s1 runs after s9, which is not a step: pick one of s1.');
  });
  it('removing a step drops the links to it', () => {
    expect(removeStep([s('s1'), s('s2', 's1')], 's1')).toEqual([s('s2')]);
    expect(nextStepId([s('s1'), s('s3')])).toBe('s2');
  });
});

describe('progressLine', () => {
  it('counts children by state', () => {
    expect(progressLine([{ state: 'done' }, { state: 'running' }, { state: 'cancelled' }])).toBe('1 of 3 done · 1 running · 1 cancelled');
    expect(progressLine([])).toBe('No runs yet');
  });
  it('adds costs and knows which states are final', () => {
    expect(jobCost({ steps: [{ cost: { estimated: true, estimateUsd: 0.25 } }, {}, { cost: { estimated: true, estimateUsd: 0.5 } }] }).estimateUsd).toBe(0.75);
    expect(ended('running')).toBe(false);
    expect(ended('needs_you')).toBe(false);
    expect(ended('cancelled')).toBe(true);
    expect(stateLabel('needs_you')).toBe('Needs you');
  });
});

describe('jobTitle', () => {
  it('uses the title, else the first task, else says there is none', () => {
    expect(jobTitle({ kind: 'fleet', title: ' Release ', steps: [] })).toBe('Release');
    expect(jobTitle({ kind: 'fleet', steps: [{ task: '' }, { task: 'one two three four five six seven eight nine' }] })).toBe('one two three four five six seven eight…');
    expect(jobTitle({ kind: 'loop', steps: [] })).toBe('Loop without a title');
  });
});

describe('shown states', () => {
  it('a running child waiting for an approval needs you; an ended one does not', () => {
    expect(shownState('running', true)).toBe('needs_you');
    expect(shownState('running', false)).toBe('running');
    expect(shownState('done', true)).toBe('done');
  });
  it('a going job needs you when one of its runs does', () => {
    expect(jobShownState('running', ['done', 'needs_you'])).toBe('needs_you');
    expect(jobShownState('running', ['running'])).toBe('running');
    expect(jobShownState('cancelled', ['needs_you'])).toBe('cancelled');
  });
});

describe('elapsed', () => {
  it('says how long a job has been going, or took', () => {
    expect(elapsed(1000, 0, 13_000)).toBe('going for 12 s');
    expect(elapsed(0, 65_000, 99_000)).toBe('');
    expect(elapsed(1000, 66_000, 99_000)).toBe('took 1 min 5 s');
    expect(elapsed(0, 0, 5000)).toBe('');
  });
});
