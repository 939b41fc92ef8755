/**
 * The last turns of the conversation, kept in memory for the design report: a small ring
 * buffer of (prompt, events). Nothing is written anywhere from here.
 */
import type { TurnEvent } from '../agent/events.js';

export interface TurnRecord {
  /** ISO time the turn started */
  at: string;
  prompt: string;
  command?: string;
  events: TurnEvent[];
}

export class TurnLog {
  private buf: TurnRecord[] = [];
  constructor(readonly capacity = 20) {}

  /** starts a record; events are appended as they pass through `record` */
  begin(prompt: string, command?: string, at = new Date()): TurnRecord {
    const rec: TurnRecord = { at: at.toISOString(), prompt, command, events: [] };
    this.buf.push(rec);
    if (this.buf.length > this.capacity) this.buf.splice(0, this.buf.length - this.capacity);
    return rec;
  }

  /** passes the events on unchanged, keeping a copy in a new record */
  async *record(events: AsyncIterable<TurnEvent>, prompt: string, command?: string): AsyncGenerator<TurnEvent> {
    const rec = this.begin(prompt, command);
    for await (const e of events) {
      rec.events.push(e);
      yield e;
    }
  }

  /** oldest first */
  turns(): TurnRecord[] {
    return [...this.buf];
  }

  clear(): void {
    this.buf = [];
  }
}
