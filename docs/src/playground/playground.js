// The playground: samekey-wasm in the page, nothing sent anywhere. The inputs live in the
// URL's fragment (never sent to a server; the secret is never put there), every change
// recomputes at once. derive() and compareJson() are what the page shows, exported for
// the tests (test_playground.mjs runs every ulid vector through derive()).
import {
  init, deriveUlid, ulidMessage, parseRfc3339, canonicalJsonText, contentHashJsonText, SamekeyError,
} from './samekey-wasm/web.js';
import { likelySeconds } from './samekey-wasm/web/samekey_web.js';
import { calls, LANGUAGES } from './calls.js';
import { messageParts } from './message.js';

const ERRORS_PAGE = 'reference/errors.html';
const LANGUAGE_STORE = 'samekey-tab-lang'; // the home page's tabs remember the language here
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function failure(e) {
  if (e instanceof SamekeyError) return { error: { code: e.code, message: e.message } };
  return { error: { code: null, message: String(e && e.message || e) } };
}

/**
 * The ULID the inputs give, as the page shows it. `time` is what was typed (integer
 * milliseconds or RFC 3339 text) or a number of milliseconds; `secret` text (UTF-8), bytes
 * or empty/null for none; fields text or bytes.
 */
export function derive({ fields, time, namespace = '', scheme = 'v1', secret = null }) {
  try {
    let at;
    if (typeof time === 'number') at = { ms: time };
    else if (/^\s*-?\d+\s*$/.test(time)) at = { ms: Number(time) };
    else at = { text: time.trim(), ms: parseRfc3339(time.trim()) };
    const key = typeof secret === 'string' ? (secret === '' ? null : new TextEncoder().encode(secret)) : secret;
    const id = deriveUlid(fields, { timeMs: at.ms, namespace, scheme, secret: key ?? undefined });
    const message = ulidMessage(fields, { namespace, scheme });
    const textFields = fields.every((f) => typeof f === 'string');
    const seconds = at.text === undefined && likelySeconds(at.ms);
    return {
      id: id.toString(),
      uuid: id.uuid,
      timestampMs: id.timestampMs,
      date: id.date.toISOString(),
      secondsWarning: seconds,
      emptyFields: fields.flatMap((f, i) => (f.length === 0 ? [i + 1] : [])),
      hex: hex(message),
      parts: messageParts(message, scheme, fields),
      calls: textFields ? calls({ fields, time: at, namespace, scheme, keyed: key !== null && key !== undefined, seconds }) : [],
    };
  } catch (e) {
    return failure(e);
  }
}

function jsonSide(text, scheme) {
  try {
    return { hash: contentHashJsonText(text, { scheme }), canonical: canonicalJsonText(text) };
  } catch (e) {
    return failure(e);
  }
}

/** Canonical forms (RFC 8785) and content hashes of one or two JSON texts, and where they first differ. */
export function compareJson(a, b, scheme = 'v1') {
  const left = jsonSide(a, scheme);
  if (b === undefined || b.trim() === '') return { a: left };
  const right = jsonSide(b, scheme);
  let difference = null;
  if (left.canonical !== undefined && right.canonical !== undefined && left.canonical !== right.canonical) {
    difference = 0;
    while (left.canonical[difference] === right.canonical[difference]) difference++;
  }
  return { a: left, b: right, same: left.hash !== undefined && left.hash === right.hash, difference };
}

// ---- the page ----

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const DEFAULTS = { f: ['hello-world', 'en'], t: '2024-05-01T12:00:00Z', ns: 'posts', s: 'v1', j: '{"title": "Hello", "tags": ["a", "b"], "n": 1.0}', k: '', js: 'v1' };

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (![...params.keys()].length) return structuredClone(DEFAULTS);
  const state = {};
  for (const name of ['t', 'ns', 's', 'j', 'k', 'js']) state[name] = params.get(name) ?? '';
  state.f = params.getAll('f');
  if (!['v0', 'v1', 'v2'].includes(state.s)) state.s = 'v1';
  if (!['v1', 'v2'].includes(state.js)) state.js = 'v1';
  return state;
}

