// How the Knowledge bases screen says when and by whom an article changed.
import type { Article } from '../../lib/api/knowledge';

export function ago(iso: string, now = Date.now()): string {
  const s = (now - new Date(iso).getTime()) / 1000;
  if (!Number.isFinite(s)) return '';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** byLine: "updated 3 min ago by you" (no author for articles written before authors were kept). */
export function byLine(a: Pick<Article, 'updated_at' | 'updated_by'>, now = Date.now()): string {
  return `updated ${ago(a.updated_at, now)}${a.updated_by ? ` by ${a.updated_by}` : ''}`;
}
