// The evening's score sheet: games of hands kept in localStorage, scored by the service
// (POST /v1/game), exported and imported as JSON, re-scored under another variant.
import {SEATS, TEAMS, h, num, postJSON, problemMessage, signed, variantName} from './api.js';

const KEY = 'spades-rulespec.sheet';
const FORMAT = 'spades-rulespec-sheet';

const $ = (id) => document.getElementById(id);

function emptySheet() {
  return {format: FORMAT, version: 1, games: []};
}

function validSheet(data) {
  return Boolean(data) && data.format === FORMAT && Array.isArray(data.games) && data.games.every((g) => g
    && (typeof g.variant === 'string' || (typeof g.variant === 'object' && g.variant !== null))
    && Array.isArray(g.hands) && (g.before === undefined || (typeof g.before === 'object' && g.before !== null)));
}

const ZERO = {NS: {score: 0, bags: 0}, EW: {score: 0, bags: 0}};

function sameScores(a, b) {
  return TEAMS.every((t) => a[t].score === b[t].score && a[t].bags === b[t].bags);
}

// "NS 100 · EW −180 (2 bags)": both sides' scores, and bags where a side has some.
export function scoresText(scores) {
  return TEAMS.map((t) => `${t} ${num(scores[t].score)}${scores[t].bags ? ` (${bags(scores[t].bags)})` : ''}`).join(' · ');
}

// A game's request: its hands, and the scores it started from when not 0-0.
function gameRequest(g, hands = g.hands) {
  return g.before ? {hands, before: g.before} : {hands};
}

function loadSheet() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY));
    return validSheet(data) ? data : emptySheet();
  } catch {
    return emptySheet();
  }
}

// "N nil (1) · S 4 (4)": a team's bids with the tricks each seat took.
function seatsLine(hand, team) {
  return SEATS.filter((_, i) => i % 2 === TEAMS.indexOf(team))
    .map((s) => `${s} ${hand.bids[s]} (${hand.tricks[s]})`).join(' · ');
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
  const totals = TEAMS.map((t) => `${t} ${num(result.scores[t].score)} (${bags(result.scores[t].bags)})`).join(', ');
  return result.over ? `Game over after ${result.after_hand} hand(s): ${result.winner} won. ${totals}.`
    : `After ${result.after_hand} hand(s): ${totals}.`;
}

export function setupSheet({current, others, onTotals, onRender}) {
  let sheet = loadSheet();
  const game = () => sheet.games[sheet.games.length - 1];

  function save() {
    localStorage.setItem(KEY, JSON.stringify(sheet));
  }

  function status(...content) {
    $('sheet-status').replaceChildren(...content);
  }

  // The scores the current game stands at (0-0, or where it started, before its first hand).
  function totals(g) {
    return g.scored ? g.scored.result.scores : g.before || ZERO;
  }

  function refreshTotals() {
    const g = game();
    onTotals(g && !(g.scored && g.scored.result.over) ? totals(g) : ZERO);
  }

  // The game a hand ruled from the scores ``from`` joins: its number, the rules it is scored under (null:
  // the rules on screen), the scores it starts from when it is a new game that does not start at 0-0, and
  // (``left``) the game in progress it does not join because that game stands at other scores.
  function nextGame(from = null) {
    const g = game();
    const start = from && !sameScores(from, ZERO) ? from : null;
    if (!g || (g.scored && g.scored.result.over)) return {number: sheet.games.length + 1, name: null, from: start};
    if (!g.hands.length) return {number: sheet.games.length, name: null, from: start};
    if (from && !sameScores(from, totals(g))) {
      return {number: sheet.games.length + 1, name: null, from: start,
        left: {number: sheet.games.length, totals: totals(g)}};
    }
    return {number: sheet.games.length, name: variantName(g.variant), from: null};
  }

  // The ruled hand added to the game it joins (``nextGame``), which is scored again by the service.
  async function addHand(hand, from = ZERO) {
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
    if (g && !g.hands.length) {
      if (now) g.variant = now.ref;
    } else {
      sheet.games.push({variant: now ? now.ref : 'standard', started: new Date().toISOString(), hands: [], scored: null});
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
    const cell = (row, other, team) => {
      const differs = !other || row[team].score !== other[team].score || row[team].bags !== other[team].bags;
      return h('td', {class: differs ? 'differs' : null}, `${num(row[team].score)} (${row[team].bags})`);
    };
    out.replaceChildren(
      h('table', {class: 'rescore'},
        h('caption', {}, `Scores (bags) under ${mine} and under ${label}`),
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'),
          TEAMS.map((t) => [h('th', {scope: 'col'}, `${t} ${mine}`), h('th', {scope: 'col'}, `${t} ${label}`)]))),
        h('tbody', {}, b.sheet.map((row, i) => h('tr', {}, h('th', {scope: 'row'}, row.hand),
          TEAMS.map((t) => [h('td', {}, `${num(a.sheet[i][t].score)} (${a.sheet[i][t].bags})`), cell(row, a.sheet[i], t)]))))),
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
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), TEAMS.map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, g.scored.sheet.map((row, i) => h('tr', {}, h('th', {scope: 'row'}, row.hand),
          TEAMS.map((t) => teamCell(row, g.hands[i], t)))))));
    }
    const actions = h('div', {class: 'actions'});
    if (isCurrent && g.hands.length) {
      const remove = h('button', {type: 'button'}, 'Remove last hand');
      remove.addEventListener('click', removeLastHand);
      actions.append(remove);
    }
    if (g.hands.length) {
      const out = h('div', {class: 'rescored', 'aria-live': 'polite'});
      const select = h('select', {id: `rescore-${index}`, 'data-enter': `rescore-${index}-go`},
        others().filter((id) => id !== name).map((id) => h('option', {}, id)));
      const go = h('button', {type: 'button', id: `rescore-${index}-go`}, 'Re-score');
      go.addEventListener('click', () => rescore(g, select.value, out));
      actions.append(h('label', {for: select.id}, 'Re-score under'), select, go);
      body.push(actions, out);
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
    if (sheet.games.some((g) => g.hands.length)
        && !window.confirm('Replace the score sheet in this browser with the imported one?')) return;
    for (const g of data.games) {
      g.scored = g.hands.length ? await postJSON('/v1/game', {variant: g.variant, ...gameRequest(g)}).catch(() => null)
        : null;
    }
    sheet = data;
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
  return {addHand, nextGame, refreshTotals, render};
}
