// Golden event fixtures (test/fixtures/golden/): what a turn's events are pinned as (their
// types, the tool of a call, whether a result came back) and how a fixture file is written
// (one script line and one event per line), for UPDATE_GOLDEN=1 to rewrite a fixture.
import type { TurnEvent } from '../../src/core/agent/events.js';

export type GoldenEvent = { type: string; tool?: string; ok?: boolean };

/** the events as pinned: consecutive text events are one */
export function goldenEvents(ev: readonly TurnEvent[]): GoldenEvent[] {
  return ev
    .map((e) =>
      e.type === 'tool_call' || e.type === 'reading'
        ? { type: e.type, tool: e.tool }
        : e.type === 'tool_result'
          ? { type: e.type, tool: e.tool, ok: e.error === undefined }
          : { type: e.type },
    )
    .filter((e, i, a) => e.type !== 'text' || a[i - 1]?.type !== 'text');
}

/** the fixture as it is written: one script line and one event per line */
export function goldenText(g: Record<string, unknown>): string {
  const item = (x: unknown) =>
    typeof x === 'object' && x !== null
      ? `{ ${Object.entries(x)
          .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
          .join(', ')} }`
      : JSON.stringify(x);
  const field = ([k, v]: [string, unknown]) =>
    `  ${JSON.stringify(k)}: ${Array.isArray(v) ? `[\n${v.map((x) => `    ${item(x)}`).join(',\n')}\n  ]` : JSON.stringify(v)}`;
  return `{\n${Object.entries(g).map(field).join(',\n')}\n}\n`;
}
