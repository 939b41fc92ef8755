/**
 * The shape of one tool in the one tool table. Each tool is one object, defined once in the
 * solver module of its domain (`src/core/solvers/<domain>.ts` exports `tools = [tool({...})]`),
 * holding every facet a tool has: schema, solver, vocabulary, intro, renderer, reproducing
 * code, whether a model is offered it, plots. A facet a tool does not have is written as
 * `{ none: 'why' }`, so a forgotten facet is a compile error, never a quiet degradation. The
 * only per-tool table kept apart is the verifier's (`src/core/verify/checks.ts`), which must
 * stay independent of the solver; it is `satisfies Record<ToolName, ...>`, so a tool without
 * an entry there does not compile either. Every front end (chat, CLI, language-model tools,
 * MCP) and every engine's tool format is derived from `src/core/tools/table.ts`.
 */
import type { RenderOptions } from '../render/markdown.js';
import type { Code } from '../codegen/code.js';
import type { PlotSpec } from '../plot/specs.js';

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  minimum?: number;
  exclusiveMinimum?: number;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  default?: unknown;
  [k: string]: unknown;
}

/** one way of calling the tool in code: MATLAB/Octave, python-control or SciPy */
export interface ToolCallForm {
  /** function names as written, without a module prefix (`ct.`, `scipy.linalg.` are ignored) */
  names: string[];
  /**
   * the tool parameter each positional argument fills; `sys` takes a system (state space or
   * transfer function); `'c'` (quoted) is a string argument that must be exactly that
   */
  args: string[];
  /** the fewest positional arguments this form needs (lyap(A, B, C) is Sylvester, lyap(A, Q) is not) */
  min?: number;
  /** keyword arguments as written (python-control/SciPy) -> tool parameter */
  keywords?: Record<string, string>;
  /** how this form differs from the tool, said in the answer when it is used */
  note?: string;
  /** maps the arguments as written onto the tool's convention (e.g. SciPy's Lyapunov sign) */
  map?: (args: Record<string, unknown>) => Record<string, unknown>;
  /**
   * the result field each output of the call holds, in order, as the function returns them
   * (MATLAB `[K, S, P] = lqr(...)`: ['K', 'X', 'poles']; '' for an output we do not compute, such
   * as kalman's kest): `K = lqr(A, B, Q, R)` saves K for later requests (`reg(sys, K, L)`)
   */
  returns?: string[];
}

/**
 * What a user may write to ask for the tool: the request reader (src/core/reader/) builds its
 * lexicon from these, so a new tool brings its own vocabulary.
 */
export interface ToolWords {
  /** call syntax, most common form first */
  calls: ToolCallForm[];
  /** plain-English phrases that name the task (word boundaries; typo tolerant on words of 5+ letters) */
  phrases: string[];
  /** words that name it only when nothing stronger is named ("poles", "stable") */
  weak?: string[];
  /** argument names people write for a parameter: { Ts: ['T', 'dt'] } */
  aliases?: Record<string, string[]>;
  /** the discrete-time counterpart, used when the request or its system is discrete */
  discrete?: string;
  /** the continuous-time counterpart */
  continuous?: string;
  /** a complete request, shown when arguments are missing */
  example: string;
  /**
   * A alone is a whole model for this tool (it reads only the poles: damp), although it also
   * takes num/den or A, B, C, D; otherwise a tool that takes either asks for B and C.
   */
  poleOnly?: boolean;
  /**
   * A and B are a whole model for this tool (C is optional: the states are the outputs), although
   * it also takes num/den; otherwise a tool that takes either asks for C.
   */
  optionalC?: boolean;
  /**
   * 'call-only': the tool's name is an everyday word (series, parallel, initial, feedback) and
   * names the tool only as a call (`series(G, C)`) or through its phrases, never as a bare word
   * in prose ("a series RLC circuit", "state feedback", "the initial value").
   */
  name?: 'call-only';
}

/** a facet the tool does not have, and why (said where the facet would be) */
export interface NoFacet {
  none: string;
}

/**
 * The `model` facet of a tool a model reaches through the lookup tools (more_tools finds it,
 * use_tool calls it) rather than in the fixed prefix, whose budget (1,500 Qwen3 tokens in
 * node-llama-cpp's rendering, test/unit/prompt-budget.test.ts) the offered tools fill.
 */
export const BY_LOOKUP: NoFacet = { none: 'found by more_tools and called through use_tool; kept out of the fixed prefix (1,500-token budget)' };

export const hasFacet = <T extends object>(f: T | NoFacet): f is T => !('none' in f);

/** code that reproduces a result in MATLAB and python-control (codegen/code.ts writes it) */
export interface CodeFacet<Args = Record<string, any>, Result = Record<string, any>> {
  /** what the code computes, for its header comment */
  title: string;
  /** writes the code; `result` absent: the call only (it was refused) */
  gen(code: Code, args: Args, result: Result | undefined): void;
}

export interface ToolDef<Args = Record<string, any>, Result = Record<string, any>> {
  /** MATLAB/python-control style name, exactly as in the oracle: `lqr`, `care`, ... */
  name: string;
  /** a short human title: "Continuous algebraic Riccati equation" */
  title: string;
  /** what it does, for a language model choosing tools; states conventions (u = -Kx, ...) */
  description: string;
  /** one line for the compact schemas a local model sees (every prefix token costs prefill time) */
  brief?: string;
  /** how users ask for it: names, call forms, phrases, argument aliases, an example */
  words: ToolWords;
  /** JSON Schema of the arguments: an object schema with properties and required */
  parameters: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };
  /**
   * Solves. Receives arguments already validated against `parameters` (matrices as arrays
   * of rows, finite numbers). Throws `ControlError` for bad shapes and infeasible problems.
   * Returns the oracle's result fields at full precision (non-finite numbers allowed).
   */
  run(args: Args): Result;
  /**
   * Result fields whose definition allows Infinity or NaN (a gain margin with no phase
   * crossover, the DC gain at a pole). A non-finite number in any other field means the
   * computation broke down, and the verified call path refuses the result.
   */
  nonFinite?: readonly string[];
  /**
   * What the tool computes, stated the way a textbook would, shown before its result in the
   * chat (Markdown). `null`: the title alone introduces it (the result says the rest).
   */
  intro: string | null;
  /** the result as Markdown (numbers rounded for display); the verification line is added after */
  render(args: Args, result: Result, o: RenderOptions): string;
  /** reproducing code for MATLAB and python-control, or why there is none */
  code: CodeFacet<Args, Result> | NoFacet;
  /** offered to a language model up front ('offered'), or why not (it stays reachable by more_tools/use_tool, command, CLI, MCP) */
  model: 'offered' | NoFacet;
  /** the plots that fit an answer (buttons under it in the chat), or why there are none */
  plots: PlotsFacet<Args, Result> | NoFacet;
}

/**
 * The plots facet: method-declared (bivariant) like `run` and `render`, so a tool with typed
 * arguments or result still fits the table's ToolDef (the table calls each tool with its own).
 */
export type PlotsFacet<Args, Result> = { facet(args: Args, result: Result | undefined): PlotSpec[] }['facet'];

/**
 * Defines one tool. Keeps its name as a literal type, so the table's `ToolName` union lists
 * every tool and a per-tool map that must stay apart (the verifier's) is checked against it.
 */
export function tool<const N extends string, Args = Record<string, any>, Result = Record<string, any>>(
  def: ToolDef<Args, Result> & { name: N },
): ToolDef<Args, Result> & { name: N } {
  return def;
}
