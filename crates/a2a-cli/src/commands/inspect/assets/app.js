// a2a inspect: the page. It talks to its backend only (same origin, the token in the path):
// POST api/* for actions, GET events (SSE) for the session's records as they are added.
// Every view is drawn from those records, so a reload (or a second tab) shows the same session.

const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text: nothing is parsed as HTML). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** Replaces the children of `node` (arrays flattened, null and false left out). */
function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

async function api(op, body) {
  const response = await fetch(base + 'api/' + op, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}),
  });
  const answer = await response.json();
  if (answer.error) throw new Error(answer.error);
  return answer.result;
}

const session = { records: [], dropped: 0, card: null, state: null };
const ui = { view: 'connect', task: null, context: null, nextPage: null };

// ---- tabs ----
for (const button of document.querySelectorAll('#tabs button')) {
  button.addEventListener('click', () => show(button.dataset.view));
}
function show(view) {
  ui.view = view;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === view);
  for (const s of document.querySelectorAll('.view')) s.classList.toggle('active', s.id === 'view-' + view);
  render();
}

// ---- live records ----
function listen() {
  const source = new EventSource(base + 'events');
  source.addEventListener('open', () => { $('live').textContent = 'live'; $('live').className = 'badge on'; });
  source.addEventListener('error', () => { $('live').textContent = 'offline'; $('live').className = 'badge off'; });
  source.addEventListener('hello', (e) => {
    const hello = JSON.parse(e.data);
    session.records = []; session.dropped = hello.dropped; scheduled();
  });
  source.addEventListener('record', (e) => {
    const record = JSON.parse(e.data);
    if (record.kind === 'dropped') { session.dropped = record.dropped; dropOld(record.max); }
    else session.records.push(record);
    scheduled();
  });
  source.addEventListener('resync', () => { source.close(); listen(); });
}
function dropOld(max) { while (session.records.length >= max) session.records.shift(); }

let pending = false;
function scheduled() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; render(); });
}

function render() {
  const card = [...session.records].reverse().find((r) => r.kind === 'card');
  session.card = card || null;
  $('dropped').hidden = !session.dropped;
  $('dropped').textContent = `${session.dropped} oldest records dropped (--max-records)`;
  const name = card?.card?.name || card?.document?.name;
  $('agent-name').textContent = name ? name : card ? card.source : 'not connected';
  $('binding').textContent = card?.interface ? `${card.interface.binding} · A2A ${card.interface.spoken}` : '';
  const views = { card: renderCard, chat: renderChat, timeline: renderTimeline, wire: renderWire, push: renderPush };
  views[ui.view]?.();
}

// ---- connect ----
$('connect-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const status = $('connect-status');
  status.className = 'status'; status.textContent = 'connecting…';
  try {
    const info = await api('connect', {
      agent: $('agent').value, transport: $('transport').value, version: $('version').value,
      bearer: $('bearer').value, apiKey: $('api-key').value, headers: $('headers').value,
    });
    if (info.error) { status.className = 'status error'; status.textContent = info.error; }
    else status.textContent = `connected: ${info.interface.binding} ${info.interface.spoken} at ${info.interface.url}`;
    show('card');
  } catch (err) { status.className = 'status error'; status.textContent = err.message; }
});

