/**
 * Static SVG line charts for reports (the design report's step and Bode plots). Written by
 * hand because it must be a pure string function in the core, with no DOM, no script and
 * no font files: the interactive plots live in the webview (Plotly). Axes with "nice" ticks,
 * optional log x axis, a few series, labelled.
 */
export interface Series {
  x: readonly number[];
  y: readonly number[];
  label?: string;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  /** points marked with a dot and a label (a peak, a least value), in the series' colours by index */
  marks?: readonly { x: number; y: number; label: string; series?: number }[];
  logX?: boolean;
  width?: number;
  height?: number;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** about n round tick values covering [lo, hi] */
export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  // integer multiples of the step, rounded, so 0.6 does not come out as 0.6000000000000001
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(k === 0 ? 0 : Number((k * step).toPrecision(12)));
  return out;
}

function tickLabel(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(0).replace('e+', 'e');
  return String(Number(v.toPrecision(4)));
}

export function lineChart(o: ChartOptions): string {
  const W = o.width ?? 640,
    H = o.height ?? 300;
  const m = { l: 64, r: 16, t: 32, b: 48 };
  const pts = o.series
    .flatMap((s) => s.x.map((x, i) => [o.logX ? Math.log10(x) : x, s.y[i]] as const))
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (!pts.length) return '';
  const x0 = Math.min(...pts.map((p) => p[0]));
  let x1 = Math.max(...pts.map((p) => p[0]));
  let [y0, y1] = [Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) [y0, y1] = [y0 - 1, y1 + 1];
  const pad = (y1 - y0) * 0.05;
  [y0, y1] = [y0 - pad, y1 + pad];
  const X = (x: number) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const Y = (y: number) => H - m.b - ((y - y0) / (y1 - y0)) * (H - m.t - m.b);
  const parts: string[] = [];
  parts.push(`<rect x="${m.l}" y="${m.t}" width="${W - m.l - m.r}" height="${H - m.t - m.b}" fill="none" stroke="#999"/>`);
  const xt = o.logX ? Array.from({ length: Math.floor(x1) - Math.ceil(x0) + 1 }, (_, i) => Math.ceil(x0) + i) : niceTicks(x0, x1);
  for (const t of xt) {
    const x = X(t).toFixed(1);
    parts.push(`<line x1="${x}" y1="${m.t}" x2="${x}" y2="${H - m.b}" stroke="#ddd"/>`);
    parts.push(`<text x="${x}" y="${H - m.b + 16}" text-anchor="middle" font-size="11">${esc(o.logX ? tickLabel(10 ** t) : tickLabel(t))}</text>`);
  }
  for (const t of niceTicks(y0, y1)) {
    const y = Y(t).toFixed(1);
    parts.push(`<line x1="${m.l}" y1="${y}" x2="${W - m.r}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text x="${m.l - 6}" y="${(Number(y) + 4).toFixed(1)}" text-anchor="end" font-size="11">${esc(tickLabel(t))}</text>`);
  }
  o.series.forEach((s, k) => {
    const d = s.x
      .map((x, i) => [o.logX ? Math.log10(x) : x, s.y[i]] as const)
      .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
      .map(([x, y], i) => `${i ? 'L' : 'M'}${X(x).toFixed(1)},${Y(y).toFixed(1)}`)
      .join('');
    parts.push(`<path d="${d}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.6"/>`);
    if (s.label && o.series.length > 1)
      parts.push(
        `<text x="${W - m.r - 4}" y="${m.t + 14 + 14 * k}" text-anchor="end" font-size="11" fill="${COLORS[k % COLORS.length]}">${esc(s.label)}</text>`,
      );
  });
  for (const mk of o.marks ?? []) {
    const mx = o.logX ? Math.log10(mk.x) : mk.x;
    if (!Number.isFinite(mx) || !Number.isFinite(mk.y)) continue;
    const color = COLORS[(mk.series ?? 0) % COLORS.length];
    const [px, py] = [X(mx), Y(mk.y)];
    parts.push(`<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="4" fill="${color}"/>`);
    const right = px > W / 2;
    parts.push(
      `<text x="${(px + (right ? -7 : 7)).toFixed(1)}" y="${(py - 7).toFixed(1)}" text-anchor="${right ? 'end' : 'start'}" font-size="11" fill="${color}">${esc(mk.label)}</text>`,
    );
  }
  parts.push(`<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${esc(o.title)}</text>`);
  parts.push(`<text x="${W / 2}" y="${H - 10}" text-anchor="middle" font-size="12">${esc(o.xLabel)}</text>`);
  parts.push(`<text x="14" y="${H / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 14 ${H / 2})">${esc(o.yLabel)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>`;
}

/** charts for a tool result, where its data is a curve (step, impulse, frequency response) */
export function resultCharts(tool: string, args: Record<string, any>, r: Record<string, any>): { caption: string; svg: string }[] {
  if ((tool === 'step' || tool === 'impulse') && Array.isArray(r.y) && r.y.every((v: unknown) => typeof v === 'number')) {
    const t = (r.t ?? args.t) as number[];
    return [
      {
        caption: `${tool === 'step' ? 'Step' : 'Impulse'} response`,
        svg: lineChart({ title: `${tool === 'step' ? 'Step' : 'Impulse'} response`, xLabel: 't (s)', yLabel: 'y', series: [{ x: t, y: r.y }] }),
      },
    ];
  }
  if ((tool === 'lsim' || tool === 'initial') && Array.isArray(r.t) && Array.isArray(r.y) && Array.isArray(r.y[0])) {
    // one curve per output (and per input below, for lsim), while the colours tell them apart
    const t = r.t as number[];
    const cols = (M: number[][], name: string): Series[] => {
      const k = M[0].length;
      return k > COLORS.length ? [] : Array.from({ length: k }, (_, j) => ({ x: t, y: M.map((row) => row[j]), label: k > 1 ? `${name}${j + 1}` : name }));
    };
    const out = [
      {
        caption: tool === 'lsim' ? 'Output' : 'Free response',
        svg: lineChart({ title: tool === 'lsim' ? 'Output' : 'Free response', xLabel: 't (s)', yLabel: 'y', series: cols(r.y, 'y') }),
      },
    ];
    if (tool === 'lsim' && Array.isArray(r.u) && Array.isArray(r.u[0]))
      out.push({ caption: 'Input', svg: lineChart({ title: 'Input', xLabel: 't (s)', yLabel: 'u', series: cols(r.u, 'u'), height: 200 }) });
    return out.filter((c) => c.svg);
  }
  if (tool === 'nlsim' && Array.isArray(r.t) && Array.isArray(r.x) && Array.isArray(r.x[0]) && Array.isArray(r.states)) {
    // the states of a nonlinear simulation, one curve each, named as the equations name them
    const t = r.t as number[];
    const X = r.x as number[][];
    const names = r.states as string[];
    if (names.length > COLORS.length) return [];
    const series = names.map((name, j) => ({ x: t, y: X.map((row) => row[j]), label: name }));
    const svg = lineChart({ title: 'States', xLabel: 't (s)', yLabel: 'x', series });
    return svg ? [{ caption: 'States', svg }] : [];
  }
  if (tool === 'sigma' && Array.isArray(r.w) && Array.isArray(r.sv_db) && Array.isArray(r.sv_db[0])) {
    // one curve per singular value (descending), in dB over log ω
    const k = (r.sv_db[0] as number[]).length;
    if (k > COLORS.length) return [];
    const series = Array.from({ length: k }, (_, i) => ({ x: r.w as number[], y: (r.sv_db as number[][]).map((row) => row[i]), label: `σ${i + 1}` }));
    const svg = lineChart({ title: 'Singular values', xLabel: 'ω (rad/s)', yLabel: 'singular values (dB)', series, logX: true });
    return svg ? [{ caption: 'Singular values', svg }] : [];
  }
  if ((tool === 'diskmargin' || tool === 'diskmargin_io') && r.stable === true) {
    // the guaranteed multiloop margin α(ω) = 1/μ_upper(ω) over log ω (finite ω > 0), its least value marked
    // (at the axis' edge when it is at ω = 0 or as ω → ∞)
    const curves: { label: string; d: Record<string, any> }[] =
      tool === 'diskmargin'
        ? [{ label: r.loops > 1 ? 'multiloop' : 'disk margin', d: r }]
        : [
            { label: 'inputs (C·P)', d: r.at_inputs },
            { label: 'outputs (P·C)', d: r.at_outputs },
            { label: 'inputs and outputs', d: r.io },
          ];
    const series: Series[] = [];
    const marks: { x: number; y: number; label: string; series?: number }[] = [];
    curves.forEach(({ label, d }, k) => {
      const w = (d.w as number[]) ?? [];
      const keep = w.map((_, i) => i).filter((i) => w[i] > 0 && Number.isFinite(w[i]) && Number.isFinite(d.mm_w[i]));
      if (!keep.length) return;
      const xs = keep.map((i) => w[i]);
      series.push({ x: xs, y: keep.map((i) => d.mm_w[i]), label });
      if (Number.isFinite(d.mm)) {
        const at = d.w_mm === 0 ? xs[0] : d.w_mm === Infinity ? xs[xs.length - 1] : d.w_mm;
        const where = d.w_mm === 0 ? 'ω = 0' : d.w_mm === Infinity ? 'ω → ∞' : `ω = ${Number(d.w_mm.toPrecision(4))}`;
        marks.push({ x: at, y: d.mm, label: `α = ${Number(d.mm.toPrecision(4))} at ${where}`, series: k });
      }
    });
    const svg = lineChart({ title: 'Disk margin over frequency (guaranteed)', xLabel: 'ω (rad/s)', yLabel: 'disk margin α', series, marks, logX: true });
    return svg ? [{ caption: 'Disk margin over frequency', svg }] : [];
  }
  if (tool === 'freqresp' && Array.isArray(r.mag_db) && Array.isArray(args.w)) {
    const w = args.w as number[];
    let mag: Series[], phase: Series[];
    if (r.mag_db.every((v: unknown) => typeof v === 'number')) {
      mag = [{ x: w, y: r.mag_db }];
      phase = [{ x: w, y: r.phase_deg }];
    } else {
      // MIMO: a p x m matrix per frequency; one curve per output ← input pair, while the colours
      // tell them apart (beyond that the answer's tables carry the numbers)
      const p = (r.mag_db[0] as number[][]).length,
        m = (r.mag_db[0][0] as number[]).length;
      if (p * m > COLORS.length) return [];
      mag = [];
      phase = [];
      for (let i = 0; i < p; i++)
        for (let j = 0; j < m; j++) {
          const label = `y${i + 1} ← u${j + 1}`;
          mag.push({ x: w, y: (r.mag_db as number[][][]).map((M) => M[i][j]), label });
          phase.push({ x: w, y: (r.phase_deg as number[][][]).map((M) => M[i][j]), label });
        }
    }
    return [
      { caption: 'Bode magnitude', svg: lineChart({ title: 'Bode magnitude', xLabel: 'ω (rad/s)', yLabel: 'magnitude (dB)', series: mag, logX: true }) },
      { caption: 'Bode phase', svg: lineChart({ title: 'Bode phase', xLabel: 'ω (rad/s)', yLabel: 'phase (deg)', series: phase, logX: true }) },
    ].filter((c) => c.svg);
  }
  return [];
}
