/**
 * The synchronization ops (flags, events, barriers, buffer tokens) as data: their positional attributes and
 * what each names. STUB: the sync helper fills this in from spec/sync.json.
 */
export interface SyncOpSpec {
  name: string;
}

export function syncOps(): Map<string, SyncOpSpec> {
  return new Map();
}
