// What the Notes, Knowledge bases, Records and Messages screens share about
// places: an error's text, where an item lives, "create, then reload the
// overview", and the project a New … form chose.

/** errorText is a rejected call's message as it came. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Named = { id: string; name: string };

/** placeName names an item's place as "Workspace · Project" (noProject when it has none: "No
 * project", or '' for the workspace alone); a Synced project is named by its team workspace (team,
 * by project id), alike on every desktop, and a workspace not listed yet by its id. */
export function placeName(o: { workspaces: Named[]; projects: Named[] }, projectId: string, workspaceId: string, team: Record<string, string> = {}, noProject = 'No project'): string {
  const p = o.projects.find((x) => x.id === projectId);
  const w = team[projectId] ?? o.workspaces.find((x) => x.id === workspaceId)?.name ?? workspaceId;
  return [w, p?.name ?? noProject].filter(Boolean).join(' · ');
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

/** NEW_PROJECT is the project choice "New project…" of a New … form (components/PlacePicker). */
export const NEW_PROJECT = '+new';

/**
 * chosenProject is the project id a New … form chose: the pick itself ('' for no project), or, for
 * "New project…", the id of the project made from newName; null when none was made (no name, or
 * create failed and said why).
 */
export async function chosenProject(project: string, newName: string, create: (name: string) => Promise<string | null>): Promise<string | null> {
  if (project !== NEW_PROJECT) return project;
  const name = newName.trim();
  return name ? (await create(name)) || null : null;
}
