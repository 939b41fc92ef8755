/** Building blocks for tool argument schemas, so every tool describes matrices alike. */
import type { JsonSchema } from './types.js';

export const matrix = (description: string): JsonSchema => ({
  type: 'array',
  description: `${description} (array of rows, e.g. [[0,1],[-2,-3]])`,
  items: { type: 'array', items: { type: 'number' } },
});

export const vector = (description: string): JsonSchema => ({
  type: 'array',
  description,
  items: { type: 'number' },
});

/** complex numbers as [re, im] pairs; a plain real number is accepted too */
export const complexList = (description: string): JsonSchema => ({
  type: 'array',
  description: `${description} (list of [re, im] pairs; give conjugate pairs in full)`,
  items: {
    anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }],
  },
});

export const sampleTime: JsonSchema = {
  type: 'number',
  description: 'sample time in seconds; present and > 0 means discrete time',
  minimum: 0,
};
