// Calls to the JSON API and small DOM helpers shared by the page's modules.

export const SEATS = ['N', 'E', 'S', 'W', 'X', 'Y'];     // five and six seats go on past W
export const TEAMS = ['NS', 'EW'];
export const SEAT_NAMES = {N: 'North', E: 'East', S: 'South', W: 'West', X: 'X', Y: 'Y'};

// An error answer (application/problem+json): detail, field, rule, cite, problems.
export class Problem extends Error {
  constructor(body) {
    super(body.detail || body.title || 'the service could not answer');
    this.body = body;
  }
}

async function call(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Problem({detail: 'the service cannot be reached; is it still running?'});
  }
  const body = await response.json().catch(() => ({detail: `the service answered ${response.status}`}));
  if (!response.ok) throw new Problem(body);
  return body;
}

export function getJSON(path) {
  return call(path, {headers: {Accept: 'application/json'}});
}

export function postJSON(path, body) {
  return call(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
}

export function postText(path, text, type) {
  return call(path, {method: 'POST', headers: {'Content-Type': type}, body: text});
}

// h('p', {class: 'x'}, 'text', child): an element with attributes and children.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(key, value === true ? '' : value);
  }
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// The clause behind a ruling line: rule name and citation, or why the document is silent.
export function clause(step) {
  const parts = [h('code', {}, step.rule || 'no rule')];
  parts.push(step.cite ? ` · ${step.cite}` : ' · not stated in the document');
  const el = h('span', {class: 'clause'}, parts);
  if (step.note) el.append(h('span', {class: 'note'}, step.note));
  return el;
}

// The readings an answer rests on: where the book is ambiguous, silent or self-contradictory, the
// reading this rule book's encoding chose, the clause, and what a table could choose instead.
export function readings(answer) {
  const notes = answer.readings || [];
  if (!notes.length) return null;
  return h('details', {class: 'readings'},
    h('summary', {}, `This answer rests on ${notes.length === 1 ? 'a reading' : `${notes.length} readings`} of the rules`),
    h('ul', {}, notes.map((n) => h('li', {},
      h('strong', {}, n.status ? `${n.status}: ` : 'a choice: '), n.reading || '', ' ',
      h('span', {class: 'clause'}, h('code', {}, n.rule), n.cite ? ` · ${n.cite}` : ' · not stated in the document'),
      n.alternative ? h('span', {class: 'note'}, `Otherwise: ${n.alternative}`) : null))));
}

// An input's path in a request ("bids.W", "hands[0].before.NS.bags", "cards[2]") in a player's words.
export function fieldLabel(path) {
  let rest = (path || '').replace(/^input\./, '');
  const prefix = [];
  const hand = /^hands\[(\d+)\]\.?(.*)$/.exec(rest);
  if (hand) {
    prefix.push(`Hand ${Number(hand[1]) + 1} of this game`);
    rest = hand[2];
  }
  let m;
  let label = rest;
  if ((m = /^hands\.([NESWXY])\[(\d+)\]/.exec(rest))) label = `${SEAT_NAMES[m[1]]}'s card ${Number(m[2]) + 1}`;
  else if ((m = /^hands\.([NESWXY])/.exec(rest))) label = `${SEAT_NAMES[m[1]]}'s cards`;
  else if (rest === 'claim.tricks') label = 'Tricks claimed';
  else if (rest === 'claim.side') label = 'Side claiming';
  else if ((m = /^bids\.([NESWXY])/.exec(rest))) label = `${SEAT_NAMES[m[1]]}'s bid`;
  else if (rest === 'bids') label = 'The bids';
  else if ((m = /^tricks\.([NESWXY])/.exec(rest))) label = `${SEAT_NAMES[m[1]]}'s tricks`;
  else if (rest.startsWith('tricks')) label = 'Tricks won';
  else if ((m = /^before\.(NS|EW)\.(score|bags)/.exec(rest))) label = `${m[1]} ${m[2]} before the hand`;
  else if ((m = /^before\.(NS|EW)/.exec(rest))) label = `${m[1]} before the hand`;
  else if (rest.startsWith('events')) label = 'Renege';
  else if ((m = /^cards\[(\d+)\]/.exec(rest))) label = `Card ${Number(m[1]) + 1} of the trick`;
  else if (rest === 'cards') label = 'The trick';
  else if ((m = /^hand\[(\d+)\]/.exec(rest))) label = `Card ${Number(m[1]) + 1} in your hand`;
  else if (rest === 'hand') label = 'Cards in your hand';
  else if ((m = /^trick\[(\d+)\]/.exec(rest))) label = `Card ${Number(m[1]) + 1} already played to the trick`;
  else if (rest === 'trick') label = 'Cards already played to the trick';
  else if (rest === 'card') label = 'The card you want to play';
  else if (/^variants?\b/.test(rest)) label = 'Rules';
  else if (rest === 'leader') label = 'Led by';
  else if (rest === 'number') label = 'Trick number';
  else if (rest === 'hands') label = 'The hands of this game';
  return [...prefix, label].filter(Boolean).join(', ');
}

// "10H" → "10♥" inside a message.
export function prettyCards(text) {
  const symbols = {S: '♠', H: '♥', D: '♦', C: '♣'};
  return text.replace(/\b(10|[2-9JQKA])([SHDC])\b/g, (_, rank, suit) => rank + symbols[suit]);
}

// A problem's detail in a player's words: paths inside it named, cards with suit symbols.
export function problemText(body) {
  const detail = String(body.detail || body.title || 'the service could not answer')
    .replace(/\(also at ([^)]+)\)/, (_, path) => `(also entered as ${lowerFirst(fieldLabel(path))})`)
    .replace(/^([NESWXY]) holds\b/, (_, seat) => `${SEAT_NAMES[seat]} holds`);
  const field = (body.field || '').replace(/^input\./, '');
  const label = field ? fieldLabel(field) : '';
  const seat = /^bids\.([NESWXY])$/.exec(field);
  const named = !label || (seat && detail.startsWith(SEAT_NAMES[seat[1]]));
  return prettyCards(named ? detail : `${label}: ${detail}`);
}

// "Card 1 of the trick" → "card 1 of the trick"; a seat's name keeps its capital.
function lowerFirst(label) {
  return Object.values(SEAT_NAMES).some((name) => label.startsWith(name)) ? label : label[0].toLowerCase() + label.slice(1);
}

// An answer just given: scrolled to the top of the view and focused, so it is what the reader meets next
// (the element has tabindex="-1").
export function showAnswer(el) {
  el.scrollIntoView({block: 'start'});
  el.focus({preventScroll: true});
}

// A problem as a message: the field in words, what is wrong and, where a rule refuses it, that rule.
export function problemMessage(problem) {
  const body = problem.body || {detail: String(problem.message || problem)};
  return h('span', {}, problemText(body), body.rule ? [' ', clause(body)] : []);
}

// Numbers with a true minus sign; signed() also marks gains with a plus.
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

export function signed(n) {
  return n > 0 ? `+${n}` : num(n);
}

// Variant refs are an id or an inline house rule; both can be named.
export function variantName(ref) {
  return typeof ref === 'string' ? ref : ref.id;
}
