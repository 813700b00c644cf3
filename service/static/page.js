// The dispute page: choose the rules, enter a hand, show the ruling side by side.
import {Problem, SEATS, SEAT_NAMES, TEAMS, clause, getJSON, h, num, postJSON, postText, problemMessage, signed,
  variantName} from './api.js';
import {setupCards} from './cards.js';
import {setupSheet} from './sheet.js';

const PREFS_KEY = 'spades-rulespec.prefs';
const $ = (id) => document.getElementById(id);

// The rules the table plays: a bundled id or a checked house rule (inline), and its hand size.
const rules = {ref: null, title: '', handSize: 13, problem: 'loading the variants…'};
let bundled = [];

function compareIds() {
  return [...$('compare').querySelectorAll('input:checked')].map((box) => box.value)
    .filter((id) => id !== rules.ref);
}

// The variant fields of a request: one variant, or several side by side.
function variantFields() {
  if (rules.problem) throw new Problem({detail: `choose the rules first: ${rules.problem}`, field: 'variant'});
  const others = compareIds();
  return others.length ? {variants: [rules.ref, ...others]} : {variant: rules.ref};
}

function showCompareChosen() {
  const ids = compareIds();
  $('compare-chosen').textContent = ids.length ? `(${ids.join(', ')})` : '(none chosen)';
}

function savePrefs() {
  const draft = Object.fromEntries([...$('hand').elements].filter((el) => el.name).map((el) => [el.name, el.value]));
  localStorage.setItem(PREFS_KEY, JSON.stringify({
    variant: $('variant').value, yaml: $('house-yaml').value, compare: compareIds(), draft,
  }));
}

function loadPrefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS_KEY)) || {};
  } catch {
    return {};
  }
}

function handSizeOf(ruleList) {
  const rule = ruleList.find((r) => r.name === 'deal.hand_size');
  return rule && /^\d+$/.test(rule.text) ? Number(rule.text) : 13;
}

// ---------------------------------------------------------------- variants
async function loadVariants() {
  const prefs = loadPrefs();
  const select = $('variant');
  try {
    bundled = (await getJSON('/v1/variants')).variants.filter((v) => !v.problems);
  } catch (problem) {
    select.replaceChildren(h('option', {value: ''}, 'variants unavailable'));
    $('variant-title').replaceChildren(problemMessage(problem));
    return;
  }
  select.replaceChildren(
    ...bundled.map((v) => h('option', {value: v.id}, v.id)),
    h('option', {value: 'house'}, 'My house rules (paste YAML)'));
  $('compare').replaceChildren(...bundled.map((v) => h('label', {class: 'check'},
    h('input', {type: 'checkbox', value: v.id, checked: (prefs.compare || []).includes(v.id)}),
    h('span', {}, v.id, ' ', h('small', {}, v.title)))));
  const ids = bundled.map((v) => v.id);
  select.value = prefs.variant === 'house' || ids.includes(prefs.variant) ? prefs.variant
    : ids.includes('standard') ? 'standard' : ids[0];
  $('house-yaml').value = prefs.yaml || '';
  for (const [name, value] of Object.entries(prefs.draft || {})) {
    if ($('hand').elements[name]) $('hand').elements[name].value = value;
  }
  showTricksTotal();
  sheet.render();
  await chooseVariant();
}

async function chooseVariant() {
  const id = $('variant').value;
  $('house').hidden = id !== 'house';
  for (const box of $('compare').querySelectorAll('input')) box.disabled = box.value === id;
  showCompareChosen();
  if (id === 'house') {
    await checkHouse();
  } else {
    const v = bundled.find((b) => b.id === id);
    rules.ref = id;
    rules.problem = null;
    $('variant-title').textContent = v ? v.title : '';
    try {
      rules.handSize = handSizeOf((await getJSON(`/v1/variants/${encodeURIComponent(id)}`)).rules);
    } catch {
      rules.handSize = 13;
    }
  }
  savePrefs();
  showTricksTotal();
  checkBids();
}

