/** The messages between the fuzzer's pool (main thread) and its workers (worker.ts). */

export type ToolName = 'pto-as' | 'pto-vm';

export interface CaseRequest {
  id: number;
  tool: ToolName;
  /** The program text, written to `<dir>/<fileName>` before the run. */
  text: string;
  fileName: string;
  /** The command line after the tool's name; FILE stands for the program's absolute path, OUT for the dir. */
  argv: string[];
  /** Files the run may create in its directory (besides the program). */
  allowedOutputs: string[];
}

export interface CaseResult {
  id: number;
  /** The exit code main returned; undefined when an exception escaped main. */
  code?: number;
  stdout: string;
  stderr: string;
  /** Total characters written to each stream (the kept text is cut to a head and a tail). */
  stdoutLength: number;
  stderrLength: number;
  /** Errors located in the program among all of stderr, the part left out of `stderr` included. */
  stderrErrors: number;
  /** An exception that escaped main: message and stack. */
  exception?: { message: string; stack?: string; name?: string };
  ms: number;
  /** Files that appeared in the run's directory or in the process's working directory and were not allowed. */
  strays: string[];
  /** The program's absolute path as the tool saw it (diagnostics name it). */
  path: string;
}

export interface WorkerSetup {
  distDir: string;
  /** The worker's own directory for programs and outputs. */
  dir: string;
  /** The process's working directory, which must stay as it is (empty). */
  cwd: string;
}
