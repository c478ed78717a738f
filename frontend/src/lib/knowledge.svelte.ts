// The Knowledge bases screen's state: the knowledge bases, the open one's
// articles (or search hits) and the open article's editor. The editor is the
// Notes text editor's sync state (TextTabState): saves are conditional on the
// version it last saw, a refused save keeps a local draft, and compare /
// re-apply work the same. The open knowledge base is followed live by
// comparing its stamp once a second (any process's write moves it).
import { on } from './events';
import { teamApi } from './api/team';
import { knowledgeApi, type Article, type KnowledgeHit, type KnowledgeOverview } from './api/knowledge';
import { notesApi, type SaveResult } from './api/notes';
import { sharedDrafts, type DraftStore } from './notes/drafts';
import { TextTabState } from './notes/text.svelte';
import { createThenReload, errorText as message, placeName } from './place';
import { alreadyGone, articleDeleteText, deleteError, kbDeleteText, SyncedProjects } from './deletes';

export const FOLLOW_EVERY_MS = 1000;
/** the list of knowledge bases is read again every this many follows */
const LIST_EVERY_TICKS = 3;


export class ArticleEditor {
  article = $state<Article | null>(null);
  readonly ed: TextTabState;

  constructor(readonly kb: string, readonly id: string, drafts: DraftStore) {
    this.ed = new TextTabState(kb, id, drafts, (expected, text) => this.saveBody(expected, text));
  }

  private async saveBody(expected: number, text: string): Promise<SaveResult> {
    const r = await knowledgeApi.saveArticle(this.kb, this.id, expected, this.article?.title ?? '', text);
    if (r.current) this.article = { ...r.current, body: undefined };
    else if (r.saved && this.article) this.article = { ...this.article, version: r.version, updated_by: 'you', updated_at: new Date().toISOString() };
    return { saved: r.saved, version: r.version, tab_version: r.version, current: r.current ? { tab_id: this.id, kind: 'text', title: '', position: 0, tab_version: r.version, updated_at: r.current.updated_at, text: r.current.body ?? '' } : undefined };
  }

  /** follow takes the article as stored now without dropping the person's typing. */
  follow(a: Article) {
    if (!this.article) {
      this.article = { ...a, body: undefined };
      this.ed.load(a.body ?? '', a.version);
      return;
    }
    if (a.version < this.ed.baseVersion) return;
    this.article = { ...a, body: undefined };
    this.ed.server(a.body ?? '', a.version);
  }
}

export class KnowledgeState {
  overview = $state<KnowledgeOverview>({ workspaces: [], projects: [], knowledge_bases: [] });
  /** the team workspace's name of each Synced project, by project id */
  teamPlaces = $state<Record<string, string>>({});
  loaded = $state(false);
  error = $state('');
  kb = $state('');
  articles = $state<Article[]>([]);
  query = $state('');
  hits = $state<KnowledgeHit[] | null>(null);
  editor = $state<ArticleEditor | null>(null);
  readonly drafts: DraftStore = sharedDrafts();
  /** the knowledge base whose Delete waits for the person's answer, with what the confirm says */
  deleting = $state<{ id: string; name: string; text: string; articles: string[] } | null>(null);
  deleteBusy = $state(false);
  private readonly synced = new SyncedProjects();
  private stamp = '';

  /** start loads the list and follows the open knowledge base; it returns the stop function. */
  start(): () => void {
    void this.load();
    void this.synced.get(); // known before a Delete asks, even offline
    const t = setInterval(() => void this.tick(), FOLLOW_EVERY_MS);
    // A deleted base or article that came back with an edit is listed again.
    const off = on('team:kept-after-delete', (ev) => {
      if (ev.kind === 'kb') void this.load();
      else if (ev.kind === 'article' && ev.containerId === this.kb) void this.refresh();
    });
    return () => {
      clearInterval(t);
      off();
    };
  }

  async load() {
    try {
      const [o, places] = await Promise.all([knowledgeApi.overview(), teamApi.teamPlaces().catch(() => null)]);
      this.overview = o;
      if (places) this.teamPlaces = places;
      this.error = '';
    } catch (e) {
      this.error = `Could not load knowledge bases: ${message(e)}`;
    }
    this.loaded = true;
  }

  where(projectId: string, workspaceId: string): string {
    return placeName(this.overview, projectId, workspaceId, this.teamPlaces);
  }

  createKb(workspace: string, project: string, name: string): Promise<string | null> {
    return createThenReload(() => knowledgeApi.create(workspace, project, name), (kb) => kb.knowledge_base_id, () => this.load(), (t) => (this.error = t));
  }

  createProject(workspace: string, name: string): Promise<string | null> {
    return createThenReload(() => notesApi.createProject(workspace, name), (p) => p.id, () => this.load(), (t) => (this.error = t), 'Project not created');
  }

  async selectKb(id: string) {
    if (this.kb !== id) {
      this.kb = id;
      this.editor = null;
      this.query = '';
      this.hits = null;
      this.articles = [];
    }
    this.stamp = '';
    await this.refresh();
  }

  async openArticle(id: string) {
    if (!this.kb) return;
    if (this.editor?.id === id) return;
    const ed = new ArticleEditor(this.kb, id, this.drafts);
    this.editor = ed;
    this.deletingArticle = null;
    try {
      const [a] = await Promise.all([knowledgeApi.article(this.kb, id), this.drafts.ready()]);
      ed.follow(a);
    } catch (e) {
      this.error = `Could not open the article: ${message(e)}`;
      this.editor = null;
    }
  }

  closeArticle() {
    this.editor = null;
    this.deletingArticle = null;
  }

