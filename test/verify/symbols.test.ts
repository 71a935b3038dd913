import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction, Value } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';

/** The errors of a program, one line each (`CODE message`). */
function errors(text: string): string[] {
  const asm = assemble('t.pto', text, { target: 'a5' });
  return asm.diags.items.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`);
}

/** Runs @entry with one i32 buffer %out of four elements; returns them. */
function runEntry(text: string): number[] {
  const asm = assemble('t.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const out = new GlobalBuffer('out', 'i32', new Uint8Array(16));
  runFunction(asm.program, asm.types, asm.program.functions.get('entry')!, new Map<string, Value>([['%out', out]]), { numerics: 'npu', maxSteps: 1000 });
  return [...new Int32Array(out.bytes.buffer.slice(0))];
}

describe('symbol tables: each module holds its own functions', () => {
  it('accepts the same function name in two sibling modules', () => {
    const text = `module {
  module { func.func @h() { return } }
  module { func.func @h() { return } }
}`;
    expect(errors(text)).toEqual([]);
  });

  it('rejects a second function of one name in one module, at the second', () => {
    const text = `module {
  func.func private @h()
  func.func @h() { return }
}`;
    const asm = assemble('t.pto', text, { target: 'a5' });
    const [d] = asm.diags.items;
    expect(d.message).toBe('redefinition of function @h');
    expect(d.span.start).toBe(text.indexOf('func.func @h()'));
  });

  it('a private declaration calls the public definition of another module (the backend links them)', () => {
    const text = `module {
  module {
    func.func private @seven() -> i32
    func.func @entry(%out: !pto.ptr<i32>) {
      %c1 = arith.constant 1 : index
      %v = func.call @seven() : () -> i32
      pto.store_scalar %v, %out[%c1] : !pto.ptr<i32>, i32
      return
    }
  }
  module {
    func.func public @seven() -> i32 {
      %c = arith.constant 7 : i32
      return %c : i32
    }
  }
}`;
    expect(runEntry(text)).toEqual([0, 7, 0, 0]);
  });

  it('a private definition is not linked to a declaration of another module', () => {
    const text = `module {
  module {
    func.func private @seven() -> i32
    func.func @entry(%out: !pto.ptr<i32>) {
      %v = func.call @seven() : () -> i32
      return
    }
  }
  module {
    func.func private @seven() -> i32 {
      %c = arith.constant 7 : i32
      return %c : i32
    }
  }
}`;
    expect(errors(text)).toEqual([]);
    expect(() => runEntry(text)).toThrow(/func.call: no function @seven with a body/);
  });

  it('a call names a function of its own module', () => {
    const text = `module {
  module { func.func @entry() { func.call @other() : () -> () return } }
  module { func.func @other() { return } }
}`;
    expect(errors(text)).toEqual([expect.stringMatching(/ func.call: no function @other in this module$/)]);
  });

  it('a call may leave its results unnamed', () => {
    const text = `module {
  func.func @entry(%out: !pto.ptr<i32>) {
    func.call @seven() : () -> i32
    return
  }
  func.func private @seven() -> i32 {
    %c = arith.constant 7 : i32
    return %c : i32
  }
}`;
    expect(errors(text)).toEqual([]);
    expect(runEntry(text)).toEqual([0, 0, 0, 0]);
  });
});

describe('SSA names are scoped by region', () => {
  it('sibling regions may each define the same name', () => {
    const text = `module {
  func.func @entry(%out: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %v = arith.index_cast %i : index to i32
      pto.store_scalar %v, %out[%i] : !pto.ptr<i32>, i32
    }
    scf.for %i = %c2 to %c2 step %c1 {
      %v = arith.constant 9 : i32
      pto.store_scalar %v, %out[%i] : !pto.ptr<i32>, i32
    }
    return
  }
}`;
    expect(runEntry(text)).toEqual([0, 1, 0, 0]);
  });

  it('a nested region may not redefine a name of its enclosing region', () => {
    const text = `module {
  func.func @entry(%out: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %c1 = %c0 to %c0 step %c1 {
    }
    return
  }
}`;
    expect(errors(text)).toEqual([expect.stringMatching(/ redefinition of SSA value %c1$/)]);
  });
});
