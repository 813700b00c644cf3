// "Who wins this trick?" and "Can I play this card?", with a card picker for the card fields.
import {SEATS, SEAT_NAMES, clause, h, postJSON, problemMessage, readings} from './api.js';

const $ = (id) => document.getElementById(id);

const SUITS = [['S', '♠', 'spades'], ['H', '♥', 'hearts'], ['D', '♦', 'diamonds'], ['C', '♣', 'clubs']];
const RANKS = [['A', 'ace'], ['K', 'king'], ['Q', 'queen'], ['J', 'jack'], ['10', 'ten'], ['9', 'nine'], ['8', 'eight'],
  ['7', 'seven'], ['6', 'six'], ['5', 'five'], ['4', 'four'], ['3', 'three'], ['2', 'two']];
const JOKERS = [['BJ', 'big joker'], ['LJ', 'little joker']];
const SYMBOL = {S: '♠', H: '♥', D: '♦', C: '♣', '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C'};

// A card as the service names it ("10H", "AS", "BJ"), from "th", "♠a", "10♥"...
export function normCard(text) {
  let t = text.trim().toUpperCase();
  if (t === 'SJ') return 'LJ';
  if (t === 'HJ') return 'BJ';
  t = t.replace(/[♠♥♦♣]/g, (s) => SYMBOL[s]);
  if (/^[SHDC]/.test(t) && t.length > 1 && !/^[SHDC]$/.test(t.slice(-1))) t = t.slice(1) + t[0];
  return t.replace(/^T/, '10');
}

function cardsOf(input) {
  return input.value.split(/[\s,]+/).filter(Boolean);
}

function pretty(card) {
  const suit = card.slice(-1);
  return SYMBOL[suit] && card.length > 1 ? card.slice(0, -1) + SYMBOL[suit] : card;
}

function labelOf(input) {
  return document.querySelector(`label[for="${input.id}"]`).textContent.trim();
}

// One explanation step: the reason in words, then the rule and its citation.
function step(s) {
  const value = Array.isArray(s.value) ? s.value.map(pretty).join(' ') : String(s.value);
  return h('li', {}, s.reason ? `${s.reason} ` : [s.why ? `${s.why}: ` : '', h('strong', {}, value), ' '], clause(s));
}

// Answers under one or several variants: each as a block, the ones that differ from yours marked.
function renderAnswers(target, answer, render, same) {
  const rulings = answer.rulings || {[answer.variant]: answer};
  const keys = Object.keys(rulings);
  target.replaceChildren(...keys.map((key, i) => {
    const ruling = rulings[key];
    const differs = i > 0 && (ruling.error || rulings[keys[0]].error || !same(ruling, rulings[keys[0]]));
    const block = h('div', {class: differs ? 'ruling differs' : 'ruling'}, h('h3', {}, key, differs ? ' (differs)' : ''));
    block.append(...(ruling.error ? [h('p', {class: 'error'}, problemMessage({body: ruling.error}))]
      : [...render(ruling), readings(ruling)]).filter(Boolean));
    return block;
  }));
}

// The input a request field names ("cards[2]", "hand[0]", "trick", "card").
function inputFor(field) {
  const m = /^(?:input\.)?(cards|hand|trick|card)(?:\[(\d+)\])?/.exec(field || '');
  if (!m) return null;
  if (m[1] === 'cards') return $(`trick-${m[2] || 0}`);
  return $({hand: 'legal-hand', trick: 'legal-trick', card: 'legal-card'}[m[1]]);
}

function clearMarks(form) {
  for (const input of form.querySelectorAll('.card-input')) input.setAttribute('aria-invalid', 'false');
}

// A problem shown in the answer block, its field named, marked and focused.
function showProblem(target, problem) {
  target.replaceChildren(h('p', {class: 'error'}, problemMessage(problem)));
  const input = inputFor(problem.body && problem.body.field);
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}

// A field that takes one card: a Problem when it holds several.
function oneCard(input, field) {
  const cards = cardsOf(input);
  if (cards.length > 1) throw {body: {detail: `one card only, not ${cards.length} (${cards.join(' ')})`, field}};
  return cards[0] || '';
}

