import { assert, goCall } from '../lib.mjs';

// External AI and Connected agents have their own sidebar entries (not
// only the unlabelled key icon), and Chat's "no model" notice leads to
// External AI. Checks:
//  1. the sidebar's "External AI" entry opens the External AI screen, and
//     "Connected agents" the Connected agents screen, with no dialog;
//  2. with every CLI turned off, a new chat says to install or turn one on
//     in External AI, and that link opens the External AI screen.
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/chat');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'External AI', exact: true }).click();
  await page.locator('[data-route="/external-ai"][aria-current=page]').waitFor();
  await page.getByRole('heading', { name: 'External AI', exact: true }).waitFor();
  assert((await page.getByRole('dialog').count()) === 0, 'External AI opens as a screen, not the Connections dialog');
  await shot('sidebar-external-ai');
  await nav.getByRole('button', { name: 'Connected agents', exact: true }).click();
  await page.locator('[data-route="/connected"][aria-current=page]').waitFor();
  await page.getByRole('heading', { name: 'Connected agents', exact: true }).waitFor();
  assert((await page.getByRole('dialog').count()) === 0, 'Connected agents opens as a screen, not the Connections dialog');

  // No CLI can play the Worker: the notice names where to turn one on.
  const clis = await goCall(page, 'roles.Binding.ExternalAI');
  const on = clis.filter((c) => c.enabled).map((c) => c.agent);
  // Earlier specs may have picked a model for the Worker: put it back on
  // its default (none chosen) for this check, and restore it after.
  const worker = (await goCall(page, 'roles.Binding.Roles')).find((r) => r.name === 'Worker');
  const chosen = worker && !worker.default && worker.model ? worker.model : '';
  if (chosen) await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', '');
  try {
    for (const a of on) await goCall(page, 'roles.Binding.SetEnabled', a, false);
    await page.goto(base + '/#/chat');
    await page.reload();
    const notice = page.getByText('The Worker role has no model yet: install or turn on Claude Code or Codex in', { exact: false });
    await notice.waitFor();
    await shot('chat-no-model-external-ai');
    await page.getByRole('button', { name: 'External AI', exact: true }).and(page.locator('.setup button')).click();
    await page.locator('[data-route="/external-ai"][aria-current=page]').waitFor();
  } finally {
    for (const a of on) await goCall(page, 'roles.Binding.SetEnabled', a, true);
    if (chosen) await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', chosen);
  }
}
