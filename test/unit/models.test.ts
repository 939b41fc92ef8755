// findModels: which matrix assignments of a source file form a state-space model (the code
// lenses and the code-lens command stand on these). Expected matrices are the literals as
// written in each text; lines are 0-based.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findModels, type ModelFamily } from '../../src/core/parse/index.js';

/** name, line and value of each member, per family */
const summary = (fs: ModelFamily[]) => fs.map((f) => ({ suffix: f.suffix, members: f.members.map((m) => [m.name, m.range.start.line, m.value]) }));

test('MATLAB: A = [0 1; -2 -3]; with B, C, D below is one model, scalars are not', () => {
  const text = ['% mass-spring-damper', 'm = 1; k = 2;', 'A = [0 1; -2 -3];', 'B = [0; 1];', 'C = [1 0];', 'D = 0;', 'Ts = 0.1;'].join('\n');
  assert.deepEqual(summary(findModels(text)), [
    {
      suffix: '',
      members: [
        [
          'A',
          2,
          [
            [0, 1],
            [-2, -3],
          ],
        ],
        ['B', 3, [[0], [1]]],
        ['C', 4, [[1, 0]]],
        ['D', 5, [[0]]],
      ],
    },
  ]);
  const a = findModels(text)[0].a;
  assert.deepEqual(a.range.start, { line: 2, character: 0 });
});

test('python-control: numpy arrays passed to ct.ss(A, B, C, D); the ss call itself is no matrix', () => {
  const text = [
    'import control as ct',
    'import numpy as np',
    '',
    'A = np.array([[0.0, 1.0],',
    '              [-2.0, -3.0]])',
    'B = np.array([[0.0], [1.0]])',
    'C = np.array([[1.0, 0.0]])',
    'D = np.zeros((1, 1))',
    'sys = ct.ss(A, B, C, D)',
    'T = ct.feedback(sys, 1)',
  ].join('\n');
  assert.deepEqual(summary(findModels(text)), [
    {
      suffix: '',
      members: [
        [
          'A',
          3,
          [
            [0, 1],
            [-2, -3],
          ],
        ],
        ['B', 5, [[0], [1]]],
        ['C', 6, [[1, 0]]],
        ['D', 7, [[0]]],
      ],
    },
  ]);
});

test('families by suffix: A1/B1 and Ad/Bd/Cd are separate models; a C without its own suffix is not taken', () => {
  const text = ['A1 = [1 2; 3 4];', 'B1 = [1; 0];', 'Ad = [0.9 0.1; 0 0.8];', 'Bd = [0; 0.1];', 'Cd = [1 0];', 'C = [0 1];'].join('\n');
  assert.deepEqual(summary(findModels(text)), [
    {
      suffix: '1',
      members: [
        [
          'A1',
          0,
          [
            [1, 2],
            [3, 4],
          ],
        ],
        ['B1', 1, [[1], [0]]],
      ],
    },
    {
      suffix: 'd',
      members: [
        [
          'Ad',
          2,
          [
            [0.9, 0.1],
            [0, 0.8],
          ],
        ],
        ['Bd', 3, [[0], [0.1]]],
        ['Cd', 4, [[1, 0]]],
      ],
    },
  ]);
});

test('no model: A not square, A without a B, a B more than 40 lines away, a D without a C', () => {
  assert.deepEqual(findModels('A = [1 2 3; 4 5 6];\nB = [1; 0];'), []);
  assert.deepEqual(findModels('A = [0 1; -2 -3];\nC = [1 0];'), []);
  assert.deepEqual(findModels(`A = [0 1; -2 -3];${'\n'.repeat(41)}B = [0; 1];`), []);
  assert.deepEqual(
    summary(findModels('A = [0 1; -2 -3];\nB = [0; 1];\nD = 0;')).map((f) => f.members.map((m) => m[0])),
    [['A', 'B']],
  );
});

test('commented-out MATLAB and Python lines are not models', () => {
  assert.deepEqual(findModels('% A = [0 1; -2 -3];\n% B = [0; 1];'), []);
  assert.deepEqual(findModels('  %A = [0 1; -2 -3];\n  %B = [0; 1];'), []);
  assert.deepEqual(findModels('# A = np.array([[0, 1], [-2, -3]])\n# B = np.array([[0], [1]])'), []);
  assert.deepEqual(findModels('x = 1  # A = np.array([[0, 1], [-2, -3]]); B = np.array([[0], [1]])'), []);
  // a MATLAB block comment, nested
  assert.deepEqual(findModels('%{\nold model:\n%{\nA = [1 0; 0 1];\n%}\nB = [1; 1];\n%}'), []);
});

test('a commented-out B beside a live A is not its B; the live one is', () => {
  const text = ['A = [0 1; -2 -3];', '% B = [5; 5];   old input', '', '', 'B = [0; 1];'].join('\n');
  assert.deepEqual(summary(findModels(text)), [
    {
      suffix: '',
      members: [
        [
          'A',
          0,
          [
            [0, 1],
            [-2, -3],
          ],
        ],
        ['B', 4, [[0], [1]]],
      ],
    },
  ]);
  // a trailing comment after a live assignment takes nothing with it
  const trailing = 'A = [0 1; -2 -3]; % A = [9 9; 9 9]\nB = [0; 1];  # B = [7; 7]';
  assert.deepEqual(summary(findModels(trailing)), [
    {
      suffix: '',
      members: [
        [
          'A',
          0,
          [
            [0, 1],
            [-2, -3],
          ],
        ],
        ['B', 1, [[0], [1]]],
      ],
    },
  ]);
});

test('a % or # inside a string, or a transpose quote, does not comment out what follows', () => {
  const inString = "disp('50% done'); A = [1 0; 0 1]; B = [1; 0];";
  assert.deepEqual(summary(findModels(inString)), [
    {
      suffix: '',
      members: [
        [
          'A',
          0,
          [
            [1, 0],
            [0, 1],
          ],
        ],
        ['B', 0, [[1], [0]]],
      ],
    },
  ]);
  const python = 'print("#1"); A = np.array([[1, 0], [0, 1]]); B = np.array([[1], [0]])';
  assert.deepEqual(
    summary(findModels(python)).map((f) => f.members.map((m) => m[0])),
    [['A', 'B']],
  );
  // x' is a transpose, not a string that would hide the % of the comment; the model before it is live
  const transpose = "A = [0 1; -2 -3]; B = [0; 1]; y = x'; % A2 = [1 0; 0 1]; B2 = [1; 1];";
  assert.deepEqual(
    summary(findModels(transpose)).map((f) => f.members.map((m) => m[0])),
    [['A', 'B']],
  );
});
