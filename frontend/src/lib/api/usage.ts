// Usage: tokens, estimated cost and plan windows of Claude Code and Codex
// from their own local files (backend/usage/binding.go).
import { service } from '../wails';
import type { usage } from '../wailsjs/go/models';

export type UsageReport = usage.Report;
export type UsageTotals = usage.Totals;
export type UsageWindow = usage.Window;
export type UsageLimit = usage.Limit;
export type UsageDay = usage.Day;

const svc = service('usage', 'Binding');

export const usageApi = {
  /** report reads what the CLIs appended since the last call and returns the figures. */
  report: () => svc('Report'),
};
