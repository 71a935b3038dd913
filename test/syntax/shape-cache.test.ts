/**
 * Recording a match of the grammar and running actions on it for another text of the same shape: each node's text
 * and position come from the other text, and nothing inside a name or number token is shown (the match there depends
 * on the token's characters).
 */
import * as ohm from 'ohm-js';
import { ptoGrammar } from '../../src/syntax/grammar';
import { Actions, Unreplayable, keepVisited, recordShape, replayShape } from '../../src/syntax/shape-cache';
import { statementShape } from '../../src/syntax/statement-shape';

/** Records `actions` on the match of `recorded` by `rule`, then runs them on `other` (a text of the same shape). */
function replayOn(rule: string, actions: Actions, recorded: string, other: string): unknown {
  const grammar = ptoGrammar();
  const semantics = grammar.createSemantics().addOperation<unknown>('items', actions);
  const match = grammar.match(recorded, rule);
  expect(match.succeeded()).toBe(true);
  const shape = statementShape(recorded)!;
  const otherShape = statementShape(other)!;
  expect(otherShape.key).toBe(shape.key);
  const recording = recordShape(semantics(match) as unknown as ohm.Node, shape, actions);
  expect(replayShape(recording, recorded, shape)).toEqual(semantics(match).items());
  keepVisited(recording);
  return replayShape(recording, other, otherShape);
}

describe('replaying a recorded match', () => {
  test("each node's text and position are the other text's", () => {
    const actions = {
      valueUse(this: ohm.Node, id: ohm.Node, index: ohm.Node) {
        return { name: id.sourceString, at: [this.source.startIdx, this.source.endIdx], index: index.sourceString };
      },
    } as unknown as Actions;
    expect(replayOn('valueUse', actions, '%x#1', '%a_long_name#12')).toEqual({ name: '%a_long_name', at: [0, 15], index: '#12' });
  });

  test("a number's own rules are shown: which alternative of `number` it took is the same for every number", () => {
    const actions = {
      number(this: ohm.Node, n: ohm.Node) {
        return [n.ctorName, this.sourceString];
      },
    } as unknown as Actions;
    expect(replayOn('number', actions, '16', '12345')).toEqual(['intLit', '12345']);
  });

  test('the nodes of one digit each are not shown (there are as many as the digits)', () => {
    const actions = {
      intLit(_sign: ohm.Node, digits: ohm.Node) {
        return digits.children.length;
      },
    } as unknown as Actions;
    expect(() => replayOn('intLit', actions, '16', '123')).toThrow(Unreplayable);
  });

  test('what lies below a name is not shown (`%5` and `%x` take different alternatives of `suffixId`)', () => {
    const actions = {
      valueId(_percent: ohm.Node, suffix: ohm.Node) {
        return suffix.children[0].ctorName;
      },
    } as unknown as Actions;
    expect(() => replayOn('valueId', actions, '%x', '%5')).toThrow(Unreplayable);
  });

  test('a list of numbers is shown: one item per number, whatever its digits', () => {
    const actions = {
      DenseArrayItems(_colon: ohm.Node, list: ohm.Node) {
        return list.asIteration().children.map((n) => n.sourceString);
      },
    } as unknown as Actions;
    expect(replayOn('DenseArrayItems', actions, ': 1, 2, 3', ': 10, 200, 3000')).toEqual(['10', '200', '3000']);
  });

  test('the characters of a `<...>` body holding a number are not shown (one per digit)', () => {
    const actions = {
      prettyBody(_open: ohm.Node, items: ohm.Node, _close: ohm.Node) {
        return items.children.length;
      },
    } as unknown as Actions;
    expect(() => replayOn('prettyBody', actions, '<a 7>', '<a 123>')).toThrow(Unreplayable);
  });

  test('the items of a `<...>` body that reach into a name are not shown (one per character)', () => {
    const actions = {
      dialectAttr(_hash: ohm.Node, _name: ohm.Node, body: ohm.Node) {
        return body.children[0].children[1].children.length;
      },
    } as unknown as Actions;
    expect(() => replayOn('dialectAttr', actions, '#pto.foo<%x>', '#pto.foo<%xyz>')).toThrow(Unreplayable);
  });

  test('the same body read whole is rebuilt with the other text', () => {
    const actions = {
      dialectAttr(this: ohm.Node, _hash: ohm.Node, _name: ohm.Node, _body: ohm.Node) {
        return this.sourceString;
      },
    } as unknown as Actions;
    expect(replayOn('dialectAttr', actions, '#pto.foo<%x, 16>', '#pto.foo<%xyz, 7>')).toBe('#pto.foo<%xyz, 7>');
  });
});
