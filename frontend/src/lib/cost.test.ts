import { describe, expect, it } from 'vitest';
import { costLabel, dollars, sumCosts } from './cost';

describe('cost', () => {
  it('says subscription, and the CLI figure as an estimate at API prices', () => {
    expect(costLabel({ billing: 'subscription', billedUsd: 0, estimateUsd: 0.0123, estimated: true })).toBe('subscription · ≈$0.01 at API prices');
    expect(costLabel({ billing: 'subscription', billedUsd: 0, estimateUsd: 0, estimated: false })).toBe('subscription');
    expect(costLabel(undefined)).toBe('subscription');
  });
  it('adds a job’s runs like Go does', () => {
    const c = sumCosts([{ estimated: true, estimateUsd: 0.01 }, { estimated: false, estimateUsd: 0 }, { estimated: true, estimateUsd: 0.02 }]);
    expect(costLabel(c)).toBe('subscription · ≈$0.03 at API prices');
    expect(c.billedUsd).toBe(0);
  });
  it('keeps the digits under a cent', () => {
    expect(dollars(0.0042)).toBe('$0.0042');
    expect(dollars(0)).toBe('$0.00');
  });
});
