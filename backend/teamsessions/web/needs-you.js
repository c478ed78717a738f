// The Needs you page, live: re-reads /api/sessions whenever the server's
// event stream says the person's sessions changed, answers prompts, and
// sets up ntfy and Web Push. No framework: the server drew the first view.
'use strict';
(() => {
  const $ = (s, el = document) => el.querySelector(s);
  const el = (tag, attrs = {}, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'text') n.textContent = v; else if (k.startsWith('data-')) n.setAttribute(k, v); else n[k] = v;
    }
    for (const c of kids) if (c) n.append(c);
    return n;
  };
  let leaving = false;
  const api = async (method, path, body) => {
    const r = await fetch(path, {method, credentials: 'same-origin', headers: body ? {'Content-Type': 'application/json'} : {},
      body: body ? JSON.stringify(body) : undefined});
    const data = r.status === 204 ? null : await r.json().catch(() => null);
    if (r.status === 401) {
      // Signed out: to the sign-in, once; a second call's 401 would cut the
      // first navigation short.
      if (!leaving) { leaving = true; location.href = '/needs-you'; }
      throw new Error('signed out');
    }
    if (!r.ok) throw new Error((data && data.error) || 'the team server answered ' + r.status);
    return data;
  };
  const waited = (since) => {
    if (!since) return '';
    const m = Math.floor((Date.now() - since) / 60000);
    return m < 1 ? 'just now' : m < 60 ? m + ' min' : m < 2880 ? Math.floor(m / 60) + ' h' : Math.floor(m / 1440) + ' days';
  };
  const pending = new Map(); // answer id → the card's key, while the desktop has not said
  const notes = new Map(); // card key → last words about an answer
  const titles = new Map(); // card key → its title when answered

  function card(d, s) {
    const key = 's-' + d.id + '-' + s.id;
    const li = el('li', {className: 'card' + (s.state === 'needs_you' ? ' waits' : ''), id: key});
    li.append(el('div', {className: 'title', text: s.title}));
    const w = waited(s.since);
    const when = s.state === 'needs_you' ? ' · waiting ' : s.state === 'running' ? ' · for ' : ' · ';
    li.append(el('div', {className: 'meta', text: s.kind + (s.state === 'done' || s.state === 'failed' ? ' · ' + s.state : '') +
      ' · on ' + d.name + (w ? when + w + (s.state === 'done' || s.state === 'failed' ? ' ago' : '') : '')}));
    if (s.state !== 'needs_you') return li;
    Object.assign(li.dataset, {device: d.id, session: s.id, since: String(s.since)});
    if (s.line) li.append(el('div', {className: 'q', text: s.line}));
    if (s.kind === 'terminal' && d.answers) {
      const acts = el('div', {className: 'acts'},
        el('button', {className: 'yes', text: 'Approve', 'data-answer': 'approve'}),
        el('button', {text: 'Decline', 'data-answer': 'decline'}));
      for (let i = 1; i <= (s.choices || 0); i++) {
        const b = el('button', {text: String(i), 'data-answer': 'choice', 'data-choice': String(i)});
        b.setAttribute('aria-label', 'Choice ' + i);
        acts.append(b);
      }
      li.append(acts);
      const f = el('form', {className: 'reply'}, el('input', {name: 'text', maxLength: 200, placeholder: 'Reply…', autocomplete: 'off'}), el('button', {text: 'Send'}));
      f.querySelector('input').setAttribute('aria-label', 'Reply');
      li.append(f);
    } else if (s.asks && d.answers) {
      // The app's own chat or agent run: a tool call to approve, or a
      // chat's question to reply to.
      if (s.asks === 'approval') {
        li.append(el('div', {className: 'acts'},
          el('button', {className: 'yes', text: 'Approve', 'data-answer': 'approve'}),
          el('button', {text: 'Decline', 'data-answer': 'decline'})));
      } else {
        const f = el('form', {className: 'reply'}, el('input', {name: 'text', maxLength: 200, placeholder: 'Reply…', autocomplete: 'off'}), el('button', {text: 'Send'}));
        f.querySelector('input').setAttribute('aria-label', 'Reply');
        li.append(f);
      }
    }
    if ((s.kind === 'terminal' || s.asks) && !d.answers) {
      li.append(el('p', {className: 'note muted', text: 'Answers from this page are off on ' + d.name +
        ': turn on “Answer from the team server\'s page” in its Settings → Team.'}));
    }
    const n = el('p', {className: 'note'});
    n.setAttribute('role', 'status');
    const said = notes.get(key);
    if (said) { n.textContent = said.text; n.className = 'note ' + said.cls; }
    li.append(n);
    return li;
  }

  // The card a link or a tapped push names (#<card id>) is outlined and
  // scrolled to once, and stays outlined across redraws: a redraw replaces
  // the cards, which :target would not follow.
  let scrolledTo = '';
  function toTarget() {
    const id = location.hash.slice(1);
    for (const c of document.querySelectorAll('.card.target')) if (c.id !== id) c.classList.remove('target');
    const t = id && document.getElementById(id);
    if (!t) return;
    t.classList.add('target');
    if (scrolledTo !== id) { scrolledTo = id; t.scrollIntoView({block: 'center'}); }
  }

  function render(sh) {
    const lists = {needs: [], running: [], done: []};
    for (const d of sh.devices) for (const s of d.sessions) {
      if (s.state === 'needs_you') lists.needs.push(card(d, s));
      else if (s.state === 'running') lists.running.push(card(d, s));
      else if ((s.state === 'done' || s.state === 'failed') && (!s.since || Date.now() - s.since < 864e5)) lists.done.push(card(d, s));
    }
    if (!lists.needs.length) {
      lists.needs.push(el('li', {className: 'muted', id: 'none', text: 'Nothing waits for you' + (sh.devices.length ? '.' :
        ' — no desktop of yours shares its sessions: turn on “Share this computer\'s sessions” in Settings → Team.')}));
    }
    // Keep what the person is typing in a reply across a redraw.
    const typing = document.activeElement && document.activeElement.name === 'text' ? document.activeElement : null;
    const typingKey = typing && typing.closest('li').id;
    for (const [id, items] of Object.entries(lists)) {
      $('#' + id).replaceChildren(...items);
      const c = $('#n-' + (id === 'needs' ? 'needs' : id));
      if (c) c.textContent = id === 'needs' && items[0] && items[0].id === 'none' ? '0' : String(items.length);
    }
    if (typingKey) {
      const li = document.getElementById(typingKey);
      const inp = li && li.querySelector('input[name=text]');
      if (inp) { inp.value = typing.value; inp.focus(); }
    }
    const dl = $('#desktop-list');
    if (dl) {
      dl.replaceChildren(...(sh.devices.length ? sh.devices.map((d) => el('li', {className: 'row-dev'},
        el('span', {text: d.name + ' · ' + (d.answers ? 'takes answers from this page' : 'answers from this page are off')}),
        el('button', {text: 'Sign out', 'data-revoke': d.id, 'data-name': d.name})))
        : [el('li', {className: 'muted', text: 'No desktop of yours shares its sessions now.'})]));
    }
    document.title = (lists.needs[0].id === 'none' ? '' : '(' + lists.needs.length + ') ') + 'Needs you · osFoundry';
    toTarget();
  }

  // Browsers and phones: each may see and answer; sign one out.
  const blist = $('#browser-list');
  async function browsers() {
    if (!blist) return;
    const {browsers: bs} = await api('GET', '/api/sessions/browsers');
    blist.replaceChildren(...bs.map((b) => el('li', {className: 'row-dev'},
      el('span', {text: b.name + (b.current ? ' · this browser' : '') + (b.signed_out ? ' · signed out, still gets pushes' :
        ' · signed in ' + new Date(b.signed_in).toLocaleDateString()) + (b.pushes && !b.signed_out ? ' · gets pushes' : ''), title: b.user_agent}),
      el('button', {text: b.signed_out ? 'Stop pushes' : 'Sign out', 'data-browser': b.id, 'data-name': b.name + (b.current ? ' (this browser)' : '')}))));
  }
  if (blist) blist.addEventListener('click', async (e) => {
    const b = e.target.closest('button[data-browser]');
    if (!b || !confirm('Sign ' + b.dataset.name + ' out? It can no longer see or answer what waits for you, nor get pushes, until it signs in again.')) return;
    try { await api('POST', '/api/sessions/browsers/' + encodeURIComponent(b.dataset.browser) + '/revoke'); await browsers(); } catch (err) { alert(err.message); }
  });

  async function reload() {
    try {
      browsers().catch(() => {});
      render(await api('GET', '/api/sessions'));
      for (const [id, key] of pending) checkAnswer(id, key);
    } catch (e) { /* the stream tries again */ }
  }

  const words = {
    answered: ['Answered.', 'ok'],
    gone: ['It was already answered at the desk: nothing was typed.', 'muted'],
    off: ['Answers from this page are off on that desktop: nothing was typed.', 'bad'],
    failed: ['The desktop could not type the answer', 'bad'],
    expired: ['The desktop did not take the answer in time: nothing was typed.', 'bad'],
  };
  function say(key, text, cls) {
    notes.set(key, {text, cls});
    // The card leaves Needs you once the agent goes on: say it at the top too.
    const card = document.getElementById(key);
    if (card) titles.set(key, card.querySelector('.title').textContent);
    const r = $('#result');
    r.textContent = (titles.get(key) || 'The session') + ': ' + text;
    r.className = 'note ' + cls;
    const n = document.getElementById(key);
    const p = n && n.querySelector('.note[role=status]');
    if (p) { p.textContent = text; p.className = 'note ' + cls; }
  }
  async function checkAnswer(id, key) {
    try {
      const a = await api('GET', '/api/sessions/answers/' + encodeURIComponent(id));
      if (a.state === 'pending' || a.state === 'claimed') return;
      pending.delete(id);
      const [t, cls] = words[a.state] || ['The desktop said: ' + a.state, 'muted'];
      say(key, t + (a.state === 'failed' && a.detail ? ': ' + a.detail : ''), cls);
    } catch (e) { pending.delete(id); say(key, e.message, 'bad'); }
  }

  async function answer(li, body) {
    const key = li.id;
    for (const b of li.querySelectorAll('button')) b.disabled = true;
    say(key, 'Sending…', 'muted');
    try {
      const a = await api('POST', '/api/sessions/answers', Object.assign({device: li.dataset.device, session: li.dataset.session,
        since: Number(li.dataset.since)}, body));
      pending.set(a.id, key);
      say(key, 'Sent to the desktop…', 'muted');
      checkAnswer(a.id, key);
    } catch (e) {
      say(key, e.message, 'bad');
      for (const b of li.querySelectorAll('button')) b.disabled = false;
    }
  }

  $('#lists').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-answer]');
    if (!b) return;
    const body = {answer: b.dataset.answer};
    if (b.dataset.choice) body.choice = Number(b.dataset.choice);
    answer(b.closest('li'), body);
  });
  $('#lists').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = e.target.elements.text.value.trim();
    if (text) answer(e.target.closest('li'), {answer: 'text', text});
  });

  // Sign a desktop out (a lost laptop): it can neither share nor answer.
  const dlist = $('#desktop-list');
  if (dlist) dlist.addEventListener('click', async (e) => {
    const b = e.target.closest('button[data-revoke]');
    if (!b || !confirm('Sign ' + b.dataset.name + ' out? It stops sharing and taking answers until it signs in again.')) return;
    try { await api('POST', '/api/sessions/devices/' + encodeURIComponent(b.dataset.revoke) + '/revoke'); reload(); } catch (err) { alert(err.message); }
  });

  // Live: every change any desktop or answer makes, through any replica.
  function listen() {
    const es = new EventSource('/api/sessions/events');
    es.addEventListener('change', () => { $('#lists').dataset.live = 'on'; reload(); });
    es.onerror = () => {
      $('#lists').dataset.live = 'reconnecting';
      // The server ended the stream for good (this browser was signed out):
      // the next read says so and goes to sign in.
      if (es.readyState === EventSource.CLOSED) reload();
    };
  }
  listen();
  // A tapped push opens this page on its session: the service worker
  // navigates a window it controls, and tells one it does not.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => {
      const u = e.data && e.data.open && new URL(e.data.open, location.href);
      if (u && u.origin === location.origin && u.pathname === '/needs-you') location.href = u.href;
    });
  }
  window.addEventListener('hashchange', toTarget);
  toTarget();
  setInterval(() => { for (const w of document.querySelectorAll('.waited')) w.textContent = waited(Number(w.dataset.since)); }, 30000);

  // Notifications.
  if (!$('#push')) return;
  const pushNote = (t, cls = 'muted') => { const n = $('#push-note'); n.textContent = t; n.className = 'note ' + cls; };
  function showTopic(t) {
    const box = $('#ntfy');
    if (!t) { box.replaceChildren(el('p', {className: 'muted', text: 'No ntfy topic yet: make one on ntfy.sh or your own ntfy server below.'})); return; }
    box.replaceChildren(
      el('p', {text: 'In the ntfy app, subscribe to this topic' + (t.has_token ? ' (with your access token)' : '') + ':'}),
      el('img', {id: 'qr', src: '/api/push/ntfy/qr.png?t=' + encodeURIComponent(t.topic), alt: 'QR code of ' + t.subscribe}),
      el('p', {}, el('code', {text: t.subscribe})));
  }
  let vapid = '';
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  function showQuiet(q) {
    $('#quiet-now').textContent = q ? 'No pushes from ' + q.from + ' to ' + q.to + ' (' + q.time_zone + '); the page still shows what waits.'
      : 'No quiet hours: pushes come at any time.';
    if (q) { $('#quiet-form').elements.from.value = q.from; $('#quiet-form').elements.to.value = q.to; }
  }
  api('GET', '/api/push').then((s) => { vapid = s.vapid_public_key; showTopic(s.ntfy); showQuiet(s.quiet); }).catch((e) => pushNote(e.message, 'bad'));
  $('#quiet-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    try { showQuiet(await api('PUT', '/api/push/quiet', {from: f.from.value, to: f.to.value, time_zone: tz})); pushNote('Quiet hours saved.', 'ok'); } catch (err) { pushNote(err.message, 'bad'); }
  });
  $('#quiet-off').addEventListener('click', async () => {
    try { await api('DELETE', '/api/push/quiet'); showQuiet(null); pushNote('Quiet hours off.', 'ok'); } catch (err) { pushNote(err.message, 'bad'); }
  });
  $('#ntfy-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    try { showTopic(await api('PUT', '/api/push/ntfy', {server: f.server.value, token: f.token.value})); f.token.value = ''; pushNote('New topic made: subscribe to it on your phone.', 'ok'); } catch (err) { pushNote(err.message, 'bad'); }
  });
  $('#test').addEventListener('click', async () => {
    try {
      const r = await api('POST', '/api/push/test');
      pushNote(r.ntfy || r.web_push ? 'Sent' + (r.ntfy ? ' to ntfy' : '') + (r.web_push ? (r.ntfy ? ' and ' : ' to ') + r.web_push + ' browser(s)' : '') + '.' :
        'Nothing to send to yet: make an ntfy topic or turn on this browser.', r.failed.length ? 'bad' : 'ok');
      if (r.failed.length) pushNote('Not delivered: ' + r.failed.join('; '), 'bad');
    } catch (e) { pushNote(e.message, 'bad'); }
  });
  const key = (b64) => { const s = atob((b64 + '='.repeat((4 - b64.length % 4) % 4)).replace(/-/g, '+').replace(/_/g, '/')); return Uint8Array.from(s, (c) => c.charCodeAt(0)); };
  $('#webpush').addEventListener('click', async () => {
    try {
      if (!('serviceWorker' in navigator) || !('PushManager' in window)) throw new Error('this browser cannot take pushes (on an iPhone: add the page to the home screen first)');
      if (await Notification.requestPermission() !== 'granted') throw new Error('notifications are blocked for this site: allow them in the browser\'s site settings');
      const reg = await navigator.serviceWorker.register('/needs-you/sw.js', {scope: '/needs-you'});
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key(vapid)});
      const j = sub.toJSON();
      await api('POST', '/api/push/subscriptions', {endpoint: j.endpoint, keys: {p256dh: j.keys.p256dh, auth: j.keys.auth}});
      pushNote('This browser will be notified.', 'ok');
    } catch (e) { pushNote(e.message, 'bad'); }
  });
})();
