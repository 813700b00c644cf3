// The evening's score sheet: games of hands kept in localStorage, scored by the service
// (POST /v1/game), exported and imported as JSON, re-scored under another variant.  A table of other seats
// (three players alone, four alone, two, five; six in three partnerships) has a sheet of its own, with a column per
// player or partnership.
import {SEATS, SEAT_NAMES, TEAMS, h, num, postJSON, problemMessage, signed, variantName} from './api.js';

const KEY = 'spades-rulespec.sheet';
const FORMAT = 'spades-rulespec-sheet';
// The table of four seats in partnerships (a sheet exported without a table is one of it).
const FOUR = {seats: 4, sides: TEAMS};

const $ = (id) => document.getElementById(id);

const sameTable = (a, b) => a.seats === b.seats && a.sides.join() === b.sides.join();
const partners = (table) => sameTable(table, FOUR);
const alone = (table) => table.sides.join() === SEATS.slice(0, table.seats).join();

// Where a table's sheet is kept: four partnership seats under the key of old, another table under its own.
function keyOf(table) {
  return partners(table) ? KEY : `${KEY}.${table.seats}-${alone(table) ? 'alone' : 'partners'}`;
}

// "4 seats in partnerships", "3 players, each alone (North, East, South)", "6 seats in partnerships (NW, EX, SY)".
function tableText(table) {
  if (partners(table)) return '4 seats in partnerships (NS and EW)';
  return alone(table) ? `${table.seats} players, each alone (${table.sides.map(sideName).join(', ')})`
    : `${table.seats} seats in partnerships (${table.sides.join(', ')})`;
}

// A side as the sheet names it: a partnership by its letters, a player alone by the seat's name.
function sideName(side) {
  return SEAT_NAMES[side] || side;
}

function emptySheet(table) {
  return {format: FORMAT, version: 1, table, games: []};
}

function validTable(table) {
  return typeof table === 'object' && table !== null && [2, 3, 4].includes(table.seats) && Array.isArray(table.sides);
}

function validSheet(data) {
  return Boolean(data) && data.format === FORMAT && Array.isArray(data.games) && data.games.every((g) => g
    && (typeof g.variant === 'string' || (typeof g.variant === 'object' && g.variant !== null))
    && Array.isArray(g.hands) && (g.before === undefined || (typeof g.before === 'object' && g.before !== null)))
    && (data.table === undefined || validTable(data.table));
}

function zero(sides) {
  return Object.fromEntries(sides.map((s) => [s, {score: 0, bags: 0}]));
}

function sameScores(a, b) {
  const sides = Object.keys(a);
  return sides.join() === Object.keys(b).join()
    && sides.every((t) => a[t].score === b[t].score && a[t].bags === b[t].bags);
}

// "NS 100 · EW −180 (2 bags)", "North 51 (1 bag) · East 120 · South 65 (5 bags)": each side's score, and bags where
// a side has some.
export function scoresText(scores) {
  return Object.entries(scores).map(([t, s]) => `${sideName(t)} ${num(s.score)}${s.bags ? ` (${bags(s.bags)})` : ''}`)
    .join(' · ');
}

// A game's request: its hands, and the scores it started from when not 0-0.
function gameRequest(g, hands = g.hands) {
  return g.before ? {hands, before: g.before} : {hands};
}

function loadSheet(table) {
  try {
    const data = JSON.parse(localStorage.getItem(keyOf(table)));
    return validSheet(data) ? {...data, table} : emptySheet(table);
  } catch {
    return emptySheet(table);
  }
}

// "N nil (1) · S 4 (4)": a side's bids with the tricks each of its seats took (a player alone: "E nil (0)").
function seatsLine(hand, side) {
  const seats = side.split('');      // a partnership's name is its seats' letters (NS, EW; at six NW, EX, SY)
  return seats.map((s) => `${s} ${hand.bids[s]} (${hand.tricks[s]})`).join(' · ');
}

