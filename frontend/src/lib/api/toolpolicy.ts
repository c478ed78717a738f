// Settings → Tool policy's Go API (backend/toolpolicy/toolpolicy.go).
import { call } from '../wails';

/** One channel's overrides ("*" means every tool). */
export interface Policy {
  disabled: string[];
  forceApproval: string[];
}

export interface PolicyChannel {
  id: string;
  name: string;
  about: string;
  policy: Policy;
}

export interface PolicyTool {
  name: string;
  description: string;
  readOnly: boolean;
  needsApproval: boolean;
}

export interface PolicyView {
  channels: PolicyChannel[];
  tools: PolicyTool[];
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('toolpolicy', 'Binding', method, ...args);

export const toolPolicyApi = {
  get: () => svc<PolicyView>('Get'),
  set: (channel: string, p: Policy) => svc<PolicyView>('Set', channel, p),
};
