// "Make house rules by tapping": a form generated from the rule slots of the variant a house rule
// starts from (GET /v1/variants/<id>: each rule's type, options, choices and text), the rules tables
// change most first. Each choice writes its rule's line into the YAML (house-yaml.js); the YAML, once
// checked, sets the form (sync), so typing in the YAML and tapping in the form stay one set of rules.
import {getJSON, h} from './api.js';
import {withBase, withRules} from './house-yaml.js';

const TRUMPS_FIRST = 'if trump_broken or hand.only(trump.suit) then hand else hand - trump.suit';
const JOKER_SUIT = 'if card == BJ or card == LJ or card == 2D then spades else card.natural_suit';
const JOKER_POWER = 'if card == BJ then 19 else if card == LJ then 18 else if card == 2D then 17 '
  + 'else if card == 2S then 16 else card.rank';

// The rules tables change most, grouped as a player thinks of them. A preset is [words, text] (``{n}``:
// a number the player types) or [words, {rule: text, ...}] for choices that set several rules at once.
const COMMON = [
  {legend: 'Nil and blind nil', section: 'Nil', items: [
    {rule: 'nil.allowed', label: 'Nil may be bid'},
    {rule: 'nil.made', label: 'A nil made scores'},
    {rule: 'nil.failed', label: 'A failed nil scores'},
    {rule: 'blind_nil.allowed', label: 'Blind nil (bid before seeing the cards)', presets: [
      ['not allowed', 'false'], ['allowed at any score', 'true'],
      ['only when behind by at least', 'opponents.score - team.score >= {n}', 100]]},
    {rule: 'blind_nil.made', label: 'A blind nil made scores'},
    {rule: 'blind_nil.failed', label: 'A failed blind nil scores'},
    {rule: 'nil.exchange', label: 'After the bids, a nil bidder and a partner who bid a number swap', presets: [
      ['no cards', '0'], ['one card', '1'], ['two cards', '2'], ['four cards', '4']]},
  ]},
  {legend: 'Bags and overtricks', section: 'Bags', items: [
    {rule: 'scoring.overtrick_points', label: 'Each overtrick (a trick won beyond the bid) scores'},
    {rule: 'bags.limit', label: 'Bags that bring the penalty (0: no penalty)'},
    {rule: 'bags.penalty', label: 'The bag penalty'},
    {rule: 'bags.carry', label: 'Bags beyond the limit carry over'},
    {rule: 'nil.tricks_count', label: "A nil bidder's tricks count toward the partner's bid"},
    {rule: 'nil.tricks_bags', label: "A failed nil bidder's tricks count as bags"},
  ]},
  {legend: 'The end of the game', section: 'Game', items: [
    {rule: 'game.target', label: 'The game is played to'},
    {rule: 'game.target_reached', label: 'A side wins on', presets: [
      ['reaching the target', 'high.score >= game.target'], ['going over the target', 'high.score > game.target']]},
    {rule: 'game.mercy', label: 'The game also ends', presets: [
      ['only on the target', 'false'], ['when a side falls to', 'low.score <= {n}', -200],
      ['when a side leads by', 'lead >= {n}', 500]]},
  ]},
  {legend: 'Leading spades', section: 'Leading', items: [
    {rule: 'play.lead', label: 'Spades may be led', presets: [
      ['once broken, or by a player holding only spades', TRUMPS_FIRST], ['at any time', 'hand']]},
  ]},
  {legend: 'The pack', section: 'Pack', items: [
    {rules: ['deck.cards', 'card.suit', 'card.power'], label: 'Play with', presets: [
      ['52 cards, no jokers', {'deck.cards': 'all_cards - jokers', 'card.suit': 'card.natural_suit', 'card.power': 'card.rank'}],
      ['jokers and deuces high: big joker, little joker, 2♦ and 2♠ above the A♠ (2♣ and 2♥ out)',
        {'deck.cards': 'all_cards - {2C, 2H}', 'card.suit': JOKER_SUIT, 'card.power': JOKER_POWER}]]},
  ]},
];

const norm = (text) => String(text).replace(/\s+/g, ' ').trim();
const slug = (rule) => rule.replace(/[^\w]/g, '-');

// A preset's text with its number, and whether a rule text is that preset (the number it holds).
function presetText(preset, n) {
  return typeof preset[1] === 'string' ? preset[1].replace('{n}', n) : preset[1];
}

