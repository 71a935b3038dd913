// Copies non-TypeScript runtime assets (the Ohm grammar) next to the compiled JavaScript.
const fs = require('fs');
const path = require('path');
const root = path.join(__dirname, '..');
for (const rel of ['syntax/pto.ohm']) {
  const from = path.join(root, 'src', rel);
  const to = path.join(root, 'dist', rel);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}
