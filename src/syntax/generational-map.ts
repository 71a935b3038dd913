/**
 * A cache that keeps what was used lately, within a budget: entries go into the current generation; when it is full it
 * becomes the previous one (the one before is let go of), and an entry met in the previous generation moves back up.
 * The parser's caches of shapes and types are process-wide: a long run over files of many origins (pto-as over a CI
 * tree, the fuzzer's workers) must keep caching the shapes it meets now, in bounded memory, rather than stop caching
 * once full and match every later statement of a new shape in full.
 */
export class GenerationalMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  /** The cost of the current generation's entries. */
  private spent = 0;

  /**
   * @param budget what one generation holds at most, in `cost` units (two generations are kept)
   * @param cost an entry's weight (1 each by default); an entry that weighs more than the budget is not kept
   */
  constructor(
    private readonly budget: number,
    private readonly cost: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.previous.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    const cost = this.cost(value);
    if (cost > this.budget) return;
    const replaced = this.current.get(key);
    if (replaced !== undefined) this.spent -= this.cost(replaced);
    else if (this.spent + cost > this.budget) {
      this.previous = this.current;
      this.current = new Map();
      this.spent = 0;
    }
    this.current.set(key, value);
    this.spent += cost;
  }

  /** Entries held, in both generations. */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}
