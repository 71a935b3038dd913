/**
 * Process entry for bin/pto-as and bin/pto-vm. Whatever happens, the user sees a one-line message
 * and an exit code, never a stack trace (set PTO_DEBUG=1 to see one).
 */
export function start(tool: 'pto-as' | 'pto-vm'): void {
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const failed = (e: unknown): number => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${tool}: internal error: ${message}\n`);
    if (process.env.PTO_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    return 1;
  };
  let code: number | Promise<number>;
  try {
    code = toolMain(tool)(process.argv.slice(2));
  } catch (e) {
    code = failed(e);
  }
  // A run on worker threads (pto-vm run --jobs) ends after the main thread has heard from them.
  if (typeof code === 'number') process.exitCode = code;
  else
    code.then(
      (c) => (process.exitCode = c),
      (e: unknown) => (process.exitCode = failed(e)),
    );
}

/** A worker thread of `pto-vm run --jobs` (src/cli/jobs-thread.ts starts it from the bundle when it can). */
export function work(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a worker thread loads it
  (require('./jobs-worker') as typeof import('./jobs-worker')).work();
}

/** The tool's main function, loading only its own modules (pto-as has no use for the VM). */
function toolMain(tool: 'pto-as' | 'pto-vm'): (argv: string[]) => number | Promise<number> {
  /* eslint-disable @typescript-eslint/no-require-imports -- a static import would load both tools */
  if (tool === 'pto-as') return (require('./pto-as') as typeof import('./pto-as')).main;
  return (require('./pto-vm') as typeof import('./pto-vm')).main;
  /* eslint-enable @typescript-eslint/no-require-imports */
}
