// Settings → Tool policy's Go API (backend/toolpolicy/toolpolicy.go).
import { service } from '../wails';
import type { toolpolicy } from '../wailsjs/go/models';

/** One channel's overrides ("*" means every tool). */
export type Policy = toolpolicy.Policy;
export type PolicyChannel = toolpolicy.Channel;
export type PolicyTool = toolpolicy.Tool;
export type PolicyView = toolpolicy.View;

const svc = service('toolpolicy', 'Binding');

export const toolPolicyApi = {
  get: () => svc('Get'),
  set: (channel: string, p: Policy) => svc('Set', channel, p),
};
