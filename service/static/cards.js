// "Who wins this trick?" and "Can I play this card?", with a card picker for the card fields.
import {SEATS, SEAT_NAMES, clause, h, postJSON, problemMessage} from './api.js';

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

// One explanation step: the rule, its citation and what it gave.
function step(s) {
  const value = Array.isArray(s.value) ? s.value.map(pretty).join(' ') : String(s.value);
  return h('li', {}, s.why ? `${s.why}: ` : '', h('strong', {}, value), ' ', clause(s));
}

// Answers under one or several variants: each as a block, the ones that differ from yours marked.
function renderAnswers(target, answer, render, same) {
  const rulings = answer.rulings || {[answer.variant]: answer};
  const keys = Object.keys(rulings);
  target.replaceChildren(...keys.map((key, i) => {
    const ruling = rulings[key];
    const differs = i > 0 && (ruling.error || rulings[keys[0]].error || !same(ruling, rulings[keys[0]]));
    const block = h('div', {class: differs ? 'ruling differs' : 'ruling'}, h('h4', {}, key, differs ? ' (differs)' : ''));
    block.append(...(ruling.error ? [h('p', {class: 'error'}, problemMessage({body: ruling.error}))] : render(ruling)));
    return block;
  }));
}

function showProblem(target, problem) {
  target.replaceChildren(h('p', {class: 'error'}, problemMessage(problem)));
}

export function setupCards(variantFields, handSize) {
  const picker = $('picker');
  let target = $('trick-0');

  // ------------------------------------------------------------ the picker
  const buttons = [];
  const groups = [];
  for (const [suit, symbol, suitName] of SUITS) {
    const row = RANKS.map(([rank, rankName]) => h('button', {type: 'button', class: `card ${suit === 'H' || suit === 'D' ? 'red' : ''}`,
      'data-card': rank + suit, 'aria-label': `${rankName} of ${suitName}`, 'aria-pressed': 'false'}, rank + symbol));
    buttons.push(...row);
    groups.push(h('div', {class: 'suit', role: 'group', 'aria-label': suitName}, row));
  }
  const jokers = JOKERS.map(([card, name]) => h('button', {type: 'button', class: 'card joker', 'data-card': card,
    'aria-label': name, 'aria-pressed': 'false'}, card));
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
    const cards = [0, 1, 2, 3].map((i) => $(`trick-${i}`).value.trim());
    const empty = cards.findIndex((c) => !c);
    if (empty >= 0) {
      out.replaceChildren(h('p', {class: 'error'}, `${labelOf($(`trick-${empty}`))}: which card?`));
      $(`trick-${empty}`).focus();
      return;
    }
    try {
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
    const hand = cardsOf($('legal-hand'));
    const trick = cardsOf($('legal-trick'));
    const wanted = $('legal-card').value.trim() ? normCard($('legal-card').value) : null;
    if (!hand.length) {
      out.replaceChildren(h('p', {class: 'error'}, 'Which cards are in your hand?'));
      $('legal-hand').focus();
      return;
    }
    if (wanted && !hand.map(normCard).includes(wanted)) {
      out.replaceChildren(h('p', {class: 'error'}, `${pretty(wanted)} is not among the cards in your hand.`));
      $('legal-card').focus();
      return;
    }
    const number = Math.max(1, handSize() - hand.length + 1);
    try {
      const answer = await postJSON('/v1/legal', {...variantFields(), hand, trick, number,
        broken: $('legal-broken').checked});
      const allowed = (r) => !wanted || r.legal.includes(wanted);
      renderAnswers(out, answer, (r) => {
        const why = wanted && !allowed(r) ? r.illegal.find((c) => c.card === wanted).reasons : [];
        return [
          h('p', {class: 'verdict'}, wanted
            ? (allowed(r) ? `Yes: ${pretty(wanted)} may be played.` : `No: ${pretty(wanted)} may not be played here.`)
            : `Trick ${number}: you may play ${r.legal.map(pretty).join(' ')}.`),
          h('p', {}, `Cards allowed: ${r.legal.map(pretty).join(' ')}`),
          h('ol', {class: 'steps'}, (why.length ? why : r.explanation).map(step)),
          ...[...r.conflicts, ...r.dead_ends].map((c) => h('p', {class: 'note'}, 'The rules clash: ', c.why, ' ',
            ...(c.cites || [c]).map(clause))),
        ];
      }, (a, b) => allowed(a) === allowed(b) && a.legal.join() === b.legal.join());
    } catch (problem) {
      showProblem(out, problem);
    }
  });
}
