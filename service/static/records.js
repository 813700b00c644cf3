// The "check a record" panel: paste or open a game record (Trickster PTN, PBN, or this project's JSON lines),
// have each hand replayed under the rules (POST /v1/audit) or reviewed card by card (POST /v1/review).
// It adds its own section to the page and talks to the JSON API directly.

import {Problem, clause, getJSON, h, num, postJSON, prettyCards, showAnswer, signed} from './api.js';

// examples/records/renege.pbn and the first hand of examples/records/jokers-deuces.ptn, written by this
// project (tests/test_records_page.py keeps them the same as the files)
const EXAMPLES = {
  renege: `[Event "spades-rulespec example: East does not follow suit at trick 5"]
[Dealer "N"]
[Deal "N:AQ63.K642.AT9.J7 J8..KQ8653.Q9642 KT954.AQJ53.72.3 72.T987.J4.AKT85"]
[Variant "standard"]
[Auction "E"]
3 3 2 4
[Play "E"]
D6 D7 DJ DA
D5 D2 D4 DT
C9 C3 C8 C7
C4 ST C5 CJ
DK S9 S2 S3
D3 H5 H7 H2
C2 SK CK S6
S8 HA H9 H6
CQ S5 CT HK
SJ S4 S7 SQ
D8 HJ HT SA
DQ HQ CA D9
C6 H3 H8 H4
`,
  jokers: `[Event "spades-rulespec example: 2v2 Joker-Joker-Deuce-Deuce to 500, -10x bid if set, min bid 4, 10-for-200, no Nil (simulated, seed 4)"]
[GameCode "Spades"]
[GameOptionsJson "{\\"variation\\":3,\\"failBidScoring\\":1,\\"minBid\\":4,\\"tenForTwoHundred\\":true,\\"nilOrZero\\":1}"]
[GameScores "S:-80 60 -80 60"]
[Dealer "N"]
[Deal "N:AJ92.T9863.96.KJ K85.75.Q53.Q875.H QT.K.AKJT84.AT6.L 7643.AQJ4.72.943"]
[Auction "E"]
3 3 3 5
[Play "E"]
C7 C6 C9 CJ
H7 HK HQ H8
C8 CA C4 CK
D5 DJ D7 D9
DQ D8 C3 D6
C5 CT S7 H9
H5 DK HJ HT
S8 JL D2 S2
D3 D4 S4 H3
CQ DT H4 H6
S5 SQ S3 S9
SK ST S6 SJ
JH DA HA SA
`,
};

const CHOSEN = {given: 'as you chose', options: "the record's own options", named: 'the variant the record names',
                default: 'the record names no rules'};

function field(id, label, input, hint) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), input, hint || null);
}

function panel() {
  return h('section', {id: 'record-section', 'aria-labelledby': 'record-h'},
    h('h2', {id: 'record-h'}, 'Check a record'),
    h('p', {class: 'hint', id: 'record-help'}, 'Paste the game record a site gave you (Trickster PTN, PBN, or ',
      'this tool\'s JSON lines), or open the file. Each hand is replayed under the rules: the first card ',
      'they do not allow, who won each trick, each hand\'s score, and where the site scored it otherwise.'),
    h('form', {id: 'record-form', novalidate: true},
      field('record-text', 'Game record', h('textarea', {id: 'record-text', rows: '8', spellcheck: 'false',
        autocapitalize: 'off', 'aria-describedby': 'record-help'})),
      h('div', {class: 'actions'},
        h('input', {type: 'file', id: 'record-file', class: 'visually-hidden', accept: '.ptn,.pbn,.json,.jsonl,.txt'}),
        h('label', {class: 'button', for: 'record-file'}, 'Open a file'),
        h('button', {type: 'button', id: 'record-example-renege'}, 'Example: a renege'),
        h('button', {type: 'button', id: 'record-example-jokers'}, 'Example: jokers')),
      field('record-variant', 'Rules to judge it by',
            h('select', {id: 'record-variant'}, h('option', {value: ''}, "The record's own rules"))),
      h('div', {class: 'actions'},
        h('button', {type: 'submit', class: 'primary'}, 'Check the record'),
        h('button', {type: 'button', id: 'record-review'}, 'Review card by card')),
      h('div', {id: 'record-answer', class: 'answer', 'aria-live': 'polite', tabindex: '-1'})));
}

