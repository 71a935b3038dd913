import { DIAGNOSTICS, DiagnosticKind } from '../../diag/catalog';
import { LocatedError } from '../../diag/located-error';
import { Span } from '../../diag/source';
import { GlobalBuffer } from '../../machine/memory';
import { Program } from '../../ir/program';
import { LaunchPlan, RunOptions, RunWarning, runCoreAlone } from '../interpreter';
import { SyncFinding } from '../sync/tracker';
import { AccessRecorder, CoreAccesses } from './accesses';

/** A located finding as it crosses between threads: its catalog kind by code. */
export interface WireFinding {
  message: string;
  span: Span;
  notes?: { message: string; span: Span }[];
  kind?: string;
}

/** How one core ran alone: everything the run's result or its trap report takes from it, and what it touched. */
export type CoreReport = { position: number; core: number } & (
  | { status: 'done'; steps: number; notes: string[]; printed: string[]; sync: WireFinding[]; warnings: WireFinding[]; accesses?: CoreAccesses }
  | { status: 'trap'; error: WireFinding; warnings: WireFinding[]; accesses?: CoreAccesses }
  /** It reached state shared with other cores (a flag, a signal, a pipe): only the scheduler can run the launch. */
  | { status: 'shared' }
  /** An error that is not the program's (a bug of the VM): the sequential rerun reports it as it always has. */
  | { status: 'internal'; message: string }
);

/** Thrown where a core running alone reaches state shared with other cores; runCore turns it into a report. */
class SharedState {}

/**
 * Runs cores of a launch alone, one after another, over global buffers it observes (while `recording`): each core's
 * record of the elements it read and wrote goes into its report. The same on the main thread and on a worker thread.
 */
export class CoreRunner {
  private readonly recorder: AccessRecorder;
  private recordingNow = false;

  constructor(
    private readonly program: Program,
    private readonly options: RunOptions,
    private readonly plan: LaunchPlan,
    private readonly buffers: GlobalBuffer[],
    recording = true,
  ) {
    this.recorder = new AccessRecorder(buffers);
    this.recording = recording;
  }

  /** Whether the cores' accesses are recorded: an unobserved buffer lets transfers take their fast paths. */
  get recording(): boolean {
    return this.recordingNow;
  }

  set recording(on: boolean) {
    this.recordingNow = on;
    for (const b of this.buffers) b.observer = on ? this.recorder : undefined;
  }

  run(position: number, core: number): CoreReport {
    this.recorder.begin();
    try {
      const outcome = runCoreAlone(this.program, this.options, this.plan, core, () => {
        throw new SharedState();
      });
      const recorded = this.recorder.end();
      const accesses = this.recordingNow ? recorded : undefined;
      if ('trap' in outcome) return { position, core, status: 'trap', error: wireError(outcome.trap), warnings: outcome.warnings.map(wireFinding), accesses };
      const r = outcome.result;
      return {
        position,
        core,
        status: 'done',
        steps: r.steps,
        notes: r.notes,
        printed: r.printed,
        sync: r.sync.map(wireFinding),
        warnings: r.warnings.map(wireFinding),
        accesses,
      };
    } catch (e) {
      this.recorder.end();
      if (e instanceof SharedState) return { position, core, status: 'shared' };
      return { position, core, status: 'internal', message: e instanceof Error ? e.message : String(e) };
    }
  }
}

/** The position alone: some AST nodes are their own span, and a message would otherwise copy the node. */
const wireSpan = (s: Span): Span => ({ start: s.start, end: s.end });
const wireNotes = (notes: { message: string; span: Span }[] | undefined) =>
  notes ? { notes: notes.map((n) => ({ message: n.message, span: wireSpan(n.span) })) } : {};

function wireFinding(f: SyncFinding | RunWarning): WireFinding {
  return { message: f.message, span: wireSpan(f.span), ...wireNotes(f.notes), ...(f.kind ? { kind: f.kind.code } : {}) };
}

function wireError(e: LocatedError): WireFinding {
  return { message: e.message, span: wireSpan(e.span), ...wireNotes(e.notes), kind: e.kind.code };
}

const KINDS = new Map<string, DiagnosticKind>(Object.values(DIAGNOSTICS).map((k) => [k.code, k]));

function kindOf(code: string): DiagnosticKind {
  const kind = KINDS.get(code);
  if (!kind) throw new Error(`a worker thread reported an unknown diagnostic code ${code}`);
  return kind;
}

export function syncFindingOf(f: WireFinding): SyncFinding {
  return { message: f.message, span: f.span, ...(f.notes ? { notes: f.notes } : {}), ...(f.kind ? { kind: kindOf(f.kind) } : {}) };
}

export function warningOf(f: WireFinding): RunWarning {
  return { message: f.message, span: f.span, ...(f.notes ? { notes: f.notes } : {}), kind: kindOf(f.kind!) };
}

export function errorOf(f: WireFinding): LocatedError {
  return new LocatedError(kindOf(f.kind!), f.message, f.span, f.notes);
}
