// The command line the suite scripts share (tilelang-suite.js, vpto-suite.js): PTOAS_EXPORT [NAME...] and options,
// checked before any work (a usage error exits 2), and the built module the script runs.
'use strict';
const fs = require('fs');
const path = require('path');

/**
 * `valueOptions` take a value (`--jobs N`), `flags` none. Returns the export's root, the names after it, and the
 * options by name (without their dashes). `--write-exceptions` needs the whole suite, so no names.
 */
function suiteCommandLine(usage, valueOptions, flags) {
  const args = process.argv.slice(2);
  const options = {};
  for (const name of valueOptions) {
    const at = args.indexOf(name);
    if (at >= 0) options[name.slice(2)] = args.splice(at, 2)[1];
  }
  for (const name of flags) {
    const at = args.indexOf(name);
    if (at >= 0) args.splice(at, 1);
    options[name.slice(2)] = at >= 0;
  }
  const [exportRoot, ...only] = args;
  const fail = (message) => {
    process.stderr.write(`${message}\n`);
    process.exit(2);
  };
  if (!exportRoot || args.some((a) => a.startsWith('--'))) fail(`usage: ${usage}`);
  if (options['write-exceptions'] && only.length > 0) fail('--write-exceptions needs the whole suite (no names after the export)');
  return { exportRoot, only, options };
}

/** The built module dist/board/NAME.js, or a usage error saying to build first. */
function builtSuite(name) {
  const file = path.join(__dirname, '..', 'dist', 'board', `${name}.js`);
  if (!fs.existsSync(file)) {
    process.stderr.write('build first: npm run build\n');
    process.exit(2);
  }
  return require(file);
}

module.exports = { suiteCommandLine, builtSuite };
