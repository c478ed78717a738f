// Approval requests waiting for the person, over every screen: a tool
// call that needs the user (typing into a terminal pane, …) from a run the
// person is watching. Requests arrive as tools:approval and leave as
// tools:approval-done (answered here, or the run ended).
import { approvalsApi, type ApprovalRequest } from './api/approvals';
import { bound } from './wails';
import { on } from './events';

export class ApprovalsState {
  pending = $state<ApprovalRequest[]>([]);
  busy = $state<Record<string, boolean>>({});
  error = $state('');

  /** start lists what already waits and follows the events; returns the stop function. */
  start(): () => void {
    if (!bound('approvals', 'Binding')) return () => {};
    const offs = [
      on('tools:approval', (r) => {
        if (!this.pending.some((p) => p.id === r.id)) this.pending = [...this.pending, r];
      }),
      on('tools:approval-done', (d) => this.drop(d.id)),
    ];
    approvalsApi.pending().then(
      (list) => {
        const known = new Set(this.pending.map((p) => p.id));
        this.pending = [...(list ?? []).filter((p) => !known.has(p.id)), ...this.pending];
      },
      () => {},
    );
    return () => offs.forEach((off) => off());
  }

  drop(id: string) {
    this.pending = this.pending.filter((p) => p.id !== id);
  }

  async answer(id: string, approved: boolean) {
    this.busy[id] = true;
    this.error = '';
    try {
      await approvalsApi.resolve(id, approved);
      this.drop(id);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.drop(id); // no longer waiting: nothing left to answer
    }
    delete this.busy[id];
  }
}

/** sourceLabel says where a request comes from: "bridge:<run>" → "Pipeline run <run>". */
export function sourceLabel(source: string): string {
  const [kind, id] = source.split(':', 2);
  if (kind === 'bridge' && id) return `Pipeline run ${id}`;
  if (kind === 'connect' && id) return `Connected agent ${id}`;
  return source || 'a run';
}
