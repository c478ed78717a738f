// Approval requests of the one tool executor (backend/approvals).
import { service } from '../wails';
import type { tools } from '../wailsjs/go/models';

export type ApprovalRequest = tools.ApprovalRequest;

const svc = service('approvals', 'Binding');

export const approvalsApi = {
  pending: () => svc('Pending'),
  resolve: (id: string, approved: boolean) => svc('Resolve', id, approved),
};