// A checked house rule as the inline form the API reads: its own rules, their values and citations.
function inlineRule(detail) {
  const out = {id: detail.id, title: detail.title, extends: detail.extends, rules: {}, params: {}};
  for (const rule of detail.rules.filter((r) => !r.inherited)) {
    const entry = rule.unspecified ? {unspecified: rule.unspecified} : {value: rule.text, cite: rule.cite};
    if (rule.note) entry.note = rule.note;
    if (rule.choices) entry.choices = rule.choices;
    out[rule.parameter ? 'params' : 'rules'][rule.name] = entry;
  }
  return out;
}

let houseCheck = 0;

async function checkHouse() {
  const box = $('house-yaml');
  const status = $('house-status');
  const list = $('house-problems');
  const text = box.value;
  const mine = ++houseCheck;
  rules.problem = 'paste your house rules';
  $('variant-title').textContent = '';
  if (!text.trim()) {
    status.textContent = 'Paste your house rules to use them.';
    list.replaceChildren();
    box.removeAttribute('aria-invalid');
    return;
  }
  status.textContent = 'Checking…';
  try {
    const detail = await postText('/v1/variants/check', text, 'text/yaml');
    if (mine !== houseCheck) return;
    Object.assign(rules, {ref: inlineRule(detail), problem: null, handSize: handSizeOf(detail.rules)});
    box.setAttribute('aria-invalid', 'false');
    list.replaceChildren();
    status.textContent = `✓ ${detail.id}: ${detail.own_rule_count} rule(s) of its own on top of ${detail.extends}.`;
    $('variant-title').textContent = detail.title;
  } catch (problem) {
    if (mine !== houseCheck) return;
    const problems = problem.body.problems || [{message: problem.body.detail}];
    rules.problem = 'the house rules have problems';
    box.setAttribute('aria-invalid', 'true');
    status.textContent = `${problems.length} problem${problems.length === 1 ? '' : 's'} in the house rules:`;
    list.replaceChildren(...problems.map(problemItem));
  }
}

// One problem of the YAML, at its line: a button that puts the cursor there.
function problemItem(p) {
  const where = p.line ? `Line ${p.line}${p.column ? `, column ${p.column}` : ''}` : 'The file';
  const item = h('li', {}, h('button', {type: 'button', class: 'link'}, `${where}: ${p.message}`));
  if (p.suggestion) item.append(h('span', {class: 'suggestion'}, ` — ${p.suggestion}`));
  if (p.source_line) {
    const caret = p.column ? `\n${' '.repeat(p.column - 1)}^` : '';
    item.append(h('pre', {'aria-hidden': 'true'}, p.source_line + caret));
  }
  item.querySelector('button').addEventListener('click', () => {
    const box = $('house-yaml');
    const lines = box.value.split('\n').slice(0, Math.max(0, (p.line || 1) - 1));
    const at = lines.reduce((n, line) => n + line.length + 1, 0) + Math.max(0, (p.column || 1) - 1);
    box.focus();
    box.setSelectionRange(at, at);
  });
  return item;
}

// ---------------------------------------------------------------- the hand
function bidValue(text) {
  return /^\d+$/.test(text) ? Number(text) : text;
}

function intField(id) {
  const text = $(id).value.trim();
  return text === '' ? null : Number(text);
}

function showError(id, content) {
  $(id).replaceChildren(...(content ? [content] : []));
  for (const input of document.querySelectorAll(`[aria-describedby~="${id}"]`)) {
    input.setAttribute('aria-invalid', content ? 'true' : 'false');
  }
}