// ---- card ----
function renderCard() {
  const box = $('card');
  const info = session.card;
  if (!info) { box.replaceChildren(el('p', { class: 'muted' }, 'Connect to an agent first.')); return; }
  const c = info.card || info.document || {};
  const findings = info.findings || [];
  const errors = findings.filter((f) => f.severity === 'error').length;
  fill(box,
    info.error ? el('p', { class: 'error', id: 'card-error' }, info.error) : null,
    el('div', { class: 'card-box' },
      el('h3', {}, c.name || '(no name)', ' ', el('span', { class: 'muted' }, c.version || '')),
      el('p', {}, c.description || ''),
      c.provider ? el('p', { class: 'muted' }, 'Provider: ', c.provider.organization || '', ' ', c.provider.url || '') : null,
      el('p', { class: 'muted' }, 'Read from ', info.url || info.source)),
    el('h3', {}, 'Validation'),
    el('p', { id: 'card-validity', class: errors ? 'error' : '' },
      errors ? `invalid: ${errors} error(s), ${findings.length - errors} warning(s)` :
        `valid${findings.length ? `, ${findings.length} warning(s)` : ''}`),
    el('ul', { class: 'findings', id: 'card-findings' },
      findings.map((f) => el('li', { class: f.severity }, el('b', {}, f.severity), ' ', el('code', {}, f.path || '(card)'), ': ', f.message))),
    el('h3', {}, 'Signature'),
    el('p', { id: 'card-signature' }, info.signature || ''),
    el('h3', {}, 'Interfaces (in preference order)'),
    el('table', {}, el('tbody', {}, (c.supportedInterfaces || []).map((i, n) =>
      el('tr', {}, el('td', {}, String(n + 1)), el('td', {}, i.protocolBinding), el('td', {}, i.protocolVersion || ''), el('td', {}, i.url), el('td', {}, i.tenant || '')))))
    ,
    info.interface ? el('p', {}, 'In use: ', el('b', {}, info.interface.binding), ` ${info.interface.version} at ${info.interface.url}, speaking A2A ${info.interface.spoken}`) : null,
    el('h3', {}, 'Capabilities'),
    el('pre', { class: 'json' }, JSON.stringify(c.capabilities || {}, null, 2)),
    el('h3', {}, 'Skills'),
    (c.skills || []).map((s) => el('div', { class: 'card-box' },
      el('b', {}, s.name || s.id), ' ', el('span', { class: 'muted' }, (s.tags || []).join(', ')),
      el('p', {}, s.description || ''),
      s.examples?.length ? el('p', {}, 'Examples: ', s.examples.map((x) => el('code', {}, x, ' '))) : null)),
    el('h3', {}, 'Security schemes'),
    el('pre', { class: 'json' }, JSON.stringify({ securitySchemes: c.securitySchemes || {}, securityRequirements: c.securityRequirements || [] }, null, 2)),
    el('details', {}, el('summary', {}, 'The document as read'), el('pre', { class: 'json' }, JSON.stringify(info.document, null, 2))),
  );
}

// ---- events: helpers ----
function eventTask(ev) {
  return ev.task?.id || ev.statusUpdate?.taskId || ev.artifactUpdate?.taskId || ev.message?.taskId || null;
}
function eventContext(ev) {
  return ev.task?.contextId || ev.statusUpdate?.contextId || ev.artifactUpdate?.contextId || ev.message?.contextId || null;
}
function eventKind(ev) { return Object.keys(ev || {})[0] || '?'; }
function eventState(ev) { return ev.task?.status?.state || ev.statusUpdate?.status?.state || null; }
function partsText(parts) {
  return (parts || []).map((p) => {
    if (p.text !== undefined) return p.text;
    if (p.data !== undefined) return JSON.stringify(p.data);
    if (p.raw !== undefined) return `[file ${p.filename || ''} ${p.mediaType || ''} (${Math.floor(p.raw.length * 3 / 4)} bytes)]`;
    if (p.url !== undefined) return `[file ${p.url}]`;
    return JSON.stringify(p);
  }).join('');
}

/** Per task: its events in order, its states, its artifacts assembled from their chunks. */
function tasks() {
  const byTask = new Map();
  const get = (id) => {
    if (!byTask.has(id)) byTask.set(id, { id, context: null, rows: [], state: null, artifacts: new Map() });
    return byTask.get(id);
  };
  for (const r of session.records) {
    if (r.kind === 'resume') { if (r.taskId) get(r.taskId).rows.push({ resume: r }); continue; }
    if (r.kind !== 'event') continue;
    const ev = r.event || {};
    const id = eventTask(ev) || '(no task)';
    const t = get(id);
    t.context = eventContext(ev) || t.context;
    const state = eventState(ev);
    const transition = state && state !== t.state;
    if (state) t.state = state;
    const art = ev.artifactUpdate;
    if (art) {
      const key = art.artifact?.artifactId;
      const prev = t.artifacts.get(key);
      const parts = art.append && prev ? prev.parts.concat(art.artifact.parts || []) : (art.artifact.parts || []);
      t.artifacts.set(key, { name: art.artifact.name || prev?.name, parts, chunks: (art.append && prev ? prev.chunks : 0) + 1, last: !!art.lastChunk });
    }
    for (const a of ev.task?.artifacts || []) t.artifacts.set(a.artifactId, { name: a.name, parts: a.parts || [], chunks: 1, last: true });
    t.rows.push({ r, ev, state, transition });
  }
  return byTask;
}