function writeUrl(state) {
  const params = new URLSearchParams();
  for (const f of state.f) params.append('f', f);
  for (const name of ['t', 'ns', 's', 'j', 'k', 'js']) params.set(name, state[name]);
  history.replaceState(null, '', `#${params}`);
}

function readForm() {
  return {
    f: [...$('skp-fields').querySelectorAll('input')].map((i) => i.value),
    t: $('skp-time').value, ns: $('skp-namespace').value, s: $('skp-scheme').value,
    j: $('skp-json-a').value, k: $('skp-json-b').value, js: $('skp-json-scheme').value,
  };
}

function fieldRow(value, index) {
  const id = `skp-field-${index + 1}`;
  const remove = el('button', { type: 'button', className: 'skp-remove', textContent: 'Remove' });
  remove.setAttribute('aria-label', `Remove field ${index + 1}`);
  remove.addEventListener('click', () => {
    const state = readForm();
    state.f.splice(index, 1);
    renderFields(state.f, Math.min(index, state.f.length - 1));
    update();
  });
  return el('div', { className: 'skp-row' }, el('label', { htmlFor: id, textContent: `Field ${index + 1}` }),
    el('input', { id, type: 'text', value, spellcheck: false }), remove);
}

function renderFields(fields, focus) {
  $('skp-fields').replaceChildren(...fields.map(fieldRow));
  if (focus !== undefined && focus >= 0) $(`skp-field-${focus + 1}`)?.focus();
}

function errorNode(error) {
  const p = el('p', { className: 'skp-error' });
  p.setAttribute('role', 'alert');
  if (error.code) {
    // The core's message starts with the code's words ("invalid timestamp: ..."), which the
    // linked code already says.
    const words = `${error.code.replace(/_/g, ' ')}: `;
    const detail = error.message.startsWith(words) ? error.message.slice(words.length) : error.message;
    p.append(el('a', { href: `${ERRORS_PAGE}#${error.code}` }, el('code', { textContent: error.code })), `: ${detail}`);
  } else {
    p.append(error.message);
  }
  return p;
}

function row(term, value, id) {
  return [el('dt', { textContent: term }), el('dd', {}, el('code', { id, textContent: value }))];
}

function renderUlid(state) {
  // v0 takes no namespace: the field is set aside (the link keeps it for v1 and v2).
  const v0 = state.s === 'v0';
  $('skp-namespace').disabled = v0;
  $('skp-namespace-help').textContent = v0
    ? 'v0, the legacy recipe, takes no namespace: this one is set aside while v0 is chosen.'
    : 'Separates kinds of thing that share identity fields (posts, users); empty for none.';
  const namespace = v0 ? '' : state.ns;
  const result = derive({ fields: state.f, time: state.t, namespace, scheme: state.s, secret: $('skp-secret').value });
  const out = $('skp-ulid-result');
  if (result.error) {
    out.replaceChildren(errorNode(result.error));
    $('skp-calls').hidden = true;
    return;
  }
  const warning = result.secondsWarning
    ? [el('p', { className: 'skp-warning', textContent: `This reads as seconds, not milliseconds: it gives an id of ${result.date}. `
        + `If you meant ${new Date(result.timestampMs * 1000).toISOString()}, type ${result.timestampMs * 1000}.` })]
    : [];
  if (result.emptyFields.length) {
    const which = result.emptyFields.length === 1 ? `Field ${result.emptyFields[0]} is` : `Fields ${result.emptyFields.join(', ')} are`;
    warning.push(el('p', { className: 'skp-warning skp-empty', textContent: `${which} empty: an empty field is part of the `
      + 'identity, so this id differs from the id without it. Remove it if it is not meant.' }));
  }
  const table = el('table', { className: 'skp-parts' },
    el('caption', { textContent: `The ${result.hex.length / 2} bytes hashed (spec §3, §4)` }),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col', textContent: 'part' }), el('th', { scope: 'col', textContent: 'hex' }))),
    el('tbody', {}, ...result.parts.map((p) => el('tr', {}, el('td', { textContent: p.label }),
      el('td', {}, el('code', { textContent: p.hex || '(none)' }))))));
  out.replaceChildren(...warning,
    el('dl', { className: 'skp-out' }, ...row('ULID', result.id, 'skp-id'), ...row('UUID form', result.uuid, 'skp-uuid'),
      ...row('time', `${result.date} (${result.timestampMs} ms)`, 'skp-date')),
    table);
  $('skp-calls').hidden = false;
  const code = Object.fromEntries(result.calls);
  const lang = $('skp-lang').value;
  $('skp-call').textContent = code[lang];
}