function tricksState() {
  const counts = SEATS.map((s) => intField(`tricks-${s}`));
  const filled = counts.filter((n) => n !== null);
  const sum = filled.reduce((a, b) => a + b, 0);
  const size = rules.handSize;
  if (counts.some((n) => n !== null && (!Number.isInteger(n) || n < 0))) {
    return {ok: false, text: 'Tricks are whole numbers from 0 up.'};
  }
  if (filled.length < 4) {
    return {ok: false, incomplete: true, text: `${sum} of ${size} tricks entered (${4 - filled.length} seat(s) empty).`};
  }
  if (sum < size && tally.length) return {ok: false, incomplete: true, text: `${sum} of ${size} tricks counted; ${size - sum} to go.`};
  if (sum !== size) return {ok: false, text: `Tricks add up to ${sum}; a hand has ${size}.`};
  return {ok: true, text: `${size} tricks: complete.`};
}

function showTricksTotal() {
  const state = tricksState();
  const total = $('tricks-total');
  total.textContent = state.text;
  total.classList.toggle('error', !state.ok && !state.incomplete);
  for (const s of SEATS) $(`tricks-${s}`).setAttribute('aria-invalid', String(!state.ok && !state.incomplete));
  return state;
}

// Tricks counted as they are won: each button adds one to a seat; Undo takes back the last.
const tally = [];

function countTrick(seat) {
  const input = $(`tricks-${seat}`);
  input.value = (intField(input.id) || 0) + 1;
  tally.push(seat);
  for (const s of SEATS) if ($(`tricks-${s}`).value === '') $(`tricks-${s}`).value = 0;
  handChanged();
}

function undoTrick() {
  const seat = tally.pop();
  if (!seat) return;
  $(`tricks-${seat}`).value = Math.max(0, intField(`tricks-${seat}`) - 1);
  handChanged();
}

function before() {
  return Object.fromEntries(TEAMS.map((t) => [t, {score: intField(`score-${t}`) ?? 0, bags: intField(`bags-${t}`) ?? 0}]));
}

// Each bid checked as it is chosen, against the other bids and the scores, under the table's rules.
let bidCheck = 0;

async function checkBids() {
  const mine = ++bidCheck;
  const bids = Object.fromEntries(SEATS.filter((s) => $(`bid-${s}`).value).map((s) => [s, bidValue($(`bid-${s}`).value)]));
  for (const seat of SEATS) {
    if (!(seat in bids) || rules.problem) {
      showError(`bid-${seat}-error`, null);
      continue;
    }
    const others = Object.fromEntries(Object.entries(bids).filter(([s]) => s !== seat));
    let message = null;
    try {
      const answer = await postJSON('/v1/bid', {variant: rules.ref, seat, bid: bids[seat], bids: others, before: before()});
      if (!answer.allowed) {
        const refusal = answer.refusals[0];
        message = h('span', {}, `${SEAT_NAMES[seat]} may not bid ${answer.bid}: ${refusal.why} `, clause(refusal));
      }
    } catch (problem) {
      message = problemMessage(problem);
    }
    if (mine !== bidCheck) return;
    showError(`bid-${seat}-error`, message);
  }
}

function readHand() {
  const missing = SEATS.find((s) => !$(`bid-${s}`).value);
  if (missing) throw new Problem({detail: `choose a bid for ${SEAT_NAMES[missing]}`, field: `bids.${missing}`});
  const state = tricksState();
  if (!state.ok) throw new Problem({detail: state.text, field: 'tricks'});
  const hand = {
    bids: Object.fromEntries(SEATS.map((s) => [s, bidValue($(`bid-${s}`).value)])),
    tricks: Object.fromEntries(SEATS.map((s) => [s, intField(`tricks-${s}`)])),
  };
  if ($('renege').value) hand.events = [{type: 'renege', seat: $('renege').value}];
  return hand;
}

