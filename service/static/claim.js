// The "claim" panel: enter the cards each seat still holds, the claimer and k; see whether the claim
// holds under each chosen rule book (POST /v1/claim, side by side) and step through the line.
// It adds its own section to the page and talks to the JSON API directly.

import {readings} from './api.js';

const SEATS = ['N', 'E', 'S', 'W'];
const NAMES = {N: 'North', E: 'East', S: 'South', W: 'West'};
const EXAMPLE = {N: 'AS KH 2C', E: 'QS AH 3C', S: '2S QH 4C', W: '3S JH 5C'};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === true) node.setAttribute(key, '');
    else if (value !== false && value != null) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function field(id, label, input) {
  return el('div', {class: 'field'}, el('label', {for: id}, label), input);
}

function cardsOf(text) {
  return text.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
}

function panel() {
  const hands = SEATS.map((s) => field(`claim-${s}`, `${NAMES[s]} holds`,
    el('input', {id: `claim-${s}`, class: 'card-input', autocomplete: 'off', autocapitalize: 'characters',
                 placeholder: 'e.g. AS KH 2C'})));
  const seatSelect = (id) => el('select', {id}, ...SEATS.map((s) => el('option', {value: s}, NAMES[s])));
  return el('section', {id: 'claim-section', 'aria-labelledby': 'claim-h'},
    el('h2', {id: 'claim-h'}, 'Claim'),
    el('p', {class: 'hint'}, 'A claim holds when the side takes at least that many of the remaining tricks ',
       'against every defence (double dummy), under each rule book you tick.'),
    el('form', {id: 'claim-form', novalidate: true},
      el('fieldset', {}, el('legend', {}, 'Rule books'), el('div', {id: 'claim-variants'}, 'loading…')),
      el('fieldset', {}, el('legend', {}, 'The cards left'), ...hands,
        field('claim-leader', 'Leads the current trick', seatSelect('claim-leader')),
        field('claim-trick', 'Cards already played to this trick, in order',
              el('input', {id: 'claim-trick', class: 'card-input', autocomplete: 'off', placeholder: 'none'})),
        el('div', {class: 'field check'}, el('input', {id: 'claim-broken', type: 'checkbox'}),
           el('label', {for: 'claim-broken'}, 'Trumps have been broken'))),
      el('fieldset', {}, el('legend', {}, 'The claim'),
        field('claim-side', 'Side claiming',
              el('select', {id: 'claim-side'}, el('option', {value: 'NS'}, 'North–South'),
                 el('option', {value: 'EW'}, 'East–West'))),
        field('claim-k', 'Tricks claimed', el('input', {id: 'claim-k', type: 'number', min: '0', max: '13',
                                                        value: '2'}))),
      el('div', {class: 'actions'},
        el('button', {type: 'button', id: 'claim-example'}, 'Example ending'),
        el('button', {type: 'submit', class: 'primary'}, 'Does the claim hold?')),
      el('div', {id: 'claim-answer', class: 'answer', 'aria-live': 'polite'})));
}

async function loadVariants() {
  const box = document.getElementById('claim-variants');
  try {
    const body = await (await fetch('/v1/variants')).json();
    box.replaceChildren(...body.variants.filter((v) => !v.problems).map((v) => el('label', {class: 'check'},
      el('input', {type: 'checkbox', value: v.id, checked: v.id === 'standard'}), ` ${v.id} `)));
  } catch {
    box.textContent = 'the variants could not be loaded';
  }
}

function request() {
  const hands = Object.fromEntries(SEATS.map((s) => [s, cardsOf(document.getElementById(`claim-${s}`).value)]));
  const chosen = [...document.querySelectorAll('#claim-variants input:checked')].map((i) => i.value);
  const body = {hands, leader: document.getElementById('claim-leader').value,
                trick: cardsOf(document.getElementById('claim-trick').value),
                broken: document.getElementById('claim-broken').checked,
                claim: {side: document.getElementById('claim-side').value,
                        tricks: Number(document.getElementById('claim-k').value)}};
  return chosen.length === 1 ? {...body, variant: chosen[0]} : {...body, variants: chosen};
}

// One rule book's ruling, with buttons that step through its line trick by trick.
function ruling(id, answer) {
  if (answer.error) {
    return el('div', {class: 'ruling'}, el('h3', {}, id),
              el('p', {class: 'problem'}, `${answer.error.field}: ${answer.error.detail}`));
  }
  const tricks = answer.line;
  const shown = el('ol', {class: 'line'});
  let at = 0;
  const step = el('p', {class: 'hint'});
  const show = () => {
    shown.replaceChildren(...tricks.slice(0, at).map((t) => el('li', {},
      `trick ${t.number}: ${t.cards.map((c) => `${c.seat} ${c.card}`).join(', ')} → ${NAMES[t.winner]}`)));
    step.textContent = `${at} of ${tricks.length} tricks shown`;
  };
  const back = el('button', {type: 'button'}, '◀ trick');
  const next = el('button', {type: 'button'}, 'trick ▶');
  back.addEventListener('click', () => { at = Math.max(0, at - 1); show(); });
  next.addEventListener('click', () => { at = Math.min(tricks.length, at + 1); show(); });
  show();
  const verdict = answer.holds ? 'holds' : 'fails';
  const notes = [...answer.conflicts, ...answer.dead_ends].map((n) => el('li', {}, n.why || JSON.stringify(n)));
  return el('div', {class: `ruling ${verdict}`}, el('h3', {}, `${id}: the claim ${verdict}`),
    el('p', {}, answer.why), el('div', {class: 'actions'}, back, next), step, shown,
    notes.length ? el('ul', {class: 'notes'}, ...notes) : '', readings(answer) || '');
}

async function submit(event) {
  event.preventDefault();
  const out = document.getElementById('claim-answer');
  out.textContent = 'solving…';
  let body;
  try {
    const response = await fetch('/v1/claim', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                body: JSON.stringify(request())});
    body = await response.json();
    if (!response.ok) {
      out.replaceChildren(el('p', {class: 'problem'}, `${body.field ? body.field + ': ' : ''}${body.detail}`));
      return;
    }
  } catch {
    out.textContent = 'the service cannot be reached';
    return;
  }
  const rulings = body.rulings || {[body.variant]: body};
  out.replaceChildren(...Object.entries(rulings).map(([id, answer]) => ruling(id, answer)));
}

function example() {
  for (const s of SEATS) document.getElementById(`claim-${s}`).value = EXAMPLE[s];
  document.getElementById('claim-leader').value = 'N';
  document.getElementById('claim-broken').checked = true;
}

function start() {
  const main = document.querySelector('main') || document.body;
  main.append(panel());
  document.getElementById('claim-form').addEventListener('submit', submit);
  document.getElementById('claim-example').addEventListener('click', example);
  loadVariants();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