export function setupCards(variantFields, handSize) {
  const picker = $('picker');
  let target = $('trick-0');

  // ------------------------------------------------------------ the picker
  const buttons = [];
  const groups = [];
  for (const [suit, symbol, suitName] of SUITS) {
    // The name a screen reader says starts with what is printed on the button (axe: label-content-name-mismatch).
    const row = RANKS.map(([rank, rankName]) => h('button', {type: 'button', class: `card ${suit === 'H' || suit === 'D' ? 'red' : ''}`,
      'data-card': rank + suit, 'aria-pressed': 'false'}, rank + symbol,
    h('span', {class: 'visually-hidden'}, `, ${rankName} of ${suitName}`)));
    buttons.push(...row);
    groups.push(h('div', {class: 'suit', role: 'group', 'aria-label': suitName}, row));
  }
  const jokers = JOKERS.map(([card, name]) => h('button', {type: 'button', class: 'card joker', 'data-card': card,
    'aria-pressed': 'false'}, card, h('span', {class: 'visually-hidden'}, `, ${name}`)));
  buttons.push(...jokers);
  groups.push(h('div', {class: 'suit', role: 'group', 'aria-label': 'jokers (only in packs that have them)'}, jokers));
  $('picker-cards').replaceChildren(...groups);

  function showPressed() {
    const chosen = new Set(cardsOf(target).map(normCard));
    for (const b of buttons) b.setAttribute('aria-pressed', String(chosen.has(b.dataset.card)));
  }

  function aim(input) {
    target = input;
    $('picker-target').textContent = labelOf(input);
    const actions = input.closest('fieldset').querySelector('.actions');
    if (picker.nextElementSibling !== actions) actions.before(picker);
    showPressed();
  }

  function pick(card) {
    const max = Number(target.dataset.cards);
    if (max === 1) {
      target.value = card;
      // Filling the trick card by card: the picker moves on to the next empty card.
      const next = [...target.closest('.seats, fieldset').querySelectorAll('.card-input[data-cards="1"]')]
        .find((el) => el !== target && !el.value && el.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING);
      if (next) aim(next);
    } else {
      const cards = cardsOf(target);
      const at = cards.map(normCard).indexOf(card);
      if (at >= 0) cards.splice(at, 1);
      else if (cards.length < max) cards.push(card);
      target.value = cards.join(' ');
    }
    showPressed();
  }

  for (const input of document.querySelectorAll('.card-input')) {
    input.addEventListener('focus', () => aim(input));
    input.addEventListener('input', showPressed);
  }
  for (const b of buttons) b.addEventListener('click', () => pick(b.dataset.card));

  // One tab stop for the whole picker: arrows move along a suit (left, right) and across suits (up, down).
  let current = 0;
  const focusCard = (i) => {
    buttons[current].tabIndex = -1;
    current = Math.min(buttons.length - 1, Math.max(0, i));
    buttons[current].tabIndex = 0;
    buttons[current].focus();
  };
  const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -RANKS.length, ArrowDown: RANKS.length};
  buttons.forEach((b, i) => {
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener('keydown', (event) => {
      const to = event.key in moves ? i + moves[event.key] : event.key === 'Home' ? 0 : event.key === 'End' ? buttons.length - 1 : null;
      if (to === null) return;
      event.preventDefault();
      focusCard(to);
    });
    b.addEventListener('focus', () => {
      if (current !== i) focusCard(i);
    });
  });

  // ------------------------------------------------------------ who wins the trick
  function labelTrick() {
    const lead = SEATS.indexOf($('leader').value);
    for (let i = 0; i < 4; i++) {
      const seat = SEATS[(lead + i) % 4];
      $(`trick-${i}-label`).textContent = `${i === 0 ? 'Led by' : `Card ${i + 1}:`} ${SEAT_NAMES[seat]}`;
    }
    $('picker-target').textContent = labelOf(target);
  }
  $('leader').addEventListener('change', labelTrick);
  labelTrick();

  $('trick-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = $('trick-answer');
    clearMarks($('trick-form'));
    try {
      const cards = [0, 1, 2, 3].map((i) => oneCard($(`trick-${i}`), `cards[${i}]`));
      const empty = cards.findIndex((c) => !c);
      if (empty >= 0) throw {body: {detail: 'which card?', field: `cards[${empty}]`}};
      const answer = await postJSON('/v1/trick', {...variantFields(), leader: $('leader').value, cards});
      renderAnswers(out, answer, (r) => [
        h('p', {class: 'verdict'}, `${SEAT_NAMES[r.winner]} wins the trick with ${pretty(r.card)}.`),
        h('ol', {class: 'steps'}, r.explanation.map(step))],
      (a, b) => a.winner === b.winner);
    } catch (problem) {
      showProblem(out, problem);
    }
  });

  // ------------------------------------------------------------ may I play this card
  $('legal-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = $('legal-answer');
    clearMarks($('legal-form'));
    const hand = cardsOf($('legal-hand'));
    const trick = cardsOf($('legal-trick'));
    const number = Math.max(1, handSize() - hand.length + 1);
    try {
      const typed = oneCard($('legal-card'), 'card');
      const wanted = typed ? normCard(typed) : null;
      if (!hand.length) throw {body: {detail: 'which cards are in your hand?', field: 'hand'}};
      if (wanted && !hand.map(normCard).includes(wanted)) {
        throw {body: {detail: `${pretty(wanted)} is not among the cards in your hand`, field: 'card'}};
      }
      const answer = await postJSON('/v1/legal', {...variantFields(), hand, trick, number,
        broken: $('legal-broken').checked});
      const allowed = (r) => !wanted || r.legal.includes(wanted);
      renderAnswers(out, answer, (r) => {
        const why = wanted && !allowed(r) ? r.illegal.find((c) => c.card === wanted).reasons : [];
        // "No" says why not in words, with the clause; further refusing rules and the trail follow.
        const verdict = !wanted ? [`Trick ${number}: you may play ${r.legal.map(pretty).join(' ')}.`]
          : allowed(r) ? [`Yes: ${pretty(wanted)} may be played.`]
            : why.length ? ['No: ', `${why[0].reason}. `, clause(why[0])]
              : [`No: ${pretty(wanted)} may not be played here.`];
        const steps = why.length ? why.slice(1) : r.explanation;
        return [
          h('p', {class: 'verdict'}, verdict),
          h('p', {}, `Cards allowed: ${r.legal.map(pretty).join(' ')}`),
          steps.length ? h('ol', {class: 'steps'}, steps.map(step)) : null,
          ...[...r.conflicts, ...r.dead_ends].map((c) => h('p', {class: 'note'}, 'The rules clash: ', c.why, ' ',
            ...(c.cites || [c]).map(clause))),
        ];
      }, (a, b) => allowed(a) === allowed(b) && a.legal.join() === b.legal.join());
    } catch (problem) {
      showProblem(out, problem);
    }
  });
}
