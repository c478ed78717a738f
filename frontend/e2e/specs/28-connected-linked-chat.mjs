import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { until, assert, goCall } from '../lib.mjs';

// A chat that links itself to a project is shown under its connection.
// node plays a Claude chat signed in through the consent page. Checks:
// 1. link_current_chat on a project the connection was added to puts the
//    chat, under its own label, below that project in Connected agents
//    (the panel follows the call without reopening).
// 2. The card under it says, in the panel's fixed words, that work assigned
//    to a linked chat waits until the person opens that chat.
// 3. A project the connection was not added to refuses the link, and
//    nothing appears for it.
// 4. `osfoundry connections list` prints the chat under its connection and
//    project, with the same words.
// 5. Removing the project takes its linked chat off the panel.
export default async function ({ page, base, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  await page.goto(base + '/');
  await page.getByRole('button', { name: 'Connections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();
  await dialog.getByRole('radio', { name: 'Claude', exact: true }).click();
  await dialog.getByLabel('Display name').fill('Claude research');
  await dialog.getByRole('button', { name: 'Add assistant' }).click();
  const detail = dialog.locator('[data-connection-detail]');
  await detail.locator('h3', { hasText: 'Claude research' }).waitFor();
  const connId = await detail.getAttribute('data-connection-detail');
  const addr = await goCall(page, 'connect.Panel.ServerAddress');

  // Sign in as the chat's host: DCR → consent ("Use pending: Claude research") → token.
  const asm = await (await fetch(new URL(addr).origin + '/.well-known/oauth-authorization-server')).json();
  const got = [];
  const cb = http.createServer((req, res) => {
    got.push(new URL(req.url, 'http://x').searchParams);
    res.end('ok');
  });
  await new Promise((ok) => cb.listen(0, '127.0.0.1', ok));
  let token;
  try {
    const redirect = `http://127.0.0.1:${cb.address().port}/callback`;
    const client = await (await fetch(asm.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'Claude', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }) })).json();
    const verifier = randomBytes(32).toString('base64url');
    const authURL = new URL(asm.authorization_endpoint);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 's', resource: addr, scope: 'osfoundry:read osfoundry:write' }))
      authURL.searchParams.set(k, v);
    const bctx = await page.context().browser().newContext();
    try {
      const browser = await bctx.newPage();
      await browser.goto(authURL.href);
      await browser.goto(await goCall(page, 'connect.Panel.SignInLink'));
      await browser.getByRole('radio', { name: 'Acme' }).check();
      await browser.getByRole('radio', { name: 'Use pending: Claude research' }).check();
      await browser.getByRole('checkbox', { name: 'I approve connecting this assistant to Acme' }).check();
      await browser.getByRole('button', { name: 'Connect' }).click();
      await until('the redirect back to the chat', async () => got.length > 0);
    } finally {
      await bctx.close();
    }
    const tok = await fetch(asm.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: got[0].get('code'), redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource: addr }) });
    token = (await tok.json()).access_token;
  } finally {
    cb.close();
  }
  assert(token, 'the chat has a token');
  const call = async (name, args) => {
    const r = await fetch(addr, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'Bearer ' + token }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
    const res = (await r.json()).result;
    return { isError: !!res.isError, text: res.content?.[0]?.text ?? '' };
  };

  const status = detail.locator('[role=status]');
  await until('"Connected." in the panel', async () => (await status.textContent())?.trim() === 'Connected.');
  await dialog.getByRole('button', { name: 'Add to project' }).click();
  await dialog.getByRole('menu', { name: 'Choose a project' }).getByRole('menuitem', { name: 'Launch' }).click();
  await dialog.locator('.chip', { hasText: 'Launch' }).waitFor();

  // 1. The chat links itself; the panel shows it below Launch.
  const linked = await call('link_current_chat', { project_id: seed.launch, label: 'Launch planning' });
  assert(!linked.isError, 'link_current_chat on an added project: ' + linked.text);
  const under = dialog.locator(`[data-added-project="${seed.launch}"]`);
  const chat = under.locator('[data-linked-chat="Launch planning"]');
  await chat.waitFor({ timeout: 15000 });
  assert((await under.locator('strong').first().innerText()).trim() === 'Launch', 'the linked chat sits under its project');
  assert((await chat.innerText()).includes('linked chat'), 'the row says it is a linked chat: ' + (await chat.innerText()));

  // 2. The card says work waits until the person opens the chat.
  const texts = await goCall(page, 'connect.Panel.Texts');
  const want = 'Work assigned to a linked chat waits until you open that chat and ask it to review the work. osFoundry cannot open the chat or send it notifications.';
  assert(texts.ChatWaits === want, 'the panel text: ' + texts.ChatWaits);
  const card = dialog.locator('[data-chat-waits]');
  assert((await card.innerText()).trim() === want, 'the card under the linked chat: ' + (await card.innerText()));

  // 3. Not added: refused, and nothing shown.
  const other = await call('link_current_chat', { project_id: seed.finance, label: 'Budget chat' });
  assert(other.isError && other.text.startsWith('not_in_project'), 'a project not added refuses the link: ' + other.text);
  assert((await dialog.locator('[data-linked-chat="Budget chat"]').count()) === 0, 'no row for a refused link');
  await chat.scrollIntoViewIfNeeded();
  await shot('connected-linked-chat');

  // 4. The owner's command line lists it too.
  const conns = await goCall(page, 'connect.Panel.Connections');
  const mine = conns.find((c) => c.id === connId);
  assert(mine.chatLinks.length === 1 && mine.chatLinks[0].label === 'Launch planning' && mine.chatLinks[0].project === seed.launch, 'Connections carries the link: ' + JSON.stringify(mine.chatLinks));
  const out = (await promisify(execFile)(bin, ['connections', 'list'], { env })).stdout;
  const below = out.split('\nLinked chats\n')[1] ?? '';
  const at = [`Claude research (${connId})`, `  project ${seed.launch}`, '    chat "Launch planning"', want].map((s) => below.indexOf(s));
  assert(at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1])), 'connections list shows the chat under its connection and project:\n' + out);

  // 5. Removing the project takes the chat off the panel.
  await dialog.getByRole('button', { name: 'Remove from Launch' }).click();
  await chat.waitFor({ state: 'detached' });
  assert((await card.count()) === 0, 'the card leaves with the last linked chat');
}
