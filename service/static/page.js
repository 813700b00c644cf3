// The dispute page: choose the rules, enter a hand, show the ruling side by side.
import {Problem, SEATS, SEAT_NAMES, TEAMS, clause, fieldLabel, getJSON, h, num, postJSON, postText, problemMessage,
  readings, signed, variantName} from './api.js';
import {setupCards} from './cards.js';
import {CLAIM_FIELDS, setClaimTable, setupClaim} from './claim.js';
import {setupHouseForm} from './house-form.js';
import {STARTER} from './house-yaml.js';
import {rulesInLink, shareLink} from './share.js';
import {setupSheet, scoresText} from './sheet.js';

const PREFS_KEY = 'spades-rulespec.prefs';
// The option for pasted house rules: not a variant id, so the bundled 'house' keeps its own option.
const MINE = '(my house rules)';
// Card-question fields kept with the other choices across reloads.
const CARD_FIELDS = ['leader', 'trick-0', 'trick-1', 'trick-2', 'trick-3', 'legal-hand', 'legal-trick', 'legal-card',
  ...CLAIM_FIELDS];
const CHECKS = ['legal-broken', 'claim-broken'];
const $ = (id) => document.getElementById(id);

// The rules the table plays: a bundled id or a checked house rule (inline), its hand size and pack.
const rules = {ref: null, title: '', handSize: 13, pack: [], seats: 4, partners: true, problem: 'loading the variants…'};
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

// Prefs are written only once they have been read back at start-up (else the empty form would replace them).
let restored = false;

function savePrefs() {
  if (!restored) return;
  const draft = Object.fromEntries([...$('hand').elements].filter((el) => el.name).map((el) => [el.name, el.value]));
  const cards = Object.fromEntries(CARD_FIELDS.map((id) => [id, $(id).value]));
  for (const id of CHECKS) cards[id] = $(id).checked;
  localStorage.setItem(PREFS_KEY, JSON.stringify({
    variant: $('variant').value, yaml: $('house-yaml').value, compare: compareIds(), draft, cards,
    ...(mine ? {mine} : {}),
  }));
}

function loadPrefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS_KEY)) || {};
  } catch {
    return {};
  }
}

// House rules of one's own set aside when a shared link's rules were opened (to put back).
let mine = null;

function handSizeOf(ruleList) {
  const rule = ruleList.find((r) => r.name === 'deal.hand_size');
  return rule && /^\d+$/.test(rule.text) ? Number(rule.text) : 13;
}

// The variant's table (its summary's ``table``: rules table.seats and table.sides): its seats (three: N E S; six:
// N E S W X Y) and its sides: the partnerships of opposite seats (NS and EW; at six NW, EX and SY) or each alone.
function tableOf(detail) {
  const table = detail.table || {seats: 4, sides: TEAMS};
  return {seats: table.seats, sides: table.sides,
    partners: table.sides.join() !== SEATS.slice(0, table.seats).join()};
}

const seats = () => SEATS.slice(0, rules.seats);
const sides = () => (rules.partners ? rules.sides || TEAMS : seats());

