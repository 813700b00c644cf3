// Calls to the JSON API and small DOM helpers shared by the page's modules.

export const SEATS = ['N', 'E', 'S', 'W'];
export const TEAMS = ['NS', 'EW'];
export const SEAT_NAMES = {N: 'North', E: 'East', S: 'South', W: 'West'};

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

// A problem as a message: detail and, where a rule refuses it, that rule.
export function problemMessage(problem) {
  const body = problem.body || {detail: String(problem.message || problem)};
  return h('span', {}, body.detail, body.rule ? [' ', clause(body)] : []);
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
