import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// A chat or run waiting for an approval raises a desktop notification like a
// pane's; on Windows its click starts the app with the toast's link
// osfoundry://chat/<id>?t=<token> (or run/<id>), which the second process
// hands to the running window. The window opens that chat (a run outside a
// chat: the Agents screen, where its board card leads). The token is
// computed from instance.json the way the app computes it.
export default async function ({ page, base, env, bin, shot }) {
  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="idle"]');
  const chat = await goCall(page, 'chat.Binding.CreateChat', { title: 'Ship the beta', folder: '', agentId: '', worktree: false });
  const info = JSON.parse(readFileSync(join(env.OSFOUNDRY_HOME, 'instance.json'), 'utf8'));
  const link = (kind, id, secret = info.secret) =>
    `osfoundry://${kind}/${id}?t=${createHmac('sha256', Buffer.from(secret, 'hex')).update(`${kind}/${id}`).digest('hex').slice(0, 32)}`;
  const launch = (arg) => {
    const r = spawnSync(bin, [arg], { env, encoding: 'utf8', timeout: 20000 });
    assert(r.status === 0 && /already running/.test(r.stdout), `second launch: exit ${r.status}: ${r.stdout}${r.stderr}`);
  };
  try {
    launch(link('chat', chat.id));
    await until('the linked chat to open', async () => page.url().endsWith('#/chat?chat=' + encodeURIComponent(chat.id)));
    await page.locator('header.head h2', { hasText: 'Ship the beta' }).waitFor();
    await shot('notify-link-chat');

    launch(link('run', 'a1b2c3d4e5f6'));
    await until('a run link to open the Agents screen', async () => page.url().endsWith('#/agents'));

    // A chat link the window did not make opens nothing.
    await page.goto(base + '/#/sessions');
    await page.waitForSelector('[data-column="idle"]');
    launch(link('chat', chat.id, 'ab'.repeat(32)));
    await new Promise((r) => setTimeout(r, 1500));
    assert(page.url().endsWith('#/sessions'), `a link the window did not make moved the page to ${page.url()}`);
  } finally {
    await goCall(page, 'chat.Binding.DeleteChat', chat.id).catch(() => {});
  }
}
