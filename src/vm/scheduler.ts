import { DIAGNOSTICS } from '../diag/catalog';
import { LocatedError } from '../diag/located-error';
import { Span } from '../diag/source';
import { Wait } from '../ir/definition';
import { mulberry32 } from './mulberry32';

/** One core as the scheduler sees it: its run (a generator that yields at each op that can block) and its name. */
export interface ScheduledCore {
  /** How reports name it: `block 0 cube`, `rank 1, block 0`. */
  label: string;
  run: Generator<Wait, void, void>;
  /** The op the core is at when it yields (for a deadlock report). */
  at(): { name: string; span: Span } | undefined;
}

/**
 * Runs the cores of a run cooperatively and deterministically: a core runs until it reaches an op that can block
 * (it yields what it waits for), then the scheduler picks the next core that can go on: round robin from the core
 * after it, or, with a seed, one drawn from a seeded generator (another legal interleaving). Cores that never block
 * run one after another, in order. When cores remain and none can go on, the run ends in a deadlock error naming
 * every waiting core, its op and what it waits for.
 */
export function runCores(cores: ScheduledCore[], seed?: number): void {
  const waits: (Wait | undefined)[] = cores.map(() => undefined);
  const done = cores.map(() => false);
  const draw = seed === undefined ? undefined : mulberry32(seed);
  let current = 0;
  for (;;) {
    const ready: number[] = [];
    for (let k = 0; k < cores.length; k++) {
      const i = (current + k) % cores.length;
      if (!done[i] && (waits[i] === undefined || waits[i]!.ready())) ready.push(i);
    }
    if (ready.length === 0) {
      if (done.every((d) => d)) return;
      throw deadlock(cores, waits, done);
    }
    current = draw ? ready[Math.floor(draw() * ready.length)] : ready[0];
    const step = cores[current].run.next();
    if (step.done) {
      done[current] = true;
      waits[current] = undefined;
      current = (current + 1) % cores.length;
    } else {
      waits[current] = step.value;
      // Round robin: the next core gets its turn before this one runs again.
      if (!draw) current = (current + 1) % cores.length;
    }
  }
}

function deadlock(cores: ScheduledCore[], waits: (Wait | undefined)[], done: boolean[]): LocatedError {
  const waiting = cores.flatMap((core, i) => {
    const at = core.at();
    return done[i] || !at ? [] : [{ message: `${core.label} waits at ${at.name} for ${waits[i]?.what ?? 'another core'}`, span: at.span }];
  });
  const [first, ...others] = waiting;
  const count = waiting.length === 1 ? 'the one waiting core cannot go on' : `none of the ${waiting.length} waiting cores can go on`;
  return new LocatedError(DIAGNOSTICS.deadlock, `deadlock: ${count}: ${first.message}`, first.span, others);
}