// A problem from the service, shown next to the field it names.
function showHandProblem(problem) {
  const field = (problem.body.field || '').replace(/^input\./, '');
  const message = problemMessage(problem);
  let target = 'hand-error';
  let focus = null;
  if (/^bids\.[NESW]/.test(field)) [target, focus] = [`bid-${field[5]}-error`, `bid-${field[5]}`];
  else if (field.startsWith('tricks')) [target, focus] = ['tricks-total', 'tricks-N'];
  else if (field.startsWith('events')) [target, focus] = ['renege-error', 'renege'];
  else if (/^before\.(NS|EW)/.test(field)) [target, focus] = [`before-${field.slice(7, 9)}-error`, `score-${field.slice(7, 9)}`];
  else if (field === 'variant') focus = 'variant';
  if (target === 'tricks-total') {
    $('tricks-total').replaceChildren(message);
    $('tricks-total').classList.add('error');
  } else {
    showError(target, message);
  }
  if (target !== 'hand-error') $('hand-error').textContent = 'The hand cannot be ruled on as entered: see the marked field.';
  if (focus) $(focus).focus();
}

function handChanged() {
  showTricksTotal();
  $('hand-error').textContent = '';
  savePrefs();
}

// ---------------------------------------------------------------- the ruling
let lastRuling = null;

async function rule(event) {
  event.preventDefault();
  $('hand-error').textContent = '';
  $('renege-error').textContent = '';
  for (const t of TEAMS) showError(`before-${t}-error`, null);
  let hand;
  try {
    hand = readHand();
    const answer = await postJSON('/v1/score', {...variantFields(), ...hand, before: before()});
    lastRuling = {hand, answer};
    renderRuling(answer);
  } catch (problem) {
    lastRuling = null;
    $('add-hand').hidden = true;
    $('ruling').replaceChildren(h('p', {class: 'error'}, 'No ruling: ', problemMessage(problem)));
    showHandProblem(problem);
  }
}

// Paths of answer fields that differ between the variants (from the service's "differences").
function differingFields(answer) {
  const out = {};
  for (const diff of answer.differences || []) {
    for (const f of diff.fields) {
      for (const key of diff.variants) (out[key] ||= new Set()).add(f.field);
    }
  }
  return out;
}

function lineKey(line) {
  return `${line.rule}|${line.points}`;
}

function renderRuling(answer) {
  const rulings = answer.rulings || {[answer.variant]: answer};
  const keys = Object.keys(rulings);
  const differs = differingFields(answer);
  const baseLines = (team) => new Set((rulings[keys[0]].teams?.[team].lines || []).map(lineKey));
  const cards = keys.map((key, i) => {
    const ruling = rulings[key];
    const card = h('article', {class: i === 0 ? 'ruling yours' : 'ruling'},
      h('h3', {}, key, i === 0 ? h('small', {}, ' the rules you play') : null));
    if (ruling.error) {
      card.append(h('p', {class: 'error differs'}, 'Not allowed here: ', problemMessage({body: ruling.error})));
      return card;
    }
    const fields = differs[key] || new Set();
    for (const team of TEAMS) {
      const result = ruling.teams[team];
      // A line differs when another variant does not score it the same way.
      const others = keys.filter((k) => k !== key && rulings[k].teams).map((k) => new Set(rulings[k].teams[team].lines.map(lineKey)));
      const differsLine = (line) => (i === 0 ? others.some((o) => !o.has(lineKey(line))) : !baseLines(team).has(lineKey(line)));
      const mark = (field) => (fields.has(`teams.${team}.${field}`) ? 'differs' : null);
      card.append(h('section', {class: 'team', 'aria-label': `${team} under ${key}`},
        h('h4', {}, `${team}: `, h('span', {class: mark('points')}, `${signed(result.points)} points`)),
        h('table', {},
          h('caption', {class: 'visually-hidden'}, `${team} points line by line`),
          h('tbody', {}, result.lines.map((line) => h('tr', {class: differsLine(line) ? 'differs' : null},
            h('td', {class: 'pts'}, signed(line.points)),
            h('td', {}, line.why || '', differsLine(line) ? h('span', {class: 'visually-hidden'}, ' (differs)') : null,
              h('br'), clause(line)))))),
        h('p', {class: 'after'},
          h('span', {class: mark('score')}, `Score ${num(result.score)}`), ' · ',
          h('span', {class: mark('bags')}, `bags ${result.bags}`),
          ` (${signed(result.bags_added)} this hand)`)));
    }
    const game = ruling.game;
    card.append(h('p', {class: `game ${game.over ? 'over' : ''} ${fields.has('game.over') || fields.has('game.winner') ? 'differs' : ''}`},
      game.over ? `Game over: ${game.winner} wins (${game.reason}). ` : `Game goes on (${game.reason}). `,
      game.rule ? clause(game.rule) : null));
    return card;
  });
  const parts = [h('div', {class: 'rulings'}, cards)];
  if (answer.rulings) parts.push(renderDifferences(answer));
  $('ruling').replaceChildren(...parts);
  $('add-hand').hidden = Boolean(rulings[keys[0]].error);
}

