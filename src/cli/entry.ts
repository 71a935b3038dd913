import { main as ptoAs } from './pto-as';
import { main as ptoVm } from './pto-vm';

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
  let code: number;
  try {
    code = (tool === 'pto-as' ? ptoAs : ptoVm)(process.argv.slice(2));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${tool}: internal error: ${message}\n`);
    if (process.env.PTO_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    code = 1;
  }
  process.exitCode = code;
}
