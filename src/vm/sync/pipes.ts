/** The sync checker's pipes come from the instruction tables' rules (src/ops/instructions/pipe.ts). */
export { instructionPipe } from '../../ops/instructions/pipe';
