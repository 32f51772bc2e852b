// Triage chat page: one more client of the /api/v1 API. No framework, no build step.
// Every piece of text from a host, a capture or the server is put on the page with textContent or as an
// SVG text node: nothing is ever parsed as HTML.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const logEl = $('log');
  const input = $('input');
  const statusEl = $('status');
  const sent = [];
  let recall = -1;
  let current = null;          // {id, doc, host, intent}
  let knownHosts = [];

  // ---------------------------------------------------------------- DOM helpers (text only) ----
  // The page's one sanitiser, the same rules as the server's: every text node goes through it. The API keeps
  // host text exact (JSON escapes it), so control characters arrive here raw: C0 controls become their
  // control pictures (ESC is ␛), DEL ␡, and C1 controls, bidi overrides and isolates, zero-width and other
  // format characters, and line/paragraph separators become <U+XXXX>. Newline and tab stay.
  const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
  function vis(text) {
    return String(text).replace(INVISIBLE, (c) => {
      const n = c.charCodeAt(0);
      if (n < 0x20) return String.fromCharCode(0x2400 + n);
      if (n === 0x7f) return '\u2421';
      return '<U+' + n.toString(16).toUpperCase().padStart(4, '0') + '>';
    });
  }
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
        else if (k.startsWith('data-') || k === 'title' || k === 'type' || k === 'role' || k.startsWith('aria-')) e.setAttribute(k, vis(v));
        else e[k] = v;
      }
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(vis(c)) : c);
    }
    return e;
  }
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, vis(v));
    for (const c of children.flat()) {
      if (c === undefined || c === null) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(vis(c)) : c);
    }
    return e;
  }
  function scrollDown() { logEl.scrollTop = logEl.scrollHeight; }
  // every message, probe line and card carries the moment it was shown (ms since the page loaded): the
  // page's own record of how long an answer took
  const at = () => String(Math.round(performance.now()));
  function say(text) { const li = el('li', {class: 'msg me', 'data-at': at()}, text); logEl.appendChild(li); scrollDown(); return li; }
  function bot(...children) {
    const bubble = el('div', {class: 'bubble'}, ...children);
    const li = el('li', {class: 'msg bot'}, bubble);
    logEl.appendChild(li); scrollDown();
    return bubble;
  }
  function botError(text) {
    const b = bot(el('strong', null, 'Could not do that: '), text);
    b.parentElement.classList.add('err');
    return b;
  }
  function status(text) { statusEl.textContent = vis(text || ''); }
  function short(s, n) { s = String(s ?? ''); return s.length > n ? s.slice(0, n - 1) + '…' : s; }

  // ---------------------------------------------------------------- API ----
  let session = null;          // {csrf, csrfHeader} of this browser's session
  async function signIn() {
    try {
      session = await api('GET', '/api/v1/session');
      return true;
    } catch (e) {
      if (e.status === 401) {
        status('not signed in');
        bot(el('strong', null, 'Not signed in. '), 'Open the sign-in link that ', el('code', null, 'triage serve'),
          ' printed (it works once and sets a session cookie for this browser), or ask whoever runs the server for one.');
      } else {
        botError('the server did not answer: ' + e.message);
      }
      return false;
    }
  }
  async function api(method, path, body) {
    const opts = {method, credentials: 'same-origin', headers: {'Accept': 'application/json'}};
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    if (method !== 'GET' && session) opts.headers[session.csrfHeader || 'X-CSRF-Token'] = session.csrf;
    const r = await fetch(path, opts);
    const text = await r.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
    if (!r.ok) {
      const reason = json && (json.reason || json.error) ? (json.reason || json.error) : ('HTTP ' + r.status);
      const err = new Error(reason);
      err.status = r.status;
      throw err;
    }
    return json;
  }

  // ---------------------------------------------------------------- hosts and history ----
  async function loadHosts() {
    const ul = $('hosts');
    try {
      const r = await api('GET', '/api/v1/hosts');
      knownHosts = (r.hosts || []).map((h) => typeof h === 'string' ? {name: h} : h);
      ul.replaceChildren(...knownHosts.map((h) => el('li', null,
        el('button', {class: 'link', type: 'button', title: h.note || h.name, 'data-host': h.name,
          on: {click: () => run('diagnose ' + h.name)}}, h.name, (h.note || h.source) ? el('span', {class: 'note'}, h.note || h.source) : null))));
      if (!knownHosts.length) ul.replaceChildren(el('li', {class: 'muted'}, 'no hosts configured'));
    } catch (e) {
      ul.replaceChildren(el('li', {class: 'muted'}, 'hosts: ' + e.message));
    }
  }
  // ---------------------------------------------------------------- rules banner ----
  // A reload of the rules that was refused keeps the last good base serving: say so, with each error's file and
  // line (every text through el(), so through vis()).
  async function loadRules() {
    const banner = $('rules-banner');
    if (!banner) return;
    let r;
    try { r = await api('GET', '/api/v1/rules'); } catch (e) { return; }
    const last = r && r.lastReload;
    if (!last || last.ok) { banner.hidden = true; banner.replaceChildren(); return; }
    const errors = last.errors || [];
    banner.replaceChildren(...[
      el('strong', null, 'Rule reload refused'),
      el('span', null, ' — still serving ' + (r.contentHash || 'the previous rules') + ': ' + (last.reason || '')),
      errors.length ? el('ul', null, ...errors.slice(0, 8).map((p) => el('li', null,
        el('code', null, (p.file || '') + (p.line > 0 ? ':' + p.line : '')), ' ' + (p.text || '')))) : null,
      errors.length > 8 ? el('p', {class: 'muted'}, (errors.length - 8) + ' more (GET /api/v1/rules)') : null,
    ].filter(Boolean)); // replaceChildren would print a null as the word "null"
    banner.hidden = false;
  }
  async function loadHistory() {
    const ul = $('history');
    try {
      const r = await api('GET', '/api/v1/diagnoses?limit=30');
      const items = r.diagnoses || [];
      if (!items.length) { ul.replaceChildren(el('li', {class: 'muted'}, 'none yet')); return; }
      ul.replaceChildren(...items.map((it) => el('li', null,
        el('button', {class: 'link', type: 'button', 'data-id': it.id, title: it.id,
          on: {click: () => reopen(it.id)}},
          it.kind === 'sweep' ? 'sweep of ' + (it.hosts || []).length : (it.hosts && it.hosts.length ? it.hosts[0] : it.kind === 'text' ? 'paste' : it.kind),
          el('span', {class: 'note'}, [it.cause ? it.cause + (it.subtype ? '/' + it.subtype : '') : it.status,
            it.created ? ' · ' + new Date(it.created).toLocaleString() : ''].join(''))))));
    } catch (e) {
      ul.replaceChildren(el('li', {class: 'muted'}, 'history: ' + e.message));
    }
  }

  // ---------------------------------------------------------------- grammar ----
  const CAUSE_WORDS = [
    [/oom[- ]?kill|out of memory kill|kernel oom|oom killer/i, 'oom-killer'],
    [/kill(ed)? from outside|external|kill -9|sigkill|killed/i, 'external-kill'],
    [/crash|traceback|exception/i, 'crash'],
    [/graceful|shut ?down|orderly|sigterm/i, 'graceful-shutdown'],
    [/hung|hang|deadlock|stuck/i, 'hung'],
    [/busy|overload|saturat/i, 'busy'],
    [/gpu fault|xid|ecc|fallen off|gpu/i, 'gpu-fault'],
    [/driver|mismatch.*(nvml|driver)/i, 'driver-mismatch'],
    [/never (launched|happened|started)|launch/i, 'launch-never-happened'],
    [/config|wrong arg/i, 'config-mismatch'],
    [/port|address in use|bind/i, 'port-conflict'],
    [/start(ing)?|loading|warm/i, 'still-starting'],
    [/engine( is)? dead|engine/i, 'engine-dead'],
    [/orphan|worker/i, 'orphaned-workers'],
    [/healthy|fine|ok\b/i, 'healthy'],
  ];
  const HELP = [
    ['diagnose HOST', 'look at a host over SSH (also: check, look at, dx)'],
    ['sweep HOST HOST…', 'look at several hosts; a table fills in'],
    ['(paste)', 'nvidia-smi, a log tail, ps, dmesg, journalctl, kubectl describe…'],
    ['I launched it with --flag value', 'state what you launched; the verdict is re-evaluated'],
    ['I started it at 00:31', 'state when you launched it'],
    ['expected port 30001', 'state the port you expected'],
    ['why?', 'the reasoning chain (HOW)'],
    ['what else could it be?', 'each alternative and what ruled it out'],
    ['why not the OOM killer?', 'why a particular cause was not concluded'],
    ['what should I do?', 'next steps with commands to copy'],
    ['how sure are you?', 'confidence and what was looked at'],
    ['hosts', 'list the hosts that can be diagnosed'],
  ];

  function parseIntent(text) {
    const intent = {};
    const t = text.trim();
    const at = t.match(/\b(?:started|launched|restarted|relaunched)\b.*?\bat\s+(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d)?|\d{1,2}:\d\d(?::\d\d)?)/i);
    if (at) intent.launched_at = at[1];
    const port = t.match(/\b(?:expected|expect|on|using)?\s*port\s*(?:is|was|=|:)?\s*(\d{2,5})\b/i);
    if (port && /port/i.test(t) && !/--port/.test(t)) intent.port = port[1];
    const flags = /--([A-Za-z0-9][A-Za-z0-9_.-]*)(?:[= ]+(?!--)("[^"]*"|'[^']*'|[^\s]+))?/g;
    let m;
    if (/\b(launched|started|ran|running|relaunched|restarted|with)\b/i.test(t) || t.startsWith('--')) {
      while ((m = flags.exec(t)) !== null) {
        let v = m[2] === undefined ? 'true' : m[2].replace(/^["']|["']$/g, '');
        intent[m[1].replace(/-/g, '_')] = v;
      }
    }
    const kv = t.match(/^intent\s+(.+)$/i);
    if (kv) {
      for (const part of kv[1].split(/\s+/)) {
        const i = part.indexOf('=');
        if (i > 0) intent[part.slice(0, i).replace(/^--/, '').replace(/-/g, '_')] = part.slice(i + 1);
      }
    }
    return Object.keys(intent).length ? intent : null;
  }

  function looksLikePaste(text) {
    const lines = text.split(/\r?\n/);
    if (lines.length >= 3) return true;
    return /NVIDIA-SMI|Traceback \(most recent call last\)|^\s*\[\s*\d+\.\d+\]|^\s*PID\s|^USER\s+PID|MiB\s*\/|Xid|oom-kill|Killed process/m.test(text);
  }

  function classify(raw) {
    const text = raw.trim();
    const low = text.toLowerCase().replace(/[?!.]+$/, '').trim();
    if (!text) return null;
    if (/^(help|\?|commands)$/.test(low)) return {kind: 'help'};
    if (/^(hosts|list|list hosts|ls)$/.test(low)) return {kind: 'hosts'};
    if (/^(history|past|conversations)$/.test(low)) return {kind: 'history'};
    let m = low.match(/^(?:diagnose|check|look at|look|dx|triage|inspect)\s+(.+)$/);
    if (m && !looksLikePaste(text)) {
      const hosts = m[1].split(/[\s,]+/).filter(Boolean);
      return hosts.length > 1 ? {kind: 'sweep', hosts} : {kind: 'diagnose', host: hosts[0]};
    }
    m = low.match(/^sweep\s+(.+)$/);
    if (m) return {kind: 'sweep', hosts: m[1].split(/[\s,]+/).filter(Boolean)};
    m = low.match(/^why not\s+(.+)$/);
    if (m) return {kind: 'whynot', what: m[1]};
    if (/^(why|how|explain|how do you know|why do you say that)$/.test(low)) return {kind: 'why'};
    if (/^(what else( could it be)?|alternatives|other causes|differential)$/.test(low)) return {kind: 'else'};
    if (/^(what (should|do|can) i do( now)?|next( steps)?|fix|what now|steps|remediation)$/.test(low)) return {kind: 'steps'};
    if (/^(how sure( are you)?|confidence|coverage|what did you look at)$/.test(low)) return {kind: 'sure'};
    if (/^(again|rerun|re-run|look again|refresh)$/.test(low)) return {kind: 'again'};
    if (!looksLikePaste(text)) {
      const intent = parseIntent(text);
      if (intent) return {kind: 'intent', intent};
    }
    if (looksLikePaste(text)) return {kind: 'paste', text: raw};
    if (/^[A-Za-z0-9][A-Za-z0-9._@:-]*$/.test(text) && knownHosts.some((h) => h.name === text)) return {kind: 'diagnose', host: text};
    return {kind: 'unknown'};
  }

  // ---------------------------------------------------------------- rendering a diagnosis ----
  function verdictClass(d) {
    return d.cause === 'healthy' ? 'healthy' : (d.confidence || 'low');
  }
  const RC = {0: '', 1: 'nothing found', 2: 'error', 6: 'host not found', 7: 'connection refused', 28: 'timed out',
    124: 'timed out', 127: 'command not found', 137: 'killed'};
  function probeLine(p) {
    const name = p.name || p.probe;
    const secs = p.seconds !== undefined ? Number(p.seconds) : p.ms !== undefined ? p.ms / 1000 : undefined;
    const cls = p.status || (p.rc === 124 ? 'timeout' : p.rc === 127 || p.rc === 126 ? 'failed' : 'ok');
    const rcText = p.rc === undefined || p.rc === -1 || p.rc === 0 ? '' : 'rc ' + p.rc + (RC[p.rc] ? ' ' + RC[p.rc] : '');
    const what = p.summary || p.reason || rcText;
    return el('li', {class: cls, 'data-probe': name, 'data-at': at()},
      name, p.status && p.status !== 'ok' ? ' — ' + p.status : '', what ? ' · ' + what : '',
      secs !== undefined ? ' (' + secs.toFixed(2) + ' s)' : '');
  }
  function card(d, container) {
    const c = el('div', {class: 'card ' + verdictClass(d), 'data-cause': d.cause, 'data-confidence': d.confidence, 'data-at': at()});
    c.appendChild(el('p', {class: 'verdict'}, d.title || d.cause,
      el('span', {class: 'conf ' + d.confidence}, d.confidence),
      el('span', {class: 'id'}, d.cause + (d.subtype ? '/' + d.subtype : ''))));
    if (d.target && (d.target.host || d.target.server)) {
      c.appendChild(el('div', {class: 'muted'}, [d.target.host, d.target.server, d.target.port ? 'port ' + d.target.port : '',
        d.target.log ? 'log ' + d.target.log : ''].filter(Boolean).join(' · ')));
    }
    if (d.summary) c.appendChild(el('p', {class: 'summary'}, d.summary));
    if (d.caveats && d.caveats.length) c.appendChild(el('ul', {class: 'caveats'}, d.caveats.map((x) => el('li', null, x))));
    const cov = d.coverage || {};
    const notLooked = [...(cov.absent || []), ...(cov.failed || []).map((x) => x + ' (failed)'), ...(cov.unparseable || []).map((x) => x + ' (unreadable)')];
    if (notLooked.length) c.appendChild(el('p', {class: 'notlooked'}, 'Not looked at: ' + notLooked.join(', ')));
    // a paste: what was recognised in it, and what could not be read (the capture's notes say so)
    const recog = (cov.notes || []).filter((n) => n.startsWith('recognised: ') || n.startsWith('not read: '));
    if (recog.length) {
      c.appendChild(el('h3', null, 'What I read in the paste'));
      c.appendChild(el('ul', {class: 'recognised'}, recog.map((n) => el('li', {'data-recognised': n.startsWith('recognised: ') ? 'yes' : 'no'},
        n.startsWith('recognised: ') ? '✓ ' + n.slice(12) : '✗ could not read ' + n.slice(10)))));
    }
    c.appendChild(graph(d));
    if (d.host) c.appendChild(glance(d.host));
    const acts = el('div', {class: 'actions'});
    const b = (label, cmd) => el('button', {type: 'button', 'data-action': cmd, on: {click: () => run(cmd)}}, label);
    acts.append(b('why?', 'why?'), b('what else could it be?', 'what else could it be?'), b('what should I do?', 'what should I do?'),
      b('how sure are you?', 'how sure are you?'));
    for (const q of (d.questions || [])) {
      if (q.id.startsWith('probe-') && current && current.host) {
        acts.append(el('button', {type: 'button', 'data-question': q.id, title: q.text, on: {click: () => run('look again')}},
          'look again (' + q.id.slice(6) + ')'));
      } else if (q.id === 'intent') {
        acts.append(el('button', {type: 'button', 'data-question': q.id, title: q.text, on: {click: () => {
          input.value = 'I launched it with --'; input.focus();
        }}}, 'tell it what you launched'));
      }
    }
    c.appendChild(acts);
    if (d.questions && d.questions.length) {
      c.appendChild(el('h3', null, 'I would like to know'));
      c.appendChild(el('ul', {class: 'steps'}, d.questions.map((q) => el('li', {'data-question': q.id}, q.text,
        q.command ? commandBox(q.command) : null))));
    }
    container.appendChild(c);
    return c;
  }
  function commandBox(cmd) {
    const pre = el('pre', null, cmd);
    const btn = el('button', {class: 'copy', type: 'button', title: 'Copy the command', on: {click: async () => {
      try { await navigator.clipboard.writeText(cmd); btn.textContent = 'copied'; } catch (e) {
        const r = document.createRange(); r.selectNodeContents(pre); const s = getSelection(); s.removeAllRanges(); s.addRange(r);
        btn.textContent = 'selected';
      }
      setTimeout(() => { btn.textContent = 'copy'; }, 1500);
    }}}, 'copy');
    return el('div', {class: 'cmd'}, pre, btn);
  }

  // what a link of the chain is: the document says (evidence, knowledge, step, symptom, rule, target, cut);
  // a diagnosis stored before links carried a kind is read by its shape, as the server reads it
  const KINDS = ['evidence', 'knowledge', 'step', 'symptom', 'rule', 'target', 'cut'];
  function nodeKind(n) {
    if (KINDS.includes(n.kind)) return n.kind;
    return n.evidence ? 'evidence' : n.rule ? 'rule' : 'knowledge';
  }
  const concluded = (k) => k === 'symptom' || k === 'rule';
  function chainList(nodes) {
    return el('ul', {class: 'chain'}, (nodes || []).filter((n) => nodeKind(n) !== 'target').map((n) => {
      const kind = nodeKind(n);
      return el('li', {'data-kind': kind},
        kind === 'cut' ? el('span', {class: 'muted'}, '…') : n.fact,
        concluded(kind) && n.rule ? el('div', {class: 'rule', title: n.rationale || ''}, 'rule: ' + n.rule) : null,
        kind === 'evidence' && n.evidence ? el('div', {class: 'ev'}, n.evidence.probe + (n.evidence.line > 0 ? ':' + n.evidence.line : '') + '  ' + n.evidence.excerpt) : null,
        n.premises && n.premises.length ? chainList(n.premises) : null);
    }));
  }

  // the chain as a graph: raw evidence → symptoms → verdict; refuted alternatives greyed; missing evidence dashed
  function graph(d) {
    const top = (d.hypotheses || []).find((h) => h.cause === d.cause) || (d.hypotheses || [])[0];
    const nodes = new Map();
    const edges = [];
    const add = (key, label, band, kind, title) => {
      if (!nodes.has(key)) nodes.set(key, {key, label, band, kind, title: title || label});
      return nodes.get(key);
    };
    const verdict = add('verdict', (d.title || d.cause) + ' (' + d.confidence + ')', 2, 'verdict');
    const walk = (n, parentKey) => {
      const kind = nodeKind(n);
      if (kind === 'target' || kind === 'cut') return;
      const band = concluded(kind) ? 1 : 0;
      const label = kind === 'evidence' && n.evidence ? (n.evidence.line > 0 ? n.evidence.probe + ':' + n.evidence.line + ' ' + n.evidence.excerpt : n.fact) : n.fact;
      const key = kind + ':' + label;
      add(key, label, band, kind, n.rule ? n.rule + ' — ' + n.fact : label);
      if (!edges.some((e) => e.from === key && e.to === parentKey)) edges.push({from: key, to: parentKey, kind: 'support'});
      for (const p of n.premises || []) walk(p, key);
    };
    if (top && d.cause !== 'insufficient-evidence') {
      for (const n of top.because || []) {
        // the top node is the rule that concluded the verdict itself: its premises feed the verdict directly
        if (concluded(nodeKind(n)) && (n.premises || []).length) {
          verdict.title = 'rule: ' + n.rule;
          for (const p of n.premises) walk(p, 'verdict');
        } else walk(n, 'verdict');
      }
    }
    for (const h of (d.hypotheses || []).filter((x) => x.status === 'refuted').slice(0, 5)) {
      const hk = 'refuted:' + h.cause;
      add(hk, 'not ' + (h.title || h.cause), 2, 'refuted');
      const a = (h.against || [])[0];
      if (a) {
        const kind = nodeKind(a);
        const ak = kind + ':' + a.fact;
        add(ak, a.fact, concluded(kind) ? 1 : 0, kind, a.rule ? a.rule + ' — ' + a.fact : a.fact);
        edges.push({from: ak, to: hk, kind: 'against'});
      }
    }
    for (const x of (d.ruledOut || []).filter((e) => e.status === 'not-ruled-out' && e.missing)) {
      const mk = 'missing:' + x.missing;
      add(mk, 'missing: ' + x.missing + ' (' + x.cause + ' not ruled out)', 0, 'missing');
      edges.push({from: mk, to: 'verdict', kind: 'missing'});
    }
    const bands = [[], [], []];
    for (const n of nodes.values()) bands[n.band].push(n);
    const colW = [250, 270, 210], gap = 40, rowH = 24, pad = 6;
    const x0 = [0, colW[0] + gap, colW[0] + colW[1] + 2 * gap];
    const rows = Math.max(...bands.map((b) => b.length), 1);
    const height = rows * rowH + 2 * pad;
    bands.forEach((b, bi) => {
      const offset = (rows - b.length) * rowH / 2;
      b.forEach((n, i) => { n.x = x0[bi]; n.y = pad + offset + i * rowH; n.w = colW[bi]; });
    });
    const width = x0[2] + colW[2];
    const root = svg('svg', {viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': 'reasoning graph', class: 'graph'});
    root.appendChild(svg('title', {}, 'How the verdict was reached: evidence → symptoms → verdict'));
    for (const e of edges) {
      const a = nodes.get(e.from), b = nodes.get(e.to);
      if (!a || !b) continue;
      const ax = a.band < b.band ? a.x + a.w : a.x + a.w, ay = a.y + rowH / 2 - 2;
      const bx = b.band > a.band ? b.x : b.x + b.w, by = b.y + rowH / 2 - 2;
      const mx = (ax + bx) / 2 + (a.band === b.band ? 30 : 0);
      root.appendChild(svg('path', {class: 'edge ' + e.kind, d: `M${ax},${ay} C${mx},${ay} ${mx},${by} ${bx},${by}`,
        'data-from': a.label, 'data-to': b.label, 'data-kind': e.kind}));
    }
    for (const n of nodes.values()) {
      const g = svg('g', {class: 'node ' + n.kind, 'data-kind': n.kind, 'data-label': n.label, transform: `translate(${n.x},${n.y})`},
        svg('title', {}, n.title),
        svg('rect', {width: n.w, height: rowH - 4, rx: 4}),
        svg('text', {x: 6, y: rowH / 2 + 2}, short(n.label, Math.floor(n.w / 6.3))));
      root.appendChild(g);
    }
    const wrap = el('div', {class: 'graphwrap'});
    wrap.appendChild(root);
    return wrap;
  }

  const STATE = {R: 'running', S: 'sleeping', D: 'uninterruptible', T: 'stopped', t: 'traced', Z: 'zombie', I: 'idle'};
  // the host at a glance: per-GPU memory, utilisation and power as bars; the server's processes and states
  function glance(host) {
    const box = el('div', {class: 'glance'});
    const gpus = host.gpus || [];
    if (gpus.length) {
      const rowH = 26, lab = 54, bw = 118, gap = 12, top = 14;
      const w = lab + 3 * (bw + gap);
      const g = svg('svg', {viewBox: `0 0 ${w} ${top + gpus.length * rowH}`, width: w, height: top + gpus.length * rowH,
        class: 'gpus', role: 'img', 'aria-label': 'GPUs: memory, utilisation, power'});
      ['memory', 'utilisation', 'power'].forEach((h, i) => g.appendChild(svg('text', {class: 'axis', x: lab + i * (bw + gap), y: 11}, h)));
      gpus.forEach((x, i) => {
        const y = top + i * rowH;
        const memPct = x.memoryTotalMiB > 0 && x.memoryUsedMiB >= 0 ? Math.min(1, x.memoryUsedMiB / x.memoryTotalMiB) : 0;
        const util = x.utilizationPercent >= 0 ? Math.min(100, x.utilizationPercent) / 100 : 0;
        const pow = x.powerW >= 0 ? Math.min(1, x.powerW / 700) : 0;   // bar scale: 700 W, the largest boards' limit
        const gib = (m) => m >= 1024 ? (m / 1024).toFixed(m >= 10240 ? 0 : 1) + ' GiB' : m + ' MiB';
        const bar = (col, cls, frac, metric, raw, label) => {
          const x0 = lab + col * (bw + gap);
          return [svg('text', {class: 'val', x: x0, y: y + 11}, label),
            svg('rect', {class: 'bar-bg', x: x0, y: y + 14, width: bw, height: 7, rx: 2}),
            svg('rect', {class: cls, x: x0, y: y + 14, width: Math.max(0, bw * frac), height: 7, rx: 2,
              'data-gpu': x.index, 'data-metric': metric, 'data-value': raw})];
        };
        g.append(svg('text', {x: 0, y: y + 19}, svg('title', {}, x.name || ''), 'GPU ' + x.index),
          ...bar(0, 'bar-mem', memPct, 'memory', x.memoryUsedMiB,
            x.memoryUsedMiB >= 0 ? gib(x.memoryUsedMiB) + (x.memoryTotalMiB > 0 ? ' / ' + gib(x.memoryTotalMiB) : '') : '?'),
          ...bar(1, 'bar-util', util, 'util', x.utilizationPercent, x.utilizationPercent >= 0 ? x.utilizationPercent + ' %' : '?'),
          ...bar(2, 'bar-power', pow, 'power', x.powerW, x.powerW >= 0 ? Math.round(x.powerW) + ' W' : '?'));
      });
      box.appendChild(el('div', null, el('h3', null, gpus.length + ' GPU' + (gpus.length > 1 ? 's' : '') + (gpus[0].name ? ' · ' + gpus[0].name : '')), g));
    }
    const procs = host.processes || [];
    box.appendChild(el('div', null, el('h3', null, 'Server processes'),
      procs.length ? el('table', {class: 'procs'},
        el('tr', null, el('th', null, 'PID'), el('th', null, 'state'), el('th', null, 'role'), el('th', null, 'command')),
        procs.map((p) => el('tr', {'data-pid': p.pid}, el('td', null, String(p.pid)), el('td', {title: STATE[p.state] || ''},
          (p.state || '?') + (STATE[p.state] ? ' ' + STATE[p.state] : '')),
          el('td', null, p.role || ''), el('td', {class: 'args'}, short(p.command || p.args || '', 160)))))
        : el('p', {class: 'muted'}, host.processesLooked === false ? 'the process list was not looked at' : 'none running')));
    return box;
  }

  function showWhy(d) {
    const top = (d.hypotheses || []).find((h) => h.cause === d.cause);
    const b = bot(el('h3', null, 'Why ' + (d.title || d.cause) + ' (' + d.confidence + ')'));
    if (!top || !(top.because || []).length) { b.appendChild(el('p', null, 'No rule concluded a cause: ' + (d.summary || ''))); return; }
    b.appendChild(chainList(top.because));
  }
  function showElse(d) {
    const b = bot(el('h3', null, 'What else it could be'));
    const rows = [];
    for (const h of d.hypotheses || []) {
      if (h.cause === d.cause) continue;
      const reason = h.status === 'refuted' ? (h.against || []).map((n) => n.fact).join('; ')
        : h.status === 'supported' ? (h.because || []).map((n) => n.fact).join('; ') : '';
      rows.push(el('tr', {class: h.status, 'data-cause': h.cause}, el('td', null, h.title || h.cause), el('td', null, h.status),
        el('td', null, reason || '—')));
    }
    for (const x of d.ruledOut || []) {
      rows.push(el('tr', {class: x.status, 'data-cause': x.cause}, el('td', null, x.cause), el('td', null, x.status),
        el('td', null, x.reason + (x.missing ? ' (missing: ' + x.missing + ')' : ''))));
    }
    b.appendChild(rows.length ? el('table', {class: 'alts'}, el('tr', null, el('th', null, 'cause'), el('th', null, 'status'),
      el('th', null, 'because')), rows) : el('p', null, 'No alternative was examined.'));
  }
  function resolveCause(d, what) {
    const w = what.toLowerCase().replace(/^(the|a|an)\s+/, '').replace(/[?.!]+$/, '').trim();
    const ids = new Set([...(d.hypotheses || []).map((h) => h.cause), ...(d.ruledOut || []).map((x) => x.cause)]);
    if (ids.has(w)) return w;
    for (const h of d.hypotheses || []) if ((h.title || '').toLowerCase().includes(w) || w.includes(h.cause)) return h.cause;
    for (const [re, id] of CAUSE_WORDS) if (re.test(w)) return id;
    return null;
  }
  async function showWhyNot(d, what) {
    const id = resolveCause(d, what);
    if (!id) { bot('I do not know a cause called "' + what + '". Causes I examined: ' + (d.hypotheses || []).map((h) => h.cause).join(', ')); return; }
    if (id === d.cause) { bot(el('p', null, 'It is ' + (d.title || id) + ' — that is the verdict. Ask "why?" for the chain.')); return; }
    const b = bot(el('h3', null, 'Why not ' + id + '?'));
    const h = (d.hypotheses || []).find((x) => x.cause === id);
    const x = (d.ruledOut || []).find((e) => e.cause === id);
    if (x) {
      b.appendChild(el('p', {'data-status': x.status}, x.status === 'ruled-out' ? 'Ruled out: ' + x.reason
        : 'Not ruled out: ' + x.reason + (x.missing ? ' — I would need ' + x.missing + ' to decide.' : '')));
      if (x.because && x.because.length) b.appendChild(chainList(x.because));
    }
    if (h && h.status === 'refuted') {
      b.appendChild(el('p', null, 'Refuted by:'));
      b.appendChild(chainList(h.against));
    } else if (h && h.status === 'supported') {
      b.appendChild(el('p', null, 'It is supported too, at ' + h.confidence + ' confidence, but ranks below ' + d.cause + ':'));
      b.appendChild(chainList(h.because));
    } else if (!x) {
      b.appendChild(el('p', null, 'No rule concluded ' + id + '.'));
    }
    if (current && current.id && current.doc === d) await whyNotRules(b, current.id, id);
  }
  // the rules that would conclude the cause, closest first, and which of their conditions the facts met
  async function whyNotRules(b, diagnosisId, cause) {
    let w;
    try {
      w = await api('GET', '/api/v1/diagnoses/' + encodeURIComponent(diagnosisId) + '/why-not?cause=' + encodeURIComponent(cause));
    } catch (e) {
      b.appendChild(el('p', {class: 'muted'}, 'The rules for ' + cause + ' could not be examined: ' + e.message));
      return;
    }
    const rules = (w && w.rules) || [];
    if (!rules.length) { b.appendChild(el('p', {class: 'muted'}, 'No rule concludes ' + cause + '.')); return; }
    const box = el('div', {class: 'whynot-rules'}, el('p', null, rules.length === 1 ? 'The rule that would conclude it:'
      : 'The rules that would conclude it, closest first:'));
    for (const r of rules.slice(0, 3)) {
      box.appendChild(el('div', {class: 'whynot-rule', 'data-rule': r.rule},
        el('strong', null, r.rule), ' ', el('span', {class: 'muted'}, r.file + ':' + r.line + ', ' + r.confidence
          + (r.matches ? ' — fires' : ' — ' + r.met + ' of ' + r.of + ' conditions met')),
        el('ul', null, (r.conditions || []).map((c) => el('li', {class: c.met, 'data-met': c.met},
          (c.met === 'met' ? '✓ ' : c.met === 'unmet' ? '✗ ' : '? ') + c.plain,
          c.failsTogether ? el('span', {class: 'muted'}, ' (holds alone, not with the conditions before it)') : null,
          el('code', {class: 'drl'}, c.condition))))));
    }
    if (rules.length > 3) box.appendChild(el('p', {class: 'muted'}, (rules.length - 3) + ' more: triage rules explain ' + cause + ' CAPTURE lists them all.'));
    b.appendChild(box);
  }
  function showSteps(d) {
    const b = bot(el('h3', null, 'What to do next'));
    if (!(d.nextSteps || []).length) { b.appendChild(el('p', null, 'No step is suggested for this verdict.')); return; }
    b.appendChild(el('ol', {class: 'steps'}, d.nextSteps.map((s) => el('li', {'data-step': s.id},
      el('strong', null, s.title), s.command ? commandBox(s.command) : null, s.rationale ? el('div', {class: 'why'}, s.rationale) : null))));
  }
  function showSure(d) {
    const cov = d.coverage || {};
    const b = bot(el('p', null, 'Confidence: ', el('strong', null, d.confidence), ' in ' + (d.title || d.cause) + '.'));
    if (d.caveats && d.caveats.length) b.appendChild(el('ul', {class: 'caveats'}, d.caveats.map((c) => el('li', null, c))));
    b.appendChild(el('ul', {class: 'probes'}, (cov.probes || []).map(probeLine)));
    if ((cov.absent || []).length) b.appendChild(el('p', {class: 'notlooked'}, 'Not looked at: ' + cov.absent.join(', ')));
    if ((cov.notes || []).length) b.appendChild(el('ul', {class: 'notlooked'}, cov.notes.map((n) => el('li', null, n))));
    const nr = (d.ruledOut || []).filter((x) => x.status === 'not-ruled-out');
    if (nr.length) b.appendChild(el('p', null, 'Not ruled out for lack of evidence: ' + nr.map((x) => x.cause + (x.missing ? ' (needs ' + x.missing + ')' : '')).join(', ')));
  }

  // ---------------------------------------------------------------- running a diagnosis ----
  async function follow(id, bubble, onDoc) {
    const probes = el('ul', {class: 'probes'});
    bubble.appendChild(probes);
    let finished = false;
    const done = async () => {
      if (finished) return;
      finished = true;
      try {
        onDoc(await waitDone(id));
      } catch (e) { botError(e.message); }
    };
    if (!window.EventSource) { await done(); return; }
    await new Promise((resolve) => {
      const es = new EventSource('/api/v1/diagnoses/' + encodeURIComponent(id) + '/events');
      const end = () => { es.close(); resolve(); };
      const on = (type, fn) => es.addEventListener(type, (ev) => {
        let data = null;
        try { data = JSON.parse(ev.data); } catch (e) { return; }
        fn(data);
      });
      on('probe', (p) => { probes.appendChild(probeLine(p)); scrollDown(); });
      on('host', (h) => { if (bubble.onHost) bubble.onHost(h); });
      on('verdict', end);
      es.addEventListener('error', end);
    });
    await done();
  }
  async function waitDone(id) {
    for (let i = 0; i < 600; i++) {
      const d = await api('GET', '/api/v1/diagnoses/' + encodeURIComponent(id));
      if (d.schema || d.status === 'done' || d.status === 'failed' || d.status === 'interrupted') return d;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error('the diagnosis did not finish');
  }
  function showDoc(doc, bubble) {
    const d = doc.diagnosis || doc;
    if (doc.failure) {
      const f = doc.failure;
      bubble.parentElement.classList.add('err');
      bubble.append(el('p', {'data-failure': f.kind}, el('strong', null, 'Could not look at ' + ((doc.hosts || [])[0] || 'the host') + ': ' + f.kind)),
        el('p', null, f.message), f.check ? el('p', {class: 'why'}, 'Check: ' + f.check) : null);
      return;
    }
    if (!d.schema) {
      bubble.parentElement.classList.add('err');
      bubble.appendChild(el('p', null, 'The diagnosis is ' + (doc.status || 'in an unknown state') + '.'));
      return;
    }
    current = Object.assign(current || {}, {doc: d});
    card(d, bubble);
    scrollDown();
  }
  async function diagnose(host, intent) {
    const bubble = bot(el('p', null, 'Looking at ', el('strong', null, host), ' over SSH…'));
    status('looking at ' + host);
    try {
      const body = {host};
      if (intent) body.intent = intent;
      const r = await api('POST', '/api/v1/diagnoses', body);
      current = {id: r.id, host, intent: intent || {}};
      location.hash = '#/d/' + encodeURIComponent(r.id);
      await follow(r.id, bubble, (doc) => showDoc(doc, bubble));
    } catch (e) {
      bubble.parentElement.classList.add('err');
      bubble.appendChild(el('p', null, e.message));
    } finally { status(''); loadHistory(); }
  }
  async function paste(text) {
    const bubble = bot(el('p', null, 'Reading what you pasted…'));
    try {
      const r = await api('POST', '/api/v1/diagnoses', {text});
      current = {id: r.id, host: null, intent: {}};
      location.hash = '#/d/' + encodeURIComponent(r.id);
      const doc = await waitDone(r.id);
      showDoc(doc, bubble);
    } catch (e) {
      bubble.parentElement.classList.add('err');
      bubble.appendChild(el('p', null, e.message));
    } finally { loadHistory(); }
  }
  async function sweep(hosts) {
    const rows = new Map();
    const table = el('table', {class: 'sweep'}, el('tr', null, el('th', null, 'host'), el('th', null, 'verdict'),
      el('th', null, 'confidence'), el('th', null, 'seconds')));
    for (const h of hosts) {
      const tr = el('tr', {'data-host': h}, el('td', null, h), el('td', null, '…'), el('td', null, ''), el('td', null, ''));
      rows.set(h, tr); table.appendChild(tr);
    }
    const bubble = bot(el('p', null, 'Sweeping ' + hosts.length + ' hosts…'), table);
    const docs = new Map();
    const fill = (r) => {
      const tr = rows.get(r.host);
      if (!tr) return;
      const d = r.diagnosis;
      if (d) docs.set(r.host, d);
      const verdict = r.verdict || (r.failure ? 'look failed: ' + r.failure.kind : d ? d.cause + (d.subtype ? '/' + d.subtype : '') : (r.status || '?'));
      tr.dataset.done = '1';
      tr.dataset.verdict = verdict;
      tr.children[1].replaceChildren(el('button', {type: 'button', 'data-host': r.host, on: {click: () => {
        const doc = docs.get(r.host);
        if (doc) {
          current = {id: null, host: r.host, intent: {}, doc};
          const b = bot(el('p', null, r.host + ':'));
          card(doc, b);
        } else if (r.failure) {
          botError(r.host + ': ' + r.failure.message);
        } else {
          bot('The sweep has not finished ' + r.host + ' yet.');
        }
      }}}, verdict));
      if (d) tr.children[2].textContent = vis(d.confidence);
      if (r.seconds !== undefined) tr.children[3].textContent = Number(r.seconds).toFixed(1);
    };
    bubble.onHost = fill;
    try {
      const r = await api('POST', '/api/v1/diagnoses', {hosts});
      current = {id: r.id, host: null, intent: {}};
      location.hash = '#/d/' + encodeURIComponent(r.id);
      await follow(r.id, bubble, (doc) => { for (const h of doc.results || []) fill(h); });
    } catch (e) {
      bubble.parentElement.classList.add('err');
      bubble.appendChild(el('p', null, e.message));
    } finally { loadHistory(); }
  }
  async function restate(intent) {
    if (!current || !current.id || !current.doc) {
      bot('Noted. Name a host to diagnose (diagnose HOST) or paste its output, and I will take this into account.');
      current = Object.assign(current || {}, {pendingIntent: Object.assign((current && current.pendingIntent) || {}, intent)});
      return;
    }
    const b = bot(el('p', null, 'Re-evaluating with ' + Object.entries(intent).map(([k, v]) => k + '=' + v).join(', ') + '…'));
    try {
      const r = await api('POST', '/api/v1/diagnoses/' + encodeURIComponent(current.id) + '/intent', {intent});
      const after = r.diagnosis || r.after || r;
      const before = current.doc;
      const ch = r.changed || {};
      const moved = before.cause !== after.cause || before.confidence !== after.confidence || before.subtype !== after.subtype;
      b.appendChild(el('p', {class: 'diff'}, moved
        ? el('span', {class: 'moved'}, 'The verdict moved: ' + before.cause + ' (' + before.confidence + ') → ' + after.cause + ' (' + after.confidence + ')')
        : 'The verdict holds: ' + after.cause + ' (' + after.confidence + ').'));
      const fired = ch.rulesNewlyFired || [];
      const gone = ch.rulesNoLongerFired || [];
      if (fired.length) b.appendChild(el('p', {class: 'why'}, 'Rules that now fire: ' + fired.join('; ')));
      if (gone.length) b.appendChild(el('p', {class: 'why'}, 'Rules that no longer fire: ' + gone.join('; ')));
      current.doc = after;
      current.intent = Object.assign(current.intent || {}, intent);
      card(after, b);
    } catch (e) {
      b.parentElement.classList.add('err');
      b.appendChild(el('p', null, e.message));
    }
  }
  async function reopen(id) {
    const b = bot(el('p', null, 'Reopening ' + id + '…'));
    try {
      const doc = await api('GET', '/api/v1/diagnoses/' + encodeURIComponent(id));
      let host = null;
      try {
        const list = await api('GET', '/api/v1/diagnoses?limit=1000');
        const it = (list.diagnoses || []).find((x) => x.id === id);
        if (it && it.kind === 'host') host = (it.hosts || [])[0] || null;
      } catch (e) { /* the host is only needed to look again */ }
      current = {id, host, intent: {}};
      location.hash = '#/d/' + encodeURIComponent(id);
      if (doc.kind === 'sweep') {
        b.appendChild(el('table', {class: 'sweep'}, (doc.results || []).map((r) => el('tr', {'data-host': r.host},
          el('td', null, r.host), el('td', null, r.verdict || r.status || '')))));
        return;
      }
      showDoc(doc, b);
    } catch (e) {
      b.parentElement.classList.add('err');
      b.appendChild(el('p', null, e.message));
    }
  }

  // ---------------------------------------------------------------- the conversation ----
  async function run(text) {
    say(text);
    const c = classify(text);
    if (!c) return;
    const need = () => { if (!current || !current.doc) { bot('Diagnose a host or paste some output first.'); return false; } return true; };
    switch (c.kind) {
      case 'help':
        bot(el('h3', null, 'What I understand'), el('table', {class: 'alts'}, HELP.map(([k, v]) => el('tr', null, el('td', null, el('code', null, k)), el('td', null, v)))));
        break;
      case 'hosts':
        await loadHosts();
        bot(knownHosts.length ? 'Hosts I may look at: ' + knownHosts.map((h) => h.name).join(', ') : 'No hosts are configured.');
        break;
      case 'history': await loadHistory(); bot('Past conversations are listed on the left.'); break;
      case 'diagnose': await diagnose(c.host, current && current.pendingIntent); break;
      case 'again':
        if (current && current.host) await diagnose(current.host, current.intent); else bot('There is no host to look at again.');
        break;
      case 'sweep': await sweep(c.hosts); break;
      case 'paste': await paste(c.text); break;
      case 'intent': await restate(c.intent); break;
      case 'why': if (need()) showWhy(current.doc); break;
      case 'else': if (need()) showElse(current.doc); break;
      case 'whynot': if (need()) await showWhyNot(current.doc, c.what); break;
      case 'steps': if (need()) showSteps(current.doc); break;
      case 'sure': if (need()) showSure(current.doc); break;
      default:
        bot(el('p', null, 'I did not understand that. I understand:'),
          el('ul', null, HELP.slice(0, 8).map(([k]) => el('li', null, el('code', null, k)))), el('p', {class: 'muted'}, 'Type help for the full list.'));
    }
  }

  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    sent.push(text); recall = -1;
    input.value = '';
    run(text);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('composer').requestSubmit();
    } else if (e.key === 'ArrowUp' && (input.value === '' || recall >= 0) && sent.length) {
      e.preventDefault();
      recall = recall < 0 ? sent.length - 1 : Math.max(0, recall - 1);
      input.value = sent[recall];
    } else if (e.key === 'ArrowDown' && recall >= 0) {
      e.preventDefault();
      recall = recall + 1 < sent.length ? recall + 1 : -1;
      input.value = recall < 0 ? '' : sent[recall];
    }
  });

  (async () => {
    if (!(await signIn())) return;
    loadHosts();
    loadHistory();
    loadRules();
    setInterval(() => { if (!document.hidden) loadRules(); }, 10000);
    const m = location.hash.match(/^#\/d\/([A-Za-z0-9_-]+)$/);
    if (m) reopen(m[1]);
    else bot(el('p', null, 'Name a host (', el('code', null, 'diagnose gpu-killed'), '), click one on the left, or paste what your terminal shows. Type ',
    el('code', null, 'help'), ' for everything I understand.'));
  })();
  input.focus();
}());
