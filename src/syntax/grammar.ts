import * as fs from 'fs';
import * as path from 'path';
import * as ohm from 'ohm-js';

/** The PTO-AS grammar (pto.ohm beside this file), compiled once per process. */
let compiled: ohm.Grammar | undefined;

export function ptoGrammar(): ohm.Grammar {
  if (!compiled) {
    const source = fs.readFileSync(path.join(__dirname, 'pto.ohm'), 'utf8');
    compiled = ohm.grammar(source);
  }
  return compiled;
}