function teamCell(row, hand, team) {
  const t = row[team];
  return h('td', {},
    h('span', {class: 'total'}, num(t.score)), ' ', h('small', {}, `(${signed(t.points)}) bags ${t.bags}`),
    h('br'), h('small', {}, seatsLine(hand, team)));
}

function bags(n) {
  return `${n} bag${n === 1 ? '' : 's'}`;
}

function resultText(result, name) {
  if (!result) return `No hands yet; scored under ${name}.`;
  const totals = Object.entries(result.scores).map(([t, s]) => `${sideName(t)} ${num(s.score)} (${bags(s.bags)})`)
    .join(', ');
  return result.over ? `Game over after ${result.after_hand} hand(s): ${sideName(result.winner)} won. ${totals}.`
    : `After ${result.after_hand} hand(s): ${totals}.`;
}

export function setupSheet({current, others, onTotals, onRender}) {
  let sheet = loadSheet(FOUR);
  const game = () => sheet.games[sheet.games.length - 1];
  const sides = () => sheet.table.sides;

  function save() {
    localStorage.setItem(keyOf(sheet.table), JSON.stringify(sheet));
  }

  // The sheet of the table on screen (each table's games are kept apart); Before the hand is filled from it
  // when it has a game in progress.
  function setTable(table) {
    if (sameTable(table, sheet.table)) return;
    sheet = loadSheet({seats: table.seats, sides: [...table.sides]});
    $('sheet-table').textContent = partners(table) ? ''
      : `The games of tables of ${tableText(table)}; a variant of another table has a sheet of its own.`;
    $('sheet-table').hidden = partners(table);
    render();
    const g = game();
    if (g && !(g.scored && g.scored.result.over)) onTotals(totals(g));
  }

  function status(...content) {
    $('sheet-status').replaceChildren(...content);
  }

  // The scores the current game stands at (0-0, or where it started, before its first hand).
  function totals(g) {
    return g.scored ? g.scored.result.scores : g.before || zero(sides());
  }

  function refreshTotals() {
    const g = game();
    onTotals(g && !(g.scored && g.scored.result.over) ? totals(g) : zero(sides()));
  }

  // The game a hand ruled from the scores ``from`` joins: its number, the rules it is scored under (null:
  // the rules on screen), the scores it starts from when it is a new game that does not start at 0-0, and
  // (``left``) the game in progress it does not join because that game stands at other scores.
  function nextGame(from = null) {
    const g = game();
    const start = from && !sameScores(from, zero(sides())) ? from : null;
    if (!g || (g.scored && g.scored.result.over)) return {number: sheet.games.length + 1, name: null, from: start};
    if (!g.hands.length) return {number: sheet.games.length, name: null, from: start};
    if (from && !sameScores(from, totals(g))) {
      return {number: sheet.games.length + 1, name: null, from: start,
        left: {number: sheet.games.length, totals: totals(g)}};
    }
    return {number: sheet.games.length, name: variantName(g.variant), from: null};
  }

  // The ruled hand added to the game it joins (``nextGame``), which is scored again by the service.
  async function addHand(hand, from = zero(sides())) {
    const now = current();
    if (!now) {
      status('Choose the rules before adding a hand.');
      return false;
    }
    const target = nextGame(from);
    let g = game();
    if (target.number > sheet.games.length) {
      g = {variant: now.ref, started: new Date().toISOString(), hands: [], scored: null};
      sheet.games.push(g);
    }
    if (!g.hands.length) {
      g.variant = now.ref;
      if (target.from) g.before = target.from;
      else delete g.before;
    }
    try {
      g.scored = await postJSON('/v1/game', {variant: g.variant, ...gameRequest(g, [...g.hands, hand])});
    } catch (problem) {
      if (!g.hands.length) sheet.games.pop();
      status('Not added: ', problemMessage(problem));
      return false;
    }
    g.hands.push(hand);
    save();
    render();
    refreshTotals();
    const note = variantName(g.variant) !== now.name ? ` (this game is scored under ${variantName(g.variant)}, the rules it started with)` : '';
    status(`Hand ${g.hands.length} added to game ${sheet.games.length}${note}.`);
    return true;
  }

  async function removeLastHand() {
    const g = game();
    g.hands.pop();
    g.scored = g.hands.length ? await postJSON('/v1/game', {variant: g.variant, ...gameRequest(g)}).catch(() => null)
      : null;
    save();
    render();
    refreshTotals();
    status(`Last hand removed from game ${sheet.games.length}.`);
  }

  function newGame() {
    const now = current();
    const g = game();
    if (!now && !g) {
      status('Choose the rules before starting a game.');
      return;
    }
    if (g && !g.hands.length) {
      if (now) g.variant = now.ref;
    } else {
      sheet.games.push({variant: now ? now.ref : g.variant, started: new Date().toISOString(), hands: [], scored: null});
    }
    save();
    render();
    refreshTotals();
    status(`Game ${sheet.games.length} started.`);
  }

  // The same hands under another variant, side by side with the sheet's own scoring.
  async function rescore(g, otherId, out) {
    const mine = variantName(g.variant);
    out.replaceChildren(h('p', {}, `Re-scoring under ${otherId}…`));
    let answer;
    try {
      answer = await postJSON('/v1/compare', {kind: 'game', variants: [g.variant, otherId], input: gameRequest(g)});
    } catch (problem) {
      out.replaceChildren(h('p', {class: 'error'}, problemMessage(problem)));
      return;
    }
    const [a, b] = Object.values(answer.rulings);
    const label = Object.keys(answer.rulings)[1];
    if (b.error) {
      out.replaceChildren(h('p', {class: 'error differs'}, `Under ${label}: `, problemMessage({body: b.error})));
      return;
    }
    const score = (row, team) => `${num(row[team].score)} (${row[team].bags})`;
    const differs = (row, other, team) => !other || row[team].score !== other[team].score
      || row[team].bags !== other[team].bags;
    // Two sides: a column under each book for each. More (players alone): a column per player, the two books'
    // scores one above the other, so the table fits a phone.
    const paired = sides().length <= 2;
    const head = paired ? sides().map((t) => [h('th', {scope: 'col'}, `${t} ${mine}`), h('th', {scope: 'col'}, `${t} ${label}`)])
      : sides().map((t) => h('th', {scope: 'col'}, t));
    const cells = (row, i) => sides().map((t) => (paired
      ? [h('td', {}, score(a.sheet[i], t)), h('td', {class: differs(row, a.sheet[i], t) ? 'differs' : null}, score(row, t))]
      : h('td', {class: differs(row, a.sheet[i], t) ? 'differs' : null}, score(a.sheet[i], t), h('br'),
        h('small', {}, `${label}: ${score(row, t)}`))));
    out.replaceChildren(
      h('table', {class: 'rescore'},
        h('caption', {}, paired ? `Scores (bags) under ${mine} and under ${label}`
          : `Scores (bags) under ${mine}, and under ${label} below them`),
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), head)),
        h('tbody', {}, b.sheet.map((row, i) => h('tr', {}, h('th', {scope: 'row'}, row.hand), cells(row, i))))),
      h('p', {class: answer.agree ? 'agree' : 'differs'}, `Under ${label}: ${resultText(b.result, label)}`));
  }

  function renderGame(g, index) {
    const name = variantName(g.variant);
    const isCurrent = index === sheet.games.length - 1;
    const body = [h('p', {class: g.scored && g.scored.result.over ? 'game over' : 'game'}, resultText(g.scored && g.scored.result, name))];
    if (g.hands.length) body.push(h('p', {class: 'hint scored-under'}, `Every hand of this game is scored under ${name}.`));
    if (g.before) body.push(h('p', {class: 'hint started-from'}, `This game started from ${scoresText(g.before)}.`));
    if (g.scored) {
      body.push(h('table', {class: 'sheet'},
        h('caption', {class: 'visually-hidden'}, `Game ${index + 1}, hand by hand`),
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), sides().map((t) => h('th', {scope: 'col'}, sideName(t))))),
        h('tbody', {}, g.scored.sheet.map((row, i) => h('tr', {}, h('th', {scope: 'row'}, row.hand),
          sides().map((t) => teamCell(row, g.hands[i], t)))))));
    }
    const actions = h('div', {class: 'actions'});
    if (isCurrent && g.hands.length) {
      const remove = h('button', {type: 'button'}, 'Remove last hand');
      remove.addEventListener('click', removeLastHand);
      actions.append(remove);
    }
    const choices = others().filter((id) => id !== name);
    if (g.hands.length && choices.length) {
      const out = h('div', {class: 'rescored', 'aria-live': 'polite'});
      const select = h('select', {id: `rescore-${index}`, 'data-enter': `rescore-${index}-go`},
        choices.map((id) => h('option', {}, id)));
      const go = h('button', {type: 'button', id: `rescore-${index}-go`}, 'Re-score');
      go.addEventListener('click', () => rescore(g, select.value, out));
      actions.append(h('label', {for: select.id}, 'Re-score under'), select, go);
      body.push(actions, out);
    } else if (g.hands.length) {
      body.push(actions, h('p', {class: 'hint no-rescore'}, `No other bundled rule book is played at a table of `
        + `${tableText(sheet.table)}, so this game cannot be re-scored under another.`));
    } else {
      body.push(actions);
    }
    const title = `Game ${index + 1} · ${name}`;
    if (isCurrent) return h('article', {class: 'sheet-game', 'aria-label': title}, h('h3', {}, title), body);
    return h('details', {class: 'sheet-game'}, h('summary', {}, title), body);
  }

  function render() {
    const games = sheet.games.map(renderGame).reverse();
    $('sheet').replaceChildren(...(games.length ? games : [h('p', {class: 'hint'}, 'No hands yet: rule on a hand, then add it here.')]));
    onRender();
  }

  function exportSheet() {
    const blob = new Blob([JSON.stringify(sheet, null, 2)], {type: 'application/json'});
    const link = h('a', {href: URL.createObjectURL(blob), download: `spades-score-sheet-${new Date().toISOString().slice(0, 10)}.json`});
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(link.href);
    status(`Exported ${sheet.games.length} game(s).`);
  }

  async function importSheet(file) {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      status(`${file.name} is not JSON.`);
      return;
    }
    if (!validSheet(data)) {
      status(`${file.name} is not a score sheet exported from this page.`);
      return;
    }
    const table = data.table || FOUR;
    if (!sameTable(table, sheet.table)) {
      status(`${file.name} is the score sheet of a table of ${tableText(table)}, and the rules on screen are `
        + `played at a table of ${tableText(sheet.table)}: choose a variant of its table to import it.`);
      return;
    }
    if (sheet.games.some((g) => g.hands.length)
        && !window.confirm('Replace the score sheet in this browser with the imported one?')) return;
    for (const g of data.games) {
      g.scored = g.hands.length ? await postJSON('/v1/game', {variant: g.variant, ...gameRequest(g)}).catch(() => null)
        : null;
    }
    sheet = {...data, table: sheet.table};
    save();
    render();
    refreshTotals();
    const hands = sheet.games.reduce((n, g) => n + g.hands.length, 0);
    status(`Imported ${sheet.games.length} game(s), ${hands} hand(s), from ${file.name}.`);
  }

  $('new-game').addEventListener('click', newGame);
  $('export').addEventListener('click', exportSheet);
  $('import').addEventListener('change', (event) => {
    const [file] = event.target.files;
    if (file) importSheet(file).finally(() => { event.target.value = ''; });
  });
  render();
  refreshTotals();
  return {addHand, nextGame, refreshTotals, render, setTable};
}