// ---- chat ----
function renderChat() {
  const log = $('chat-log');
  const items = [];
  const artifactBubbles = new Map();
  let asking = null;
  // Tasks the user answered: a stream's first event, the task as it stood before the answer,
  // is no new question.
  const continued = new Set();
  for (const r of session.records) {
    if (r.kind === 'user') {
      if (r.message?.taskId) continued.add(r.message.taskId);
      items.push(el('div', { class: 'bubble user' }, el('div', { class: 'meta' }, `you · ${r.op}`), partsText(r.message?.parts)));
    } else if (r.kind === 'event') {
      const ev = r.event || {};
      const task = eventTask(ev);
      const state = eventState(ev);
      const meta = el('div', { class: 'meta' }, `${r.via} · ${eventKind(ev)}${r.eventId ? ` · id ${r.eventId}` : ''}${task ? ` · task ${task}` : ''}`);
      if (ev.message) items.push(el('div', { class: 'bubble agent' }, meta, partsText(ev.message.parts)));
      if (state) {
        const msg = ev.statusUpdate?.status?.message || ev.task?.status?.message;
        items.push(el('div', { class: 'bubble agent status' }, meta, el('span', { class: 'state ' + state }, state.replace('TASK_STATE_', '')), msg ? ' · ' + partsText(msg.parts) : ''));
        const stale = ev.task && r.via !== 'response' && continued.has(task);
        if ((state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED') && !stale) {
          asking = { task, context: eventContext(ev), state, seq: r.seq };
        }
        else if (asking && asking.task === task) asking = null;
      }
      const arts = ev.artifactUpdate ? [ev.artifactUpdate] : (ev.task?.artifacts || []).map((a) => ({ artifact: a }));
      for (const a of arts) {
        const key = `${task}/${a.artifact.artifactId}`;
        const existing = artifactBubbles.get(key);
        if (existing && a.append) {
          existing.text.append(partsText(a.artifact.parts));
          existing.chunks += 1;
          existing.meta.textContent = `artifact ${a.artifact.name || a.artifact.artifactId} · ${existing.chunks} chunks${a.lastChunk ? ' · complete' : ''}`;
        } else if (!existing || !ev.task) {
          const text = el('span', { class: 'artifact-text' }, partsText(a.artifact.parts));
          const m = el('div', { class: 'meta' }, `artifact ${a.artifact.name || a.artifact.artifactId}${a.lastChunk ? ' · complete' : ''}`);
          const bubble = el('div', { class: 'bubble agent artifact', 'data-artifact': a.artifact.artifactId }, m, text);
          artifactBubbles.set(key, { text, meta: m, chunks: 1 });
          items.push(bubble);
        }
      }
    } else if (r.kind === 'call' && r.error && /Message|CancelTask/.test(r.op)) {
      items.push(el('div', { class: 'bubble agent error' }, el('div', { class: 'meta' }, r.op), r.error));
    } else if (r.kind === 'streamError') {
      items.push(el('div', { class: 'bubble agent error' }, el('div', { class: 'meta' }, r.via), r.error));
    }
  }
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
  const banner = $('chat-banner');
  banner.hidden = !asking;
  if (asking) {
    banner.textContent = `The agent asks (${asking.state.replace('TASK_STATE_', '').toLowerCase()}): your next message continues task ${asking.task}.`;
    // Filled in once per question: the answer's send clears it.
    if (ui.filledFor !== asking.seq) {
      ui.filledFor = asking.seq;
      $('chat-task').value = asking.task; $('chat-context').value = asking.context || '';
    }
  }
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] || '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

$('chat-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const status = $('chat-status');
  status.className = 'status'; status.textContent = '';
  const parts = [];
  const text = $('chat-text').value;
  if (text) parts.push({ text });
  for (const file of $('chat-files').files) {
    parts.push({ raw: await readFile(file), filename: file.name, mediaType: file.type || 'application/octet-stream' });
  }
  const data = $('chat-data').value.trim();
  if (data) {
    try { parts.push({ data: JSON.parse(data), mediaType: 'application/json' }); } catch (err) {
      status.className = 'status error'; status.textContent = `the data part is not JSON: ${err.message}`; return;
    }
  }
  if (!parts.length) { status.textContent = 'write a message first'; return; }
  const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts };
  const task = $('chat-task').value.trim();
  const context = $('chat-context').value.trim();
  if (task) message.taskId = task;
  if (context) message.contextId = context;
  const op = $('chat-stream').checked ? 'SendStreamingMessage' : 'SendMessage';
  try {
    $('chat-text').value = ''; $('chat-files').value = ''; $('chat-data').value = '';
    $('chat-task').value = '';
    await api(op, { message, pushToInspector: $('chat-push').checked });
  } catch (err) { status.className = 'status error'; status.textContent = err.message; }
});

