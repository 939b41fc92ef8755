import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findAssignments, parseMatrixLiteral } from '../../src/core/parse/index.js';
import { restrictedMath } from '../../src/core/parse/restrictedMath.js';
import { ControlError } from '../../src/core/errors.js';

const P = parseMatrixLiteral;

function fails(text: string, ...patterns: (string | RegExp)[]): string {
  let err: unknown;
  try {
    P(text);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ControlError, `${JSON.stringify(text)} should throw a ControlError, got ${String(err)}`);
  const msg = (err as ControlError).message;
  for (const p of patterns) {
    if (typeof p === 'string') assert.ok(msg.includes(p), `message ${JSON.stringify(msg)} should contain ${JSON.stringify(p)}`);
    else assert.match(msg, p);
  }
  return msg;
}

test('MATLAB matrices', () => {
  assert.deepEqual(P('[0 1; -2 -3]'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[0, 1\n -2, -3]'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[0 1\r\n-2 -3]'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[0,1;-2,-3];'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[1 2;]'), [[1, 2]]);
  assert.deepEqual(P('[0;1]'), [[0], [1]]);
  assert.deepEqual(P('[]'), []);
  assert.deepEqual(P('[1, 2,\n 3, 4]'), [
    [1, 2],
    [3, 4],
  ]);
});

