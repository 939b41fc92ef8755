/**
 * The shape of one tool in the one tool table. Each tool is defined once, in the solver
 * module of its domain (`src/core/solvers/<domain>.ts` exports `tools: ToolDef[]`), and
 * every front end (chat, CLI, language-model tools, MCP) and every engine's tool format is
 * generated from these definitions by `src/core/tools/table.ts`.
 */
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

export interface ToolDef {
  /** MATLAB/python-control style name, exactly as in the oracle: `lqr`, `care`, ... */
  name: string;
  /** a short human title: "Continuous algebraic Riccati equation" */
  title: string;
  /** what it does, for a language model choosing tools; states conventions (u = -Kx, ...) */
  description: string;
  /** one line for the compact schemas a local model sees (every prefix token costs prefill time) */
  brief?: string;
  /** JSON Schema of the arguments: an object schema with properties and required */
  parameters: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };
  /**
   * Solves. Receives arguments already validated against `parameters` (matrices as arrays
   * of rows, finite numbers). Throws `ControlError` for bad shapes and infeasible problems.
   * Returns the oracle's result fields at full precision (non-finite numbers allowed).
   */
  run(args: Record<string, any>): Record<string, unknown>;
}
