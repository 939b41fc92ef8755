/**
 * Pure conversions between the engine contract and node-llama-cpp's formats, kept apart from
 * the engine so they can be tested without loading the native binary:
 *
 * - tool schemas -> node-llama-cpp function definitions (its GBNF grammar takes a subset of
 *   JSON Schema; see `toGrammarSchema` for what is dropped and why);
 * - `ChatMessage[]` -> node-llama-cpp chat history (a tool-calling turn is ONE model item:
 *   text, function calls with their results, more text, ...), reusing the exact tokens the
 *   model generated for earlier steps so the KV-cache prefix stays byte-identical.
 *
 * Only `import type` from node-llama-cpp here: the package is ESM-only with top-level await,
 * so it can never be `require`d; the engine loads it with a dynamic `import()`.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse, GbnfJsonSchema } from 'node-llama-cpp';
import type { JsonSchema } from '../tools/types.js';
import type { ChatMessage, EngineToolSpec, ToolCallRequest } from './types.js';

type Json = Record<string, unknown>;

/**
 * A tool's JSON Schema in the subset node-llama-cpp 3.21.1's grammar generator understands.
 *
 * What changes, and why:
 * - **Optional properties become nullable** (`oneOf: [schema, {type: "null"}]`). The grammar
 *   generator ignores `required` and forces EVERY listed property into the output (it builds
 *   each field with `required: true`), so an optional `N`, `Ts` or `D` would otherwise always
 *   be invented by the model. The model writes `null` for an argument it leaves out, and
 *   `stripNulls` removes those before the call reaches the tool table.
 * - `anyOf` becomes `oneOf` (the grammar has only `oneOf`; for a grammar both mean "any of").
 * - Dropped because the grammar cannot enforce them: `minimum`, `maximum`,
 *   `exclusiveMinimum`, `exclusiveMaximum`, `default`, `title`, `pattern`, `format` (except
 *   the date/time formats), `multipleOf`. The agent loop validates every call again with ajv
 *   against the full schema, so nothing is lost in correctness.
 * - `description` is kept on the tool's top-level properties (the model reads those in the
 *   tool list) and dropped inside array items and nested alternatives, to keep the prompt short.
 * - An object that lists no properties and allows any (`additionalProperties: true`) stays
 *   open: use_tool's `arguments` (see the object case).
 * - A `type` list (`["number", "string"]`) is kept when it holds only scalar types; otherwise
 *   it becomes a `oneOf` of single types.
 */
export function toGrammarSchema(schema: JsonSchema, depth = 0): GbnfJsonSchema {
  const out: Json = {};
  const keepDescription = depth <= 1 && typeof schema.description === 'string';
  if (keepDescription) out.description = schema.description;

  const alternatives = (schema.anyOf ?? (schema.oneOf as JsonSchema[] | undefined)) as JsonSchema[] | undefined;
  if (alternatives) {
    out.oneOf = alternatives.map((s) => toGrammarSchema(s, depth + 2));
    return out as GbnfJsonSchema;
  }
  if ('const' in schema) return { ...out, const: schema.const } as GbnfJsonSchema;
  if (schema.enum) return { ...out, enum: schema.enum } as GbnfJsonSchema;

  const type = schema.type;
  if (Array.isArray(type)) {
    const scalar = ['string', 'number', 'integer', 'boolean', 'null'];
    if (type.every((t) => scalar.includes(t))) return { ...out, type } as GbnfJsonSchema;
    out.oneOf = type.map((t) => toGrammarSchema({ ...schema, type: t, description: undefined }, depth + 2));
    return out as GbnfJsonSchema;
  }
  switch (type) {
    case 'object': {
      out.type = 'object';
      const required = new Set(schema.required ?? []);
      const props: Json = {};
      for (const [k, p] of Object.entries(schema.properties ?? {})) {
        const converted = toGrammarSchema(p, depth + 1) as Json;
        if (required.has(k)) props[k] = converted;
        else {
          // the description stays on the wrapper so the model still reads it
          const { description, ...rest } = converted;
          props[k] = { ...(description !== undefined ? { description } : {}), oneOf: [rest, { type: 'null' }] };
        }
      }
      // extra keys: only when the schema allows them with a schema; `true` would let random
      // models wander off into arbitrary JSON, `false`/absent is what every tool declares. The
      // one exception is an object with no listed properties and `additionalProperties: true`:
      // use_tool's `arguments`, the named tool's own arguments, validated by its schema after
      if (Object.keys(props).length === 0 && schema.additionalProperties === true) {
        out.additionalProperties = true;
        return out as GbnfJsonSchema;
      }
      out.properties = props;
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        out.additionalProperties = toGrammarSchema(schema.additionalProperties, depth + 2);
      return out as GbnfJsonSchema;
    }
    case 'array': {
      out.type = 'array';
      if (Array.isArray(schema.items)) out.prefixItems = schema.items.map((s) => toGrammarSchema(s, depth + 2));
      else if (schema.items) out.items = toGrammarSchema(schema.items, depth + 2);
      if (typeof schema.minItems === 'number') out.minItems = schema.minItems;
      if (typeof schema.maxItems === 'number') out.maxItems = schema.maxItems;
      return out as GbnfJsonSchema;
    }
    case 'string': {
      out.type = 'string';
      if (typeof schema.minLength === 'number') out.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') out.maxLength = schema.maxLength;
      if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'time') out.format = schema.format;
      return out as GbnfJsonSchema;
    }
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { ...out, type } as GbnfJsonSchema;
    default:
      // no type: any JSON value is not expressible in the grammar's subset; a string is the
      // honest fallback (the agent loop's validator reports a mismatch by name)
      return { ...out, type: ['string', 'number', 'boolean', 'null'] } as GbnfJsonSchema;
  }
}

