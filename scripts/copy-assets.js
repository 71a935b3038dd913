// Copies the Ohm grammar next to the compiled JavaScript, with a precompiled recipe of it:
// loading the recipe takes milliseconds where compiling the grammar text takes a quarter second,
// which every run of the command-line tools would pay. The recipe records a hash of the grammar
// text it came from; src/syntax/grammar.ts ignores a recipe that does not match.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const ohm = require('ohm-js');
const root = path.join(__dirname, '..');
const from = path.join(root, 'src', 'syntax', 'pto.ohm');
const to = path.join(root, 'dist', 'syntax', 'pto.ohm');
fs.mkdirSync(path.dirname(to), { recursive: true });
const text = fs.readFileSync(from, 'utf8');
fs.writeFileSync(to, text);
// The grammar as src/syntax/grammar.ts compiles it (with its derived statement rules); tsc has built it already.
const source = require(path.join(root, 'dist', 'syntax', 'grammar.js')).grammarSource(text);
const hash = crypto.createHash('sha256').update(source).digest('hex');
const recipe = withoutSource(JSON.parse(ohm.grammar(source).toRecipe()));
fs.writeFileSync(path.join(root, 'dist', 'syntax', 'pto.ohm.recipe.json'), JSON.stringify({ hash, recipe }));

/**
 * The recipe without the grammar's text and each expression's place in it (every node's metadata, its second
 * element), which cost a third of its loading: Ohm reads them only to word errors in the grammar itself (this one
 * compiled above) and in traces, not in match failures.
 */
function withoutSource(node) {
  if (Array.isArray(node)) return node.map((item, i) => (i === 1 && typeof node[0] === 'string' && isObject(item) ? {} : withoutSource(item)));
  if (isObject(node)) return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutSource(value)]));
  return node;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
