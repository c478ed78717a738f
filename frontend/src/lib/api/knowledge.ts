// The Knowledge bases screen's bound service (backend/notes/knowledge_binding.go, notes.KnowledgeBinding).
import { service } from '../wails';
import type { notes } from '../wailsjs/go/models';

export type KnowledgeBase = notes.KnowledgeBase;
/** An article; updated_by is "you", "command line", or the connection that wrote it. */
export type Article = notes.ArticleDoc;
export type ArticleSave = notes.ArticleSave;
export type KnowledgeHit = notes.KBHit;
export type KnowledgeOverview = notes.KnowledgeOverview;

const c = service('notes', 'KnowledgeBinding');

export const knowledgeApi = {
  overview: () => c('Overview'),
  create: (workspace: string, project: string, name: string) => c('CreateKnowledgeBase', workspace, project, name),
  articles: (kb: string) => c('Articles', kb),
  article: (kb: string, id: string) => c('GetArticle', kb, id),
  addArticle: (kb: string, title: string, body: string) => c('CreateArticle', kb, title, body),
  saveArticle: (kb: string, id: string, expectedVersion: number, title: string, body: string) =>
    c('SaveArticle', kb, id, expectedVersion, title, body),
  deleteArticle: (kb: string, id: string) => c('DeleteArticle', kb, id),
  /** deleteKnowledgeBase removes the base and its articles (a synced project's: for teammates too). */
  deleteKnowledgeBase: (kb: string) => c('DeleteKnowledgeBase', kb),
  /** search resolves to null when nothing matched (Go's empty slice). */
  search: (kb: string, query: string) => c('Search', kb, query) as Promise<KnowledgeHit[] | null>,
  stamp: (kb: string) => c('Stamp', kb),
};
