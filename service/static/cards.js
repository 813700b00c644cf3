// "Who wins this trick?" and "Can I play this card?", with a card picker for the card fields.
import {SEATS, SEAT_NAMES, clause, h, postJSON, problemMessage, readings, showAnswer} from './api.js';

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

export function cardsOf(input) {
  return input.value.split(/[\s,]+/).filter(Boolean);
}

export function pretty(card) {
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
export function renderAnswers(target, answer, render, same) {
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
function trickInput(field) {
  const m = /^(?:input\.)?(cards|hand|trick|card)(?:\[(\d+)\])?/.exec(field || '');
  if (!m) return null;
  if (m[1] === 'cards') return $(`trick-${m[2] || 0}`);
  return $({hand: 'legal-hand', trick: 'legal-trick', card: 'legal-card'}[m[1]]);
}

export function clearMarks(form) {
  for (const input of form.querySelectorAll('.card-input, input, select')) {
    if (input.type === 'checkbox') continue;
    input.setAttribute('aria-invalid', 'false');
    const note = document.getElementById(`${input.id}-problem`);
    if (note) {
      note.remove();
      input.setAttribute('aria-describedby', input.getAttribute('aria-describedby').split(' ')
        .filter((id) => id !== note.id).join(' '));
    }
  }
}

// A problem shown in the answer block, its field named, marked and focused.
export function showProblem(target, problem, inputFor) {
  target.replaceChildren(h('p', {class: 'error'}, problemMessage(problem)));
  const input = inputFor(problem.body && problem.body.field);
  if (!input) {
    showAnswer(target);
    return;
  }
  // Said at the box too, where the focus goes (the answer below may be out of view); under a row of boxes,
  // the whole width of the row.
  const note = h('p', {class: 'error field-error', id: `${input.id}-problem`}, problemMessage(problem));
  (input.closest('.seats') || input).after(note);
  input.setAttribute('aria-describedby', [note.id, input.getAttribute('aria-describedby')].filter(Boolean).join(' '));
  input.setAttribute('aria-invalid', 'true');
  input.focus();
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
  // How the picker's field was chosen: 'explicit' (tapped or typed in) or 'passing' (focus moved through
  // it by Tab). Tabbing through card 2, 3 and 4 on the way to the picker must not make it fill card 4.
  let aimed = 'passing';

  // ------------------------------------------------------------ the picker
  const buttons = [];
  const rows = [];
  for (const [suit, symbol, suitName] of SUITS) {
    // The name a screen reader says starts with what is printed on the button (axe: label-content-name-mismatch).
    const row = RANKS.map(([rank, rankName]) => h('button', {type: 'button', class: `card ${suit === 'H' || suit === 'D' ? 'red' : ''}`,
      'data-card': rank + suit, 'aria-pressed': 'false'}, rank + symbol,
    h('span', {class: 'visually-hidden'}, `, ${rankName} of ${suitName}`)));
    buttons.push(...row);
    rows.push(h('div', {class: 'suit', role: 'group', 'aria-label': suitName}, row));
  }
  const jokers = JOKERS.map(([card, name]) => h('button', {type: 'button', class: 'card joker', 'data-card': card,
    'aria-pressed': 'false'}, card, h('span', {class: 'visually-hidden'}, `, ${name}`)));
  buttons.push(...jokers);
  rows.push(h('div', {class: 'suit', role: 'group', 'aria-label': 'jokers'}, jokers));
  $('picker-cards').replaceChildren(...rows);

  // Only the cards of the pack the rules play with are offered (a row with none of them is hidden).
  function setPack(cards) {
    const pack = new Set(cards);
    for (const b of buttons) b.hidden = Boolean(cards.length) && !pack.has(b.dataset.card);
    for (const row of rows) row.hidden = [...row.children].every((b) => b.hidden);
    const shown = visible();
    if (shown.length && !shown.includes(buttons[current])) rove(shown[0]);
  }

  function visible() {
    return buttons.filter((b) => !b.hidden);
  }

  function showPressed() {
    const chosen = new Set(cardsOf(target).map(normCard));
    for (const b of buttons) b.setAttribute('aria-pressed', String(chosen.has(b.dataset.card)));
  }

  function aim(input, how) {
    target = input;
    aimed = how;
    $('picker-target').textContent = labelOf(input);
    const actions = input.closest('fieldset').querySelector('.actions');
    if (picker.nextElementSibling !== actions) actions.before(picker);
    showPressed();
  }

  // The one-card fields filled together (a trick's cards, one per seat at the table), in order.
  function siblings(input) {
    return [...input.closest('fieldset').querySelectorAll('.card-input[data-cards="1"]')]
      .filter((el) => !el.closest('.field').hidden);
  }

  // Reached by Tab with its field already filled: the picker fills the first empty card of the trick instead.
  function retarget() {
    if (aimed === 'explicit' || target.dataset.cards !== '1' || !target.value.trim()) return;
    const empty = siblings(target).find((el) => !el.value.trim());
    if (empty) aim(empty, 'passing');
  }

  function pick(card) {
    const max = Number(target.dataset.cards);
    if (max === 1) {
      target.value = card;
      // Filling the trick card by card: the picker moves on to the next empty card.
      const next = siblings(target).find((el) => el !== target && !el.value
        && el.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING);
      if (next) aim(next, 'passing');
    } else {
      const cards = cardsOf(target);
      const at = cards.map(normCard).indexOf(card);
      if (at >= 0) cards.splice(at, 1);
      else if (cards.length < max) cards.push(card);
      target.value = cards.join(' ');
    }
    target.dispatchEvent(new Event('input', {bubbles: true}));
    showPressed();
  }

  let pointing = null;   // the field a pointer went down on (its focus event follows)
  for (const input of document.querySelectorAll('.card-input')) {
    input.addEventListener('pointerdown', () => {
      pointing = input;
      aim(input, 'explicit');
    });
    input.addEventListener('focus', () => {
      aim(input, pointing === input ? 'explicit' : 'passing');
      pointing = null;
    });
    input.addEventListener('input', (event) => {
      if (event.isTrusted) aimed = 'explicit';
      showPressed();
    });
  }
  picker.addEventListener('focusin', retarget);
  for (const b of buttons) b.addEventListener('click', () => pick(b.dataset.card));

  // One tab stop for the whole picker: arrows move along a suit (left, right) and across suits (up, down),
  // over the cards of the pack only.
  let current = 0;
  function rove(button) {
    buttons[current].tabIndex = -1;
    current = buttons.indexOf(button);
    button.tabIndex = 0;
  }
  function neighbour(button, key) {
    const shown = visible();
    const at = shown.indexOf(button);
    if (key === 'ArrowLeft') return shown[Math.max(0, at - 1)];
    if (key === 'ArrowRight') return shown[Math.min(shown.length - 1, at + 1)];
    if (key === 'Home') return shown[0];
    if (key === 'End') return shown[shown.length - 1];
    const shownRows = rows.filter((r) => !r.hidden).map((r) => [...r.children].filter((b) => !b.hidden));
    const y = shownRows.findIndex((r) => r.includes(button));
    const to = shownRows[y + (key === 'ArrowUp' ? -1 : 1)];
    return to ? to[Math.min(to.length - 1, shownRows[y].indexOf(button))] : button;
  }
  buttons.forEach((b, i) => {
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener('keydown', (event) => {
      if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(event.key)) return;
      event.preventDefault();
      const to = neighbour(b, event.key);
      rove(to);
      to.focus();
    });
    b.addEventListener('focus', () => rove(b));
  });

  // ------------------------------------------------------------ who wins the trick
  // The table's seats (the variant's table.seats: N E S at three, N E at two): a card of the trick per seat.
  let seats = SEATS;

  function labelTrick() {
    const lead = Math.max(0, seats.indexOf($('leader').value));
    seats.forEach((_, i) => {
      const seat = seats[(lead + i) % seats.length];
      $(`trick-${i}-label`).textContent = `${i === 0 ? 'Led by' : `Card ${i + 1}:`} ${SEAT_NAMES[seat]}`;
    });
    $('picker-target').textContent = labelOf(target);
  }
  $('leader').addEventListener('change', labelTrick);
  labelTrick();

  // Only the table's seats are offered: as the leader, a card box each; a trick so far has a card fewer.
  function setTable(count) {
    seats = SEATS.slice(0, count);
    SEATS.forEach((seat, i) => {
      const off = i >= count;
      const box = $(`trick-${i}`);
      box.closest('.field').hidden = off;
      if (off) box.value = '';
      const option = $('leader').querySelector(`option[value="${seat}"]`);
      option.hidden = option.disabled = off;
    });
    if (!seats.includes($('leader').value)) $('leader').value = 'N';
    $('legal-trick').dataset.cards = String(count - 1);
    if (target.closest('.field').hidden) aim($('trick-0'), 'passing');
    labelTrick();
  }

  $('trick-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = $('trick-answer');
    clearMarks($('trick-form'));
    try {
      const cards = seats.map((_, i) => oneCard($(`trick-${i}`), `cards[${i}]`));
      const empty = cards.findIndex((c) => !c);
      if (empty >= 0) throw {body: {detail: 'which card?', field: `cards[${empty}]`}};
      const answer = await postJSON('/v1/trick', {...variantFields(), leader: $('leader').value, cards});
      renderAnswers(out, answer, (r) => [
        h('p', {class: 'verdict'}, `${SEAT_NAMES[r.winner]} wins the trick with ${pretty(r.card)}.`),
        h('ol', {class: 'steps'}, r.explanation.map(step))],
      (a, b) => a.winner === b.winner);
      showAnswer(out);
    } catch (problem) {
      showProblem(out, problem, trickInput);
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
      showAnswer(out);
    } catch (problem) {
      showProblem(out, problem, trickInput);
    }
  });
  return {setPack, setTable};
}
