import { SemanticsModule } from './context';

export const module: SemanticsModule = { semantics: {} };
