/**
 * One tool call from another assistant: the path shared by the MCP server (`server.ts`) and
 * VS Code's Language Model Tools (`src/vscode/lmTools.ts`). Arguments go through
 * `prepareArgs` (coercion, ajv, size limit), the solver runs, `verify` checks the result,
 * and the answer is the rendered Markdown (verification line included) plus the
 * full-precision result for machines. A refusal is a value with the reason, never a throw:
 * each front end turns it into its own error shape (MCP `isError`, a thrown Error for VS Code).
 */
import { quoteInput } from '../errors.js';
import { encodeNonFinite, errorMessage } from '../tools/batch.js';
import { callTool, colsOf, rowsOf, VerificationFailed, type RunOptions } from '../tools/runner.js';
import { getTool } from '../tools/table.js';
import type { ToolDef } from '../tools/types.js';
import { renderToolResult } from '../render/answer.js';
import type { Verification } from '../verify/index.js';

export interface Solved {
  ok: true;
  tool: ToolDef;
  /** `# Title` then the rendered answer and its verification line */
  markdown: string;
  /**
   * Machine-readable: the tool, the full-precision result (non-finite numbers as the strings
   * "Infinity", "-Infinity", "NaN"), and the verifier's verdict (null: no verifier check).
   */
  structured: {
    tool: string;
    result: Record<string, unknown>;
    verification: { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] } | null;
  };
}

export interface Refused {
  ok: false;
  /** what is wrong and the way out, as the core's ControlError says it */
  reason: string;
  /** a result the verifier rejected: its checks (the result itself is not given) */
  verification?: Solved['structured']['verification'];
}

export interface InvokeOptions extends RunOptions {
  /** LaTeX matrices (for a chat that renders math); default false: aligned text */
  math?: boolean;
}

function verificationJson(v: Verification | undefined): Solved['structured']['verification'] {
  if (!v) return null;
  return { ok: v.ok, checks: v.checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail })) };
}

/** one call through the verified path (on a solver thread, under the time budget); never throws */
export async function invokeTool(name: string, raw: unknown, opts: InvokeOptions = {}): Promise<Solved | Refused> {
  try {
    const { tool, args, result, verification: v } = await callTool(name, (raw ?? {}) as Record<string, unknown>, opts);
    const markdown = `# ${tool.title}\n\n${renderToolResult(tool.name, args, result, v, { math: opts.math ?? false })}`;
    return {
      ok: true,
      tool,
      markdown,
      structured: { tool: tool.name, result: encodeNonFinite(result) as Record<string, unknown>, verification: verificationJson(v) },
    };
  } catch (e) {
    return { ok: false, reason: errorMessage(e), ...(e instanceof VerificationFailed ? { verification: verificationJson(e.verification) } : {}) };
  }
}

const plural = (n: number, word: string) => `${n}-${word}`;

/** "a 2-state" but "an 8-state", "an 11-state", "an 800-state": the article of a number as it is read */
export function article(n: number): 'a' | 'an' {
  const s = String(Math.trunc(Math.abs(n)));
  // eight, eighty, eight hundred...; eleven and eighteen (also eleven/eighteen thousand, million)
  return s[0] === '8' || (s.length % 3 === 2 && /^1[18]/.test(s)) ? 'an' : 'a';
}

/**
 * A short progress line for a call, from its raw arguments (not yet validated, so it only
 * reads shapes and never throws): "Solving continuous-time LQR for a 2-state, 1-input model".
 */
export function describeInvocation(name: string, raw: unknown): string {
  const tool = getTool(name);
  // an unknown name is the caller's text: quoted short (a progress line, not an echo of 1 MB)
  const t = tool?.title ?? quoteInput(name, 60);
  // "Continuous-time LQR" -> "continuous-time LQR"; "DC gain", "H2 norm" stay as written
  const title = /^[A-Z][a-z]/.test(t) ? t[0].toLowerCase() + t.slice(1) : t;
  const a = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const n = rowsOf(a.A);
  const parts: string[] = [];
  if (n !== undefined) {
    parts.push(plural(n, 'state'));
    const m = colsOf(a.B) ?? colsOf(a.G);
    if (m !== undefined) parts.push(plural(m, 'input'));
    const p = rowsOf(a.C);
    if (p !== undefined && name !== 'obsv_rank' && name !== 'lqe' && name !== 'kalman') parts.push(plural(p, 'output'));
    else if (p !== undefined) parts.push(plural(p, 'measurement'));
  }
  let subject = '';
  if (parts.length) subject = ` for ${article(n ?? 0)} ${parts.join(', ')} model`;
  else if (Array.isArray(a.den) && a.den.length > 1) subject = ` for a transfer function of order ${a.den.length - 1}`;
  const discrete = typeof a.Ts === 'number' && a.Ts > 0 ? ` (discrete time, Ts = ${a.Ts} s)` : '';
  return `Solving ${title}${subject}${discrete}`;
}
