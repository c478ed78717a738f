// State of the Messages screen: the channels, the open channel's posts,
// and posts arriving live from anyone (the person, a Connected assistant).
import { messagesApi, type Channel, type Message, type Place } from './api/messages';
import { on } from './events';

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class MessagesState {
  channels = $state<Channel[]>([]);
  places = $state<Place[]>([]);
  channel = $state('');
  messages = $state<Message[]>([]);
  loaded = $state(false);
  error = $state('');

  /** start loads the channels and follows new posts; returns the unsubscribe. */
  start(): () => void {
    void this.load();
    return on('messages:posted', (e) => {
      if (!this.channels.some((c) => c.id === e.channel.id)) this.channels = [...this.channels, e.channel];
      if (e.message.channel_id === this.channel && !this.messages.some((m) => m.id === e.message.id)) {
        this.messages = [...this.messages, e.message].sort((a, b) => a.seq - b.seq);
      }
    });
  }

  async load() {
    try {
      [this.channels, this.places] = await Promise.all([messagesApi.channels(), messagesApi.places()]);
      this.error = '';
    } catch (e) {
      this.error = errText(e);
    } finally {
      this.loaded = true;
    }
  }

  async select(id: string) {
    this.channel = id;
    this.messages = [];
    if (!id) return;
    try {
      const list = await messagesApi.messages(id);
      if (this.channel === id) this.messages = list;
      this.error = '';
    } catch (e) {
      this.error = errText(e);
    }
  }

  /** post sends the person's post; false (with error set) when refused. */
  async post(text: string): Promise<boolean> {
    try {
      const m = await messagesApi.post(this.channel, text);
      if (!this.messages.some((x) => x.id === m.id)) this.messages = [...this.messages, m];
      this.error = '';
      return true;
    } catch (e) {
      this.error = errText(e);
      return false;
    }
  }

  async create(workspace: string, project: string, name: string, priv: boolean): Promise<string> {
    try {
      const c = await messagesApi.createChannel(workspace, project, name, priv);
      await this.load();
      return c.id;
    } catch (e) {
      this.error = errText(e);
      return '';
    }
  }

  where(c: Channel): string {
    return [c.workspaceName, c.projectName].filter(Boolean).join(' · ');
  }
}
