/**
 * One tool result as the answer shows it: the tool's own renderer (its `render` facet), then
 * the verification line. Front ends call this; the renderers live in render/results.ts or
 * beside their tools.
 */
import { getTool } from '../tools/table.js';
import type { Verification } from '../verify/index.js';
import type { RenderOptions } from './markdown.js';
import { renderGeneric, verificationLine } from './results.js';

/** the Markdown of one tool result, verification line included */
export function renderToolResult(
  tool: string,
  args: Record<string, any>,
  result: Record<string, any>,
  verification: Verification | undefined,
  o: RenderOptions,
): string {
  const def = getTool(tool);
  const body = def ? def.render(args, result, o) : renderGeneric(args, result, o);
  return `${body}\n\n${verificationLine(verification)}`;
}