// Only the table's seats and sides are shown, in every panel; the score sheet is the table's own (sheet.js).
function showTable() {
  if (lastRuling && Object.keys(lastRuling.before).join() !== sides().join()) {   // ruled at another table
    lastRuling = null;
    $('add-box').hidden = true;
  }
  for (const seat of SEATS) {
    const off = !seats().includes(seat);
    for (const id of [`bid-${seat}`, `tricks-${seat}`]) $(id).closest('.field').hidden = off;
    $(`bid-${seat}-error`).hidden = off;
    document.querySelector(`[data-won="${seat}"]`).hidden = off;
    if (off) $(`bid-${seat}`).value = $(`tricks-${seat}`).value = '';
  }
  for (const box of document.querySelectorAll('[data-side]')) box.hidden = !sides().includes(box.dataset.side);
  setClaimTable(rules.seats, rules.partners, rules.handSize, sides());
  cards.setTable(rules.seats);
  sheet.setTable({seats: rules.seats, sides: sides()});
  const note = $('table-note');
  note.hidden = rules.partners;
  note.textContent = rules.partners ? '' : `${rules.seats} players, each alone: each scores for himself, and claims `
    + `for himself alone. The score sheet keeps the games of tables of ${rules.seats} players alone apart from `
    + 'those of other tables.';
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
    h('option', {value: MINE}, 'My house rules (make or paste)'));
  $('compare').replaceChildren(...bundled.map((v) => h('label', {class: 'check'},
    h('input', {type: 'checkbox', value: v.id, checked: (prefs.compare || []).includes(v.id)}),
    h('span', {}, v.id, ' ', h('small', {}, v.title)))));
  const ids = bundled.map((v) => v.id);
  select.value = prefs.variant === MINE || ids.includes(prefs.variant) ? prefs.variant
    : ids.includes('standard') ? 'standard' : ids[0];
  $('house-yaml').value = prefs.yaml || '';
  mine = prefs.mine || null;
  for (const [name, value] of Object.entries(prefs.draft || {})) {
    if ($('hand').elements[name]) $('hand').elements[name].value = value;
  }
  for (const [id, value] of Object.entries(prefs.cards || {})) {
    if (CHECKS.includes(id)) $(id).checked = Boolean(value);
    else if (CARD_FIELDS.includes(id) && $(id)) $(id).value = value;
  }
  await openSharedRules(ids);
  $('leader').dispatchEvent(new Event('change'));
  restored = true;
  showTricksTotal();
  sheet.render();
  await chooseVariant();
}

// A shared link's rules (house YAML or a bundled id) chosen at start-up; one's own house rules, if
// different, are set aside to be put back. The link's fragment is then dropped, so a reload keeps edits.
async function openSharedRules(ids) {
  const note = $('shared-note');
  let shared;
  try {
    shared = await rulesInLink(window.location.hash);
  } catch (error) {
    note.hidden = false;
    note.replaceChildren(`The link's rules were not opened: ${error.message}.`);
    return;
  }
  if (!shared) return;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  if (shared.variant) {
    if (ids.includes(shared.variant)) {
      $('variant').value = shared.variant;
    } else {
      note.hidden = false;
      note.replaceChildren(`The link names the rule book “${shared.variant}”, which this service does not have.`);
    }
    return;
  }
  const own = $('house-yaml').value;
  if (own.trim() && own !== shared.yaml) mine = own;
  $('variant').value = MINE;
  $('house-yaml').value = shared.yaml;
  showSharedNote();
}

function showSharedNote() {
  const note = $('shared-note');
  note.hidden = false;
  const parts = ['These are the house rules from the link you opened.'];
  if (mine) {
    const back = h('button', {type: 'button', class: 'link'}, 'Put my own house rules back');
    back.addEventListener('click', () => {
      $('house-yaml').value = mine;
      mine = null;
      note.hidden = true;
      houseEdited();
    });
    parts.push(' Your own are kept: ', back);
  }
  note.replaceChildren(...parts);
}

// Each choice of rules counts; an answer for one that a later choice has overtaken is dropped.
let choosing = 0;