function lastTask() {
  for (let i = session.records.length - 1; i >= 0; i--) {
    const r = session.records[i];
    if (r.kind === 'event') { const t = eventTask(r.event || {}); if (t) return t; }
  }
  return null;
}

$('chat-cancel').addEventListener('click', async () => {
  const status = $('chat-status');
  const id = $('chat-task').value.trim() || lastTask();
  if (!id) { status.textContent = 'no task to cancel'; return; }
  try { const task = await api('CancelTask', { id }); status.className = 'status'; status.textContent = `task ${id}: ${task.status?.state}`; }
  catch (err) { status.className = 'status error'; status.textContent = err.message; }
});
$('chat-new').addEventListener('click', () => { $('chat-task').value = ''; $('chat-context').value = ''; });

// ---- timeline ----
function timelineRow(row) {
  if (row.resume) {
    return el('tr', { class: 'resume' }, el('td', {}, String(row.resume.seq)), el('td', {}, row.resume.via), el('td', {}, ''),
      el('td', { colspan: 3 }, `⟳ ${row.resume.text} (reconnect ${row.resume.reconnects})`));
  }
  const ev = row.ev;
  const art = ev.artifactUpdate;
  const content = art
    ? `${art.append ? '+ ' : ''}${partsText(art.artifact?.parts)}${art.lastChunk ? ' (last chunk)' : ''}`
    : partsText((ev.statusUpdate?.status?.message || ev.message || ev.task?.status?.message)?.parts);
  const state = row.state
    ? el('span', { class: 'state ' + row.state }, (row.transition ? '→ ' : '') + row.state.replace('TASK_STATE_', ''))
    : '';
  return el('tr', { class: 'event' },
    el('td', {}, String(row.r.seq)), el('td', {}, row.r.via), el('td', { class: 'event-id' }, row.r.eventId || ''),
    el('td', {}, eventKind(ev)), el('td', { class: row.transition ? 'transition' : '' }, state), el('td', {}, content));
}

function timelineTask(t) {
  const head = el('h3', {}, 'Task ', el('code', {}, t.id), ' ',
    el('span', { class: 'state ' + (t.state || '') }, (t.state || '').replace('TASK_STATE_', '')), ' ',
    el('span', { class: 'muted' }, t.context ? `context ${t.context}` : ''));
  const table = el('table', { class: 'timeline' },
    el('thead', {}, el('tr', {}, ['#', 'via', 'event id', 'event', 'state', 'content'].map((h) => el('th', {}, h)))),
    el('tbody', {}, t.rows.map(timelineRow)));
  const artifacts = [...t.artifacts.entries()].map(([id, a]) => el('div', { class: 'card-box artifact', 'data-artifact': id },
    el('b', {}, a.name || id), el('span', { class: 'muted' }, ` · ${a.chunks} chunk(s)${a.last ? ' · complete' : ''}`),
    el('pre', { class: 'assembled' }, partsText(a.parts))));
  return el('div', { class: 'task-box', 'data-task': t.id }, head, table, el('h3', {}, 'Artifacts (chunks assembled)'), artifacts);
}

