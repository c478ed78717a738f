import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall } from '../lib.mjs';

// Connected agents end to end: the owner adds an assistant in the panel;
// node then plays the MCP client (discovery → DCR → authorize → consent
// in the browser → token → tools/call); the panel follows live, and the
// owner's switches (Tools, Approve, Revoke) hold on the very next call.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  await page.goto(base + '/');

  // Header key icon → dialog → Connected tab.
  const key = page.getByRole('button', { name: 'Connections' });
  await key.hover();
  await page.getByRole('tooltip').filter({ hasText: /^Connections$/ }).waitFor({ timeout: 3000 }); // the key icon's tooltip
  await key.click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.waitFor();
  assert((await dialog.getByRole('tab', { name: 'Connected' }).getAttribute('aria-selected')) === 'true', 'the Connected tab is selected');
  await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();
  await dialog.getByRole('heading', { name: 'Connect in three steps' }).waitFor();
  for (const a of ['Claude', 'ChatGPT', 'Other MCP client']) await dialog.getByRole('radio', { name: a }).waitFor();

  // Display name is required.
  await dialog.getByRole('button', { name: 'Add assistant' }).click();
  await dialog.getByText('Give the assistant a name').waitFor();

  await dialog.getByRole('radio', { name: 'Other MCP client' }).click();
  await dialog.getByLabel('Display name').fill('E2E client');
  await dialog.getByRole('button', { name: 'Add assistant' }).click();
  const status = dialog.locator('[data-connection-detail] [role=status]');
  await until('the pending text', async () => (await status.textContent())?.trim() === 'Setup pending. This assistant cannot read or change anything yet.');
  const addrBox = dialog.locator('[data-server-address]');
  const addr = await until('the server address', async () => {
    const t = (await addrBox.textContent())?.trim() ?? '';
    return t.startsWith('http://127.0.0.1:') && t.endsWith('/mcp') ? t : null;
  });
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.getByRole('button', { name: 'Copied', exact: true }).waitFor();
  await dialog.getByText('No projects yet: this assistant can open nothing').waitFor();

  // Projects → Add to project (the picker lists the workspace's projects).
  await dialog.getByRole('button', { name: 'Add to project' }).click();
  const menu = dialog.getByRole('menu', { name: 'Choose a project' });
  // Other specs may add workspaces; Acme's projects are listed by name.
  const items = (await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim());
  const i = items.indexOf('Finance');
  assert(i >= 0 && items[i + 1] === 'Launch', `the picker lists Acme's projects, got ${items}`);
  assert((await menu.textContent()).includes('Acme'), 'the picker names the workspace');
  await shot('connected-picker');
  // Escape closes the menu only, not the dialog around it.
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  assert(await dialog.isVisible(), 'Escape in the project menu keeps the dialog open');
  await dialog.getByRole('button', { name: 'Add to project' }).click();
  await menu.getByRole('menuitem', { name: 'Launch' }).click();
  await dialog.locator('.chip', { hasText: 'Launch' }).waitFor();
  await shot('connected-pending');

  // --- node as the MCP client ---
  const rpc = async (token, method, params) => {
    const r = await fetch(addr, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { status: r.status, headers: r.headers, body: await r.json().catch(() => null) };
  };
  const call = async (token, name, args = {}) => {
    const r = await rpc(token, 'tools/call', { name, arguments: args });
    assert(r.status === 200, `${name}: HTTP ${r.status}`);
    const res = r.body.result;
    return { isError: !!res.isError, text: res.content?.[0]?.text ?? '', data: res.structuredContent };
  };

  const anon = await rpc('', 'tools/call', { name: 'list_granted_resources', arguments: {} });
  assert(anon.status === 401, `tools/call without a token is 401, got ${anon.status}`);
  const challenge = anon.headers.get('www-authenticate') ?? '';
  // No token at all: a challenge without an error code (RFC 6750 §3.1); a bad token names it.
  assert(challenge.startsWith('Bearer resource_metadata="') && !challenge.includes('error='), 'the 401 challenge: ' + challenge);
  const forged = await rpc('osfa_forged', 'tools/call', { name: 'list_granted_resources', arguments: {} });
  const forgedChallenge = forged.headers.get('www-authenticate') ?? '';
  assert(forged.status === 401 && forgedChallenge.includes('error="invalid_token"') && forgedChallenge.includes('Connect osFoundry to continue'), 'the bad-token challenge: ' + forgedChallenge);
  assert(anon.body.result.isError && anon.body.result.content[0].text === 'Authentication required', 'the 401 JSON-RPC body');
  const prmURL = challenge.match(/resource_metadata="([^"]+)"/)[1];
  const prm = await (await fetch(prmURL)).json();
  assert(prm.resource === addr, `metadata resource ${prm.resource} equals the server address ${addr}`);
  const asm = await (await fetch(prm.authorization_servers[0] + '/.well-known/oauth-authorization-server')).json();
  assert(asm.code_challenge_methods_supported.includes('S256') && asm.authorization_response_iss_parameter_supported, 'AS metadata');

  // The assistant's redirect target: a loopback listener, as native clients use.
  const got = [];
  const cb = http.createServer((req, res) => {
    got.push(new URL(req.url, 'http://x').searchParams);
    res.setHeader('Content-Type', 'text/html');
    res.end('<p>You can close this window.</p>');
  });
  await new Promise((ok) => cb.listen(0, '127.0.0.1', ok));
  const redirect = `http://127.0.0.1:${cb.address().port}/callback`;
  try {
    const reg = await fetch(asm.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'E2E MCP client', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
    });
    assert(reg.status === 201, `DCR is 201, got ${reg.status}`);
    const client = await reg.json();
    const verifier = randomBytes(32).toString('base64url');
    const challengeS256 = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(8).toString('hex');
    const authURL = new URL(asm.authorization_endpoint);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, code_challenge: challengeS256, code_challenge_method: 'S256', state, resource: addr, scope: 'osfoundry:read osfoundry:write' }))
      authURL.searchParams.set(k, v);

    // The consent page in the browser: first it asks the owner to sign in;
    // the app's one-time link signs in and continues to the waiting consent.
    // The system browser: its own cookie jar, like the person's real browser.
    const bctx = await page.context().browser().newContext();
    const browser = await bctx.newPage();
    try {
      await browser.goto(authURL.href);
      await browser.getByText('Sign in to approve this assistant').waitFor();
      await browser.goto(await goCall(page, 'connect.Panel.SignInLink'));
      await browser.getByRole('heading', { name: 'Connect an agent' }).waitFor();
      const body = await browser.locator('body').innerText();
      for (const s of ['Assistant: E2E MCP client', 'Returns to: 127.0.0.1:', 'Workspace to connect', 'Requested capabilities', 'Read supported resources in projects you add', 'Change supported resources where you have edit access', 'Connection'])
        assert(body.includes(s), `the consent page shows "${s}"`);
      // One workspace is chosen (radio buttons); pick Acme.
      await browser.getByRole('radio', { name: 'Acme' }).check();
      // The pending connection is offered but never preselected (the
      // client's own name must not choose it); the owner picks it.
      const pendingChoice = browser.getByRole('radio', { name: 'Use pending: E2E client' });
      assert(!(await pendingChoice.isChecked()), 'the pending connection is not preselected');
      assert(await browser.getByRole('radio', { name: 'Create a new connection' }).isChecked(), 'a new connection is the default');
      await pendingChoice.check();
      const approve = browser.getByRole('checkbox', { name: 'I approve connecting this assistant to Acme' });
      await approve.waitFor();

      // CSRF: the same form without its token (or with a wrong one), sent
      // with the signed-in session cookie, is refused. (The page's CSP
      // forbids fetch, so the post goes through the context's request API.)
      const fields = await browser.evaluate(() => Object.fromEntries(new FormData(document.querySelector('form'))));
      const origin = new URL(addr).origin;
      for (const csrf of [null, 'forged']) {
        const form = { ...fields, approve: 'yes', action: 'connect' };
        if (csrf === null) delete form.csrf;
        else form.csrf = csrf;
        const r = await browser.request.post(origin + '/oauth/authorize', { form, maxRedirects: 0, headers: { Origin: origin } });
        const text = await r.text();
        assert(r.status() === 403 && text.includes('This approval did not come from the page osFoundry showed you'), `consent without its CSRF token (${csrf}) is refused, got ${r.status()}`);
      }
      // …while the same post with its token would pass the check: the
      // refusal above is the token, not the session or the Origin.
      assert(typeof fields.csrf === 'string' && fields.csrf.length >= 32, 'the consent form carries a CSRF token');
      assert(got.length === 0, 'nothing was sent back to the assistant by the refused posts');
      await browser.screenshot({ path: fileURLToPath(new URL('../../test-results/connected-consent.png', import.meta.url)) });
      await approve.check();
      await browser.getByRole('button', { name: 'Connect' }).click();
      await until('the redirect back to the assistant', async () => got.length > 0).catch(async (e) => {
        throw new Error(e.message + '; the browser shows: ' + (await browser.locator('body').innerText().catch(() => '?')));
      });
    } finally {
      await bctx.close();
    }
    const q = got[0];
    assert(q.get('state') === state && q.get('iss') === asm.issuer && q.get('code'), `the authorization response carries code, state and iss: ${q}`);

    const tokRes = await fetch(asm.token_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: q.get('code'), redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource: addr }),
    });
    assert(tokRes.status === 200, `token exchange is 200, got ${tokRes.status}`);
    const token = (await tokRes.json()).access_token;

    const granted = await call(token, 'list_granted_resources');
    assert(!granted.isError, 'list_granted_resources is allowed: ' + granted.text);
    const g = granted.data ?? JSON.parse(granted.text);
    assert(g.workspace === seed.ws && JSON.stringify(g.projects) === JSON.stringify([seed.launch]), 'granted: Acme with exactly Launch: ' + granted.text);

    // The panel follows without reopening: "Connected." and the call in Recent activity.
    await until('"Connected." in the panel', async () => (await status.textContent())?.trim() === 'Connected.');
    // The panel names the connection's workspace under its title.
    await until('"Workspace: Acme" under the title', async () => (await dialog.locator('[data-panel-workspace]').textContent())?.trim() === 'Workspace: Acme');
    const row = dialog.locator('[data-activity-tool="list_granted_resources"]').first();
    await row.waitFor();
    assert((await row.innerText()).includes('Allowed'), 'the call is listed as Allowed');
    await dialog.getByText('Workspace Acme').waitFor();
    await shot('connected-connected');

    // A proposal waits under "Needs your approval" with its destination and
    // files; approving it writes the file into the Note as a new version.
    const prop = await call(token, 'propose_file_import', { project_id: seed.launch, into: 'note', destination_id: seed.note, title: 'Import the launch date',
      files: [{ name: 'launch-date.md', content: 'Launch on 3 March.' }] });
    assert(!prop.isError, 'propose_file_import is queued: ' + prop.text);
    const pid = (prop.data ?? JSON.parse(prop.text)).proposal_id;
    const card = dialog.locator(`[data-proposal="${pid}"]`);
    await card.waitFor();
    const cardText = await card.innerText();
    for (const s of ['Import the launch date', 'Q3 launch checklist', 'launch-date.md', 'Launch on 3 March.', 'E2E client', 'Launch']) assert(cardText.includes(s), `the proposal card shows "${s}"`);
    await dialog.getByRole('heading', { name: /Needs your approval/ }).waitFor();
    await shot('connected-approval');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });
    const ps = await call(token, 'get_proposal_status', { proposal_id: pid });
    const status1 = ps.data ?? JSON.parse(ps.text);
    assert(status1.status === 'approved' && status1.imported?.[0]?.name === 'launch-date.md' && status1.imported[0].version > 1, 'the proposal is approved with the version written: ' + ps.text);
    const note = await goCall(page, 'notes.Binding.GetNote', seed.note);
    assert(note.tabs.some((t) => t.title === 'launch-date.md' && t.text === 'Launch on 3 March.') && note.version === status1.imported[0].version, 'the Note has the imported tab at the reported version');
    const listed = (await rpc(token, 'tools/list', {})).body.result.tools.map((t) => t.name);
    assert(listed.includes('propose_pull_request') && !listed.includes('propose_room_app_install') && !listed.includes('propose_gitnest_work'),
      'only proposals the app carries out are offered: ' + listed.join(', '));

    // Decline: the proposal leaves the list and reads declined; nothing is written.
    const prop2 = await call(token, 'propose_file_import', { project_id: seed.launch, into: 'note', destination_id: seed.note, title: 'Import the brief',
      files: [{ name: 'brief.md', content: 'The brief.' }] });
    const pid2 = (prop2.data ?? JSON.parse(prop2.text)).proposal_id;
    const card2 = dialog.locator(`[data-proposal="${pid2}"]`);
    await card2.getByRole('button', { name: 'Decline' }).click();
    await card2.waitFor({ state: 'detached' });
    const ps2 = await call(token, 'get_proposal_status', { proposal_id: pid2 });
    assert((ps2.data ?? JSON.parse(ps2.text)).status === 'declined', 'the proposal is declined: ' + ps2.text);
    assert(!(await goCall(page, 'notes.Binding.GetNote', seed.note)).tabs.some((t) => t.title === 'brief.md'), 'a declined import wrote nothing');

    // Removing the project closes it on the very next call.
    const open = await call(token, 'list_project_resources', { project_id: seed.launch });
    assert(!open.isError && open.text.includes(seed.note), 'the added project lists its Note: ' + open.text);
    await dialog.getByRole('button', { name: 'Remove from Launch' }).click();
    await dialog.getByText('No projects yet: this assistant can open nothing').waitFor();
    const closed = await call(token, 'list_project_resources', { project_id: seed.launch });
    assert(closed.isError && closed.text.startsWith('not_in_project'), 'a removed project is refused: ' + closed.text);

    // Tools: untick one, Save tools → the next call is refused.
    await dialog.getByText('All supported tools are on by default.').waitFor();
    const box = dialog.locator('label.tool', { hasText: 'list_granted_resources' }).getByRole('checkbox');
    await box.uncheck();
    await dialog.getByRole('button', { name: 'Save tools' }).click();
    await dialog.getByText('Saved.').waitFor();
    const off = await call(token, 'list_granted_resources');
    assert(off.isError && off.text.startsWith('tool_disabled'), 'an unticked tool is refused: ' + off.text);
    const saved = await goCall(page, 'connect.Panel.Tools', await dialog.locator('[data-connection-detail]').getAttribute('data-connection-detail'));
    assert(saved.find((t) => t.name === 'list_granted_resources').enabled === false, 'the untick is saved');
    await until('the refusal in Recent activity', async () => (await dialog.locator('[data-activity-tool="list_granted_resources"]').first().innerText()).includes('Denied: tool disabled'));

    // Revoke connection → the very next call gets connection_revoked.
    await dialog.getByRole('button', { name: 'Revoke connection' }).click();
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await until('"Revoked." in the panel', async () => (await status.textContent())?.trim() === 'Revoked.');
    const gone = await call(token, 'list_project_resources');
    assert(gone.isError && gone.text.startsWith('connection_revoked'), 'a revoked connection is refused: ' + gone.text);
    await until('the revoked call in Recent activity', async () => (await dialog.locator('[data-activity-tool="list_project_resources"]').first().innerText()).includes('Denied: connection revoked'));
    await shot('connected-revoked');

    // Escape closes the dialog; the rest of the window is usable again;
    // #…?keys=connected opens it straight on the tab.
    await dialog.getByRole('button', { name: 'Revoke connection' }).waitFor({ state: 'detached' });
    await dialog.getByRole('tab', { name: 'Connected' }).focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert((await page.locator('.shell').getAttribute('inert')) === null, 'the window is not inert once the dialog closes');
    await page.goto(base + '/#/terminal?keys=connected');
    await page.reload();
    const again = page.getByRole('dialog', { name: 'Connections' });
    await again.getByRole('heading', { name: 'Connected agents' }).waitFor();
    await again.getByRole('button', { name: 'Close' }).click();
    await again.waitFor({ state: 'detached' });
    const hash = await page.evaluate(() => location.hash);
    assert(hash === '#/terminal', `closing drops the keys link from the route, got ${hash}`);
  } finally {
    cb.close();
  }
}