async function chooseVariant() {
  const id = $('variant').value;
  const choice = ++choosing;
  $('house').hidden = id !== MINE;
  for (const box of $('compare').querySelectorAll('input')) box.disabled = box.value === id;
  showCompareChosen();
  if (id === MINE) {
    if (!$('house-yaml').value.trim()) $('house-yaml').value = STARTER;
    await checkHouse();
  } else {
    const v = bundled.find((b) => b.id === id);
    rules.ref = id;
    rules.problem = null;
    $('variant-title').textContent = v ? v.title : '';
    let detail = null;
    try {
      detail = await getJSON(`/v1/variants/${encodeURIComponent(id)}`);
    } catch {
      detail = null;   // the variant's details cannot be had: a standard table of 13 cards, any pack
    }
    if (choice !== choosing) return;
    Object.assign(rules, detail ? {handSize: handSizeOf(detail.rules), pack: detail.pack || [], ...tableOf(detail)}
      : {handSize: 13, pack: [], seats: 4, partners: true});
  }
  if (choice !== choosing) return;
  showTable();
  cards.setPack(rules.problem ? [] : rules.pack);
  savePrefs();
  showTricksTotal();
  checkBids();
  sheet.render();
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
  const check = ++houseCheck;
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
    if (check !== houseCheck || $('variant').value !== MINE) return;   // overtaken by typing or another choice
    Object.assign(rules, {ref: inlineRule(detail), problem: null, handSize: handSizeOf(detail.rules),
      pack: detail.pack || [], ...tableOf(detail)});
    showTable();
    if ($('house-yaml').value === text) await houseForm.sync(detail);   // not from a check the typing has overtaken
    box.setAttribute('aria-invalid', 'false');
    list.replaceChildren();
    status.textContent = `✓ ${detail.id}: ${detail.own_rule_count} rule(s) of its own on top of ${detail.extends}.`;
    $('variant-title').textContent = detail.title;
  } catch (problem) {
    if (check !== houseCheck) return;
    const problems = problem.body.problems || [{message: problem.body.detail}];
    rules.problem = 'the house rules have problems';
    box.setAttribute('aria-invalid', 'true');
    status.textContent = `${problems.length} problem${problems.length === 1 ? '' : 's'} in the house rules:`;
    list.replaceChildren(...problems.map(problemItem));
  }
}

// A source line and a caret under its column, cut to a phone's width around the caret ("…" where cut).
const EXCERPT = 34;

function excerpt(line, column) {
  if (!column) return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
  const from = line.length <= EXCERPT ? 0 : Math.max(0, Math.min(column - 1 - Math.floor(EXCERPT / 2), line.length - EXCERPT));
  const to = Math.min(line.length, from + EXCERPT);
  const head = from > 0 ? '…' : '';
  const shown = head + line.slice(from, to) + (to < line.length ? '…' : '');
  return `${shown}\n${' '.repeat(head.length + column - 1 - from)}^`;
}

