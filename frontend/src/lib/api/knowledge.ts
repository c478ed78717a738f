// The Knowledge bases screen's bound service (backend/notes/knowledge_binding.go, notes.KnowledgeBinding).
import { call } from '../wails';
import type { Project, Workspace } from './notes';

export interface KnowledgeBase { knowledge_base_id: string; workspace_id: string; project_id: string; name: string }

export interface Article {
  article_id: string;
  knowledge_base_id: string;
  title: string;
  body?: string;
  version: number;
  updated_at: string;
  /** "you", "command line", or the connection that wrote it */
  updated_by: string;
}

export interface ArticleSave { saved: boolean; version: number; current?: Article }

export interface KnowledgeHit { article_id: string; title: string; snippet: string; updated_at: string }

export interface KnowledgeOverview { workspaces: Workspace[]; projects: Project[]; knowledge_bases: KnowledgeBase[] }

const c = <T>(method: string, ...args: unknown[]) => call<T>('notes', 'KnowledgeBinding', method, ...args);

export const knowledgeApi = {
  overview: () => c<KnowledgeOverview>('Overview'),
  create: (workspace: string, project: string, name: string) => c<KnowledgeBase>('CreateKnowledgeBase', workspace, project, name),
  articles: (kb: string) => c<Article[]>('Articles', kb),
  article: (kb: string, id: string) => c<Article>('GetArticle', kb, id),
  addArticle: (kb: string, title: string, body: string) => c<Article>('CreateArticle', kb, title, body),
  saveArticle: (kb: string, id: string, expectedVersion: number, title: string, body: string) =>
    c<ArticleSave>('SaveArticle', kb, id, expectedVersion, title, body),
  deleteArticle: (kb: string, id: string) => c<void>('DeleteArticle', kb, id),
  search: (kb: string, query: string) => c<KnowledgeHit[] | null>('Search', kb, query),
  stamp: (kb: string) => c<string>('Stamp', kb),
};