function matchPreset(preset, rule, texts) {
  if (typeof preset[1] !== 'string') {
    return Object.entries(preset[1]).every(([name, text]) => norm(texts[name]) === norm(text)) ? {} : null;
  }
  const escaped = norm(preset[1]).replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^${escaped.replace('{n}', '(-?\\d+)')}$`).exec(norm(texts[rule]));
  return m ? {n: m[1]} : null;
}

export function setupHouseForm({form, yamlBox, bundled, onEdit}) {
  let base = null;            // the detail of the variant the house rule starts from
  let doc = 'house';          // the house rule's source document, which every citation names
  const controls = [];        // {rules: [...], read(): {rule: text}, set(texts)}

  // One rule's or one preset group's control, from the slot's type, options and choices.
  function control(item, section) {
    const rules = item.rules || [item.rule];
    const slot = base.rules.find((r) => r.name === rules[0]);
    if (!slot) return null;
    const id = `hf-${slug(rules[0])}`;
    const write = (texts) => onEdit(withRules(yamlBox.value, Object.fromEntries(Object.entries(texts).map(
      ([rule, text]) => [rule, norm(text) === norm(baseText(rule)) ? null : text])), `${doc} §${section}`));
    const label = item.label || `${rules[0]}: ${slot.doc}`;
    if (item.presets) return presetControl(item, rules, id, label, write);
    let input;
    if (slot.type === 'boolean' || slot.options.length) {
      const options = slot.options.length ? slot.options.map((o) => [o, o]) : [['true', 'yes'], ['false', 'no']];
      input = h('select', {id}, options.map(([v, words]) => h('option', {value: v}, words)));
    } else if (slot.choices && slot.choices.length) {
      input = h('select', {id}, slot.choices.map((c) => h('option', {value: String(c)}, String(c))));
    } else {
      input = h('input', {id, type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off'});
    }
    const field = h('div', {class: 'field'}, h('label', {for: id}, label), input);
    const extra = (text) => {   // a value the list does not offer: shown as it is written
      for (const option of input.querySelectorAll('option.written')) option.remove();
      if (input.tagName === 'SELECT' && ![...input.options].some((o) => norm(o.value) === norm(text))) {
        const same = base.rules.some((r) => r.name === norm(text));
        input.append(h('option', {value: text, class: 'written'}, same ? `the same as ${text}` : `as written: ${text}`));
      }
    };
    input.addEventListener('change', () => write({[rules[0]]: input.value.trim() || baseText(rules[0])}));
    controls.push({rules, set(texts) {
      if (field.contains(document.activeElement)) return;   // not while the player is changing it
      extra(texts[rules[0]]);
      input.value = input.tagName === 'SELECT' ? [...input.options].find((o) => norm(o.value) === norm(texts[rules[0]])).value
        : texts[rules[0]];
    }});
    return field;
  }

  function presetControl(item, rules, id, label, write) {
    const select = h('select', {id}, item.presets.map((p, i) => h('option', {value: String(i)},
      p[1].includes?.('{n}') ? `${p[0]} …` : p[0])));
    const number = h('input', {id: `${id}-n`, type: 'text', inputmode: 'numeric', autocomplete: 'off'});
    const numberLabel = h('label', {for: number.id});
    const numberRow = h('div', {class: 'preset', hidden: true}, numberLabel, number);
    const takesNumber = (i) => typeof item.presets[i]?.[1] === 'string' && item.presets[i][1].includes('{n}');
    const texts = () => {
      const preset = item.presets[Number(select.value)];
      if (!preset) return null;
      const text = presetText(preset, number.value.trim() || preset[2]);
      return typeof text === 'string' ? {[rules[0]]: text} : text;
    };
    const showNumber = () => {
      const i = Number(select.value);
      numberRow.hidden = !takesNumber(i);
      if (!numberRow.hidden) numberLabel.textContent = `${label} ${item.presets[i][0]}`;
    };
    select.addEventListener('change', () => {
      const i = Number(select.value);
      if (takesNumber(i) && !/^-?\d+$/.test(number.value.trim())) number.value = item.presets[i][2];
      showNumber();
      if (texts()) write(texts());
    });
    number.addEventListener('change', () => {
      const valid = /^-?\d+$/.test(number.value.trim());
      number.setAttribute('aria-invalid', String(!valid));
      if (valid) write(texts());
    });
    const field = h('div', {class: 'field wide'}, h('label', {for: id}, label), select, numberRow);
    controls.push({rules, set(all) {
      if (field.contains(document.activeElement)) return;   // not while the player is changing it
      for (const option of select.querySelectorAll('option.written')) option.remove();
      const found = item.presets.map((p) => matchPreset(p, rules[0], all));
      const i = found.findIndex(Boolean);
      if (i >= 0) {
        select.value = String(i);
        if (found[i].n !== undefined) number.value = found[i].n;
      } else {
        const text = rules.map((r) => all[r]).join('; ');
        select.append(h('option', {value: 'written', class: 'written'}, `as written: ${text}`));
        select.value = 'written';
      }
      showNumber();
    }});
    return field;
  }

  function baseText(rule) {
    const found = base.rules.find((r) => r.name === rule);
    return found ? found.text : '';
  }

  function build() {
    controls.length = 0;
    const start = h('select', {id: 'hf-extends'}, bundled().map((v) => h('option', {value: v.id}, v.id)));
    start.value = base.id;
    start.addEventListener('change', () => onEdit(withBase(yamlBox.value, start.value)));
    const covered = new Set(COMMON.flatMap((g) => g.items.flatMap((i) => i.rules || [i.rule])));
    const others = base.rules.filter((r) => !covered.has(r.name) && !r.parameter);
    form.replaceChildren(
      h('div', {class: 'field'}, h('label', {for: 'hf-extends'}, 'Start from the rules of'), start),
      ...COMMON.map((group) => h('fieldset', {}, h('legend', {}, group.legend),
        h('div', {class: 'hf-grid'}, group.items.map((item) => control(item, group.section))))),
      h('details', {class: 'others'}, h('summary', {}, `Every other rule (${others.length})`),
        h('p', {class: 'hint'}, 'Numbers, yes or no, or a rule written in the rules language (see /api).'),
        others.map((r) => control({rule: r.name}, 'Rules'))));
  }

  async function useBase(id) {
    if (base && base.id === id) return;
    base = await getJSON(`/v1/variants/${encodeURIComponent(id)}`);
    build();
  }

  // The form set from a checked house rule: its base, its source document and every rule's text.
  async function sync(detail) {
    doc = detail.doc || 'house';
    await useBase(detail.extends || 'standard');
    const texts = Object.fromEntries(detail.rules.map((r) => [r.name, r.text]));
    for (const c of controls) c.set(texts);
  }

  return {sync, useBase};
}
