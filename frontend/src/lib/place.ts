// What the Knowledge bases and Records stores share: an error's text, where
// an item lives, and "create, then reload the overview".

/** errorText is a rejected call's message as it came. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Named = { id: string; name: string };

/** placeName names an item's place as "Workspace · Project" ("No project" when it has none). */
export function placeName(o: { workspaces: Named[]; projects: Named[] }, projectId: string, workspaceId: string): string {
  const p = o.projects.find((x) => x.id === projectId);
  const w = o.workspaces.find((x) => x.id === workspaceId);
  return [w?.name, p?.name ?? 'No project'].filter(Boolean).join(' · ');
}

/** createThenReload runs create, reloads, and returns the new id; on failure it reports `${failed}: why` and returns null. */
export async function createThenReload<T>(create: () => Promise<T>, id: (made: T) => string, reload: () => Promise<void>, report: (text: string) => void, failed = 'Not created'): Promise<string | null> {
  try {
    const made = await create();
    await reload();
    return id(made);
  } catch (e) {
    report(`${failed}: ${errorText(e)}`);
    return null;
  }
}