function renderTimeline() {
  const box = $('timeline');
  const all = [...tasks().values()];
  if (!all.length) { box.replaceChildren(el('p', { class: 'muted' }, 'No events yet.')); return; }
  box.replaceChildren(...all.map(timelineTask));
}

// ---- wire ----
$('wire-binding').addEventListener('change', () => renderWire());
$('wire-op').addEventListener('input', () => renderWire());
function renderWire() {
  const binding = $('wire-binding').value;
  const op = $('wire-op').value.trim().toLowerCase();
  const items = session.records.filter((r) => r.kind === 'wire'
    && (!binding || r.binding === binding) && (!op || String(r.method).toLowerCase().includes(op)));
  // gRPC's protobuf, decoded: the request and result of the call the exchange belongs to.
  const decoded = (r) => {
    const call = session.records.find((c) => c.kind === 'call' && c.seq > r.seq && c.op === r.method);
    if (!call) return null;
    const value = r.dir === 'request' ? call.request : (call.response ?? { error: call.error });
    return el('details', { class: 'decoded' }, el('summary', {}, 'decoded (as the call\'s 1.0 JSON)'),
      el('pre', { class: 'json' }, JSON.stringify(value, null, 2)));
  };
  const body = (r) => {
    const b = r.body;
    if (!b) return null;
    if (b.empty) return el('p', { class: 'muted' }, '(no body)');
    if (b.stream) return el('p', { class: 'muted' }, '(an event stream: its events are in the timeline)');
    if (b.decoded) return [el('p', { class: 'muted' }, '(a gRPC answer, decoded by the transport)'), decoded(r)];
    const pre = el('pre', { class: 'json body' }, (b.binary ? `(binary, protobuf: ${b.bytes} bytes)\n` : '') + b.text);
    return b.binary ? [pre, decoded(r)] : pre;
  };
  $('wire').replaceChildren(...items.slice(-300).reverse().map((r) => el('details', { class: `wire-item ${r.dir}`, 'data-binding': r.binding || '', 'data-method': r.method },
    el('summary', {}, el('span', { class: 'dir' }, r.dir === 'request' ? '→' : r.dir === 'response' ? '←' : '✗'), ' ',
      el('b', {}, r.method), ' ', el('span', { class: 'badge' }, `${r.binding || '?'} ${r.version || ''}`), ' ',
      r.http || (r.status ? `HTTP ${r.status}` : '') || '', r.error ? ` ${r.error}` : '', r.attempt ? ` (attempt ${r.attempt + 1})` : ''),
    r.headers ? el('table', { class: 'headers' }, el('tbody', {}, r.headers.map(([k, v]) => el('tr', {}, el('td', {}, el('code', {}, k)), el('td', {}, el('code', {}, v)))))) : null,
    body(r))));
  if (!items.length) $('wire').replaceChildren(el('p', { class: 'muted' }, 'No exchanges yet.'));
}

