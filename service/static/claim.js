// The claim panel: the cards each seat still holds, the trick in progress, the side and the tricks it
// claims; whether the claim holds (double dummy) under the rules the table plays and those it compares
// with (POST /v1/claim), each book's line of play stepped through trick by trick.  At a table without partners
// the claimer is a player, alone against everyone else.
import {SEATS, SEAT_NAMES, clause, h, postJSON, showAnswer} from './api.js';
import {cardsOf, clearMarks, pretty, renderAnswers, showProblem} from './cards.js';

const $ = (id) => document.getElementById(id);
const EXAMPLE = {N: 'AS KH 2C', E: 'QS AH 3C', S: '2S QH 4C', W: '3S JH 5C', X: '4S 10H 6C', Y: '5S 9H 7C'};
const SIDE_NAMES = {NS: 'North–South', EW: 'East–West', NW: 'North–West', EX: 'East–X', SY: 'South–Y', ...SEAT_NAMES};
// The table's seats (the variant's table.seats) and its sides: the partnerships, or each player alone.
let table = {seats: SEATS, sides: ['NS', 'EW']};

// Show the claim panel for a table: a box and a leader per seat (up to a hand's cards, 13 or more), a side
// (partnership, or player) to claim.
export function setClaimTable(seats, partners, handSize, sides = ['NS', 'EW']) {
  const shown = SEATS.slice(0, seats);
  table = {seats: shown, sides: partners ? sides : shown};
  for (const seat of SEATS) {
    const off = !shown.includes(seat);
    $(`claim-${seat}`).closest('.field').hidden = off;
    $(`claim-${seat}`).dataset.cards = String(Math.max(13, handSize));
    const option = $('claim-leader').querySelector(`option[value="${seat}"]`);
    option.hidden = option.disabled = off;
  }
  if (!shown.includes($('claim-leader').value)) $('claim-leader').value = 'N';
  $('claim-trick').dataset.cards = String(seats - 1);
  const side = $('claim-side');
  const was = side.value;
  side.replaceChildren(...table.sides.map((s) => h('option', {value: s}, SIDE_NAMES[s])));
  side.value = table.sides.includes(was) ? was : table.sides[0];
  $('claim-side-label').textContent = partners ? 'Side claiming' : 'Player claiming (alone against the others)';
}
export const CLAIM_FIELDS = [...SEATS.map((s) => `claim-${s}`), 'claim-leader', 'claim-trick', 'claim-side', 'claim-k'];

// The input a request field names ("hands.N[2]", "trick[0]", "claim.tricks").
function claimInput(field) {
  const m = /^(?:input\.)?(hands\.([NESWXY])|trick|claim\.tricks|claim\.side|leader)/.exec(field || '');
  if (!m) return null;
  if (m[2]) return $(`claim-${m[2]}`);
  return $({trick: 'claim-trick', 'claim.tricks': 'claim-k', 'claim.side': 'claim-side', leader: 'claim-leader'}[m[1]]);
}

function claimed() {
  const text = $('claim-k').value.trim();
  if (!/^\d+$/.test(text)) {
    throw {body: {detail: text ? `“${text}” is not a whole number (0 or more)` : 'how many tricks are claimed?',
      field: 'claim.tricks'}};
  }
  return Number(text);
}

function request() {
  return {hands: Object.fromEntries(table.seats.map((s) => [s, cardsOf($(`claim-${s}`))])),
    leader: $('claim-leader').value,
    trick: cardsOf($('claim-trick')), broken: $('claim-broken').checked,
    claim: {side: $('claim-side').value, tricks: claimed()}};
}

// One trick of a line: "Trick 11: North A♠ · East Q♠ · South 2♠ · West 3♠ → North".
function trickText(t) {
  return `Trick ${t.number}: ${t.cards.map((c) => `${SEAT_NAMES[c.seat]} ${pretty(c.card)}`).join(' · ')} `
    + `→ ${SEAT_NAMES[t.winner]}`;
}

// One rule book's answer: the verdict, why, and the line of play with buttons to step through it.
function render(answer) {
  const tricks = answer.line;
  const shown = h('ol', {class: 'line'});
  const where = h('p', {class: 'hint', 'aria-live': 'polite'});
  let at = 0;
  const back = h('button', {type: 'button'}, '◀ Trick back');
  const next = h('button', {type: 'button'}, 'Next trick ▶');
  const show = () => {
    shown.replaceChildren(...tricks.slice(0, at).map((t) => h('li', {}, trickText(t))));
    where.textContent = `${at} of ${tricks.length} tricks of the line shown`;
    back.disabled = at === 0;
    next.disabled = at === tricks.length;
  };
  back.addEventListener('click', () => { at = Math.max(0, at - 1); show(); });
  next.addEventListener('click', () => { at = Math.min(tricks.length, at + 1); show(); });
  show();
  const side = answer.claim ? answer.claim.side : $('claim-side').value;
  const notes = [...(answer.conflicts || []), ...(answer.dead_ends || [])].map((n) => h('li', {}, n.why || '',
    ' ', ...(n.cites || (n.rule ? [n] : [])).map(clause)));
  return [
    h('p', {class: `verdict ${answer.holds ? 'agree' : 'bad'}`}, answer.holds ? `Yes: the claim holds for ${side}.`
      : `No: the claim fails for ${side}.`),
    h('p', {}, answer.why ? answer.why[0].toUpperCase() + answer.why.slice(1) : ''),
    tricks.length ? h('div', {class: 'actions steps-nav'}, back, next) : null, tricks.length ? where : null, shown,
    notes.length ? h('ul', {class: 'notes'}, notes) : null];
}

export function setupClaim(variantFields, changed) {
  $('claim-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = $('claim-answer');
    clearMarks($('claim-form'));
    out.replaceChildren(h('p', {class: 'hint'}, 'Working out every defence…'));
    try {
      const answer = await postJSON('/v1/claim', {...variantFields(), ...request()});
      renderAnswers(out, answer, render, (a, b) => a.holds === b.holds);
      showAnswer(out);
    } catch (problem) {
      showProblem(out, problem, claimInput);
    }
  });
  $('claim-example').addEventListener('click', () => {
    for (const s of SEATS) $(`claim-${s}`).value = table.seats.includes(s) ? EXAMPLE[s] : '';
    $('claim-leader').value = 'N';
    $('claim-trick').value = '';
    $('claim-broken').checked = true;
    changed();
  });
}
