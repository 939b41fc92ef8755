/**
 * The tool table as VS Code Language Model Tools: the static `contributes.languageModelTools`
 * entries of package.json (written by `scripts/gen-manifest.ts`, checked by
 * `test/unit/manifest.test.ts`) and the names `src/vscode/lmTools.ts` registers. No vscode
 * import: the manifest is data, generated from the same `ToolDef`s as every other front end.
 */
import { TOOLS } from '../tools/table.js';
import type { ToolDef } from '../tools/types.js';

/** VS Code tool names are global across extensions: ours carry a prefix */
export const LM_TOOL_PREFIX = 'control_';

export const lmToolName = (tool: string): string => `${LM_TOOL_PREFIX}${tool}`;

/** the table's tool name of a VS Code tool name, or undefined when it is not one of ours */
export function tableToolName(lmName: string): string | undefined {
  return lmName.startsWith(LM_TOOL_PREFIX) ? lmName.slice(LM_TOOL_PREFIX.length) : undefined;
}

export interface LmToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  userDescription: string;
  modelDescription: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: ToolDef['parameters'];
}

/** the first sentence of a description (a period outside brackets), for the tool picker */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth = Math.max(0, depth - 1);
    else if (c === '.' && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1]))) return text.slice(0, i + 1);
  }
  return text;
}

export function lmToolContribution(t: ToolDef): LmToolContribution {
  return {
    name: lmToolName(t.name),
    displayName: `${t.title} (@control)`,
    toolReferenceName: lmToolName(t.name),
    userDescription: `${firstSentence(t.description)} Deterministic solver with independent verification.`,
    modelDescription: `${t.description} Deterministic and independently verified: the result ends with a verification line; quote its numbers rather than recomputing them. Matrices are arrays of rows.`,
    canBeReferencedInPrompt: true,
    icon: '$(symbol-function)',
    tags: ['control-systems', 'verified-solver', t.name],
    inputSchema: t.parameters,
  };
}

/** package.json `contributes.languageModelTools`, in tool-table order */
export function lmToolManifest(): LmToolContribution[] {
  return TOOLS.map(lmToolContribution);
}