test('MATLAB constructors and arithmetic', () => {
  assert.deepEqual(P('eye(2)'), [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(P('eye(2,3)'), [
    [1, 0, 0],
    [0, 1, 0],
  ]);
  assert.deepEqual(P('zeros(2,1)'), [[0], [0]]);
  assert.deepEqual(P('zeros(2)'), [
    [0, 0],
    [0, 0],
  ]);
  assert.deepEqual(P('ones(1,3)'), [[1, 1, 1]]);
  assert.deepEqual(P('ones([2 1])'), [[1], [1]]);
  assert.deepEqual(P('diag([1 2])'), [
    [1, 0],
    [0, 2],
  ]);
  assert.deepEqual(P("diag([1 2 3]')"), [
    [1, 0, 0],
    [0, 2, 0],
    [0, 0, 3],
  ]);
  assert.deepEqual(P('diag([1 2; 3 4])'), [[1], [4]]);
  assert.deepEqual(P('2*eye(2)'), [
    [2, 0],
    [0, 2],
  ]);
  assert.deepEqual(P('eye(2)*2 - ones(2)'), [
    [1, -1],
    [-1, 1],
  ]);
  assert.deepEqual(P('[1/3 2]'), [[1 / 3, 2]]);
  assert.deepEqual(P('[pi -pi/2]'), [[Math.PI, -Math.PI / 2]]);
  assert.deepEqual(P('[1 2]*[3;4]'), [[11]]);
  assert.deepEqual(P('[1 2].*[3 4]'), [[3, 8]]);
  assert.deepEqual(P('2.^[1 2]'), [[2, 4]]);
  assert.deepEqual(P('[1 1; 0 1]^2'), [
    [1, 2],
    [0, 1],
  ]);
  assert.deepEqual(P('-2^2'), [[-4]]);
  assert.deepEqual(P('2^-1'), [[0.5]]);
  assert.deepEqual(P('sqrt(4)'), [[2]]);
  assert.deepEqual(P('[eye(2) zeros(2,1); 1 2 3]'), [
    [1, 0, 0],
    [0, 1, 0],
    [1, 2, 3],
  ]);
  assert.deepEqual(P('blkdiag(1, [2 3; 4 5])'), [
    [1, 0, 0],
    [0, 2, 3],
    [0, 4, 5],
  ]);
});

test('scalars and scientific notation', () => {
  assert.deepEqual(P('1'), [[1]]);
  assert.deepEqual(P('-2.5e-3'), [[-2.5e-3]]);
  assert.deepEqual(P('[1e3 -1E-2 .5 1. 2e+2]'), [[1000, -0.01, 0.5, 1, 200]]);
  assert.deepEqual(P('pi'), [[Math.PI]]);
  assert.deepEqual(P('  42  '), [[42]]);
});

test('transpose', () => {
  assert.deepEqual(P("[1 2 3]'"), [[1], [2], [3]]);
  assert.deepEqual(P("[1 2 3].'"), [[1], [2], [3]]);
  assert.deepEqual(P("[1 2; 3 4]'"), [
    [1, 3],
    [2, 4],
  ]);
  assert.deepEqual(P("[[1 2]' [3 4]']"), [
    [1, 3],
    [2, 4],
  ]);
  assert.deepEqual(P('np.array([[1, 2]]).T'), [[1], [2]]);
});

test('MATLAB whitespace: unary minus inside brackets', () => {
  assert.deepEqual(P('[1 -2]'), [[1, -2]]);
  assert.deepEqual(P('[1 - 2]'), [[-1]]);
  assert.deepEqual(P('[1-2]'), [[-1]]);
  assert.deepEqual(P('[1 +2]'), [[1, 2]]);
  assert.deepEqual(P('[1 + 2]'), [[3]]);
  assert.deepEqual(P('[1 - -2]'), [[3]]);
  assert.deepEqual(P('[1 -2 + 3]'), [[1, 1]]);
  assert.deepEqual(P('[2 *3]'), [[6]]);
  assert.deepEqual(P('[ 1  2 ]'), [[1, 2]]);
  assert.deepEqual(P('[(1) (2)]'), [[1, 2]]);
});

test('continuation and comments', () => {
  assert.deepEqual(P('[1 2 ...\n 3]'), [[1, 2, 3]]);
  assert.deepEqual(P('[1 2 ... the rest is a comment\n 3 4]'), [[1, 2, 3, 4]]);
  assert.deepEqual(P('[1 2 % first row\n 3 4] % end'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(P('np.array([[1, 2],  # first\n [3, 4]])'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(P('np.array([1, 2, \\\n 3])'), [[1, 2, 3]]);
});

test('NumPy', () => {
  assert.deepEqual(P('np.array([[0,1],[-2,-3]])'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('numpy.array([[0,1],[-2,-3]])'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('np.array([[0, 1], [-2, -3]], dtype=float)'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P("np.array([[0, 1], [-2, -3]], dtype='float64')"), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('np.array([\n  [0, 1],\n  [-2, -3],\n])'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('np.eye(2)'), [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(P('np.identity(2)'), [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(P('np.zeros((2,1))'), [[0], [0]]);
  assert.deepEqual(P('np.zeros([2, 1])'), [[0], [0]]);
  assert.deepEqual(P('np.ones((2,))'), [[1, 1]]);
  assert.deepEqual(P('np.diag([1,2])'), [
    [1, 0],
    [0, 2],
  ]);
  assert.deepEqual(P('np.diag(np.array([[1, 2], [3, 4]]))'), [[1, 4]]);
  assert.deepEqual(P('np.array([[1, 2], [3, 4]]) @ np.eye(2)'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(P('3**2'), [[9]]);
  assert.deepEqual(P('np.array([[np.pi, 0]])'), [[Math.PI, 0]]);
  // documented choice: a 1-D array is one row
  assert.deepEqual(P('np.array([1, 2])'), [[1, 2]]);
  assert.deepEqual(P('np.zeros(3)'), [[0, 0, 0]]);
  // inside np.*, whitespace and newlines are Python's: [1 -2] is one entry
  assert.deepEqual(P('np.array([1, 2,\n 3])'), [[1, 2, 3]]);
  assert.deepEqual(P('np.array([1 -2])'), [[-1]]);
});

test('plain lists and JSON', () => {
  assert.deepEqual(P('[[0,1],[-2,-3]]'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[[0, 1],\n [-2, -3]]'), [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(P('[[1],[2]]'), [[1], [2]]);
  assert.deepEqual(P('[[1.5, -2e-3]]'), [[1.5, -2e-3]]);
  assert.deepEqual(
    P(
      JSON.stringify([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ),
    [
      [1, 2, 3],
      [4, 5, 6],
    ],
  );
  assert.deepEqual(P('[1, 2, 3]'), [[1, 2, 3]]);
  // MATLAB spacing means concatenation, as in MATLAB
  assert.deepEqual(P('[[1 2] [3 4]]'), [[1, 2, 3, 4]]);
  assert.deepEqual(P('[[1;2],[3;4]]'), [
    [1, 3],
    [2, 4],
  ]);
});

test('Inf and NaN parse (the tool layer rejects them, naming the argument)', () => {
  assert.deepEqual(P('[1 Inf]'), [[1, Infinity]]);
  assert.deepEqual(P('-np.inf'), [[-Infinity]]);
  assert.ok(Number.isNaN(P('NaN')[0][0]));
});

test('error messages name the problem and the position', () => {
  fails('[1 2; 3 4 5]', 'rows 1 and 2 have different lengths (2 and 3) in [1 2; 3 4 5]', 'column 1');
  fails('  [1 2; 3 4 5]', 'at column 3');
  fails('[1 2;\n 3 4 5]', 'rows 1 and 2 have different lengths (2 and 3)', 'line 1, column 1');
  fails('[[1,2],[3]]', 'rows 1 and 2 have different lengths (2 and 1) in [[1,2],[3]]');
  fails('eye(2))', "unexpected ')' at column 7");
  fails('[1 2)', "unexpected ')' at column 5");
  fails('foo(3)', 'unknown function foo at column 1');
  fails('[1 foo(2)]', 'unknown function foo at column 4');
  fails('[1 x]', 'unknown name x at column 4');
  fails('[1 2', "unclosed '[' at column 1");
  fails('[1 * ]', "expected a value after '*' at column 4");
  fails('1 2', 'missing operator or comma', 'column 3');
  fails('2(3)', 'missing operator or comma', 'column 2');
  fails('[1,,2]', "missing entry before ','", 'column 4');
  fails('[1i 2]', 'complex number 1i is not supported', 'column 2');
  fails('1:3', "ranges with ':' are not supported", 'column 2');
  fails('{1}', "unexpected '{' at column 1");
  fails('[eye(2) ones(3,1)]', 'different heights (2 and 3 rows)', 'column 1');
  fails('eye(2) + ones(3)', "sizes 2x2 and 3x3 do not match for '+'");
  fails('[1 2]*[3 4]', "inner sizes do not match for '*'");
  fails('sqrt(-1)', 'not a real number', 'column 1');
  fails('eye', 'eye needs arguments', 'column 1');
  fails('zeros(1e9)', 'too large');
  fails('', 'empty');
  fails('np.array([[1, 2]], copy=False)', 'keyword argument copy=', 'column 20');
  fails('[1 2; 3 4] == 1', "unexpected '='");
});

test('a multi-line literal reports lines', () => {
  fails('[1 2\n 3 4\n 5 6 7]', 'rows 1 and 3 have different lengths (2 and 3)', 'line 1, column 1');
  fails('[1 2\n 3 foo]', 'unknown name foo at line 2, column 4');
});

test('nothing but numeric construction runs', () => {
  const refuse = [
    'import({x: 1})',
    "import('fs')",
    'f(x)=x',
    'f(x) = x^2',
    'x = 3',
    'evaluate("1")',
    "evaluate('1+1')",
    'parse("1")',
    "createUnit('foo')",
    'createUnit("knot", {definition: "0.514444 m/s"})',
    'simplify("x+x")',
    'derivative("x^2", "x")',
    'compile("1")',
    'cos.constructor("return process")()',
    '[1 2].constructor',
    'x.y = 1',
    '"abc"',
    "'abc'",
    '{a: 1}',
    '1 ? 2 : 3',
    'a ; b',
    '__i0',
    '__v0(1)',
    'pi = 3',
    'eye(2)[1, 1]',
    'f = eye',
    '1 == 1',
    'reviver',
    'resolve("x")',
  ];
  for (const t of refuse) {
    let err: unknown;
    try {
      P(t);
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ControlError, `${JSON.stringify(t)} must be refused, got ${String(err)}`);
  }
  // the instance itself has the dangerous functions disabled (mathjs security guide)
  const m = restrictedMath as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const [name, args] of [
    ['import', [{ x: 1 }]],
    ['createUnit', ['foo']],
    ['evaluate', ['1']],
    ['parse', ['1']],
    ['compile', ['1']],
    ['simplify', ['x']],
    ['derivative', ['x^2', 'x']],
  ] as const) {
    assert.throws(() => m[name](...args), /disabled/, `${name} must be disabled`);
  }
  // and parsing still works afterwards
  assert.deepEqual(P('[1 2]'), [[1, 2]]);
});

test('findAssignments: MATLAB file', () => {
  const text = "A = [0 1;\n     -2 -3];\nB = [0; 1];  % input\nx = foo(3);\nn = 2*k;\nC = [1 0]\nfor i = 1:10\ns = 'abc';\nD = [1 2; 3 4 5];\n";
  const as = findAssignments(text);
  assert.deepEqual(
    as.map((a) => a.name),
    ['A', 'B', 'C', 'D'],
  );
  const [A, B, C, D] = as;
  assert.deepEqual(A.value, [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(A.range, { start: { line: 0, character: 0 }, end: { line: 1, character: 12 } });
  assert.equal(A.valueText, '[0 1;\n     -2 -3]');
  assert.deepEqual(B.value, [[0], [1]]);
  assert.deepEqual(B.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 11 } });
  assert.deepEqual(C.value, [[1, 0]]);
  assert.deepEqual(C.range.end, { line: 5, character: 9 });
  assert.equal(D.value, undefined);
  assert.match(D.error!, /rows 1 and 2 have different lengths \(2 and 3\) in \[1 2; 3 4 5\] at line 9, column 5/);
});

test('findAssignments: Python over several lines', () => {
  const text =
    'import numpy as np\nA = np.array([[0, 1],\n              [-2, -3]], dtype=float)\nB = np.array([[0], [1]])  # col\nK = lqr(A, B)\nself.Q = np.eye(2)\nt = np.linspace(0, 1, 10)\n';
  const as = findAssignments(text);
  assert.deepEqual(
    as.map((a) => a.name),
    ['A', 'B', 'self.Q'],
  );
  assert.deepEqual(as[0].value, [
    [0, 1],
    [-2, -3],
  ]);
  assert.deepEqual(as[0].range, { start: { line: 1, character: 0 }, end: { line: 2, character: 37 } });
  assert.equal(as[0].valueText, 'np.array([[0, 1],\n              [-2, -3]], dtype=float)');
  assert.deepEqual(as[1].value, [[0], [1]]);
  assert.deepEqual(as[2].value, [
    [1, 0],
    [0, 1],
  ]);
});

test('findAssignments: chat prose', () => {
  const text = 'design an LQR for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1';
  const as = findAssignments(text);
  assert.deepEqual(
    as.map((a) => [a.name, a.value, a.valueText]),
    [
      [
        'A',
        [
          [0, 1],
          [-2, -3],
        ],
        '[0 1; -2 -3]',
      ],
      ['B', [[0], [1]], '[0;1]'],
      [
        'Q',
        [
          [1, 0],
          [0, 1],
        ],
        'eye(2)',
      ],
      ['R', [[1]], '1'],
    ],
  );
  assert.deepEqual(as[0].range, { start: { line: 0, character: 18 }, end: { line: 0, character: 32 } });
  assert.deepEqual(as[3].range, { start: { line: 0, character: 53 }, end: { line: 0, character: 56 } });

  const b = findAssignments('with A = [[0,1],[-2,-3]] and R = 1. Also Ts=0.1.');
  assert.deepEqual(
    b.map((a) => [a.name, a.value]),
    [
      [
        'A',
        [
          [0, 1],
          [-2, -3],
        ],
      ],
      ['R', [[1]]],
      ['Ts', [[0.1]]],
    ],
  );
  const c = findAssignments('Let `A = [0 1; -2 -3]` and $B = [0;1]$, num = [1 2], den=[1 3 2]; poles = [-1, -2]');
  assert.deepEqual(
    c.map((a) => a.name),
    ['A', 'B', 'num', 'den', 'poles'],
  );
  assert.deepEqual(c[3].value, [[1, 3, 2]]);
  assert.equal(c[3].valueText, '[1 3 2]');
});

test('findAssignments: skips what is not a literal, reports what fails', () => {
  assert.deepEqual(findAssignments('x == 3; y <= 2; z += 1; s = "A=1"; x = foo(3); y = a*b; k = 1:10'), []);
  const bad = findAssignments('A = [1 2\n\nB = [3 4]\npoles = [-1+2i, -1-2i]');
  assert.deepEqual(
    bad.map((a) => a.name),
    ['A', 'B', 'poles'],
  );
  assert.match(bad[0].error!, /unclosed '\[' at line 1, column 5/);
  assert.deepEqual(bad[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } });
  assert.deepEqual(bad[1].value, [[3, 4]]);
  assert.match(bad[2].error!, /complex number 2i is not supported at line 4, column 13/);
});

test('names of the Object prototype are unknown names, never an internal error (issue 11)', async () => {
  const { invokeTool } = await import('../../src/core/mcp/invoke.js');
  const names = [
    'constructor',
    'toString',
    'valueOf',
    '__proto__',
    'hasOwnProperty',
    'prototype',
    '__defineGetter__',
    '__defineSetter__',
    '__lookupGetter__',
    '__lookupSetter__',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
  ];
  for (const name of names) {
    for (const spelled of [name, `np.${name}`, `numpy.${name}`, `math.${name}`]) {
      const texts = [
        spelled,
        `[1 ${spelled}]`,
        `[${spelled}(1)]`,
        `[1, ${spelled}(2)]`,
        `[[1, ${spelled}]]`,
        `np.array([${spelled}])`,
        `[0 1; ${spelled} 3]`,
        `eye(2)*${spelled}`,
        `${spelled}(eye(2))'`,
        `[1 2] + ${spelled}()`,
      ];
      for (const text of texts) fails(text, spelled);
    }
    // through a tool call too: a refusal that names it, never "internal error"
    const r = await invokeTool('eig', { A: `[1 ${name}; 0 1]` });
    assert.equal(r.ok, false, name);
    if (!r.ok) {
      assert.doesNotMatch(r.reason, /internal error|TypeError|is not a function|not iterable/i, name);
      assert.ok(r.reason.includes(name), `${name}: ${r.reason}`);
    }
  }
  // assignments in a file: the name on the right is unknown, the file still reads
  const found = findAssignments('A = [1 constructor]\nB = [__proto__(1)]\nC = [1 2]');
  assert.deepEqual(
    found.filter((a) => a.value).map((a) => a.name),
    ['C'],
  );
  // the real names still work
  assert.deepEqual(
    P('[pi 0; 0 np.e] * eye(2)').map((r) => r.map((x) => Math.round(x * 1000) / 1000)),
    [
      [3.142, 0],
      [0, 2.718],
    ],
  );
});

test('findAssignments: a dash used as punctuation ends the value; a minus between operands does not', () => {
  const one = (text: string) => findAssignments(text).map((a) => [a.name, a.valueText, a.value]);
  assert.deepEqual(one('what if R=10 - where do the closed loop poles go'), [['R', '10', [[10]]]]);
  assert.deepEqual(one('Q = eye(2) — and R = 1'), [
    [
      'Q',
      'eye(2)',
      [
        [1, 0],
        [0, 1],
      ],
    ],
    ['R', '1', [[1]]],
  ]);
  assert.deepEqual(one('K = 3 – the gain'), [['K', '3', [[3]]]]);
  // an expression stays whole: 10 - 4 is 6, and a minus before a name is no punctuation
  assert.deepEqual(one('R = 10 - 4'), [['R', '10 - 4', [[6]]]]);
  assert.deepEqual(one('x = 2 - t'), []);
});