/** removes the `null`s the grammar made the model write for omitted optional arguments */
export function stripNulls(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) {
    const items = schema?.items;
    return value.map((v, i) => stripNulls(v, Array.isArray(items) ? items[i] : items));
  }
  if (value && typeof value === 'object') {
    const required = new Set(schema?.required ?? []);
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) {
      if (v === null && !required.has(k)) continue;
      out[k] = stripNulls(v, schema?.properties?.[k]);
    }
    return out;
  }
  return value;
}

/** node-llama-cpp `functions` for a tool list (no handlers: this engine never runs a tool) */
export function toChatFunctions(tools: readonly EngineToolSpec[]): ChatModelFunctions {
  const fns: Record<string, { description?: string; params?: GbnfJsonSchema }> = {};
  for (const t of tools) fns[t.name] = { description: t.description, params: toGrammarSchema(t.parameters) };
  return fns;
}

/** what the engine remembers of a step it generated, to replay its exact tokens later */
export interface StepRecord {
  /** the text the step streamed (joined), as the agent loop will send it back */
  text: string;
  /** the model response items as generated: text, thought segments, calls (raw tokens kept) */
  items: ChatModelResponse['response'];
  calls: ToolCallRequest[];
}

function parseResult(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function sameArgs(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Maps the engine-neutral conversation to node-llama-cpp's chat history.
 *
 * - system / user messages map one to one;
 * - an assistant message, the tool messages that answer its calls, and any assistant
 *   messages after them up to the next user message form ONE model item, the way
 *   node-llama-cpp (and the model's chat template) sees a tool-calling turn;
 * - when an assistant message is one this engine generated (its call ids are in `records`,
 *   text and arguments unchanged), the remembered items are used, including the raw call
 *   tokens and any thought segment, so the re-rendered prompt matches the KV cache exactly.
 */
export function toChatHistory(messages: readonly ChatMessage[], records: ReadonlyMap<string, StepRecord>): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  let model: ChatModelResponse | undefined;
  const pending = new Map<string, ChatModelFunctionCall>();

  const modelItem = (): ChatModelResponse => {
    if (!model) {
      model = { type: 'model', response: [] };
      history.push(model);
    }
    return model;
  };

  for (const m of messages) {
    switch (m.role) {
      case 'system':
        model = undefined;
        history.push({ type: 'system', text: m.content });
        break;
      case 'user':
        model = undefined;
        history.push({ type: 'user', text: m.content });
        break;
      case 'assistant': {
        const item = modelItem();
        const calls = m.toolCalls ?? [];
        const record = calls.length > 0 ? records.get(calls[0]!.id) : undefined;
        const reusable =
          record !== undefined &&
          record.text === m.content &&
          record.calls.length === calls.length &&
          record.calls.every((c, i) => c.id === calls[i]!.id && c.name === calls[i]!.name && sameArgs(c.arguments, calls[i]!.arguments));
        if (reusable) {
          let k = 0;
          for (const it of record.items) {
            if (typeof it === 'object' && it.type === 'functionCall') {
              const fc: ChatModelFunctionCall = { ...it, result: undefined };
              pending.set(calls[k++]!.id, fc);
              item.response.push(fc);
            } else item.response.push(it);
          }
        } else {
          if (m.content) item.response.push(m.content);
          for (const c of calls) {
            const fc: ChatModelFunctionCall = {
              type: 'functionCall',
              name: c.name,
              params: typeof c.arguments === 'string' ? parseResult(c.arguments) : c.arguments,
              result: undefined,
            };
            pending.set(c.id, fc);
            item.response.push(fc);
          }
        }
        break;
      }
      case 'tool': {
        const fc = m.toolCallId !== undefined ? pending.get(m.toolCallId) : undefined;
        if (fc) {
          fc.result = parseResult(m.content);
          pending.delete(m.toolCallId!);
        } else {
          // a result without its call (history edited by the front end): keep it as user text
          model = undefined;
          history.push({ type: 'user', text: `Result of ${m.name ?? 'a tool'}:\n${m.content}` });
        }
        break;
      }
    }
  }
  // a call that never got a result would render as an unanswered call: say so
  for (const fc of pending.values()) if (fc.result === undefined) fc.result = { error: 'no result' };
  return history;
}
