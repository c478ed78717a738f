// The one place the screens word a cost (Chat, Orchestration, the Sessions
// board, Pipeline, the run details). The rule is Go's (backend/cost): every
// run goes through a CLI's own sign-in, a subscription that is not billed per
// token; a figure the CLI reports is what the same tokens would cost at API
// prices, an estimate, never money spent. The Usage screen says the same.
import type { cost } from './wailsjs/go/models';

/** Cost is backend/cost.Cost. */
export type Cost = cost.Cost;

/** The tooltip every cost carries. */
export const costRule =
  'Runs use the CLI’s own sign-in (your subscription), which is not billed per token. ' +
  '“≈ at API prices” is the CLI’s own estimate of what the same tokens would cost on the API.';

/** dollars shows an estimate: $0.50, $12.00, and under a cent with the digits that matter ($0.0042). */
export function dollars(v: number): string {
  if (v >= 0.01 || v === 0) return '$' + v.toFixed(2);
  const s = v.toFixed(4);
  return s !== '0.0000' ? '$' + s : '$' + String(v);
}

/** costLabel: "subscription", or "subscription · ≈$0.01 at API prices" when the CLI reported a figure. */
export function costLabel(c: Partial<Cost> | null | undefined): string {
  const billing = c?.billing || 'subscription';
  if (!c?.estimated) return billing;
  return `${billing} · ≈${dollars(c.estimateUsd ?? 0)} at API prices`;
}

/** sumCosts adds up runs' costs the way backend/cost.Sum does (a job's children). */
export function sumCosts(cs: (Partial<Cost> | null | undefined)[]): Cost {
  const out: Cost = { billing: 'subscription', billedUsd: 0, estimateUsd: 0, estimated: false };
  for (const c of cs) {
    out.billedUsd += c?.billedUsd ?? 0;
    if (c?.estimated) (out.estimateUsd += c.estimateUsd ?? 0), (out.estimated = true);
  }
  return out;
}