  async addArticle(title: string, body: string): Promise<string | null> {
    try {
      const a = await knowledgeApi.addArticle(this.kb, title, body);
      this.error = '';
      await this.refresh();
      return a.article_id;
    } catch (e) {
      this.error = `Not added: ${message(e)}`;
      return null;
    }
  }

  /** rename saves a new title with the body as last stored, under the version rule. */
  async rename(title: string): Promise<boolean> {
    const ed = this.editor;
    if (!ed?.article) return false;
    try {
      const r = await knowledgeApi.saveArticle(this.kb, ed.id, ed.ed.baseVersion, title, ed.ed.base);
      if (!r.saved) {
        this.error = 'Not renamed: the article changed since you opened it. It now shows the current version; rename it again.';
        if (r.current) ed.follow(r.current);
        return false;
      }
      ed.article = { ...ed.article, title, version: r.version, updated_by: 'you' };
      ed.ed.advance(ed.ed.baseVersion, r.version);
      this.error = '';
      await this.refresh();
      return true;
    } catch (e) {
      this.error = `Not renamed: ${message(e)}`;
      return false;
    }
  }

  /** the open article's Delete waits for the person's answer: what the confirm says */
  deletingArticle = $state<string | null>(null);

  /** askRemove shows the confirm for the open article. */
  async askRemove() {
    const ed = this.editor;
    const b = this.overview.knowledge_bases.find((x) => x.knowledge_base_id === this.kb);
    if (!ed || !b) return;
    const synced = await this.synced.get();
    this.deletingArticle = articleDeleteText(ed.article?.title ?? '', b.name, synced.has(b.project_id));
  }

  async remove(): Promise<boolean> {
    const ed = this.editor;
    this.deletingArticle = null;
    if (!ed) return false;
    try {
      await knowledgeApi.deleteArticle(this.kb, ed.id);
      this.drafts.remove(this.kb, ed.id);
      this.editor = null;
      this.error = '';
      await this.refresh();
      return true;
    } catch (e) {
      this.error = deleteError('article', e);
      return false;
    }
  }

  /** askDeleteKb counts what goes with knowledge base id, then the confirm shows (deleting). */
  async askDeleteKb(id: string) {
    const b = this.overview.knowledge_bases.find((x) => x.knowledge_base_id === id);
    if (!b) return;
    try {
      const [list, synced] = await Promise.all([knowledgeApi.articles(id), this.synced.get()]);
      this.deleting = { id, name: b.name, text: kbDeleteText(b.name, list.length, synced.has(b.project_id)), articles: list.map((a) => a.article_id) };
    } catch (e) {
      this.error = `Could not count the articles of “${b.name}”: ${message(e)}. Nothing was deleted; press Delete again.`;
    }
  }

  /** deleteKb deletes the knowledge base the confirm asked about; true: it is gone (error says so when it was already); false: still there (error says why). */
  async deleteKb(): Promise<boolean> {
    const d = this.deleting;
    if (!d) return false;
    this.deleteBusy = true;
    let failed = '';
    let gone = true;
    try {
      await knowledgeApi.deleteKnowledgeBase(d.id);
    } catch (e) {
      failed = deleteError('knowledge base', e);
      gone = alreadyGone(e);
    }
    if (gone) {
      for (const a of d.articles) this.drafts.remove(d.id, a);
      if (this.kb === d.id) {
        this.kb = '';
        this.editor = null;
        this.articles = [];
        this.hits = null;
        this.query = '';
      }
    }
    await this.load();
    this.deleting = null;
    this.deleteBusy = false;
    this.error = failed;
    return gone;
  }

  async search(q: string) {
    this.query = q;
    if (!q.trim() || !this.kb) {
      this.hits = null;
      return;
    }
    try {
      const hits = (await knowledgeApi.search(this.kb, q)) ?? [];
      if (this.query === q) this.hits = hits;
    } catch (e) {
      this.error = `Search failed: ${message(e)}`;
    }
  }

  /** followList takes the overview if it changed, leaving any error shown. */
  private async followList() {
    try {
      const o = await knowledgeApi.overview();
      if (JSON.stringify(o) !== JSON.stringify(this.overview)) this.overview = o;
    } catch {
      // the next look tries again
    }
  }

  /** refresh re-reads the article list, the open article and the search hits. */
  async refresh() {
    const kb = this.kb;
    if (!kb) return;
    try {
      const [stamp, list] = await Promise.all([knowledgeApi.stamp(kb), knowledgeApi.articles(kb)]);
      if (kb !== this.kb) return;
      this.stamp = stamp;
      this.articles = list;
      const ed = this.editor;
      if (ed) {
        if (!list.some((a) => a.article_id === ed.id)) {
          if (!ed.ed.dirty) this.editor = null;
          else this.error = 'This article was deleted elsewhere. Your text is still here: copy it or add it as a new article.';
        } else if (list.find((a) => a.article_id === ed.id)!.version !== ed.article?.version) {
          ed.follow(await knowledgeApi.article(kb, ed.id));
        }
      }
      if (this.query.trim()) await this.search(this.query);
    } catch (e) {
      // A base closed or deleted meanwhile is no error.
      if (kb === this.kb) this.error = `Could not load articles: ${message(e)}`;
    }
  }

  private ticks = 0;

  private async tick() {
    // The list follows too, more slowly: a teammate's base (or one of
    // ours kept after a delete) arrives by sync with no event here.
    if (++this.ticks % LIST_EVERY_TICKS === 0) void this.followList();
    if (!this.kb) return;
    try {
      if ((await knowledgeApi.stamp(this.kb)) !== this.stamp) await this.refresh();
    } catch {
      // the next tick tries again; a real failure shows on the next action
    }
  }
}
