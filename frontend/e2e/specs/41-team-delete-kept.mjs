import { until, assert, goCall, patience, devBridgeGuard } from '../lib.mjs';
import { join } from 'node:path';
import { startTeam, startDesktop } from '../team.mjs';

// A synced Record (and a knowledge base) deleted on one desktop while a
// teammate edits it (its article) on another, both offline (teamkit: PostgreSQL, two replicas, haproxy, the
// zitadel example OIDC provider). The delete's confirm says the
// teammates' copies go too. Back online, the edit is never lost: the
// Record stays on both desktops with the edit, and the desktop whose side
// lost (the deleting one, or the editing one) shows a notice naming the
// Record and saying the edited copy was kept, and why.
const view = { width: 1280, height: 800 };
const snap = (p, name) => p.screenshot({ path: join(process.cwd(), 'test-results', name + '.png') });

export default async function ({ page, tmp, bin, dist }) {
  const team = await startTeam(tmp);
  const desks = [];
  const contexts = [];
  try {
    const env = { SSL_CERT_FILE: team.ca, DBUS_SESSION_BUS_ADDRESS: 'unix:path=' + join(tmp, 'no-bus-here') };
    const A = await startDesktop({ bin, dist, tmp, name: 'del-a', env });
    desks.push(A);
    const B = await startDesktop({ bin, dist, tmp, name: 'del-b', env });
    desks.push(B);
    const browser = page.context().browser();
    const computer = async () => {
      const c = await browser.newContext({ viewport: view, ignoreHTTPSErrors: true });
      await c.addInitScript(devBridgeGuard);
      contexts.push(c);
      return c;
    };
    const ctxA = await computer();
    const ctxB = await computer();
    const appA = await ctxA.newPage();
    const appB = await ctxB.newPage();
    const errors = [];
    for (const p of [appA, appB]) {
      p.setDefaultTimeout(30000 * patience);
      p.on('pageerror', (e) => e.message.includes("reading 'EventsNotify'") || errors.push(e.message));
    }
    const signIn = async (desk, ctx, app, user) => {
      await app.goto(desk.base + '/#/settings');
      const sec = app.getByRole('region', { name: 'Team' });
      await sec.getByRole('textbox', { name: 'Team server' }).fill(team.url);
      await sec.getByRole('button', { name: 'Sign in' }).click();
      const url = await desk.nextOpened();
      const web = await ctx.newPage();
      await web.goto(url);
      await web.locator('#username').fill(user);
      await web.locator('#password').fill(team.people[user]);
      await web.locator('button[type=submit]').click();
      await web.getByRole('heading', { name: /Sign in osFoundry desktop on/ }).waitFor();
      await web.getByRole('button', { name: 'Sign in', exact: true }).click();
      await web.getByText('osFoundry desktop is signed in').waitFor();
      await web.close();
      await sec.locator('[data-state="connected"]').waitFor();
    };
    await signIn(A, ctxA, appA, 'alice');
    await signIn(B, ctxB, appB, 'bob');
    const teamWs = (await goCall(appA, 'teamclient.Binding.Status')).workspaces[0]?.id;
    assert(teamWs, 'alice is in a team workspace');

    // A project with a Record channel and a Record, Synced on both.
    const ov = await goCall(appA, 'notes.Binding.Overview');
    const ws = ov.workspaces[0].id;
    const project = await goCall(appA, 'notes.Binding.CreateProject', ws, 'Site plan');
    const ch = await goCall(appA, 'notes.RecordsBinding.CreateChannel', ws, project.id, 'Pages', ['Draft', 'Done']);
    const chId = ch.record_channel_id;
    const it = await goCall(appA, 'notes.RecordsBinding.AddItem', chId, 'Pricing page', 'Draft', 'pricing v1');
    const kb = await goCall(appA, 'notes.KnowledgeBinding.CreateKnowledgeBase', ws, project.id, 'Handbook');
    const kbId = kb.knowledge_base_id;
    const art = await goCall(appA, 'notes.KnowledgeBinding.CreateArticle', kbId, 'Holidays', 'holidays v1');
    await goCall(appA, 'teamclient.Binding.ShareProject', teamWs, project.id);
    await until('the project Synced on A', async () => (await goCall(appA, 'teamclient.Binding.Projects')).synced.some((p) => p.id === project.id));
    await goCall(appB, 'teamclient.Binding.JoinProject', teamWs, project.id);
    const onB = () => goCall(appB, 'notes.RecordsBinding.Item', chId, it.item_id).catch(() => null);
    await until('the Record on B', async () => (await onB())?.title === 'Pricing page', 60000);
    const artOn = (app) => goCall(app, 'notes.KnowledgeBinding.GetArticle', kbId, art.article_id).catch(() => null);
    await until('the article on B', async () => (await artOn(appB))?.title === 'Holidays', 60000);

    // Both offline: B edits the Record, A deletes it from the screen; A
    // edits the article, B deletes its knowledge base from the screen.
    await appA.goto(A.base + `/#/records?channel=${chId}&item=${it.item_id}`);
    await appA.reload();
    await appA.locator(`[data-record-view="${it.item_id}"]`).waitFor();
    await appB.goto(B.base + `/#/knowledge?kb=${kbId}`);
    await appB.reload();
    await until('the base open on B', async () => (await appB.locator('[data-kb-name]').textContent()) === 'Handbook');
    for (const app of [appA, appB]) await until('the project Synced', async () => (await goCall(app, 'teamclient.Binding.Projects')).synced.some((p) => p.id === project.id));
    await team.offline();
    const artA = await artOn(appA);
    const savedArt = await goCall(appA, 'notes.KnowledgeBinding.SaveArticle', kbId, art.article_id, artA.version, 'Holidays', 'holidays v2 by alice');
    assert(savedArt.saved, 'A saved its offline article edit: ' + JSON.stringify(savedArt));
    await appB.locator(`[data-delete-kb="${kbId}"]`).click();
    const kbDialog = appB.locator(`[data-delete-kb-dialog="${kbId}"]`);
    await kbDialog.waitFor();
    const kbText = await appB.locator('#delete-kb-text').textContent();
    assert(kbText.includes('Its 1 article goes with it.') && kbText.includes('deleted for your teammates too'), `the confirm of a synced base: ${kbText}`);
    await snap(appB, '41-delete-synced-kb-confirm');
    await kbDialog.getByRole('button', { name: 'Delete knowledge base', exact: true }).click();
    await kbDialog.waitFor({ state: 'detached' });
    await appB.locator(`[data-kb="${kbId}"]`).waitFor({ state: 'detached' });
    const cur = await onB();
    const saved = await goCall(appB, 'notes.RecordsBinding.SaveItem', chId, it.item_id, cur.version, { title: 'Pricing page', status: 'Draft', body: 'pricing v2 by bob' });
    assert(saved.saved, 'B saved its offline edit: ' + JSON.stringify(saved));
    await appA.locator(`[data-delete-record="${it.item_id}"]`).click();
    const dialog = appA.locator(`[data-delete-record-dialog="${it.item_id}"]`);
    await dialog.waitFor();
    const text = await appA.locator('#delete-record-text').textContent();
    assert(text.includes('The project is synced: it is deleted for your teammates too'), `the confirm of a synced Record speaks of teammates: ${text}`);
    await snap(appA, '41-delete-synced-confirm');
    await dialog.getByRole('button', { name: 'Delete record', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await appA.locator(`[data-record="${it.item_id}"]`).waitFor({ state: 'detached' });

    // Back online: the edit wins on both desktops, and one of them says so.
    await team.online();
    const onA = () => goCall(appA, 'notes.RecordsBinding.Item', chId, it.item_id).catch(() => null);
    await until('the edited Record back on A', async () => (await onA())?.fields?.body === 'pricing v2 by bob', 60000);
    await until('the edited Record kept on B', async () => (await onB())?.fields?.body === 'pricing v2 by bob', 60000);
    const notice = (app) => app.locator('.notice[role="status"]', { hasText: 'Record kept: Pricing page' });
    const told = await until('a notice naming the kept Record', async () => ((await notice(appA).count()) ? appA : (await notice(appB).count()) ? appB : null), 60000);
    const words = await notice(told).textContent();
    assert(/edited|edit/.test(words) && /kept|not deleted/.test(words), `the notice says the edited copy was kept and why: ${words}`);
    console.log(`     notice on desktop ${told === appA ? 'A (the delete met bob\'s edit)' : 'B (the delete met the edit made here)'}: ${words.trim()}`);
    // The deleting desktop's board shows the Record again, with the edit.
    await appA.locator(`[data-status-column="Draft"] [data-record="${it.item_id}"]`).waitFor();
    await snap(told, '41-kept-after-delete-notice');

    // The base: back on both with alice's edit, listed again on B's screen, and one desktop says so.
    await until('the edited article back on B', async () => (await artOn(appB))?.body === 'holidays v2 by alice', 60000);
    await until('the edited article kept on A', async () => (await artOn(appA))?.body === 'holidays v2 by alice', 60000);
    await appB.locator(`[data-kb="${kbId}"]`).waitFor();
    const kbNotice = (app) => app.locator('.notice[role="status"]', { hasText: 'Knowledge base kept: Handbook' });
    const toldKb = await until('a notice naming the kept base', async () => ((await kbNotice(appA).count()) ? appA : (await kbNotice(appB).count()) ? appB : null), 60000);
    const kbWords = await kbNotice(toldKb).textContent();
    assert(/changed|edited/.test(kbWords) && /kept|not deleted/.test(kbWords), `the notice says the changed base was kept and why: ${kbWords}`);
    console.log(`     notice on desktop ${toldKb === appA ? 'A' : 'B'}: ${kbWords.trim()}`);
    await snap(toldKb, '41-kept-kb-notice');

    // Online, a delete on A leaves B's open board on its own (no reload).
    await appB.goto(B.base + `/#/records?channel=${chId}`);
    await appB.locator(`[data-record="${it.item_id}"]`).waitFor();
    await goCall(appA, 'notes.RecordsBinding.DeleteItem', chId, it.item_id);
    const deletedAt = Date.now();
    await appB.locator(`[data-record="${it.item_id}"]`).waitFor({ state: 'detached', timeout: 60000 });
    console.log(`     the Record left desktop B's open board ${Date.now() - deletedAt} ms after A deleted it`);
    assert(errors.length === 0, 'page errors in the desktops: ' + errors.join('; '));
  } catch (e) {
    for (const [i, c] of contexts.entries()) for (const p of c.pages()) await snap(p, `41-team-delete-failure-${'AB'[i]}`).catch(() => {});
    throw e;
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    for (const d of desks) await d.stop();
    await team.stop();
  }
}
