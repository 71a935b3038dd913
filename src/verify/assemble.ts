import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { SourceFile } from '../diag/source';
import { Module } from '../syntax/ast';
import { notText, printableText } from '../syntax/input';
import { parseModule } from '../syntax/parse';
import { TypeTable } from '../syntax/type-table';
import { Program } from '../ir/program';
import { opRegistry } from '../ops/registry';
import { VPTO_PIPELINE, runPassChecks } from '../micro/passes';
import { VerifyOptions, verifyModule } from './verifier';

export interface Assembled {
  source: SourceFile;
  diags: DiagnosticBag;
  module: Module;
  types: TypeTable;
  /** Present when the file parsed; check `diags.hasErrors()` before trusting it. */
  program: Program;
}

/** text -> AST -> verified program, collecting every diagnostic of the file. */
export function assemble(path: string, text: string, options: VerifyOptions = {}): Assembled {
  const binary = notText(text);
  // A file that is not text is one error, at its first sign, and is not read: its source as the error shows it has
  // its raw bytes replaced.
  const source = new SourceFile(path, binary ? printableText(text) : text);
  const diags = new DiagnosticBag(source);
  const types = new TypeTable();
  if (binary) diags.report(D.notText, { start: binary.at, end: binary.at + 1 }, `${path} is not a text file: it holds ${binary.message}`);
  const module: Module = binary ? { ops: [], aliases: [], span: { start: 0, end: 0 } } : parseModule(source, diags, opRegistry());
  for (const alias of module.aliases) if (alias.alias.startsWith('!')) types.defineAlias(alias.alias, alias.text);
  if (module.ops.length === 0 && !diags.hasErrors()) diags.report(D.emptyInput, { start: 0, end: 0 }, 'empty input: no module or function');
  const program = verifyModule(module, types, diags, options);
  // The passes run on verified IR only, as PTOAS runs them after its verifiers.
  if (!diags.hasErrors()) runPassChecks(options.passes ?? (program.backend === 'vpto' ? VPTO_PIPELINE : []), { program, types, diags });
  return { source, diags, module, types, program };
}
