/**
 * The restricted mathjs instance the matrix-literal reader (literal.ts) parses with. Its own
 * module so that it is loaded on the first literal read, not at start-up: loading mathjs builds
 * every mathjs function (0.16 s on the development machine), which tools called with plain
 * JSON arrays (`control solve`, batch, MCP) never need. literal.ts `require`s it on first use;
 * the CLI's cliSolve.js bundle does not even hold it (dist/restrictedMath.js, build.config.mjs).
 */
import { all, create } from 'mathjs';

const math = create(all, { number: 'number' });

/** the parser, kept before it is disabled on the instance (as in the mathjs security guide) */
export const mathParse: (expr: string) => unknown = math.parse as unknown as (expr: string) => unknown;
/**
 * mathjs's symbolic derivative, kept before it is disabled on the instance, for the nonlinear
 * models (solvers/_nlmodel.ts): it is only ever given a parse tree that the model's reader has
 * walked and accepted (numbers, the model's names, arithmetic and elementary functions), and its
 * result is walked by the same reader before anything is computed from it. It rewrites a tree;
 * nothing of the tree is executed.
 */
export const mathDerivative: (expr: unknown, variable: unknown, options?: { simplify?: boolean }) => unknown = math.derivative as unknown as (
  expr: unknown,
  variable: unknown,
  options?: { simplify?: boolean },
) => unknown;
{
  const disabled = (name: string) => () => {
    throw new Error(`Function ${name} is disabled`);
  };
  const names = [
    'import',
    'createUnit',
    'evaluate',
    'parse',
    'compile',
    'simplify',
    'simplifyConstant',
    'simplifyCore',
    'derivative',
    'rationalize',
    'resolve',
    'reviver',
    'symbolicEqual',
    'parser',
    'chain',
  ];
  math.import(Object.fromEntries(names.map((n) => [n, disabled(n)])), { override: true });
}

/** the mathjs instance used by the literal evaluator, exported for tests of its restrictions */
export const restrictedMath = math;
