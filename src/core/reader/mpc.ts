/**
 * A model predictive control request in words (issue 14 item 4): "MPC for A, B with horizon 10,
 * |u| <= 1, x0 = [5; 0]", "model predictive control of G(s) = 1/(s(s+1)) with Ts = 0.1, N = 20,
 * input between -2 and 2". Read here: the prediction and control horizons, the bounds on the
 * inputs, their rates, the states and the outputs, as engineers write them (|u| ≤ 1, −2 ≤ u ≤ 2,
 * u between a and b, u in [a, b], input limited to ±2, x2 ≥ −1, |Δu| ≤ 0.5, "rate of change of
 * the input"), a constant setpoint/reference, the number of simulated steps ("for 40 steps";
 * "for 5 s" with Ts), and whether the plant is continuous ("continuous", x', ẋ). Each value carries
 * the text it came from, so read.ts marks those numbers as read and the reading cites them.
 */
import type { SpecValue } from './pid.js';

export interface MpcSpec {
  N?: SpecValue<number>;
  Nc?: SpecValue<number>;
  umin?: SpecValue<number | (number | null)[]>;
  umax?: SpecValue<number | (number | null)[]>;
  dumin?: SpecValue<number | (number | null)[]>;
  dumax?: SpecValue<number | (number | null)[]>;
  xmin?: SpecValue<number | (number | null)[]>;
  xmax?: SpecValue<number | (number | null)[]>;
  ymin?: SpecValue<number | (number | null)[]>;
  ymax?: SpecValue<number | (number | null)[]>;
  r?: SpecValue<number[]>;
  steps?: SpecValue<number>;
  /** a final time in seconds ("for 5 s"): steps = T/Ts once Ts is known */
  tfinal?: SpecValue<number>;
  continuous?: SpecValue<boolean>;
}

const NUM = String.raw`([-+−]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?)`;
const num = (s: string) => Number(s.replace('−', '-'));
const LE = String.raw`(?:<=|≤|=<|<|⩽)`;
const GE = String.raw`(?:>=|≥|=>|>|⩾)`;

/** the names of each kind of variable; an index (x2, y_1, u(2)) selects a component */
const NAMES: Record<'u' | 'du' | 'x' | 'y', string> = {
  du: String.raw`(?:Δu|∆u|du|delta[\s_]?u|d_?u|(?:the\s+)?(?:input|control)\s+(?:rate|increments?|moves?)|(?:the\s+)?rate\s+of\s+change\s+of\s+(?:the\s+)?(?:input|control)|(?:the\s+)?slew\s+rate|(?:the\s+)?input\s+slew)`,
  u: String.raw`(?:u|(?:the\s+)?(?:control\s+)?inputs?|(?:the\s+)?control(?:\s+signal|\s+action)?|(?:the\s+)?actuator|(?:the\s+)?manipulated\s+variables?)`,
  x: String.raw`(?:x|(?:the\s+)?states?)`,
  y: String.raw`(?:y|(?:the\s+)?outputs?)`,
};
const IDX = String.raw`(?:_?\{?(\d)\}?|\((\d)\))?`;

type Kind = keyof typeof NAMES;

interface Bound {
  kind: Kind;
  index?: number;
  lo?: number;
  hi?: number;
  text: string;
}

/** every bound written in the message, in the forms above */
function readBounds(text: string): Bound[] {
  const out: Bound[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, b: number) => !taken.some(([s, e]) => a < e && b > s);
  const push = (m: RegExpExecArray, kind: Kind, ix: string | undefined, lo?: number, hi?: number) => {
    if (!free(m.index, m.index + m[0].length)) return;
    taken.push([m.index, m.index + m[0].length]);
    out.push({ kind, ...(ix ? { index: Number(ix) } : {}), ...(lo !== undefined ? { lo } : {}), ...(hi !== undefined ? { hi } : {}), text: m[0] });
  };
  for (const kind of ['du', 'u', 'x', 'y'] as Kind[]) {
    const V = String.raw`(?<![\w.])${NAMES[kind]}${IDX}(?![\w(])`;
    const forms: [RegExp, (m: RegExpExecArray) => [string | undefined, number | undefined, number | undefined]][] = [
      // |u| <= a, |u_2| ≤ a
      [new RegExp(String.raw`\|\s*${V}\s*\|\s*${LE}\s*${NUM}`, 'gi'), (m) => [m[1] ?? m[2], -num(m[3]), num(m[3])]],
      // a <= u <= b
      [new RegExp(String.raw`${NUM}\s*${LE}\s*${V}\s*${LE}\s*${NUM}`, 'gi'), (m) => [m[2] ?? m[3], num(m[1]), num(m[4])]],
      // u between a and b; u in [a, b]; u within [a, b]
      [
        new RegExp(
          String.raw`${V}\s+(?:(?:is|are|must\s+be|should\s+be|stays?|limited|constrained|bounded|kept)\s+)?(?:to\s+)?(?:between|from)\s+${NUM}\s+(?:and|to)\s+${NUM}`,
          'gi',
        ),
        (m) => [m[1] ?? m[2], num(m[3]), num(m[4])],
      ],
      [new RegExp(String.raw`${V}\s*(?:∈|\bin\b|\bwithin\b)\s*\[\s*${NUM}\s*,\s*${NUM}\s*\]`, 'gi'), (m) => [m[1] ?? m[2], num(m[3]), num(m[4])]],
      // input limited to ±2; u saturates at ±2; |u| within 2
      [
        new RegExp(
          String.raw`${V}\s+(?:(?:is|are|must\s+be|should\s+be)\s+)?(?:limited|constrained|bounded|saturat(?:es|ed|ing)|clipped|restricted|within|at\s+most)\s*(?:to|at|by|in\s+magnitude\s+(?:to|by))?\s*(?:±|\+\/-|\+-|plus\s+or\s+minus\s+)\s*${NUM}`,
          'gi',
        ),
        (m) => [m[1] ?? m[2], -Math.abs(num(m[3])), Math.abs(num(m[3]))],
      ],
      // u <= b, u >= a
      [new RegExp(String.raw`${V}\s*${LE}\s*${NUM}`, 'gi'), (m) => [m[1] ?? m[2], undefined, num(m[3])]],
      [new RegExp(String.raw`${V}\s*${GE}\s*${NUM}`, 'gi'), (m) => [m[1] ?? m[2], num(m[3]), undefined]],
      // u at most b / at least a
      [new RegExp(String.raw`${V}\s+(?:(?:is|of|must\s+be)\s+)?at\s+most\s+${NUM}`, 'gi'), (m) => [m[1] ?? m[2], undefined, num(m[3])]],
      [new RegExp(String.raw`${V}\s+(?:(?:is|of|must\s+be)\s+)?at\s+least\s+${NUM}`, 'gi'), (m) => [m[1] ?? m[2], num(m[3]), undefined]],
    ];
    for (const [re, get] of forms) {
      let m: RegExpExecArray | null;
      while ((m = re.exec(text))) {
        const [ix, lo, hi] = get(m);
        push(m, kind, ix, lo, hi);
      }
    }
  }
  return out;
}

