import { DiagnosticBag } from '../diag/diagnostic';
import { SourceFile } from '../diag/source';
import { Module } from '../syntax/ast';
import { parseModule } from '../syntax/parse';
import { TypeTable } from '../syntax/type-table';
import { Program } from '../ir/program';
import { opRegistry } from '../ops/registry';
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
  const source = new SourceFile(path, text);
  const diags = new DiagnosticBag(source);
  const types = new TypeTable();
  const module = parseModule(source, diags, opRegistry());
  for (const alias of module.aliases) if (alias.alias.startsWith('!')) types.defineAlias(alias.alias, alias.text);
  const program = verifyModule(module, types, diags, options);
  return { source, diags, module, types, program };
}
