/**
 * The design playbooks (agent/playbooks.ts) as MCP prompts: `prompts/list` offers each one with
 * its tool's arguments, `prompts/get` returns the playbook's calls for those arguments as a
 * message an MCP client's model follows with our tools — the same steps, in the same order,
 * with the arguments that come from earlier steps named, so the client computes nothing itself.
 * Derived from the playbook definitions: a new playbook is offered here without code.
 */
import { ControlError } from '../errors.js';
import { prepareArgs } from '../tools/call.js';
import { getTool } from '../tools/table.js';
import { From, PLAYBOOKS, stepRef, type Playbook, type PlaybookStep } from '../agent/playbooks.js';

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

const promptName = (pb: Playbook) => `${pb.id}_design`;

export function mcpPrompts(): McpPrompt[] {
  return Object.values(PLAYBOOKS).map((pb) => {
    const tool = getTool(pb.tool)!;
    const required = new Set(tool.parameters.required ?? []);
    return {
      name: promptName(pb),
      title: `${pb.title} (@control playbook)`,
      description: `The @control ${pb.title} playbook as tool calls: ${pb.outline}. Arguments as for the ${pb.tool} tool (matrices as JSON arrays of rows or MATLAB literals).`,
      arguments: Object.entries(tool.parameters.properties).map(([name, schema]) => ({
        name,
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        ...(required.has(name) ? { required: true } : {}),
      })),
    };
  });
}

/** the arguments a client sends are strings (MCP prompt arguments): JSON, a number, or a MATLAB literal */
function parseArg(v: string): unknown {
  const t = v.trim();
  try {
    return JSON.parse(t);
  } catch {
    return t; // a MATLAB literal ("[0 1; -2 -3]") or a word ('PI'): the tool's coercion reads it
  }
}

export function getPrompt(
  name: string,
  raw: Record<string, unknown>,
): { description: string; messages: { role: 'user'; content: { type: 'text'; text: string } }[] } {
  const pb = Object.values(PLAYBOOKS).find((p) => promptName(p) === name);
  if (!pb) throw new ControlError(`Unknown prompt: ${name}. Prompts: ${Object.values(PLAYBOOKS).map(promptName).join(', ')}.`);
  const strings = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? parseArg(v) : v]));
  const { args } = prepareArgs(pb.tool, strings);
  const steps = pb.steps(args);
  const lines = steps.map((s, i) => {
    const args = (s.args instanceof From ? systemFields(s.args, steps) : placeholders(s.args, steps)) as Record<string, unknown>;
    // what the chat's plan chooses itself (a time or frequency grid) is said, for the client to choose
    const tool = getTool(s.tool)!;
    for (const k of tool.parameters.required ?? []) if (args[k] === undefined && GRIDS[k]) args[k] = `<${GRIDS[k]}>`;
    return `${i + 1}. **${s.title}**: ${s.why}. Call \`${s.tool}\` with ${JSON.stringify(args)}.${s.stopIf ? ` Stop here, saying so, if ${s.stopIf}.` : ''}`;
  });
  lines.push(`${steps.length + 1}. **Report**: a table of each step's main result (quoted from the tool result, not recomputed) and its verification line.`);
  const text = [
    `Run the @control ${pb.title} playbook with the @control tools: these calls, in order. A value written "<… of step k>" is that field of step k's result; pass it as the tool returned it. Every number in the answer must come from a tool result.`,
    '',
    ...lines,
  ].join('\n');
  return { description: `${pb.title}: ${steps.length} tool calls and a report`, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

const GRIDS: Record<string, string> = {
  t: 'a time grid: uniform, 0 to about 8 of the slowest time constants (about 400 points)',
  w: 'frequencies: about 200, log-spaced two decades around the poles and zeros',
};

/** a whole system from an earlier step, as the tool's A, B, C, D arguments */
function systemFields(f: From, steps: PlaybookStep[]): Record<string, unknown> {
  return Object.fromEntries(['A', 'B', 'C', 'D'].map((k) => [k, `<${stepRef(f, steps, k)}>`]));
}

/** the arguments with earlier steps' results as "<K of step 2 (lqr)>" (a system: "<the system of step 4 (reg)>") */
function placeholders(v: unknown, steps: PlaybookStep[]): unknown {
  if (v instanceof From) return `<${stepRef(v, steps, v.path === '$system' || v.path === '$ss' ? 'the system (A, B, C, D)' : v.path)}>`;
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeholders(x, steps)]));
  return v;
}
