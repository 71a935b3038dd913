/**
 * PTOAS's template library run without PTOAS: python/ptoas_shim/tilelib_expand.py under python3 with our shim of
 * PTOAS's MLIR bindings first on PYTHONPATH, then PTOAS's own `ptodsl` package and `lib/TileOps` templates, both
 * read from the PTOAS tree given (PTO_UPSTREAM_DIR). One child process answers a whole batch of requests.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { packageDirectory, pythonCommand } from '../board/python-runner';
import { OperandSpec } from './operand-spec';

export interface TemplateRequest {
  op: string;
  operands: OperandSpec[];
  /** The op's context attributes (PTOAS's appendOpContextAttrs: cmp_mode, round_mode, ...). */
  context?: Record<string, string>;
  /** A candidate by name; none: the library's own choice (the highest priority legal one, as PTOAS takes it). */
  candidate?: string;
}

export type TemplateResult =
  /**
   * The selected template's name, every legal candidate in PTOAS's order, the traced module's text, and the context
   * attributes the template read without being given them (with the default it used).
   */
  | { name: string; candidates: string[]; text: string; unsupplied: Record<string, unknown> }
  /** Why there is no instance; `missing` when it is the shim that lacks something, `where` the frame that hit it. */
  | { error: string; missing: boolean; where: string };

/** The PTOAS tree to read ptodsl and the templates from, or why it cannot be used. */
export function upstreamTree(dir: string | undefined): { dir: string } | { error: string } {
  if (!dir) return { error: 'PTO_UPSTREAM_DIR is not set (the templates and ptodsl are read from a PTOAS tree)' };
  for (const sub of ['ptodsl/ptodsl', 'lib/TileOps/a5']) if (!fs.existsSync(path.join(dir, sub))) return { error: `${dir} has no ${sub}: not a PTOAS tree` };
  return { dir };
}

/** Runs the batch; an error for the whole batch when python3 cannot run or answers no JSON. */
export function runTemplates(requests: TemplateRequest[], upstreamDir: string, timeoutMs = 300_000): TemplateResult[] | { error: string } {
  if (requests.length === 0) return [];
  const shim = path.join(packageDirectory(), 'python', 'ptoas_shim');
  const pythonPath = [shim, path.join(upstreamDir, 'ptodsl'), path.join(upstreamDir, 'lib')].join(path.delimiter);
  const python = pythonCommand();
  const run = spawnSync(python, [path.join(shim, 'tilelib_expand.py')], {
    input: JSON.stringify({ requests: requests.map((r) => ({ target: 'a5', ...r })) }),
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (run.error) return { error: /ENOENT/.test(run.error.message) ? `${python} is not installed` : run.error.message };
  if (run.status !== 0) return { error: `tilelib_expand.py exited with ${run.status}: ${(run.stderr ?? '').trim().split('\n').slice(-5).join('\n')}` };
  try {
    return (JSON.parse(run.stdout) as { results: TemplateResult[] }).results;
  } catch {
    return { error: `tilelib_expand.py printed no JSON: ${run.stdout.slice(0, 200)}` };
  }
}
