import * as fs from 'fs';
import { LIMITS } from '../diag/limits';
import { OpNode } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { BufferMemory, GlobalBuffer } from '../machine/memory';
import { elemSize } from '../types/type';
import { ArgumentError, BoundArguments, bindArguments } from '../vm/io/arguments';
import { npyDtypeOf, npyItemSize, writeNpy } from '../vm/io/npy';
import { summarize } from '../vm/io/results';
import { UsageError } from './common';

/**
 * `pto-vm run --ranks R`: the inputs and outputs of each rank (docs/cli.md, docs/ranks.md).
 * - `--arg NAME=SPEC` binds NAME on every rank, `--arg K:NAME=SPEC` on rank K only (it wins over the former);
 *   `{rank}` and `{ranks}` in SPEC become the rank's number and R (`--arg x=in_{rank}.npy`, `--arg me={rank}`);
 * - `--arg NAME=@K[:OTHER]` gives pointer NAME the address of rank K's buffer of argument OTHER (default NAME):
 *   a peer's memory, as a host hands a kernel a remote window address; on rank K itself `@K` is its own buffer;
 * - `--out [K:]NAME=PATH` writes each rank's (or rank K's) buffer; with several ranks a PATH for every rank must
 *   hold `{rank}`.
 */

/** `[K:]NAME=VALUE` items of one flag: per rank (index), NAME -> VALUE with `{rank}`/`{ranks}` replaced. */
export function rankedPairs(items: string[], flag: string, ranks: number): Map<string, string>[] {
  const everyRank = new Map<string, string>();
  const oneRank = new Map<number, Map<string, string>>();
  for (const item of items) {
    const m = /^(?:(\d+):)?%?([^=]+)=(.*)$/s.exec(item);
    if (!m || m[2] === '') throw new UsageError(`${flag} ${item}: expected [RANK:]NAME=VALUE`);
    const [, rankText, name, value] = m;
    let scope = everyRank;
    if (rankText !== undefined) {
      const rank = Number(rankText);
      if (rank >= ranks) throw new UsageError(`${flag} ${item}: rank ${rank} is not one of the ${ranks} rank${ranks > 1 ? 's' : ''} (--ranks ${ranks})`);
      if (!oneRank.has(rank)) oneRank.set(rank, new Map());
      scope = oneRank.get(rank)!;
    }
    if (scope.has(name)) throw new UsageError(`${flag} ${rankText !== undefined ? rankText + ':' : ''}${name} is given twice`);
    if (flag === '--out' && ranks > 1 && rankText === undefined && !value.includes('{rank}'))
      throw new UsageError(
        `${flag} ${item}: with --ranks ${ranks} every rank would write ${value}: put {rank} in the path, or a rank before the name (0:${name}=...)`,
      );
    scope.set(name, value);
  }
  return Array.from({ length: ranks }, (_, rank) => {
    const specs = new Map([...everyRank, ...(oneRank.get(rank) ?? [])]);
    for (const [name, value] of specs) specs.set(name, value.replace(/\{rank\}/g, String(rank)).replace(/\{ranks\}/g, String(ranks)));
    return specs;
  });
}

/** `@K` or `@K:OTHER`: the address of rank K's buffer of OTHER (default: the argument's own name). */
function peerReference(name: string, spec: string): { rank: number; name: string } | undefined {
  const m = /^@(\d+)(?::%?(\S+))?$/.exec(spec);
  return m ? { rank: Number(m[1]), name: m[2] ?? name } : undefined;
}

/**
 * Binds each rank's arguments: its own buffers (given or generated, as for one rank), placed alike in every rank's
 * memory (src/machine/windows.ts), then the pointers bound to a peer's buffer (`@K`).
 */
