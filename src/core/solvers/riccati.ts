import type { ToolDef } from '../tools/types.js';

export const tools: ToolDef[] = [];
