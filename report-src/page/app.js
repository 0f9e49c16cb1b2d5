// The report's page: plain JavaScript, no build step, no network. Its data arrive as <script> files
// that call RSB (data/index.js, data/scorecards.js at load; data/runs/<run>-<part>.js and data/tasks/<n>.js
// when a trace is opened), because a page opened from file:// may not fetch() its neighbours.
//
//   #/                 scorecards: analysis/out's numbers, every count a link to the traces it counts
//   #/traces?…         the trace list: filters (study, arm, browser, policy, layer, template, outcome,
//                      status, free text over the condition id) or one scorecard cell (cell=<list>); paged
//   #/trace/<id>?…     one trace: its timeline on one clock, its row, its condition, its other runs
//   #/excluded         superseded and excluded attempts with their reasons (never in a scorecard)
'use strict';

const RSB = (() => {
  const state = { index: null, traces: [], cards: null, runs: new Map(), tasks: new Map(), waiting: new Map(), byUnit: new Map() };
  const PAGE = 100;

  // ── data: what the <script> files hand over ─────────────────────────────────────────────────
  function index(data) {
    state.index = data;
    const { columns, strings, rows } = data.traces;
    const strCols = new Set(['status', 'study', 'arm', 'browser', 'policy', 'cid', 'template', 'layer', 'truth', 'scenario', 'accepts', 'unit']);
    state.traces = rows.map((tuple, id) => {
      const t = { id };
      columns.forEach((c, i) => {
        const v = tuple[i];
        t[c] = v === null ? null : strCols.has(c) ? strings[v] : ['as', 'vts', 'fc', 'claim', 'error', 'timing'].includes(c) ? v === 1 : v;
      });
      t.verdicts = t.accepts ? Object.fromEntries(t.accepts.split(' ').map((p) => { const [name, a] = p.split('='); return [name, a === '1']; })) : null;
      t.outcome = outcomeOf(t);
      return t;
    });
    for (const t of state.traces) {
      if (!state.byUnit.has(t.unit)) state.byUnit.set(t.unit, []);
      state.byUnit.get(t.unit).push(t);
    }
  }
  function scorecards(data) { state.cards = data; }
  /** One part of a run's rows, from line `start` on. */
  function run(i, part, start, rows) {
    if (!state.runs.has(i)) state.runs.set(i, []);
    const lines = state.runs.get(i);
    rows.forEach((r, k) => { lines[start + k] = r; });
    resolve(`run:${i}-${part}`);
  }
  function tasks(i, defs) { state.tasks.set(i, defs); resolve(`tasks:${i}`); }
  function resolve(key) { const w = state.waiting.get(key); if (w) { state.waiting.delete(key); w.resolve(); } }

  /** Loads a data script once; resolves when it has called RSB. */
  function load(key, src, has) {
    if (has()) return Promise.resolve();
    if (state.waiting.has(key)) return state.waiting.get(key).promise;
    let done;
    const promise = new Promise((res, rej) => {
      done = { resolve: res };
      const el = document.createElement('script');
      el.src = src;
      el.onerror = () => { state.waiting.delete(key); rej(new Error(`could not load ${src}`)); };
      document.body.appendChild(el);
    });
    done.promise = promise;
    state.waiting.set(key, done);
    return promise;
  }
  /** Loads the part of run i that holds line `line`. */
  function loadRun(i, line) {
    const parts = state.index.runs[i].parts;
    let part = 0;
    while (part + 1 < parts.length && parts[part + 1] <= line) part++;
    return load(`run:${i}-${part}`, `data/runs/${i}-${part}.js`, () => state.runs.has(i) && state.runs.get(i)[line] !== undefined);
  }
  const loadTasks = (i) => load(`tasks:${i}`, `data/tasks/${i}.js`, () => state.tasks.has(i));

  // ── small helpers ───────────────────────────────────────────────────────────────────────────
  const esc = (v) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const pct = (x) => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)}%`);
  const ms = (x) => (x === null || x === undefined ? '–' : `${Math.round(x * 10) / 10} ms`);
  const view = () => document.getElementById('view');
  function parseHash() {
    const h = location.hash.replace(/^#/, '') || '/';
    const [p, q] = h.split('?');
    return { path: p, params: new URLSearchParams(q || '') };
  }
  function outcomeOf(t) {
    if (t.study === 'evidence') return Object.entries(t.verdicts || {}).sort().map(([p, a]) => `${p}:${a ? 'accept' : 'reject'}`).join(' ');
    return `AS ${t.as} VTS ${t.vts} FC ${t.fc}${t.claim !== null ? ` claimed ${t.claim}` : ''}`;
  }
  /** A false completion: a layers row's FC; an evidence row where the policy (or, with none chosen, any policy) accepted a failure. */
  function isFalseCompletion(t, policy) {
    if (t.study === 'layers') return t.fc === true;
    if (t.truth !== 'failure') return false;
    return policy ? t.verdicts[policy] === true : Object.values(t.verdicts).some(Boolean);
  }
  function badges(t, policy) {
    const b = [];
    if (t.status === 'excluded') b.push('<span class="badge excluded">excluded</span>');
    if (isFalseCompletion(t, policy)) b.push('<span class="badge fc">false completion</span>');
    if (t.vts) b.push(`<span class="badge vts">${t.study === 'layers' ? 'VTS' : 'truth: success'}</span>`);
    else b.push(`<span class="badge notvts">${t.study === 'layers' ? 'not VTS' : 'truth: failure'}</span>`);
    if (t.error) b.push('<span class="badge error">error</span>');
    if (t.timing) b.push('<span class="badge timing">timing-sensitive</span>');
    return b.join('');
  }
  function setNav(which) {
    document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.dataset.nav === which));
  }

  // ── #/ : scorecards ─────────────────────────────────────────────────────────────────────────
  function renderScorecards() {
    setNav('scorecards');
    const cards = state.cards;
    const reg = state.traces.filter((t) => t.status === 'registered');
    const fcLayers = reg.filter((t) => t.study === 'layers' && t.fc).length;
    const fcEvidence = reg.filter((t) => t.study === 'evidence' && isFalseCompletion(t, null)).length;
    const regRuns = state.index.runs.filter((r) => r.status === 'registered').length;
    const exRuns = state.index.runs.filter((r) => r.status === 'excluded');
    let html = `<p>${reg.length} registered traces in ${regRuns} runs.
      <a href="#/traces?outcome=fc&study=layers">${fcLayers} layers traces</a> are false completions;
      <a href="#/traces?outcome=fc&study=evidence">${fcEvidence} evidence trials</a> had a failure accepted by at least one policy.
      ${state.traces.length - reg.length} excluded or superseded attempts in ${exRuns.length} files are <a href="#/excluded">listed apart</a> and counted in no scorecard.</p>
      <p class="note">Every number below is analysis/out's (the report recounted each from data/raw and found it equal). A count links to the traces it counts; a total to the traces of its group. Charts: the project's Vega-Lite specs (figures/); a bar or cell links to its traces.</p>
      <p class="note">Sections: ${cards.sections.map((s) => `<a href="#/?s=${s.id}" data-jump="${s.id}">${esc(s.id)}</a>`).join(' · ')}</p>`;
    for (const s of cards.sections) {
      html += `<section class="scorecard" id="sc-${s.id}" data-section="${s.id}"><h2>${esc(s.title)}</h2>`;
      html += `<p class="source">from ${esc(s.source)}${s.note ? ` — ${esc(s.note)}` : ''}</p>`;
      for (const c of cards.charts.filter((c) => c.section === s.id)) html += `<figure class="chart" data-chart="${c.id}">${c.svg}<figcaption class="note">${esc(c.spec)}: ${esc(c.title)}</figcaption></figure>`;
      if (!s.rows.length) { html += `<p class="note">No registered rows yet (${esc(s.source)} has no rows).</p></section>`; continue; }
      const extra = s.rows[0].extra ? Object.keys(s.rows[0].extra) : [];
      html += `<table><thead><tr>${s.keyCols.map((k) => `<th>${esc(k)}</th>`).join('')}${extra.map((k) => `<th>${esc(k)}</th>`).join('')}${s.measures.map((m) => `<th>${esc(m.label)} (k/n, rate, Wilson 95%)</th>`).join('')}</tr></thead><tbody>`;
      s.rows.forEach((row, i) => {
        const label = s.keyCols.map((k) => row.key[k]).join(' ');
        const policy = row.key.policy && s.id.startsWith('evidence') ? `&policy=${encodeURIComponent(row.key.policy)}` : '';
        html += `<tr data-row="${i}">${s.keyCols.map((k) => `<td>${esc(row.key[k])}</td>`).join('')}${extra.map((k) => `<td>${esc(row.extra[k])}</td>`).join('')}`;
        for (const m of s.measures) {
          const c = row.cells[m.name];
          const href = (list, what) => `#/traces?cell=${list}${policy}&label=${encodeURIComponent(`${s.id}: ${label}: ${what}`)}`;
          const isFc = m.name === 'fc' || m.name === 'false_accept';
          html += `<td class="num${isFc ? ' fc-cell' : ''}" data-measure="${m.name}" data-k="${c.k}" data-n="${c.n}" data-rate="${c.rate ?? ''}" data-low="${c.low ?? ''}" data-high="${c.high ?? ''}">` +
            `<a class="k" href="${href(c.hits, m.label)}">${c.k}</a>/<a class="n" href="${href(c.all, 'all')}">${c.n}</a> ` +
            `<span class="rate">${pct(c.rate)}</span> <span class="ci">[${pct(c.low)}, ${pct(c.high)}]</span></td>`;
        }
        html += '</tr>';
      });
      html += '</tbody></table></section>';
    }
    view().innerHTML = html;
    const jump = parseHash().params.get('s');
    if (jump) document.getElementById(`sc-${jump}`)?.scrollIntoView();
  }

  // ── #/traces : the list ─────────────────────────────────────────────────────────────────────
  const filterDefs = [
    { key: 'status', label: 'record', options: () => [['registered', 'registered'], ['excluded', 'excluded / superseded'], ['all', 'both']], fallback: 'registered' },
    { key: 'study', label: 'study', options: () => distinct('study') },
    { key: 'arm', label: 'arm', options: () => distinct('arm') },
    { key: 'browser', label: 'browser', options: () => distinct('browser') },
    { key: 'policy', label: 'agent or policy', options: () => policies() },
    { key: 'layer', label: 'layer', options: () => distinct('layer') },
    { key: 'template', label: 'template', options: () => distinct('template') },
    { key: 'scenario', label: 'scenario / case kind', options: () => distinct('scenario') },
    { key: 'outcome', label: 'outcome', options: () => [['fc', 'false completion'], ['vts', 'VTS (evidence: truth success)'], ['notvts', 'not VTS (evidence: truth failure)'], ['error', 'error'], ['timing', 'timing-sensitive']] },
  ];
  function distinct(col) {
    return [...new Set(state.traces.map((t) => t[col]).filter((v) => v !== null))].sort().map((v) => [v, v]);
  }
  function policies() {
    const set = new Set();
    for (const t of state.traces) {
      if (t.study === 'layers') set.add(t.policy);
      else for (const p of Object.keys(t.verdicts || {})) set.add(p);
    }
    return [...set].sort().map((v) => [v, v]);
  }
  function matches(t, f) {
    if (f.status !== 'all' && t.status !== f.status) return false;
    for (const k of ['study', 'arm', 'browser', 'layer', 'template', 'scenario']) if (f[k] && t[k] !== f[k]) return false;
    if (f.policy && !(t.study === 'layers' ? t.policy === f.policy : t.verdicts && f.policy in t.verdicts)) return false;
    switch (f.outcome) {
      case 'fc': if (!isFalseCompletion(t, f.policy)) return false; break;
      case 'vts': if (t.vts !== true) return false; break;
      case 'notvts': if (t.vts !== false) return false; break;
      case 'error': if (!t.error) return false; break;
      case 'timing': if (!t.timing) return false; break;
    }
    if (f.q && !t.cid.toLowerCase().includes(f.q.toLowerCase())) return false;
    return true;
  }
  function currentFilters(params) {
    const f = {};
    for (const d of filterDefs) f[d.key] = params.get(d.key) || d.fallback || '';
    f.q = params.get('q') || '';
    f.run = params.get('run');
    f.cell = params.get('cell');
    return f;
  }
  function renderTraces(params) {
    setNav('traces');
    const f = currentFilters(params);
    // a cell or a run names its traces itself: both records, unless asked otherwise
    if ((f.cell !== null || f.run !== null) && !params.get('status')) f.status = 'all';
    const cellIds = f.cell !== null ? state.cards.lists[Number(f.cell)] : null;
    let html = '';
    if (cellIds) html += `<p class="cell-filter" id="cell-filter">The ${cellIds.length} traces counted in <b>${esc(params.get('label') || `cell ${f.cell}`)}</b> <a href="#/traces">clear</a></p>`;
    if (f.run !== null) {
      const r = state.index.runs[Number(f.run)];
      html += `<p class="cell-filter">Run file <b>${esc(r?.file)}</b> <a href="#/traces">clear</a></p>`;
    }
    html += '<form class="filters" id="filters" onsubmit="return false">';
    for (const d of filterDefs) {
      html += `<label>${esc(d.label)}<select name="${d.key}" id="f-${d.key}">${d.fallback ? '' : '<option value="">any</option>'}${d.options().map(([v, l]) => `<option value="${esc(v)}"${f[d.key] === v ? ' selected' : ''}>${esc(l)}</option>`).join('')}</select></label>`;
    }
    html += `<label>condition id contains<input name="q" id="f-q" value="${esc(f.q)}" placeholder="e.g. state-03"></label></form>`;
    html += '<div id="list"></div>';
    view().innerHTML = html;
    const form = document.getElementById('filters');
    const update = () => {
      const next = new URLSearchParams();
      const scoped = f.cell !== null || f.run !== null;
      for (const el of form.elements) if (el.name && el.value && !(el.name === 'status' && el.value === (scoped ? 'all' : 'registered'))) next.set(el.name, el.value);
      if (f.cell !== null) { next.set('cell', f.cell); if (params.get('label')) next.set('label', params.get('label')); }
      if (f.run !== null) next.set('run', f.run);
      history.replaceState(null, '', `#/traces?${next}`);
      renderList(next);
    };
    form.addEventListener('change', update);
    form.addEventListener('input', (e) => { if (e.target.name === 'q') update(); });
    renderList(params);
  }
  function renderList(params) {
    const f = currentFilters(params);
    if (f.cell !== null || f.run !== null) f.status = params.get('status') || 'all';
    let pool = state.traces;
    if (f.cell !== null) pool = (state.cards.lists[Number(f.cell)] || []).map((id) => state.traces[id]);
    if (f.run !== null) pool = pool.filter((t) => t.run === Number(f.run));
    const hits = pool.filter((t) => matches(t, f));
    const pages = Math.max(1, Math.ceil(hits.length / PAGE));
    const page = Math.min(pages, Math.max(1, Number(params.get('page') || 1)));
    const shown = hits.slice((page - 1) * PAGE, page * PAGE);
    const policyParam = f.policy ? `?policy=${encodeURIComponent(f.policy)}` : '';
    let html = `<p id="count"><b>${hits.length}</b> traces${hits.length > PAGE ? `, page ${page} of ${pages}` : ''}</p>`;
    const pager = pages > 1 ? `<div class="pager"><button data-page="${page - 1}" ${page <= 1 ? 'disabled' : ''}>previous</button><button data-page="${page + 1}" ${page >= pages ? 'disabled' : ''}>next</button></div>` : '';
    html += pager;
    html += '<table id="trace-table"><thead><tr><th>#</th><th>condition</th><th>study / arm</th><th>browser</th><th>agent or policy</th><th>layer / scenario</th><th>template / truth</th><th>outcome</th><th>run</th></tr></thead><tbody>';
    for (const t of shown) {
      const run = state.index.runs[t.run];
      html += `<tr class="trace ${t.status}" data-id="${t.id}"><td><a class="open" href="#/trace/${t.id}${policyParam}">${t.id}</a></td><td><a href="#/trace/${t.id}${policyParam}">${esc(t.cid)}</a></td><td>${esc(t.study)} / ${esc(t.arm)}</td><td>${esc(t.browser)}</td>` +
        `<td>${esc(t.study === 'layers' ? t.policy : f.policy || Object.keys(t.verdicts || {}).length + ' policies')}</td><td>${esc(t.layer ?? t.scenario)}</td><td>${esc(t.template ?? t.truth)}</td><td>${badges(t, f.policy)}</td><td class="note">${esc(run.run_id)}</td></tr>`;
    }
    html += '</tbody></table>' + pager;
    const list = document.getElementById('list');
    list.innerHTML = html;
    list.querySelectorAll('button[data-page]').forEach((b) => b.addEventListener('click', () => {
      const next = new URLSearchParams(params);
      next.set('page', b.dataset.page);
      location.hash = `#/traces?${next}`;
    }));
  }

  // ── #/trace/<id> : one trace ────────────────────────────────────────────────────────────────
  /** The moments of a trace on one clock (ms; evidence: from the action's dispatch; layers: from the agent's start). */
  function timelineOf(row) {
    const marks = []; // {t, lane, label, kind}
    const spans = []; // {from, to, lane, label}
    const notes = [];
    if (row.study === 'evidence') {
      row.events.forEach((e, i) => marks.push({ t: e.t_ms, lane: e.source, label: `${e.type}${e.status !== undefined ? ` ${e.status}` : ''}${e.url ? ` ${e.url}` : ''}`, kind: 'event', i, atHorizon: e.type === 'horizon' }));
      const byRequest = new Map();
      for (const e of row.events) if (e.request_id) { const r = byRequest.get(e.request_id) || { from: e.t_ms, to: e.t_ms, url: e.url }; r.from = Math.min(r.from, e.t_ms); r.to = Math.max(r.to, e.t_ms); r.url = r.url || e.url; byRequest.set(e.request_id, r); }
      for (const [id, r] of byRequest) spans.push({ from: r.from, to: r.to, lane: 'network', label: `${id} ${r.url || ''}` });
      const horizon = row.events.find((e) => e.type === 'horizon');
      for (const [policy, v] of Object.entries(row.verdicts)) {
        marks.push({ t: v.latency_ms ?? (horizon ? horizon.t_ms : null), lane: 'policies', label: `${policy}: ${v.accept ? 'accept' : 'reject'}${v.latency_ms === null ? ' (no decision point: at the horizon)' : ''}`, kind: v.accept ? 'accept' : 'reject', atHorizon: v.latency_ms === null });
      }
      notes.push('clock: ms relative to the action\'s dispatch, on the runner\'s monotonic clock (the row\'s t_ms)');
      return { marks: marks.filter((m) => m.t !== null), spans, notes, lanes: ['runner', 'dom', 'app', 'network', 'server', 'policies'] };
    }
    if (row.real_app) return realAppTimelineOf(row);
    // layers: the agent's start is 0
    marks.push({ t: 0, lane: 'agent', label: 'agent starts', kind: 'agent' });
    const m = row.moments;
    if (m) {
      if (m.reveal_after_ms) marks.push({ t: m.reveal_after_ms, lane: 'page', label: `surface revealed (Access hold ${m.reveal_after_ms} ms)`, kind: 'page' });
      if (m.revealed !== null && m.revealed !== undefined) marks.push({ t: m.revealed, lane: 'page', label: 'surface revealed', kind: 'page' });
      if (m.success_shown !== null) marks.push({ t: m.success_shown, lane: 'page', label: 'page shows success', kind: 'page' });
      if (m.success_seen !== null) marks.push({ t: m.success_seen, lane: 'agent', label: 'agent sees the success indication', kind: 'agent' });
      if (m.look) { if (m.look.started !== null) spans.push({ from: m.look.started, to: m.look.done, lane: 'agent', label: `look (saw: ${m.look.saw})` }); marks.push({ t: m.look.done, lane: 'agent', label: `look done, saw ${m.look.saw}`, kind: 'agent' }); }
      for (const [a, b] of m.timed_waits || []) spans.push({ from: a, to: b, lane: 'agent', label: 'timed wait ran out' });
      if (m.confirmed !== null) marks.push({ t: m.confirmed, lane: 'agent', label: 'agent read the state back', kind: 'agent' });
      for (const s of m.saves) marks.push({ t: s, lane: 'server', label: 'server receives a save', kind: 'server' });
      for (const c of m.commits) marks.push({ t: c.at, lane: 'server', label: `server commits the target (${c.matches ? 'requested value' : 'another value'})`, kind: 'server' });
      marks.push({ t: m.returned, lane: 'agent', label: 'agent returns', kind: 'agent' });
      const lastSave = m.saves.length ? Math.max(...m.saves) : null;
      const base = row.boundary === 'return' ? m.returned : row.boundary === 'save' ? lastSave : null;
      if (base !== null && base !== undefined) marks.push({ t: base + row.horizon_ms, lane: 'scoring', label: `scoring boundary (${row.boundary} + horizon ${row.horizon_ms} ms)`, kind: 'boundary' });
      else notes.push(`scoring boundary: ${row.horizon_ms} ms after the last action (set by: ${row.boundary ?? 'not recorded'})`);
      notes.push('clock: ms after the agent began (the row\'s moments, process clock)');
    } else {
      notes.push(`this row records no moments (rows before prereg amendment 7 do not): only its start, its end (elapsed_ms) and its counts are on the clock; ${row.actions ?? '?'} actions and ${row.retries ?? '?'} retries at times not recorded; the scoring boundary is horizon_ms = ${row.horizon_ms} ms after the last action`);
    }
    for (const s of row.executed || []) spans.push({ from: s.t_ms, to: s.t_ms + s.ms, lane: 'agent', label: `step ${s.index}: ${s.action}${s.ok ? '' : ' (failed)'}${s.note ? ` — ${s.note}` : ''}` });
    for (const s of row.executed || []) marks.push({ t: s.t_ms, lane: 'agent', label: `step ${s.index}: ${s.action}${s.ok ? '' : ' (failed)'}`, kind: 'agent' });
    const end = row.elapsed_ms;
    if (row.claim !== undefined) marks.push({ t: m ? m.returned : end, lane: 'claim', label: row.claim ? `claim: ${row.claim.done ? 'done' : 'not done'}${row.claim.message ? ` — "${row.claim.message}"` : ''}` : `no claim (${row.error ?? 'error'})`, kind: row.claim?.done ? 'accept' : 'reject' });
    else marks.push({ t: end, lane: 'claim', label: `policy's done: apparent success ${row.apparent_success}`, kind: row.apparent_success ? 'accept' : 'reject' });
    marks.push({ t: end, lane: 'server', label: `server state at the scoring boundary: ${JSON.stringify(row.persisted)} (target ${JSON.stringify(row.target)}) → VTS ${row.vts}`, kind: row.vts ? 'accept' : 'reject' });
    marks.push({ t: end, lane: 'scoring', label: `trace ends (elapsed ${end} ms)`, kind: 'boundary' });
    return { marks, spans, notes, lanes: ['page', 'agent', 'claim', 'server', 'scoring'] };
  }
  /** What the fault proxy did with one write of the family (the row's real_app.writes[].action). */
  function proxyDid(w) {
    if (w.action === 'pass') return 'passed to the app';
    if (w.action === 'answered') return w.reached_app !== null ? 'answered by the proxy with the app\'s success, held, forwarded to the app later' : 'answered by the proxy with the app\'s success, held, never forwarded (the condition ended first)';
    if (w.action === 'dropped') return 'answered by the proxy with the app\'s success, dropped: never reaches the app';
    if (w.action === 'failed') return 'a transport fault answered it with an error: never reaches the app';
    if (w.action === 'lost') return 'passed to the app, which answered; a transport fault lost that answer: the browser got nothing';
    return 'the proxy could not handle it (closed, never forwarded)';
  }
  /** A real application's trace (arm real-apps): agent, page, proxy, app and scoring on one clock, ms after the agent began. */
  function realAppTimelineOf(row) {
    const marks = [];
    const spans = [];
    const notes = [];
    const ra = row.real_app;
    marks.push({ t: 0, lane: 'agent', label: 'agent starts', kind: 'agent' });
    marks.push({ t: ra.returned, lane: 'agent', label: 'agent returns', kind: 'agent' });
    for (const t of ra.loads) marks.push({ t, lane: 'page', label: 'page load', kind: 'page' });
    if (ra.success_shown !== null) marks.push({ t: ra.success_shown, lane: 'page', label: 'success notice shown', kind: 'page' });
    ra.writes.forEach((w, i) => {
      const n = i + 1;
      marks.push({ t: w.t, lane: 'proxy', label: `write ${n}${w.status !== null ? ` (${w.status})` : ''}: ${proxyDid(w)}`, kind: w.action === 'pass' ? 'event' : 'page', write: n, action: w.action });
      if (w.action !== 'pass' && w.reached_app !== null) spans.push({ from: w.t, to: w.reached_app, lane: 'proxy', label: `write ${n} held by the proxy` });
      if (w.reached_app !== null) marks.push({ t: w.reached_app, lane: 'app', label: `write ${n} reaches the app`, kind: 'server', write: n });
      if (w.app_answered !== null) marks.push({ t: w.app_answered, lane: 'app', label: `the app answers write ${n}`, kind: 'server', write: n });
      if (w.reached_app !== null && w.app_answered !== null) spans.push({ from: w.reached_app, to: w.app_answered, lane: 'app', label: `write ${n} at the app` });
    });
    if (!ra.writes.length) notes.push('no write of the task family reached the proxy: the agent never committed');
    for (const f of ra.transport || []) marks.push({ t: f.t, lane: 'proxy', label: `transport fault on ${f.match} #${f.n}: ${f.effect}`, kind: 'page' });
    if (row.arm === 'transport') notes.push(`transport fault: ${row.transport ? `${row.transport.fault}, severity ${row.transport.severity}` : 'none'}${row.also ? `; second layer ${row.also.layer} ${row.also.severity}` : ''}; the store counted ${row.store_writes ?? 'no'} write(s) to the target; ended done: ${row.ended_done}; false abandonment: ${row.false_abandonment}`);
    marks.push({ t: ra.boundary_at, lane: 'scoring', label: `scoring boundary (set by ${row.boundary ?? '?'} + ${row.horizon_ms} ms)`, kind: 'boundary' });
    marks.push({ t: ra.returned, lane: 'claim', label: `policy's done: apparent success ${row.apparent_success}${ra.success_shown !== null && ra.success_shown > ra.boundary_at ? ' (the notice showed after the boundary)' : ''}`, kind: row.apparent_success ? 'accept' : 'reject' });
    marks.push({ t: ra.read_at, lane: 'app', label: `database read: ${JSON.stringify(row.persisted.value)} against the target ${JSON.stringify(row.target.value)} → VTS ${row.vts}`, kind: row.vts ? 'accept' : 'reject', read: true });
    notes.push(`clock: ms after the agent began (the harness's process clock; the proxy runs in it). ${row.app ?? 'the app'} was reset to its seeded state before the trace in ${ra.reset_ms} ms; fault ${row.fault_source}${row.fault_source === 'proxy' ? ` (layer ${row.layer}, severity ${row.severity})` : ''}, variant ${row.variant}`);
    return { marks, spans, notes, lanes: ['agent', 'page', 'proxy', 'app', 'claim', 'scoring'] };
  }
  /** The clock's window: the whole trace, or from the action (0) to its last moment before the horizon. */
  function timelineSvg(tl, windowName = 'whole') {
    const all = [...tl.marks.map((m) => m.t), ...tl.spans.flatMap((s) => [s.from, s.to])].filter((x) => typeof x === 'number');
    let lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    if (windowName === 'action') {
      const inner = tl.marks.filter((m) => m.t >= 0 && m.kind !== 'boundary' && !m.atHorizon).map((m) => m.t);
      lo = -Math.max(5, (Math.max(1, ...inner)) * 0.05);
      hi = Math.max(1, ...inner) * 1.1;
    }
    const visible = (t) => t >= lo && t <= hi;
    const W = 1000, left = 80, right = 20, laneH = 26, top = 10;
    const x = (t) => left + ((t - lo) / (hi - lo || 1)) * (W - left - right);
    const lanes = tl.lanes.filter((l) => tl.marks.some((m) => m.lane === l) || tl.spans.some((s) => s.lane === l));
    const y = (lane) => top + lanes.indexOf(lane) * laneH + laneH / 2;
    const H = top + lanes.length * laneH + 30;
    const colour = { accept: '#2e7d32', reject: '#c62828', boundary: '#000', event: '#1565c0', page: '#6a1b9a', agent: '#ef6c00', server: '#00695c' };
    let svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="timeline">`;
    lanes.forEach((l) => { svg += `<line x1="${left}" x2="${W - right}" y1="${y(l)}" y2="${y(l)}" stroke="#eee"/><text class="lane-label" x="4" y="${y(l) + 4}">${esc(l)}</text>`; });
    for (let i = 0; i <= 10; i++) { const t = lo + ((hi - lo) * i) / 10; svg += `<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${H - 24}" stroke="#f3f3f3"/><text class="tick" x="${x(t)}" y="${H - 10}" text-anchor="middle">${Math.round(t)} ms</text>`; }
    if (lo < 0) svg += `<line x1="${x(0)}" x2="${x(0)}" y1="${top}" y2="${H - 24}" stroke="#999" stroke-dasharray="3,3"/>`;
    const labelled = new Set(['dom', 'app', 'policies', 'agent', 'page', 'claim', 'proxy']);
    let stagger = 0;
    // marks that fall on one spot of a lane share one label ("a, b: reject"), so that labels do not overprint
    const labels = new Map();
    for (const m of tl.marks) {
      if (!labelled.has(m.lane) || !lanes.includes(m.lane) || !visible(m.t)) continue;
      const spot = `${m.lane}|${Math.round(x(m.t) / 30)}`;
      const [name, verdict] = m.label.split(': ');
      const entry = labels.get(spot) || { m, names: [], verdicts: new Set() };
      entry.names.push((m.lane === 'policies' ? name : m.label).slice(0, 28));
      if (verdict && m.lane === 'policies') entry.verdicts.add(verdict.split(' ')[0]);
      labels.set(spot, entry);
    }
    const labelOf = new Map([...labels.values()].map((e) => [e.m, `${e.names.join(', ')}${e.verdicts.size ? `: ${[...e.verdicts].join('/')}` : ''}`]));
    for (const s of tl.spans) if (lanes.includes(s.lane) && visible(s.from) && visible(s.to)) svg += `<line x1="${x(s.from)}" x2="${Math.max(x(s.to), x(s.from) + 2)}" y1="${y(s.lane) + 7}" y2="${y(s.lane) + 7}" stroke="#90caf9" stroke-width="4"><title>${esc(s.label)} (${ms(s.from)} – ${ms(s.to)})</title></line>`;
    for (const m of tl.marks) {
      if (!lanes.includes(m.lane) || !visible(m.t)) continue;
      const c = colour[m.kind] || '#1565c0';
      // labels right of their mark, or left of it in the last third of the clock
      const end = x(m.t) > left + (W - left - right) * 0.66;
      if (labelOf.has(m)) svg += `<text class="tick" x="${x(m.t) + (end ? -7 : 5)}" y="${y(m.lane) - 4 + (stagger++ % 2) * 14}"${end ? ' text-anchor="end"' : ''}>${esc(labelOf.get(m))}</text>`;
      svg += m.kind === 'accept' || m.kind === 'reject'
        ? `<path d="M${x(m.t)} ${y(m.lane) - 6} l6 6 l-6 6 l-6 -6 z" fill="${c}"><title>${esc(ms(m.t))}: ${esc(m.label)}</title></path>`
        : m.kind === 'boundary' ? `<line x1="${x(m.t)}" x2="${x(m.t)}" y1="${top}" y2="${H - 24}" stroke="#000" stroke-width="1.5"><title>${esc(ms(m.t))}: ${esc(m.label)}</title></line>`
          : `<circle cx="${x(m.t)}" cy="${y(m.lane)}" r="3.5" fill="${c}"><title>${esc(ms(m.t))}: ${esc(m.label)}</title></circle>`;
    }
    return svg + '</svg>';
  }
  async function renderTrace(id, params) {
    setNav('traces');
    const t = state.traces[id];
    if (!t) { view().innerHTML = `<p>No trace ${esc(id)} in this report.</p>`; return; }
    view().innerHTML = `<p>Loading the rows of ${esc(state.index.runs[t.run].file)}…</p>`;
    await Promise.all([loadRun(t.run, t.line), t.task >= 0 ? loadTasks(t.task) : Promise.resolve()]);
    const row = state.runs.get(t.run)[t.line];
    const run = state.index.runs[t.run];
    const policy = params.get('policy');
    const tl = timelineOf(row);
    const taskDefs = t.task >= 0 ? state.tasks.get(t.task) : null;
    const taskId = row.arm === 'arm-b' ? row.condition_id.split('/').slice(0, 2).join('/') : row.condition_id;
    const def = taskDefs ? taskDefs[taskId] : null;
    let html = `<h2 id="trace-title">${esc(row.condition_id)} <span class="note">${esc(row.study)} / ${esc(row.arm)} · ${esc(row.browser.name)} ${esc(row.browser.version)} · ${esc(row.agent ? row.agent.name : row.policy)}</span></h2>`;
    html += `<p>${badges(t, policy)} <span class="note">run ${esc(run.run_id)} (${esc(run.file)}, line ${t.line + 1})</span></p>`;
    if (t.status === 'excluded') html += `<p class="reason"><span class="badge excluded">excluded</span> ${esc(run.reason)}${run.from ? ` <span class="note">(from ${esc(run.from)})</span>` : ''} — counted in no scorecard.</p>`;
    html += '<div class="detail"><div>';
    html += `<h3>Timeline <select id="tl-window"><option value="whole">whole trace</option><option value="action">from the action to its last moment</option></select></h3><div class="timeline" id="timeline">${timelineSvg(tl)}</div>${tl.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}`;
    if (row.study === 'evidence') {
      html += `<h3>Decision points</h3><table id="verdicts"><thead><tr><th>policy</th><th>decided at</th><th>verdict</th><th>against truth (${esc(row.truth)})</th></tr></thead><tbody>`;
      for (const [p, v] of Object.entries(row.verdicts)) {
        const wrong = v.accept !== (row.truth === 'success');
        html += `<tr class="verdict ${v.accept ? 'accept' : 'reject'}${v.accept && row.truth === 'failure' ? ' false-accept' : ''}${p === policy ? ' chosen' : ''}" data-policy="${esc(p)}"><td>${p === policy ? '<b>' + esc(p) + '</b>' : esc(p)}</td><td>${ms(v.latency_ms)}</td><td>${v.accept ? 'accept' : 'reject'}</td><td>${wrong ? (v.accept ? 'false accept: a false completion' : 'false reject') : 'right'}</td></tr>`;
      }
      html += `</tbody></table><h3>Events (${row.events.length}, in the row's order)</h3><table id="events"><thead><tr><th>t (ms)</th><th>source</th><th>type</th><th>request id</th><th>status</th><th>URL</th><th>detail</th></tr></thead><tbody>`;
      row.events.forEach((e, i) => {
        html += `<tr class="event" data-i="${i}" data-t="${e.t_ms}" data-source="${esc(e.source)}" data-type="${esc(e.type)}" data-request="${esc(e.request_id ?? '')}"><td class="num">${e.t_ms}</td><td>${esc(e.source)}</td><td>${esc(e.type)}</td><td>${esc(e.request_id ?? '')}</td><td>${esc(e.status ?? '')}</td><td>${esc(e.url ?? '')}</td><td class="note">${e.detail ? esc(JSON.stringify(e.detail)) : ''}</td></tr>`;
      });
      html += '</tbody></table>';
    } else {
      html += `<h3>Moments (${tl.marks.length}, in time order)</h3><table id="moments"><thead><tr><th>t (ms)</th><th>lane</th><th>what</th></tr></thead><tbody>`;
      [...tl.marks].sort((a, b) => a.t - b.t).forEach((m) => { html += `<tr class="moment" data-t="${m.t}" data-lane="${esc(m.lane)}"><td class="num">${m.t}</td><td>${esc(m.lane)}</td><td>${esc(m.label)}</td></tr>`; });
      html += '</tbody></table>';
      if (row.real_app) {
        html += `<h3>Writes of the task family (${row.real_app.writes.length}) and the stored value</h3><table id="writes"><thead><tr><th>#</th><th>sent (ms)</th><th>what the proxy did</th><th>status to the browser</th><th>reached the app (ms)</th><th>the app answered (ms)</th></tr></thead><tbody>`;
        row.real_app.writes.forEach((w, i) => { html += `<tr class="write" data-action="${esc(w.action)}"><td>${i + 1}</td><td class="num">${w.t}</td><td>${esc(proxyDid(w))}</td><td>${esc(w.status ?? '')}</td><td class="num">${w.reached_app ?? 'never'}</td><td class="num">${w.app_answered ?? '–'}</td></tr>`; });
        html += `</tbody></table><p id="stored" class="${row.vts ? 'accept' : 'reject'}">stored at the read (${row.real_app.read_at} ms): <code>${esc(JSON.stringify(row.persisted.value))}</code>; target <code>${esc(JSON.stringify(row.target.value))}</code> (${esc(row.target.key)}) → VTS ${row.vts}</p>`;
      }
    }
    const others = (state.byUnit.get(t.unit) || []).filter((o) => o.id !== t.id);
    html += `<h3>The same unit elsewhere (${others.length})</h3>`;
    if (!others.length) html += '<p class="note">No other run or browser holds this unit.</p>';
    else {
      html += '<table id="others"><thead><tr><th>#</th><th>browser</th><th>arm</th><th>run</th><th>record</th><th>outcome</th></tr></thead><tbody>';
      for (const o of others) {
        const flip = o.outcome !== t.outcome;
        html += `<tr class="${flip ? 'flip' : ''} ${o.status}" data-id="${o.id}"><td><a href="#/trace/${o.id}${policy ? `?policy=${encodeURIComponent(policy)}` : ''}">${o.id}</a></td><td>${esc(o.browser)}</td><td>${esc(o.arm)}</td><td class="note">${esc(state.index.runs[o.run].run_id)}</td><td>${esc(o.status)}</td><td>${flip ? '<b>flip</b>: ' : ''}${esc(o.outcome)}</td></tr>`;
      }
      html += '</tbody></table><p class="note">flip: the outcome differs from this trace\'s (' + esc(t.outcome) + ')</p>';
    }
    html += '</div><aside>';
    const fields = { ...row };
    delete fields.events;
    html += `<h3>Row</h3><pre id="row-fields">${esc(JSON.stringify(fields, null, 2))}</pre>`;
    html += `<h3>Condition</h3>${def ? `<pre id="condition">${esc(JSON.stringify(def, null, 2))}</pre><p class="note">from data/tasks/${esc(state.index.tasks[t.task])}</p>` : '<p class="note">No definition of this condition in data/tasks.</p>'}`;
    html += '</aside></div>';
    view().innerHTML = html;
    document.getElementById('tl-window').addEventListener('change', (e) => { document.getElementById('timeline').innerHTML = timelineSvg(tl, e.target.value); });
  }

  // ── #/excluded ──────────────────────────────────────────────────────────────────────────────
  function renderExcluded() {
    setNav('excluded');
    const runs = state.index.runs.filter((r) => r.status === 'excluded');
    let html = `<p>${runs.length} files of data/excluded/: failed, smoke and superseded attempts, each with the reason data/excluded/REASONS.jsonl gives. None is counted in a scorecard.</p>`;
    html += '<table id="excluded-runs"><thead><tr><th>file</th><th>traces</th><th>excluded at</th><th>reason</th></tr></thead><tbody>';
    for (const r of runs) html += `<tr class="excluded"><td>${esc(r.file)}${r.from ? `<br><span class="note">from ${esc(r.from)}</span>` : ''}</td><td>${r.rows ? `<a href="#/traces?run=${r.index}&status=excluded">${r.rows} traces</a>` : '0 traces'}${r.other_lines.length ? `<details class="other-lines"><summary>${r.other_lines.length} line${r.other_lines.length === 1 ? '' : 's'} that are not trace rows</summary><pre>${esc(r.other_lines.map((l) => JSON.stringify(l)).join('\n'))}</pre></details>` : ''}</td><td>${esc(r.at ?? '')}</td><td class="reason">${esc(r.reason)}</td></tr>`;
    html += '</tbody></table>';
    const listed = new Set(runs.map((r) => r.file));
    const otherReasons = state.index.reasons.filter((r) => !listed.has(r.file));
    if (otherReasons.length) {
      html += `<h3>Other entries of REASONS.jsonl (${otherReasons.length}: files that hold no trace rows)</h3><table><thead><tr><th>file</th><th>at</th><th>reason</th></tr></thead><tbody>`;
      for (const r of otherReasons) html += `<tr class="excluded"><td>${esc(r.file)}</td><td>${esc(r.at)}</td><td class="reason">${esc(r.reason)}</td></tr>`;
      html += '</tbody></table>';
    }
    view().innerHTML = html;
  }

  // ── routing ─────────────────────────────────────────────────────────────────────────────────
  function route() {
    const { path, params } = parseHash();
    const m = path.match(/^\/trace\/(\d+)$/);
    if (m) return renderTrace(Number(m[1]), params).catch((e) => { view().innerHTML = `<p>${esc(e.message)}</p>`; });
    if (path === '/traces') return renderTraces(params);
    if (path === '/excluded') return renderExcluded();
    return renderScorecards();
  }
  function start() {
    if (!state.index || !state.cards) { view().textContent = 'The report\'s data (data/index.js, data/scorecards.js) did not load.'; return; }
    const g = state.index.generated;
    document.getElementById('provenance').textContent = `Generated ${g.at} from ${g.from.join(', ')}; ${state.traces.length} traces.`;
    window.addEventListener('hashchange', route);
    route();
  }
  return { index, scorecards, run, tasks, start, state };
})();
