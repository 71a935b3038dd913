'use strict';
// WebAssembly text to binary with wabt (a devDependency: only the build script and the freshness test use it).
const wabt = require('wabt');

/** The binary of a module's text, with the SIMD proposal enabled. */
async function compileWat(text) {
  const tools = await wabt();
  const module = tools.parseWat('vector.wat', text, { simd: true });
  try {
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

module.exports = { compileWat };