function place(p) {
  return [p.line ? `line ${p.line}` : '', p.tag ? `[${p.tag}]` : '', p.path || ''].filter(Boolean).join(' ');
}

function problems(list) {
  if (!list.length) return null;
  return h('ul', {class: 'error record-problems'}, list.map((p) => h('li', {}, `${place(p)}: ${p.message}`)));
}

function variants(list) {
  return list.map((v) => {
    const base = typeof v.variant === 'object' ? `, on ${v.variant.extends}` : '';
    const unmapped = (v.options || []).filter((o) => !o.mapped);
    return h('div', {class: 'record-variant'},
      h('p', {}, 'Judged under ', h('strong', {}, v.id), ` (${CHOSEN[v.chosen]}${base})`),
      unmapped.length ? h('details', {}, h('summary', {}, `${unmapped.length} option(s) not mapped onto the rules`),
        h('ul', {}, unmapped.map((o) => h('li', {}, h('code', {}, `${o.option}=${JSON.stringify(o.value)}`),
          `: ${o.why}`)))) : null);
  });
}

function irregular(found) {
  if (!found) return h('p', {class: 'agree'}, 'Every card follows the rules.');
  const what = found.why || `${found.seat} ${prettyCards(found.card)}: ${found.what}`;
  const rule = found.rule ? [' ', clause({rule: found.rule, cite: found.cite})] : [];
  return h('p', {class: 'verdict differs record-irregular'},
    `First irregularity${found.line ? ` (line ${found.line})` : ''}: `, prettyCards(what), ` — ${found.ruling}`, rule);
}

function score(hand) {
  if (!hand.score) return h('p', {class: 'hint'}, hand.running_note || 'not scored');
  const teams = Object.entries(hand.score).map(([t, s]) => `${t} ${signed(s.points)} → ${num(s.score)} (bags ${s.bags})`);
  const platform = hand.platform.checked
    ? `The record scores it ${Object.entries(hand.platform.points).map(([t, p]) => `${t} ${signed(p)}`).join(', ')}.`
    : `Not checked against the record: ${hand.platform.how}.`;
  return [h('p', {class: 'record-score'}, teams.join(' · ')), h('p', {class: 'hint'}, platform),
    hand.differences.length ? h('ul', {class: 'differs'}, hand.differences.map((d) => h('li', {},
      `${d.team}: the record ${signed(d.platform)}, the rules ${signed(d.rule_book)}. ${d.decided_by.why}: `,
      d.decided_by.lines.map((ln) => [clause(ln), ` ${signed(ln.points)} `])))) : null,
    h('p', {class: `game${hand.game.over ? ' over' : ''}`},
      hand.game.over ? `Game over: ${hand.game.winner || 'nobody'} wins (${hand.game.reason}).` : 'The game goes on.')];
}

function tricks(list) {
  return h('details', {}, h('summary', {}, `The ${list.length} tricks as replayed`),
    h('ol', {class: 'steps'}, list.map((t) => h('li', {},
      prettyCards(t.cards.map((c) => `${c.seat} ${c.card}`).join(', ')), t.winner ? ` → ${t.winner}` : ''))));
}

function auditHand(hand) {
  const head = `Hand ${hand.hand}${hand.line ? ` (line ${hand.line})` : ''}`;
  if (hand.problem) {
    return h('div', {class: 'ruling'}, h('h3', {}, `${head}: not replayed`),
      h('p', {class: 'error'}, `${place(hand.problem)}: ${hand.problem.message}`));
  }
  const bids = Object.entries(hand.bids).map(([s, b]) => `${s} ${b}`).join(', ');
  return h('div', {class: 'ruling record-hand'}, h('h3', {}, head, ' ', h('small', {}, `dealer ${hand.dealer}; bids ${bids}`)),
    irregular(hand.first_irregular), score(hand), tricks(hand.tricks));
}

