import { reviewApi, type FinishPlan, type FinishResult, type MergeMode, type Review, type ReviewComment } from './api/review';
import { on } from './events';
import { commentKey } from './review';

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** ReviewState is one pane branch's Review: its files, comments, sending
 * and Finish. */
export class ReviewState {
  readonly pane: string;
  data = $state<Review | null>(null);
  error = $state('');
  /** unified, or side by side */
  layout = $state<'unified' | 'split'>('unified');
  /** the line whose comment box is open (commentKey) */
  drafting = $state<string | null>(null);
  /** what the last Send to agent did, in words */
  sent = $state('');
  finishing = $state(false);
  plan = $state<FinishPlan | null>(null);
  result = $state<FinishResult | null>(null);
  busy = $state(false);
  archived = $state(false);
  /** ms the last diff took from the answer to the drawn rows (the bench prints it) */
  drawnIn = $state(0);

  constructor(pane: string) {
    this.pane = pane;
  }

  /** start loads the review and follows changes; returns the stop function. */
  start(): () => void {
    this.load();
    let t: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      clearTimeout(t);
      t = setTimeout(() => this.load(), 400);
    };
    const offs = [
      on('review:changed', (e) => {
        if (e.pane === this.pane) later();
      }),
      // The rail's counts changed: the files did too.
      on('panes:changed', later),
    ];
    return () => {
      clearTimeout(t);
      offs.forEach((off) => off());
    };
  }

  async load() {
    try {
      const next = await reviewApi.review(this.pane);
      // The same changes and comments keep the drawn diff (panes:changed
      // comes for any pane).
      const same = (a: Review | null, b: Review) =>
        !!a && a.queued === b.queued && JSON.stringify([a.files, a.comments]) === JSON.stringify([b.files, b.comments]);
      if (!same(this.data, next)) this.data = next;
      this.error = '';
      if (!next.queued && this.sent.startsWith('Queued')) this.sent = 'Sent to the agent.';
    } catch (e) {
      this.error = errText(e);
    }
  }

  commentsAt(path: string, side: string, line: number): ReviewComment[] {
    return (this.data?.comments ?? []).filter((c) => commentKey(c.path, c.side, c.line) === commentKey(path, side, line));
  }

  async addComment(path: string, side: 'new' | 'old', line: number, text: string): Promise<boolean> {
    try {
      const c = await reviewApi.addComment(this.pane, { path, side, line, text });
      if (this.data) this.data.comments = [...this.data.comments, c];
      this.drafting = null;
      this.error = '';
      return true;
    } catch (e) {
      this.error = errText(e);
      return false;
    }
  }

  async resolve(id: number) {
    try {
      await reviewApi.resolve(this.pane, id);
      if (this.data) this.data.comments = this.data.comments.filter((c) => c.id !== id);
    } catch (e) {
      this.error = errText(e);
    }
  }

  async send() {
    this.busy = true;
    try {
      const d = await reviewApi.send(this.pane);
      const n = `${d.count} ${d.count === 1 ? 'comment' : 'comments'}`;
      this.sent = d.state === 'queued' ? `Queued: ${n} go to the agent as soon as it is idle.` : `Sent ${n} to the agent as one message.`;
      this.error = '';
      await this.load();
    } catch (e) {
      this.error = errText(e);
    } finally {
      this.busy = false;
    }
  }

  async openFinish() {
    this.finishing = true;
    this.result = null;
    try {
      this.plan = await reviewApi.finishPlan(this.pane);
    } catch (e) {
      this.error = errText(e);
    }
  }

  async finish(mode: MergeMode, message: string) {
    this.busy = true;
    try {
      this.result = await reviewApi.finish(this.pane, mode, message);
      this.error = '';
      if (this.result.merged) await this.load();
    } catch (e) {
      this.error = errText(e);
    } finally {
      this.busy = false;
    }
  }

  async archive(discard: boolean, deleteBranch: boolean): Promise<boolean> {
    this.busy = true;
    try {
      await reviewApi.archive(this.pane, discard, deleteBranch);
      this.archived = true;
      this.error = '';
      return true;
    } catch (e) {
      this.error = errText(e);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