// "teams.NS.bags_added" → "NS bags added"
function fieldName(path) {
  return path.replace(/^teams\./, '').replace(/[._]/g, ' ');
}

function show(value) {
  return typeof value === 'number' ? num(value) : String(value);
}

function renderDifferences(answer) {
  if (answer.agree) return h('p', {class: 'agree'}, 'All the chosen variants rule the same way.');
  return h('section', {class: 'differences', 'aria-label': 'Where the rules differ'},
    h('h3', {}, 'Where the rules differ'),
    answer.differences.map(({variants: [a, b], rules: changed, fields}) => h('div', {},
      h('p', {}, `${b} against ${a}: `, fields.map((f) => `${fieldName(f.field)} ${show(f[a])} → ${show(f[b])}`).join('; ')),
      h('ul', {}, changed.map((r) => h('li', {}, h('code', {}, r.rule), ': ',
        `${a} says ${r[a].value} (${r[a].cite || 'not stated'}), ${b} says ${r[b].value} (${r[b].cite || 'not stated'})`))))));
}

// ---------------------------------------------------------------- wiring
const sheet = setupSheet({
  current: () => rules.problem ? null : {ref: rules.ref, name: variantName(rules.ref)},
  others: () => [...new Set([...compareIds(), ...bundled.map((v) => v.id)])],
  onTotals(totals) {
    for (const t of TEAMS) {
      $(`score-${t}`).value = totals[t].score;
      $(`bags-${t}`).value = totals[t].bags;
    }
    savePrefs();
  },
});

$('variant').addEventListener('change', chooseVariant);
$('compare').addEventListener('change', () => {
  showCompareChosen();
  savePrefs();
  sheet.render();
});
let typing;
$('house-yaml').addEventListener('input', () => {
  clearTimeout(typing);
  typing = setTimeout(async () => {
    await checkHouse();
    savePrefs();
    showTricksTotal();
    checkBids();
  }, 400);
});
$('hand').addEventListener('input', (event) => {
  if (event.target.id.startsWith('tricks-')) tally.length = 0;  // typed counts replace counting
  handChanged();
  if (/^(bid-|score-|bags-)/.test(event.target.id)) checkBids();
});
$('hand').addEventListener('submit', rule);
$('hand').addEventListener('reset', () => {
  tally.length = 0;
  setTimeout(() => {
    sheet.refreshTotals();
    handChanged();
    checkBids();
  });
});
for (const button of document.querySelectorAll('[data-won]')) {
  button.addEventListener('click', () => countTrick(button.dataset.won));
}
$('tally-undo').addEventListener('click', undoTrick);
$('tally-clear').addEventListener('click', () => {
  tally.length = 0;
  for (const s of SEATS) $(`tricks-${s}`).value = '';
  handChanged();
});
$('add-hand').addEventListener('click', async () => {
  if (!lastRuling) return;
  if (await sheet.addHand(lastRuling.hand)) {
    lastRuling = null;
    $('add-hand').hidden = true;
    for (const s of SEATS) $(`bid-${s}`).value = $(`tricks-${s}`).value = '';
    $('renege').value = '';
    tally.length = 0;
    handChanged();
    checkBids();
  }
});

setupCards(variantFields, () => rules.handSize);
loadVariants();