function marked(text, from) {
  if (from === null || from === undefined) return [text];
  return [text.slice(0, from), el('mark', { textContent: text.slice(from) || ' ' })];
}

function renderJson(state) {
  const result = compareJson(state.j, state.k, state.js);
  const side = (name, r) => (r.error ? [errorNode(r.error)] : [
    el('dl', { className: 'skp-out' }, ...row(`content hash (${name})`, r.hash, `skp-hash-${name}`)),
    el('pre', { className: 'skp-canonical' }, el('code', { id: `skp-canonical-${name}` }, ...marked(r.canonical, result.difference))),
  ]);
  const parts = [...side('A', result.a)];
  if (result.b) {
    parts.push(...side('B', result.b));
    parts.push(el('p', { id: 'skp-json-verdict', textContent: result.same
      ? 'Same canonical form, same hash: a write of B over A changes nothing.'
      : result.difference === null ? 'One of them is not valid JSON for samekey.'
        : `They differ from character ${result.difference + 1} of the canonical forms (marked).` }));
  }
  $('skp-json-result').replaceChildren(...parts);
}

function update() {
  const state = readForm();
  writeUrl(state);
  renderUlid(state);
  renderJson(state);
}

function fill(state) {
  renderFields(state.f.length ? state.f : ['']);
  $('skp-time').value = state.t;
  $('skp-namespace').value = state.ns;
  $('skp-scheme').value = state.s;
  $('skp-json-a').value = state.j;
  $('skp-json-b').value = state.k;
  $('skp-json-scheme').value = state.js;
}

async function start() {
  const root = $('skp');
  if (!root) return;
  await init(new URL('./samekey-wasm/web/samekey_web_bg.wasm', import.meta.url));
  const lang = $('skp-lang');
  lang.replaceChildren(...LANGUAGES.map(([key, label]) => el('option', { value: key, textContent: label })));
  try { lang.value = localStorage.getItem(LANGUAGE_STORE) || 'python'; } catch { lang.value = 'python'; }
  if (!lang.value) lang.value = 'python';
  lang.addEventListener('change', () => {
    try { localStorage.setItem(LANGUAGE_STORE, lang.value); } catch { /* private mode */ }
    update();
  });
  $('skp-copy').addEventListener('click', async () => {
    const status = $('skp-copy-status');
    try {
      await navigator.clipboard.writeText($('skp-call').textContent);
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Copying is not allowed here: select the code instead.';
    }
  });
  $('skp-add').addEventListener('click', () => {
    const state = readForm();
    state.f.push('');
    renderFields(state.f, state.f.length - 1);
    update();
  });
  for (const form of root.querySelectorAll('form')) form.addEventListener('submit', (e) => e.preventDefault());
  // mdBook turns the arrow keys into previous/next page; in a text field they move the caret.
  root.addEventListener('keydown', (e) => e.stopPropagation());
  root.addEventListener('input', update);
  root.addEventListener('change', update);
  // A link pasted into this tab (replaceState, which update() uses, fires no hashchange).
  window.addEventListener('hashchange', () => {
    fill(readUrl());
    update();
  });
  fill(readUrl());
  update();
  root.dataset.ready = 'true';
}

window.samekeyPlayground = { derive, compareJson, ready: start() };
