import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert, goCall } from '../lib.mjs';

// Messages end to end. Checks:
// 1. The sidebar's Messages entry lists the Launch project's discussion
//    channel (created for every project) and opens it.
// 2. The person posts (Markdown renders); the command line reads the post.
// 3. An oversized post is refused before it is sent, with the limit named.
// 4. A Connected assistant (node as the MCP client, real OAuth) added to
//    Launch posts to the discussion channel with post_channel_message: the
//    post appears live with the connection's name and an assistant badge;
//    a retry with the same idempotency_key does not post twice.
// 5. A channel the person creates in the same project stays closed to the
//    assistant (not_invited) until the owner invites it; the Connected
//    panel's Message channel picker offers it (and no Record channel or
//    discussion channel).
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');

export default async function ({ page, base, env, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  const cli = async (...args) => (await run(bin, ['channels', ...args], { env })).stdout;

  // 1. Sidebar → Messages → Launch discussion.
  await page.goto(base + '/');
  await page.locator('[data-route="/messages"]').click();
  const disc = page.locator('[data-channel]', { hasText: 'Launch discussion' });
  await disc.waitFor();
  const listed = await cli('list', seed.launch);
  const discID = await disc.getAttribute('data-channel');
  assert(listed.includes(discID) && listed.includes('discussion'), `osfoundry channels list names the same discussion channel: ${listed}`);
  await disc.click();
  await until('the open channel', async () => (await page.locator('[data-channel-name]').textContent())?.includes('Launch discussion'));
  await page.getByText('No messages yet.').waitFor();

  // 2. The person posts.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Refunds take **5 days**.');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const mine = page.locator('[data-message][data-kind="person"]');
  await mine.locator('strong', { hasText: '5 days' }).waitFor();
  assert((await mine.locator('[data-author]').textContent()) === 'You', 'the person\'s post is by You');
  assert((await box.inputValue()) === '', 'the composer clears after posting');
  const read = JSON.parse(await cli('read', discID, '--json'));
  assert(read.length === 1 && read[0].text === 'Refunds take **5 days**.' && read[0].author_kind === 'person', 'the store holds the post: ' + JSON.stringify(read));

  // 3. Oversized.
  await box.fill('x'.repeat(4001));
  await page.getByText('Too long: at most 4000 characters.').waitFor();
  assert(await page.getByRole('button', { name: 'Post', exact: true }).isDisabled(), 'Post is off for an oversized message');
  assert((await page.locator('[data-count]').textContent()) === '4001 / 4000', 'the counter shows the limit');
  await box.fill('');

  // 4. A Connected assistant posts.
  const conn = await goCall(page, 'connect.Panel.AddAssistant', 'Other MCP client', 'E2E bot');
  await goCall(page, 'connect.Panel.AddToProject', conn.id, seed.launch);
  const addr = await goCall(page, 'connect.Panel.ServerAddress');
  const token = await connectAssistant(page, addr);
  const rpc = async (name, args) => {
    const r = await fetch(addr, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'Bearer ' + token },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    assert(r.status === 200, `${name}: HTTP ${r.status}`);
    const res = (await r.json()).result;
    return { isError: !!res.isError, text: res.content?.[0]?.text ?? '' };
  };
  const seen = await rpc('list_channel_messages', { channel_id: discID });
  assert(!seen.isError && seen.text.includes('Refunds take **5 days**.'), 'the assistant reads the discussion channel: ' + seen.text);
  const post = { channel_id: discID, text: 'Noted: refunds in **5 days**.', idempotency_key: 'e2e-1' };
  const posted = await rpc('post_channel_message', post);
  assert(!posted.isError, 'the assistant posts: ' + posted.text);
  const theirs = page.locator('[data-message][data-kind="assistant"]');
  await theirs.waitFor();
  assert((await theirs.locator('[data-author]').textContent()) === 'E2E bot', 'the post shows the connection\'s name');
  await theirs.getByText('assistant', { exact: true }).waitFor();
  await theirs.locator('strong', { hasText: '5 days' }).waitFor();
  const again = await rpc('post_channel_message', post);
  assert(!again.isError && again.text.includes('"replayed": true'), 'a retry replays: ' + again.text);
  assert(JSON.parse(await cli('read', discID, '--json')).length === 2, 'the retry did not post twice');
  await shot('messages');

  // 5. Another channel of the same project needs an invite.
  await page.getByRole('button', { name: '+ New channel' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('support');
  await page.locator('select[name="project"]').selectOption({ label: 'Launch' });
  await page.getByRole('button', { name: 'Create channel' }).click();
  await until('the new channel open', async () => (await page.locator('[data-channel-name]').textContent())?.includes('support'));
  const support = new URL(page.url().replace('#/', '')).searchParams.get('channel');
  const closed = await rpc('list_channel_messages', { channel_id: support });
  assert(closed.isError && closed.text.startsWith('not_invited'), 'a non-discussion channel is closed without an invite: ' + closed.text);
  const offered = await goCall(page, 'notesres.Picker.Channels');
  assert(offered.some((c) => c.id === support && c.kind === 'message_channel') && !offered.some((c) => c.id === discID),
    'Connected → Message channels offers the new channel for an invite, never the discussion channel: ' + JSON.stringify(offered));
  await goCall(page, 'connect.Panel.InviteChannel', conn.id, support);
  const open = await rpc('post_channel_message', { channel_id: support, text: 'hello support', idempotency_key: 'e2e-2' });
  assert(!open.isError, 'after the invite the assistant posts: ' + open.text);
  await page.locator('[data-message][data-kind="assistant"]', { hasText: 'hello support' }).waitFor();
}

// connectAssistant runs the OAuth flow an MCP client runs (DCR, PKCE,
// consent in a separate browser context signed in with the app's link)
// and returns the access token.
async function connectAssistant(page, addr) {
  const prm = await (await fetch(new URL('/.well-known/oauth-protected-resource' + new URL(addr).pathname, addr))).json();
  const asm = await (await fetch(prm.authorization_servers[0] + '/.well-known/oauth-authorization-server')).json();
  const got = [];
  const cb = http.createServer((req, res) => {
    got.push(new URL(req.url, 'http://x').searchParams);
    res.end('ok');
  });
  await new Promise((ok) => cb.listen(0, '127.0.0.1', ok));
  const redirect = `http://127.0.0.1:${cb.address().port}/callback`;
  try {
    const reg = await fetch(asm.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'E2E bot', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
    });
    assert(reg.status === 201, `DCR is 201, got ${reg.status}`);
    const client = await reg.json();
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const authURL = new URL(asm.authorization_endpoint);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, state, resource: addr,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', scope: 'osfoundry:read osfoundry:write' }))
      authURL.searchParams.set(k, v);
    const bctx = await page.context().browser().newContext();
    try {
      const b = await bctx.newPage();
      await b.goto(authURL.href);
      await b.goto(await goCall(page, 'connect.Panel.SignInLink'));
      await b.getByRole('radio', { name: 'Acme' }).check();
      await b.getByRole('radio', { name: 'Use pending: E2E bot' }).check();
      await b.getByRole('checkbox', { name: 'I approve connecting this assistant to Acme' }).check();
      await b.getByRole('button', { name: 'Connect' }).click();
      await until('the redirect back to the assistant', async () => got.length > 0);
    } finally {
      await bctx.close();
    }
    const tok = await fetch(asm.token_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: got[0].get('code'), redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource: addr }),
    });
    assert(tok.status === 200, `token exchange is 200, got ${tok.status}`);
    return (await tok.json()).access_token;
  } finally {
    cb.close();
  }
}
