// House-rule YAML edited line by line, so that a choice made by tapping changes only its own rule and
// whatever else was typed into the file (comments, notes, tests, other rules) stays as it was.

export const STARTER = `id: our-table
title: Our table's rules
extends: standard
source: {doc: house, title: Our table}
rules:
`;

const TOP = /^rules:\s*(\{\s*\})?\s*(#.*)?$/;

// A rule's value as a YAML scalar: plain where that is safe, else a double-quoted (JSON) string.
function scalar(text) {
  const plain = /^[\w\s.<>=+\-*()!§@]+$/u.test(text) && !/^[\s\-?]/.test(text.replace(/^-(?=\d)/, '0'))
    && !/\s$/.test(text);
  return plain ? text : JSON.stringify(text);
}

function indent(line) {
  return line.length - line.trimStart().length;
}

// The lines [from, to) of the rules: block's entry for ``rule`` (its first line and every line indented
// deeper), or null.
function entry(lines, start, end, rule) {
  const head = new RegExp(`^(\\s+)${rule.replace(/[.]/g, '\\.')}\\s*:`);
  for (let i = start + 1; i < end; i++) {
    const m = head.exec(lines[i]);
    if (!m) continue;
    let j = i + 1;
    while (j < end && (lines[j].trim() === '' ? j + 1 < end && indent(lines[j + 1]) > m[1].length
      : indent(lines[j]) > m[1].length)) j++;
    return [i, j];
  }
  return null;
}

// The end of the rules: block that starts at ``start``: the first line after it at the top level.
function blockEnd(lines, start) {
  let end = start + 1;
  while (end < lines.length && (lines[end].trim() === '' || indent(lines[end]) > 0)) end++;
  while (end > start + 1 && lines[end - 1].trim() === '') end--;   // trailing blank lines stay outside
  return end;
}

/** The YAML with each rule of ``changes`` (name → text, or null: inherited, its line removed) written at
 * its place in the ``rules:`` block, cited ``cite`` (``house §Nil``). */
export function withRules(yaml, changes, cite) {
  const lines = (yaml.endsWith('\n') ? yaml.slice(0, -1) : yaml).split('\n');
  let start = lines.findIndex((line) => TOP.test(line));
  if (start < 0) {
    lines.push('rules:');
    start = lines.length - 1;
  }
  lines[start] = 'rules:';
  for (const [rule, text] of Object.entries(changes)) {
    const end = blockEnd(lines, start);
    const found = entry(lines, start, end, rule);
    const written = text === null ? [] : [`  ${rule}: ${scalar(`${text} @ ${cite}`)}`];
    if (found) lines.splice(found[0], found[1] - found[0], ...written);
    else lines.splice(end, 0, ...written);
  }
  return `${lines.join('\n')}\n`;
}

/** The YAML with its ``extends:`` line naming ``base``. */
export function withBase(yaml, base) {
  return /^extends:.*$/m.test(yaml) ? yaml.replace(/^extends:.*$/m, `extends: ${base}`)
    : yaml.replace(/^(id:.*\n)/m, `$1extends: ${base}\n`);
}
