// How the Knowledge bases screen says when and by whom an article changed.
import type { Article } from '../../lib/api/knowledge';
import { ago } from '../../lib/time';

export { ago };

/** byLine: "updated 3 min ago by you" (no author for articles written before authors were kept). */
export function byLine(a: Pick<Article, 'updated_at' | 'updated_by'>, now = Date.now()): string {
  return `updated ${ago(a.updated_at, now)}${a.updated_by ? ` by ${a.updated_by}` : ''}`;
}
