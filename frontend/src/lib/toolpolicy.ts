import type { Policy } from './api/toolpolicy';

/** What a channel does with one tool. */
export type Mode = 'allowed' | 'ask' | 'off';

/** modeOf reads a tool's mode from a channel's overrides. */
export function modeOf(p: Policy, tool: string): Mode {
  if (p.disabled.includes(tool)) return 'off';
  if (p.forceApproval.includes(tool)) return 'ask';
  return 'allowed';
}

/** withMode is the overrides with one tool set to mode (others unchanged). */
export function withMode(p: Policy, tool: string, mode: Mode): Policy {
  const disabled = p.disabled.filter((t) => t !== tool);
  const forceApproval = p.forceApproval.filter((t) => t !== tool);
  if (mode === 'off') disabled.push(tool);
  if (mode === 'ask') forceApproval.push(tool);
  return { disabled: disabled.sort(), forceApproval: forceApproval.sort() };
}