// ---- tasks ----
async function listTasks(pageToken) {
  const status = $('tasks-status');
  const request = { pageSize: Number($('tasks-size').value) || 20 };
  if ($('tasks-context').value.trim()) request.contextId = $('tasks-context').value.trim();
  if ($('tasks-state').value) request.status = $('tasks-state').value;
  if (pageToken) request.pageToken = pageToken;
  try {
    const page = await api('ListTasks', request);
    ui.nextPage = page.nextPageToken || null;
    $('tasks-next').disabled = !ui.nextPage;
    status.className = 'status'; status.textContent = `${(page.tasks || []).length} task(s)${page.totalSize !== undefined ? ` of ${page.totalSize}` : ''}`;
    $('tasks').tBodies[0].replaceChildren(...(page.tasks || []).map((t) => el('tr', { 'data-task': t.id },
      el('td', {}, el('code', {}, t.id)), el('td', {}, el('code', {}, t.contextId || '')),
      el('td', {}, el('span', { class: 'state ' + t.status?.state }, (t.status?.state || '').replace('TASK_STATE_', ''))),
      el('td', {},
        el('button', { type: 'button', onclick: () => taskAction('GetTask', { id: t.id, historyLength: 100 }) }, 'Get'), ' ',
        el('button', { type: 'button', onclick: () => taskAction('SubscribeToTask', { id: t.id }) }, 'Subscribe'), ' ',
        el('button', { type: 'button', onclick: () => taskAction('CancelTask', { id: t.id }) }, 'Cancel'), ' ',
        el('button', { type: 'button', onclick: () => { $('push-task').value = t.id; show('push'); } }, 'Push…')))));
  } catch (err) { status.className = 'status error'; status.textContent = err.message; }
}
async function taskAction(op, request) {
  const status = $('tasks-status');
  try {
    const result = await api(op, request);
    status.className = 'status'; status.textContent = `${op} ${request.id}: done`;
    $('task-detail').textContent = JSON.stringify(result, null, 2);
    if (op === 'SubscribeToTask') show('timeline');
  } catch (err) { status.className = 'status error'; status.textContent = `${op} ${request.id}: ${err.message}`; }
}
$('tasks-form').addEventListener('submit', (e) => { e.preventDefault(); listTasks(null); });
$('tasks-next').addEventListener('click', () => listTasks(ui.nextPage));

// ---- push ----
function renderPush() {
  $('webhook').textContent = session.state?.webhook || '';
  $('push-signing').textContent = session.card?.push?.signed || '';
  const deliveries = session.records.filter((r) => r.kind === 'push');
  $('deliveries').replaceChildren(...(deliveries.length ? deliveries.slice().reverse().map((d) => el('div', { class: 'delivery ' + (d.accepted ? 'accepted' : 'refused') },
    el('b', {}, d.accepted ? '✓ accepted' : '✗ refused'), ' · ', el('span', { class: 'check' }, d.check), ' ',
    d.event ? el('span', { class: 'muted' }, `${eventKind(d.event)} of task ${eventTask(d.event)}${eventState(d.event) ? ' · ' + eventState(d.event) : ''}`) : null,
    el('details', {}, el('summary', {}, 'headers and body'),
      el('table', {}, el('tbody', {}, (d.headers || []).map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, v))))),
      el('pre', { class: 'json' }, d.body?.text || '')))) : [el('p', { class: 'muted' }, 'No deliveries yet.')]));
}
$('push-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const status = $('push-status');
  const taskId = $('push-task').value.trim() || lastTask();
  try {
    const config = await api('push', { taskId });
    status.className = 'status'; status.textContent = `push config ${config.id || ''} registered for task ${taskId}`;
  } catch (err) { status.className = 'status error'; status.textContent = err.message; }
});

// ---- conformance ----
$('conformance-run').addEventListener('click', async () => {
  const box = $('conformance');
  box.replaceChildren(el('p', { class: 'muted' }, 'running…'));
  try {
    const result = await api('conformance', {});
    box.replaceChildren(el('pre', { class: 'json' }, JSON.stringify(result, null, 2)));
  } catch (err) { box.replaceChildren(el('p', { class: 'error', id: 'conformance-error' }, err.message)); }
});

// ---- export ----
$('export-show').addEventListener('click', async () => {
  const doc = await (await fetch(base + 'export')).json();
  const counts = {};
  for (const r of doc.records) counts[r.kind] = (counts[r.kind] || 0) + 1;
  $('export').textContent = JSON.stringify({ inspector: doc.inspector, agent: doc.connection?.card?.card?.name, dropped: doc.dropped, records: counts }, null, 2);
});

// ---- start ----
(async () => {
  try {
    const state = await (await fetch(base + 'api/state')).json();
    session.state = state;
    $('agent').value = state.defaults.agent || '';
    $('transport').value = state.defaults.transport || '';
    $('version').value = state.defaults.version || '1.0';
    if (state.card) show(state.card.error ? 'card' : 'chat');
  } catch (err) { $('connect-status').textContent = err.message; }
  listen();
})();
