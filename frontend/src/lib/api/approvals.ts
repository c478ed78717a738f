// Approval requests of the one tool executor (backend/approvals).
import { call } from '../wails';

/** tools.ApprovalRequest */
export interface ApprovalRequest {
  id: string;
  workspace: string;
  user: string;
  channel: string;
  tool: string;
  args: unknown;
  source: string;
  at: string;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('approvals', 'Binding', method, ...args);

export const approvalsApi = {
  pending: () => svc<ApprovalRequest[]>('Pending'),
  resolve: (id: string, approved: boolean) => svc<void>('Resolve', id, approved),
};
