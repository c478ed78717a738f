// Live state of the Chat screen: the chats, the open chat with its
// messages and runs, and each run's timeline as its pipeline:run events
// arrive (progress lines, streamed text, the end).
import { codeApi, type ChatIsolation } from './api/code';
import { pipelineApi, message, type Agent, type Chat, type ChatDetail, type Folder, type Role, type Run } from './api/pipeline';
import { chatModelApi } from './api/models';
import { on } from './events';
import { applyRunEvent, inProgress, liveFromRun, type LiveRun } from './pipeline';

export class ChatState {
  chats = $state<Chat[]>([]);
  selectedId = $state('');
  detail = $state<ChatDetail | null>(null);
  live = $state<Record<string, LiveRun>>({});
  worker = $state<Role | null>(null);
  folder = $state<Folder | null>(null);
  agents = $state<Agent[]>([]);
  error = $state('');
  loaded = $state(false);
  sending = $state(false);

  /** running is the open chat's run in progress (working or paused), if any. */
  running = $derived(this.detail?.runs.find((r) => inProgress(r.state)) ?? null);

  start(): () => void {
    const offs = [
      on('pipeline:run', (ev) => {
        let l = this.live[ev.runId];
        if (!l && ev.chatId && ev.chatId === this.selectedId) {
          l = this.live[ev.runId] = { runId: ev.runId, items: [], streaming: '', ended: false };
        }
        if (l) applyRunEvent(l, ev);
        if (ev.kind === 'end') {
          this.refreshList();
          if (ev.chatId === this.selectedId) this.reload();
        }
      }),
      on('pipeline:changed', (chatId) => {
        this.refreshList();
        this.refreshSetup();
        if (this.selectedId && (!chatId || chatId === this.selectedId)) this.reload();
      }),
    ];
    this.refreshList();
    this.refreshSetup();
    return () => offs.forEach((off) => off());
  }

  async refreshList() {
    try {
      this.chats = (await pipelineApi.chats()) ?? [];
      this.loaded = true;
    } catch (e) {
      this.error = message(e);
    }
  }

  async refreshSetup() {
    try {
      const [roles, folders, agents] = await Promise.all([pipelineApi.roles(), pipelineApi.folders(), pipelineApi.agents()]);
      this.worker = roles.find((r) => r.name === 'Worker') ?? null;
      this.folder = (folders ?? []).find((f) => f.current) ?? null;
      this.agents = agents ?? [];
    } catch (e) {
      this.error = message(e);
    }
  }

  async select(id: string) {
    if (id === this.selectedId && this.detail) return;
    this.selectedId = id;
    this.detail = null;
    if (id) await this.reload();
  }

  async reload() {
    const id = this.selectedId;
    if (!id) return;
    try {
      const d = await pipelineApi.getChat(id);
      if (id !== this.selectedId) return;
      for (const r of d.runs) {
        // A run seen live keeps its timeline (it holds the streamed text);
        // one opened mid-way starts from the progress recorded so far.
        if (!this.live[r.id]) this.live[r.id] = liveFromRun(r);
        else if (!inProgress(r.state)) Object.assign(this.live[r.id], { ended: true, state: r.state, streaming: '' });
      }
      this.detail = d;
    } catch (e) {
      this.error = message(e);
      if (id === this.selectedId) this.detail = null;
    }
  }

  /**
   * startChat creates a chat for a first task, sends it and opens the chat;
   * returns its id. When the task could not be sent at all (no folder, no
   * model) it throws why and no empty chat is left behind.
   */
  async startChat(task: string, opts: { agentId: string; worktree: boolean; planMode?: boolean; isolation?: ChatIsolation; cliModel?: string }): Promise<string> {
    const title = titleFrom(task);
    const c = await pipelineApi.createChat({ title, folder: '', agentId: opts.agentId, worktree: opts.worktree, planMode: !!opts.planMode });
    let run: Run | null = null;
    let failed = '';
    try {
      // The model picked in New chat, over the role's or agent's.
      if (opts.cliModel) await chatModelApi.set(c.id, opts.cliModel);
      // The chat's own choice over the workspace's isolation (Code screen).
      if (opts.isolation) await codeApi.setChatIsolation(c.id, opts.isolation);
      run = await pipelineApi.send(c.id, task);
    } catch (e) {
      const d = await pipelineApi.getChat(c.id).catch(() => null);
      if (!d?.messages.length && !d?.runs.length) {
        await pipelineApi.deleteChat(c.id).catch(() => {});
        await this.refreshList();
        throw e;
      }
      failed = message(e);
    }
    if (run && !this.live[run.id]) this.live[run.id] = liveFromRun(run);
    await this.refreshList();
    await this.select(c.id);
    this.error = failed;
    return c.id;
  }

  async send(text: string): Promise<boolean> {
    const id = this.selectedId;
    if (!id) return false;
    this.error = '';
    this.sending = true;
    try {
      const run = await pipelineApi.send(id, text);
      if (!this.live[run.id]) this.live[run.id] = liveFromRun(run);
      await this.reload();
      return true;
    } catch (e) {
      this.error = message(e);
      await this.reload();
      return false;
    } finally {
      this.sending = false;
    }
  }

  async act(fn: () => Promise<unknown>) {
    this.error = '';
    try {
      await fn();
    } catch (e) {
      this.error = message(e);
    }
    await Promise.all([this.refreshList(), this.reload()]);
  }

  cancel(run: Run) {
    return this.act(() => pipelineApi.cancel(run.id));
  }

  /** paused: the open chat's run is frozen (Pause); it can be resumed or the chat ended. */
  get paused() {
    return this.running?.state === 'paused';
  }

  pause() {
    return this.act(() => pipelineApi.pause(this.selectedId));
  }

  resume() {
    return this.act(() => pipelineApi.resume(this.selectedId));
  }

  endChat() {
    return this.act(() => pipelineApi.endChat(this.selectedId));
  }

  async deleteChat() {
    const id = this.selectedId;
    await this.act(() => pipelineApi.deleteChat(id));
    this.selectedId = '';
    this.detail = null;
  }

  discardBranch(run: Run) {
    return this.act(() => pipelineApi.discardBranch(run.id));
  }

  /** compact has the Compaction role summarise the open chat so far (the Compact button). */
  compact() {
    const id = this.selectedId;
    return this.act(() => pipelineApi.compact(id));
  }

  /** cancelCompact stops a compaction in progress; the chat stays as it was. */
  cancelCompact(id: string) {
    return this.act(() => pipelineApi.cancel(id));
  }
}

/** titleFrom names a chat after its first task: the first line, shortened. */
export function titleFrom(task: string): string {
  const line = task.trim().split('\n')[0].trim();
  return line.length > 60 ? line.slice(0, 57).trimEnd() + '…' : line || 'New chat';
}