// One problem of the YAML, at its line: a button that puts the cursor there.
function problemItem(p) {
  const where = p.line ? `Line ${p.line}${p.column ? `, column ${p.column}` : ''}` : 'The file';
  const item = h('li', {}, h('button', {type: 'button', class: 'link'}, `${where}: ${p.message}`));
  if (p.suggestion) item.append(h('span', {class: 'suggestion'}, ` — ${p.suggestion}`));
  if (p.source_line) item.append(h('pre', {'aria-hidden': 'true'}, excerpt(p.source_line, p.column)));
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

// A whole-number box: null when empty; a Problem naming the box when it holds anything else ("4e", "-3").
const WHOLE = {tricks: /^\d+$/, score: /^[-−]?\d+$/, bags: /^\d+$/};

function intField(id) {
  const text = $(id).value.trim();
  if (text === '') return null;
  const kind = id.split('-')[0];
  if (!WHOLE[kind].test(text)) {
    const field = kind === 'tricks' ? `tricks.${id.slice(7)}` : `before.${id.split('-')[1]}.${kind}`;
    throw new Problem({detail: `“${text}” is not a whole number${kind === 'score' ? '' : ' (0 or more)'}`, field});
  }
  return Number(text.replace('−', '-'));
}

function markField(id, invalid) {
  if ($(id)) $(id).setAttribute('aria-invalid', String(invalid));
}

function showError(id, content) {
  $(id).replaceChildren(...(content ? [content] : []));
  for (const input of document.querySelectorAll(`[aria-describedby~="${id}"]`)) {
    input.setAttribute('aria-invalid', content ? 'true' : 'false');
  }
}

function tricksState() {
  let counts;
  try {
    counts = seats().map((s) => intField(`tricks-${s}`));
  } catch (problem) {
    return {ok: false, text: `${fieldLabel(problem.body.field)}: ${problem.body.detail}.`, detail: `${problem.body.detail}.`,
      bad: [problem.body.field.slice(7)]};
  }
  const filled = counts.filter((n) => n !== null);
  const sum = filled.reduce((a, b) => a + b, 0);
  const size = rules.handSize;
  const empty = seats().filter((_, i) => counts[i] === null);
  if (filled.length < rules.seats) {
    return {ok: false, incomplete: true, empty,
      text: `${sum} of ${size} tricks entered (${rules.seats - filled.length} seat(s) empty).`};
  }
  if (sum < size && tally.length) return {ok: false, incomplete: true, empty, text: `${sum} of ${size} tricks counted; ${size - sum} to go.`};
  if (sum !== size) return {ok: false, bad: seats(), text: `Tricks add up to ${sum}; a hand has ${size}.`};
  return {ok: true, text: `${size} tricks: complete.`};
}

function showTricksTotal() {
  const state = tricksState();
  const total = $('tricks-total');
  total.textContent = state.text;
  total.classList.toggle('error', !state.ok && !state.incomplete);
  for (const s of seats()) markField(`tricks-${s}`, (state.bad || []).includes(s));
  return state;
}

// Tricks counted as they are won: each button adds one to a seat; Undo takes back the last.
const tally = [];

function countTrick(seat) {
  const input = $(`tricks-${seat}`);
  let now = 0;
  try {
    now = intField(input.id) || 0;
  } catch {
    now = 0;   // a box that held no number starts again from 0
  }
  input.value = now + 1;
  tally.push(seat);
  for (const s of seats()) if ($(`tricks-${s}`).value.trim() === '') $(`tricks-${s}`).value = 0;
  handChanged();
}

function undoTrick() {
  const seat = tally.pop();
  if (!seat) return;
  $(`tricks-${seat}`).value = Math.max(0, Number($(`tricks-${seat}`).value) - 1);
  handChanged();
}

// The scores and bags before the hand; a box that is not a whole number is a Problem naming it.
function before() {
  return Object.fromEntries(sides().map((t) => [t, {score: intField(`score-${t}`) ?? 0, bags: intField(`bags-${t}`) ?? 0}]));
}

function beforeOrNull() {
  try {
    return before();
  } catch {
    return null;
  }
}

// The before-the-hand boxes checked as they are typed: each team's problem shown under its boxes.
function showBeforeProblems() {
  for (const t of sides()) {
    let problem = null;
    for (const kind of ['score', 'bags']) {
      try {
        intField(`${kind}-${t}`);
        markField(`${kind}-${t}`, false);
      } catch (p) {
        problem ||= p;
        markField(`${kind}-${t}`, true);
      }
    }
    $(`before-${t}-error`).replaceChildren(...(problem ? [problemMessage(problem)] : []));
  }
}

// Each bid checked as it is chosen, against the other bids and the scores, under the table's rules.
let bidCheck = 0;

async function checkBids() {
  const mine = ++bidCheck;
  const bids = Object.fromEntries(seats().filter((s) => $(`bid-${s}`).value).map((s) => [s, bidValue($(`bid-${s}`).value)]));
  const scores = beforeOrNull();
  for (const seat of seats()) {
    if (!(seat in bids) || rules.problem || !scores) {
      showError(`bid-${seat}-error`, null);
      continue;
    }
    const others = Object.fromEntries(Object.entries(bids).filter(([s]) => s !== seat));
    let message = null;
    try {
      const answer = await postJSON('/v1/bid', {variant: rules.ref, seat, bid: bids[seat], bids: others, before: scores});
      if (!answer.allowed) {
        const refusal = answer.refusals[0];
        message = h('span', {}, `${SEAT_NAMES[seat]} may not bid ${answer.bid}: ${refusal.reason} `, clause(refusal));
      }
    } catch (problem) {
      message = problemMessage(problem);
    }
    if (mine !== bidCheck) return;
    showError(`bid-${seat}-error`, message);
  }
}

function readHand() {
  const missing = seats().find((s) => !$(`bid-${s}`).value);
  if (missing) throw new Problem({detail: 'choose a bid', field: `bids.${missing}`});
  const state = tricksState();
  if (!state.ok) {
    const seat = (state.bad || state.empty || seats())[0];
    throw new Problem({detail: state.detail || state.text, field: state.detail ? `tricks.${seat}` : 'tricks',
      seats: state.bad || state.empty});
  }
  const hand = {
    bids: Object.fromEntries(seats().map((s) => [s, bidValue($(`bid-${s}`).value)])),
    tricks: Object.fromEntries(seats().map((s) => [s, intField(`tricks-${s}`)])),
  };
  if ($('renege').value) hand.events = [{type: 'renege', seat: $('renege').value}];
  return hand;
}

// The page's element for a request field, and where its message goes.
function fieldTarget(field) {
  let m;
  if ((m = /^bids\.([NESWXY])/.exec(field))) return {input: `bid-${m[1]}`, error: `bid-${m[1]}-error`};
  if ((m = /^tricks\.([NESWXY])/.exec(field))) return {input: `tricks-${m[1]}`, error: 'tricks-total'};
  if (field.startsWith('tricks')) return {input: 'tricks-N', error: 'tricks-total'};
  if ((m = /^before\.(NS|EW)(?:\.(score|bags))?/.exec(field))) {
    return {input: `${m[2] || 'score'}-${m[1]}`, error: `before-${m[1]}-error`};
  }
  if (field.startsWith('events')) return {input: 'renege', error: 'renege-error'};
  if (field === 'variant' || field.startsWith('variants')) return {input: 'variant', error: 'hand-error'};
  if (field === 'bids') return {input: 'bid-N', error: 'hand-error', all: SEATS.map((s) => `bid-${s}`)};
  return null;
}

// A problem with the hand, shown at its field (named, marked invalid, focused) and summed up above the button.
function showHandProblem(problem) {
  const field = (problem.body.field || '').replace(/^input\./, '');
  const message = problemMessage(problem);
  const target = fieldTarget(field);
  if (!target) {
    $('hand-error').replaceChildren(message);
    return;
  }
  if (target.error === 'tricks-total') {
    $('tricks-total').replaceChildren(message);
    $('tricks-total').classList.add('error');
    const seats = problem.body.seats || (/^tricks\.[NESWXY]/.test(field) ? [field.slice(7)] : SEATS);
    for (const s of seats) markField(`tricks-${s}`, true);
    target.input = `tricks-${seats[0]}`;
  } else if (target.error !== 'hand-error') {
    $(target.error).replaceChildren(message);
  }
  for (const id of target.all || [target.input]) markField(id, true);
  if (target.error === 'hand-error') $('hand-error').replaceChildren(message);
  else $('hand-error').textContent = `The hand cannot be ruled on as entered: ${fieldLabel(field)} (marked).`;
  $(target.input).focus();
}

function handChanged() {
  showTricksTotal();
  showBeforeProblems();
  $('hand-error').textContent = '';
  savePrefs();
}

// ---------------------------------------------------------------- the ruling
let lastRuling = null;

async function rule(event) {
  event.preventDefault();
  $('hand-error').textContent = '';
  $('renege-error').textContent = '';
  markField('renege', false);
  markField('variant', false);
  let hand;
  try {
    hand = readHand();
    const scores = before();
    const answer = await postJSON('/v1/score', {...variantFields(), ...hand, before: scores});
    lastRuling = {hand, answer, before: scores};
    renderRuling(answer);
    showRuling();
  } catch (problem) {
    lastRuling = null;
    $('add-box').hidden = true;
    $('ruling').replaceChildren(h('p', {class: 'error'}, 'No ruling: ', problemMessage(problem)));
    showHandProblem(problem);
  }
}

// The ruling in view with the focus on it, so the answer is read first.
function showRuling() {
  const ruling = $('ruling');
  ruling.scrollIntoView({block: 'start'});
  ruling.focus({preventScroll: true});
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
  const linesOf = (key, team) => new Set((rulings[key].teams?.[team].lines || []).map(lineKey));
  const cards = keys.map((key, i) => {
    const ruling = rulings[key];
    const card = h('article', {class: i === 0 ? 'ruling yours' : 'ruling', 'aria-labelledby': `ruling-${i}-h`},
      h('h3', {id: `ruling-${i}-h`}, key, i === 0 ? h('small', {}, ' the rules you play') : null));
    if (ruling.error) {
      card.append(h('p', {class: 'error differs'}, 'Not allowed here: ', problemMessage({body: ruling.error})));
      return card;
    }
    const fields = differs[key] || new Set();
    for (const team of Object.keys(ruling.teams)) {
      const result = ruling.teams[team];
      // Other columns: a line differs when yours does not score it so. Yours: when no other book scores it so.
      const others = keys.filter((k) => k !== key && rulings[k].teams).map((k) => linesOf(k, team));
      const differsLine = (line) => (i === 0 ? others.length > 0 && others.every((o) => !o.has(lineKey(line)))
        : !linesOf(keys[0], team).has(lineKey(line)));
      const mark = (field) => (fields.has(`teams.${team}.${field}`) ? 'differs' : null);
      card.append(h('section', {class: 'team', 'aria-label': `${team} under ${key}`},
        h('h4', {}, `${team}: `, h('span', {class: mark('points')}, `${signed(result.points)} points`)),
        h('table', {},
          h('caption', {class: 'visually-hidden'}, `${team} points line by line`),
          h('tbody', {}, result.lines.map((line) => h('tr', {class: differsLine(line) ? 'differs' : null},
            h('td', {class: 'pts'}, signed(line.points)),
            h('td', {}, line.reason || line.why || '', differsLine(line) ? h('span', {class: 'visually-hidden'}, ' (differs)') : null,
              h('br'), clause(line)))))),
        h('p', {class: 'after'},
          h('span', {class: mark('score')}, `Score ${num(result.score)}`), ' · ',
          h('span', {class: mark('bags')}, `bags ${result.bags}`),
          ` (${signed(result.bags_added)} this hand)`)));
    }
    const game = ruling.game;
    card.append(h('p', {class: `game ${game.over ? 'over' : ''} ${fields.has('game.over') || fields.has('game.winner') ? 'differs' : ''}`},
      game.over ? `Game over: ${SEAT_NAMES[game.winner] || game.winner} wins: ${game.reason}. `
        : `Game goes on: ${game.reason}. `,
      game.rule ? clause(game.rule) : null));
    const notes = readings(ruling);
    if (notes) card.append(notes);
    return card;
  });
  const parts = [];
  if (answer.rulings) parts.push(renderSummary(answer));
  parts.push(h('div', {class: 'rulings'}, cards));
  if (answer.rulings && !answer.agree) parts.push(renderRulesAsWritten(answer));
  $('ruling').replaceChildren(...parts);
  $('add-box').hidden = Boolean(rulings[keys[0]].error);
  showAddNote();
}

// The answer first: one sentence per difference (from the service), or that all the books agree.
function renderSummary(answer) {
  if (answer.agree) return h('p', {class: 'agree summary'}, 'All the chosen rule books rule the same way.');
  const sentences = answer.differences.flatMap((d) => d.sentences || []);
  return h('section', {class: 'summary', 'aria-labelledby': 'summary-h'},
    h('h3', {id: 'summary-h'}, 'Where the rule books differ'),
    h('ul', {}, sentences.map((text) => h('li', {}, text))));
}

// The rules behind the differences as each book writes them, folded away below the rulings.
function renderRulesAsWritten(answer) {
  return h('details', {class: 'differences'},
    h('summary', {}, 'The rules as each book writes them'),
    answer.differences.map(({variants: [a, b], rules: changed}) => h('div', {},
      h('p', {}, `${b} against ${a}:`),
      h('ul', {}, changed.map((r) => h('li', {}, h('code', {}, r.rule), ': ',
        `${a} ${r[a].value} (${r[a].cite || 'not stated'}), ${b} ${r[b].value} (${r[b].cite || 'not stated'})`))))));
}

// Which game the ruled hand would join, and under which rules it is scored there.
function showAddNote() {
  if (!restored) return;   // the sheet is still being set up
  const from = lastRuling ? lastRuling.before : null;
  const target = sheet.nextGame(from);
  const now = rules.problem ? null : variantName(rules.ref);
  const start = target.from ? `, starting from ${scoresText(target.from)}` : '';
  $('add-hand').textContent = `Add this hand to game ${target.number} (scored under ${target.name || now})${start}`;
  const notes = [];
  if (target.left) {
    notes.push(`Game ${target.left.number} stands at ${scoresText(target.left.totals)}, not the scores this hand was `
      + `ruled from; it stays as it is, and this hand starts game ${target.number}.`);
  }
  if (target.name && now && target.name !== now) {
    notes.push(`Game ${target.number} is scored under ${target.name}, the rules it started with, not ${now}. `
      + `Start a new game to score hands under ${now}.`);
  }
  $('add-note').textContent = notes.join(' ');
}

// ---------------------------------------------------------------- wiring
const sheet = setupSheet({
  current: () => rules.problem ? null : {ref: rules.ref, name: variantName(rules.ref)},
  // the bundled books a game of this table can be re-scored under: those of the same table
  others: () => [...new Set([...compareIds(), ...bundled.map((v) => v.id)])].filter((id) => {
    const v = bundled.find((b) => b.id === id);
    return v && v.table.seats === rules.seats && v.table.sides.join() === sides().join();
  }),
  onTotals(totals) {
    for (const t of Object.keys(totals)) {
      $(`score-${t}`).value = totals[t].score;
      $(`bags-${t}`).value = totals[t].bags;
    }
    savePrefs();
  },
  onRender: showAddNote,
});

$('variant').addEventListener('change', chooseVariant);
$('compare-done').addEventListener('click', () => {
  $('compare-box').open = false;
  $('compare-box').querySelector('summary').focus();
});
$('share').addEventListener('click', async () => {
  const status = $('share-status');
  if (rules.problem) {
    status.textContent = `Nothing to share yet: ${rules.problem}.`;
    return;
  }
  const link = await shareLink(typeof rules.ref === 'string' ? {variant: rules.ref} : {yaml: $('house-yaml').value});
  $('share-out').hidden = false;
  $('share-link').value = link;
  $('share-link').focus();
  $('share-link').select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    copied = false;   // no clipboard here (an insecure origin, or refused): the link is selected to copy
  }
  status.textContent = `${copied ? 'Copied. ' : ''}Anyone who opens the link gets ${variantName(rules.ref)}: `
    + 'score, tricks, cards and claims are ruled under them on their phone too.';
});
$('compare').addEventListener('change', () => {
  showCompareChosen();
  savePrefs();
  sheet.render();
});
let typing;
function houseEdited() {
  clearTimeout(typing);
  typing = setTimeout(async () => {
    await checkHouse();
    cards.setPack(rules.problem ? [] : rules.pack);
    savePrefs();
    showTricksTotal();
    checkBids();
    sheet.render();
  }, 400);
}
$('house-yaml').addEventListener('input', houseEdited);
const houseForm = setupHouseForm({form: $('house-form'), yamlBox: $('house-yaml'), bundled: () => bundled,
  onEdit(yaml) {
    $('house-yaml').value = yaml;
    houseEdited();
  }});
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
  if (await sheet.addHand(lastRuling.hand, lastRuling.before)) {
    lastRuling = null;
    $('add-box').hidden = true;
    for (const s of SEATS) $(`bid-${s}`).value = $(`tricks-${s}`).value = '';
    $('renege').value = '';
    tally.length = 0;
    handChanged();
    checkBids();
  }
});

// Enter on a drop-down does what Enter does in a text box of the same form: submits it (or presses the
// button the drop-down names in data-enter).
document.addEventListener('keydown', (event) => {
  const el = event.target;
  if (event.key !== 'Enter' || el.tagName !== 'SELECT' || event.altKey || event.ctrlKey || event.metaKey) return;
  const button = el.dataset.enter ? $(el.dataset.enter) : null;
  if (!button && !el.form) return;
  event.preventDefault();
  if (button) button.click();
  else el.form.requestSubmit();
});
$('cards').addEventListener('input', savePrefs);
$('cards').addEventListener('change', savePrefs);

// A link with rules opened in a tab that already shows the page changes only the address's fragment.
window.addEventListener('hashchange', async () => {
  if (!restored) return;
  await openSharedRules(bundled.map((v) => v.id));
  await chooseVariant();
});
const cards = setupCards(variantFields, () => rules.handSize);
setupClaim(variantFields, savePrefs);
$('claim-section').addEventListener('input', savePrefs);
$('claim-section').addEventListener('change', savePrefs);
loadVariants();