function showAudit(out, body) {
  const s = body.summary;
  out.replaceChildren(h('div', {},
    h('p', {class: 'summary record-summary'}, `${s.hands} hand(s): ${s.irregular} with an irregular card, `,
      `${s.not_replayed} not replayed, ${s.score_differs} scored otherwise by the record `,
      `(${s.checked_against_platform} checked against its scores).`),
    problems(body.record.problems), variants(body.variants), body.hands.map(auditHand)));
}

function reviewHand(hand) {
  const head = `Hand ${hand.hand}`;
  if (hand.problem) return h('div', {class: 'ruling'}, h('h3', {}, `${head}: not reviewed`),
    h('p', {class: 'error'}, hand.problem.message));
  const reach = hand.complete ? 'every card' : hand.reviewed_from ? `from trick ${hand.reviewed_from} on (the search budget ran out)` : 'no card';
  const costly = hand.costly.map((f) => h('li', {}, prettyCards(f.text),
    h('details', {}, h('summary', {}, 'The position, as a /v1/solve body'),
      h('pre', {}, JSON.stringify(f.position, null, 1)))));
  return h('div', {class: 'ruling record-review'}, h('h3', {}, `${head}: reviewed ${reach}`),
    hand.stopped ? h('p', {class: 'error'}, prettyCards(hand.stopped.why)) : null,
    costly.length ? h('ul', {class: 'record-costly'}, costly) : h('p', {class: 'agree'}, 'No card reviewed cost a trick.'),
    (hand.nils || []).length ? h('ul', {}, hand.nils.map((n) => h('li', {}, prettyCards(n.text)))) : null);
}

function request() {
  const body = {record: document.getElementById('record-text').value};
  const variant = document.getElementById('record-variant').value;
  return variant ? {...body, variant} : body;
}

// The record's box marked as refused (tied to the refusal's text) or not.
function markRecord(refusal) {
  const box = document.getElementById('record-text');
  box.setAttribute('aria-invalid', String(Boolean(refusal)));
  box.setAttribute('aria-describedby', refusal ? `record-help ${refusal.id}` : 'record-help');
}

// An answer or a refusal, scrolled to the top of the view and focused, as every answer on the page.
async function send(path, show) {
  const out = document.getElementById('record-answer');
  out.replaceChildren(h('p', {class: 'hint'}, path.endsWith('review') ? 'reviewing…' : 'checking…'));
  try {
    show(out, await postJSON(path, request()));
    markRecord(null);
  } catch (err) {
    const body = err instanceof Problem ? err.body : {detail: String(err)};
    const refusal = h('p', {class: 'error record-refused', id: 'record-refusal', role: 'alert'},
      `${body.field ? `${body.field}: ` : ''}${prettyCards(String(body.detail || 'the record could not be read'))}`);
    out.replaceChildren(refusal);
    markRecord(body.field === 'record' ? refusal : null);
  }
  showAnswer(out);
}

async function loadVariants() {
  const select = document.getElementById('record-variant');
  try {
    const body = await getJSON('/v1/variants');
    select.append(...body.variants.filter((v) => !v.problems).map((v) => h('option', {value: v.id}, v.id)));
  } catch {
    select.append(h('option', {value: 'standard'}, 'standard'));
  }
}

function openFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { document.getElementById('record-text').value = reader.result; };
  reader.readAsText(file);
}

function start() {
  const main = document.querySelector('main') || document.body;
  main.append(panel());
  document.getElementById('record-form').addEventListener('submit', (event) => {
    event.preventDefault();
    send('/v1/audit', showAudit);
  });
  document.getElementById('record-review').addEventListener('click', () => send('/v1/review', (out, body) => {
    out.replaceChildren(h('div', {}, problems(body.record.problems), variants(body.variants),
                          body.hands.map(reviewHand)));
  }));
  for (const name of Object.keys(EXAMPLES)) {
    document.getElementById(`record-example-${name}`).addEventListener('click', () => {
      document.getElementById('record-text').value = EXAMPLES[name];
    });
  }
  document.getElementById('record-file').addEventListener('change', openFile);
  loadVariants();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
