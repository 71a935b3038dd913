import fc from 'fast-check';
import { GenerationalMap } from '../../src/syntax/generational-map';

describe('GenerationalMap', () => {
  test('an entry used in every generation stays; one left unused goes after two turnovers', () => {
    const map = new GenerationalMap<string, number>(3);
    map.set('hot', 0);
    map.set('cold', 1);
    for (let i = 0; i < 10; i++) {
      map.set(`k${i}`, i);
      expect(map.get('hot')).toBe(0);
    }
    expect(map.get('cold')).toBeUndefined();
  });

  test('cost: an entry heavier than the budget is not kept; heavy entries turn generations over sooner', () => {
    const map = new GenerationalMap<string, number>(10, (v) => v);
    map.set('huge', 11);
    expect(map.get('huge')).toBeUndefined();
    map.set('a', 6);
    map.set('b', 6); // 12 > 10: 'a' moves to the previous generation
    map.set('c', 6); // 'a' is let go of
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 6, 6]);
  });

  test('against a plain Map: what was just set is found, and at most two budgets of entries are held', () => {
    const op = fc.oneof(fc.record({ set: fc.nat(40), value: fc.nat(1000) }), fc.record({ get: fc.nat(40) }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 200 }), (budget, ops) => {
        const map = new GenerationalMap<number, number>(budget);
        const model = new Map<number, number>();
        for (const o of ops) {
          if ('set' in o) {
            map.set(o.set, o.value);
            model.set(o.set, o.value);
            expect(map.get(o.set)).toBe(o.value);
          } else {
            const found = map.get(o.get);
            // A cache may forget, never make up or bring back an old value.
            if (found !== undefined) expect(found).toBe(model.get(o.get));
          }
          expect(map.size).toBeLessThanOrEqual(2 * budget);
        }
      }),
    );
  });
});