/** the bounds of one kind as the tool takes them: a number for every component, or a list with null where none */
function boundArgs(list: Bound[], kind: Kind): Partial<MpcSpec> {
  const out: Partial<MpcSpec> = {};
  const of = list.filter((b) => b.kind === kind);
  if (!of.length) return out;
  for (const side of ['lo', 'hi'] as const) {
    const sided = of.filter((b) => b[side] !== undefined);
    if (!sided.length) continue;
    const key = `${kind}${side === 'lo' ? 'min' : 'max'}` as keyof MpcSpec;
    const text = [...new Set(sided.map((b) => b.text))].join(', ');
    const whole = sided.find((b) => b.index === undefined);
    if (whole) {
      (out as Record<string, unknown>)[key] = { value: whole[side]!, text };
      continue;
    }
    const len = Math.max(...sided.map((b) => b.index!));
    const v: (number | null)[] = new Array(len).fill(null);
    for (const b of sided) v[b.index! - 1] = b[side]!;
    (out as Record<string, unknown>)[key] = { value: v, text };
  }
  return out;
}

export function readMpcSpec(text: string): MpcSpec {
  const out: MpcSpec = {};
  const nc = new RegExp(String.raw`\bcontrol\s+horizon\s*(?:of|=|:|is|Nc\s*=|m\s*=)?\s*(\d+)(?:\s*(?:steps?|samples?|moves?))?`, 'i').exec(text);
  if (nc) out.Nc = { value: Number(nc[1]), text: nc[0] };
  const n =
    new RegExp(String.raw`(?<!control\s)\b(?:prediction\s+)?horizon\s*(?:of|=|:|is|N\s*=|p\s*=|length)?\s*(\d+)(?:\s*(?:steps?|samples?))?`, 'i').exec(text) ??
    new RegExp(String.raw`\b(\d+)[\s-]*(?:steps?|samples?)\s+(?:prediction\s+)?horizon`, 'i').exec(text);
  if (n && (!nc || n.index !== nc.index + nc[0].indexOf('horizon'))) out.N = { value: Number(n[1]), text: n[0] };
  const bounds = readBounds(text);
  for (const k of ['u', 'du', 'x', 'y'] as Kind[]) Object.assign(out, boundArgs(bounds, k));
  const ref = new RegExp(String.raw`\b(?:set[\s-]?point|reference|ref|target\s+output)\s*(?:of|=|:|is|at|to)?\s*${NUM}(?!\s*(?:\]|;|,\s*\d))`, 'i').exec(text);
  const track = new RegExp(String.raw`\btrack(?:s|ing)?\s+(?:a\s+)?(?:(?:unit\s+)?step|set[\s-]?point|reference|constant)?\s*(?:of|to|at)\s*${NUM}`, 'i').exec(
    text,
  );
  const unit = /\b(?:track(?:s|ing)?\s+a\s+unit\s+step|unit[\s-]+step\s+(?:set[\s-]?point|reference))\b/i.exec(text);
  if (ref) out.r = { value: [num(ref[1])], text: ref[0] };
  else if (track) out.r = { value: [num(track[1])], text: track[0] };
  else if (unit) out.r = { value: [1], text: unit[0] };
  const steps = /\b(?:for|over|simulate(?:d)?(?:\s+for)?|run\s+for)\s+(\d+)\s*(?:closed[\s-]loop\s+)?(?:steps|samples|sampling\s+(?:periods|instants))\b/i.exec(
    text,
  );
  if (steps) out.steps = { value: Number(steps[1]), text: steps[0] };
  else {
    const t = /\b(?:for|over|simulate(?:d)?(?:\s+for)?|during)\s+(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?)\b/i.exec(text);
    if (t) out.tfinal = { value: Number(t[1]), text: t[0] };
  }
  // "sampled at 100 ms", "discretised at Ts": a plant that is sampled is continuous
  const cont = /\bcontinuous(?:[\s-]time)?\b|\bx\s*'\s*=|\bẋ|\bdx\s*\/\s*dt\b|\bsampled\s+(?:at|every)\b|\bdiscreti[sz](?:e|ed|ing)\b/i.exec(text);
  if (cont) out.continuous = { value: true, text: cont[0] };
  return out;
}