export function bindRanks(
  types: TypeTable,
  fn: OpNode,
  perRank: Map<string, string>[],
  callees?: Parameters<typeof bindArguments>[3],
  /** The bytes every rank's buffers may take together (LIMITS.globalMemory). */
  maxMemory = LIMITS.globalMemory.value,
  /** Where the buffers' bytes live ('shared': a run on several threads, --jobs). */
  memory: BufferMemory = 'own',
  beforeGenerating?: Parameters<typeof bindArguments>[7],
): BoundArguments[] {
  const ranks = perRank.length;
  const params = fn.regions[0]?.blocks[0]?.args ?? [];
  const isPointer = (name: string) => {
    const param = params.find((p) => p.name === '%' + name);
    return param?.type !== undefined && types.resolve(param.type).type?.kind === 'ptr';
  };
  const peers = perRank.map((specs, rank) => {
    const refs = new Map<string, { rank: number; name: string }>();
    for (const [name, spec] of specs) {
      const ref = peerReference(name, spec);
      if (!ref) continue;
      if (ref.rank >= ranks) throw new ArgumentError(`--arg ${name}=${spec}: rank ${ref.rank} is not one of the ${ranks} ranks (--ranks ${ranks})`);
      if (params.some((p) => p.name === '%' + name) && !isPointer(name))
        throw new ArgumentError(`--arg ${name}=${spec}: only a pointer argument can address another rank's buffer`);
      if (ref.rank !== rank || ref.name !== name) refs.set(name, ref);
      // A peer reference binds no data of its own: a one-element stand-in until the reference replaces it.
      specs.set(name, ref.rank === rank && ref.name === name ? '' : 'zeros:1');
      if (specs.get(name) === '') specs.delete(name);
    }
    return refs;
  });
  let used = 0;
  const bound = perRank.map((specs) => {
    const b = bindArguments(types, fn, specs, callees, maxMemory, used, memory, beforeGenerating);
    used += b.buffers.reduce((n, buffer) => n + buffer.byteLength, 0);
    return b;
  });
  if (ranks > 1) {
    const names = new Set(bound.flatMap((b) => b.buffers.map((buffer) => buffer.name)));
    for (const name of names) {
      const byRank = bound.map((b, rank) => (peers[rank].has(name) ? undefined : b.buffers.find((buffer) => buffer.name === name)));
      byRank.forEach((buffer, rank) => buffer && (buffer.placement = { rank, byRank: byRank as GlobalBuffer[] }));
    }
  }
  peers.forEach((refs, rank) => {
    for (const [name, ref] of refs) {
      const target = bound[ref.rank].buffers.find((buffer) => buffer.name === ref.name);
      const spec = `@${ref.rank}${ref.name === name ? '' : ':' + ref.name}`;
      if (!target) throw new ArgumentError(`--arg ${name}=${spec}: @${fn.symbol} has no pointer argument %${ref.name}`);
      if (peers[ref.rank].has(ref.name))
        throw new ArgumentError(`--arg ${name}=${spec} on rank ${rank}: rank ${ref.rank}'s %${ref.name} is itself another rank's buffer`);
      const own = bound[rank];
      const index = own.buffers.findIndex((buffer) => buffer.name === name);
      if (index < 0) throw new ArgumentError(`--arg ${name}=${spec}: %${name} is not a pointer`);
      if (own.buffers[index].elem !== target.elem)
        throw new ArgumentError(
          `--arg ${name}=${spec}: %${name} points to ${own.buffers[index].elem} but rank ${ref.rank}'s %${ref.name} holds ${target.elem}`,
        );
      own.buffers.splice(index, 1);
      own.values.set('%' + name, target);
      own.origins.set(name, `rank ${ref.rank}'s %${ref.name}`);
    }
  });
  return bound;
}

/** Writes a buffer to PATH.npy (1-D, its dtype) or PATH.bin (raw bytes). */
export function writeBuffer(flag: string, buffer: GlobalBuffer, path: string): void {
  if (!path.endsWith('.npy') && !path.endsWith('.bin')) throw new UsageError(`${flag}: expected PATH.npy or PATH.bin`);
  const npyDtype = npyDtypeOf(buffer.elem);
  const data = path.endsWith('.npy') ? writeNpy(npyDtype, [buffer.length * (elemSize(buffer.elem) / npyItemSize(npyDtype))], buffer.bytes) : buffer.bytes;
  try {
    fs.writeFileSync(path, data);
  } catch (e) {
    throw new UsageError(`${flag}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** `--out` of every rank: each rank's own buffers (a peer's buffer is written by the rank that holds it). */
export function writeRankOutputs(bound: BoundArguments[], outs: Map<string, string>[]): void {
  outs.forEach((specs, rank) => {
    for (const [name, path] of specs) {
      const buffer = bound[rank].buffers.find((b) => b.name === name);
      if (!buffer) throw new UsageError(`--out ${rank}:${name}=${path}: rank ${rank}'s %${name} is ${bound[rank].origins.get(name) ?? 'not a pointer'}`);
      writeBuffer(`--out ${name}=${path}`, buffer, path);
    }
  });
}

/** The run summary of several ranks: each rank's written buffers under `rank K:`. */
export function summarizeRanks(bound: BoundArguments[]): string {
  return (
    bound
      .map(
        (b, rank) =>
          `rank ${rank}:\n` +
          summarize(b.buffers, b.origins)
            .trimEnd()
            .split('\n')
            .map((line) => '  ' + line)
            .join('\n'),
      )
      .join('\n') + '\n'
  );
}
