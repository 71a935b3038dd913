// Launcher of the fuzzer (npm run fuzz builds first, then runs this): runs dist/tools/fuzz/main.js, or says to build.
const fs = require('fs');
const path = require('path');

const main = path.join(__dirname, '..', 'dist', 'tools', 'fuzz', 'main.js');
if (!fs.existsSync(main)) {
  process.stderr.write('fuzz: dist/tools/fuzz/main.js is missing: run `npm run build` first (npm run fuzz does)\n');
  process.exitCode = 2;
} else {
  require(main)
    .main(process.argv.slice(2))
    .then(
      (code) => (process.exitCode = code),
      (e) => {
        process.stderr.write(`fuzz: ${e && e.stack ? e.stack : String(e)}\n`);
        process.exitCode = 1;
      },
    );
}
