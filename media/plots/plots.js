// @control plot webview: draws the numbers the extension host computed with the solvers
// (freqresp + margins, step + stepinfo, impulse, nyquist, rlocus, poles_zeros, lsim, initial, sigma, diskmargin, mpc). It computes no
// result of its own: only where to put lines and labels. Plotly (basic bundle) draws; colours
// follow the VS Code theme (--vscode-* CSS variables) and re-render when the theme changes.
/* global Plotly, acquireVsCodeApi */
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const plotEl = document.getElementById('plot');
  const titleEl = document.getElementById('title');
  const subtitleEl = document.getElementById('subtitle');
  const notesEl = document.getElementById('notes');
  const verifyEl = document.getElementById('verify');
  let payload = null;

  // ------------------------------------------------------------------ theme
  function cssVar(name, fallback) {
    const v = getComputedStyle(document.body).getPropertyValue(name).trim();
    return v || fallback;
  }
  function theme() {
    const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
    const fg = cssVar('--vscode-editor-foreground', dark ? '#cccccc' : '#333333');
    return {
      dark,
      fg,
      bg: cssVar('--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff'),
      grid: dark ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.10)',
      zero: dark ? 'rgba(255,255,255,0.35)' : 'rgba(0,0,0,0.35)',
      blue: cssVar('--vscode-charts-blue', '#3794ff'),
      red: cssVar('--vscode-charts-red', '#f14c4c'),
      green: cssVar('--vscode-charts-green', '#89d185'),
      orange: cssVar('--vscode-charts-orange', '#d18616'),
      yellow: cssVar('--vscode-charts-yellow', '#cca700'),
      purple: cssVar('--vscode-charts-purple', '#b180d7'),
      font: cssVar('--vscode-font-family', 'sans-serif'),
    };
  }
  const palette = (t) => [t.blue, t.orange, t.green, t.purple, t.yellow, t.red];

  // ------------------------------------------------------------------ formatting (display only)
  function fmt(x, d) {
    if (x === null || x === undefined || typeof x !== 'number') return String(x);
    if (!Number.isFinite(x)) return isNaN(x) ? 'NaN' : x > 0 ? '∞' : '−∞';
    const s = Number(x.toPrecision(d || 4)).toString();
    return s.replace('-', '−');
  }

  function axisStyle(t, extra) {
    return Object.assign(
      {
        gridcolor: t.grid,
        zerolinecolor: t.zero,
        linecolor: t.zero,
        tickcolor: t.zero,
        color: t.fg,
        automargin: true,
        showline: true,
        mirror: true,
        ticks: 'outside',
        title: { font: { size: 13 } },
      },
      extra || {},
    );
  }

  function baseLayout(t) {
    return {
      paper_bgcolor: t.bg,
      plot_bgcolor: t.bg,
      font: { family: t.font, color: t.fg, size: 12 },
      margin: { l: 70, r: 30, t: 20, b: 60 },
      showlegend: true,
      legend: { orientation: 'h', x: 0, y: -0.14, yanchor: 'top', bgcolor: 'rgba(0,0,0,0)' },
      hoverlabel: { font: { family: t.font } },
      shapes: [],
      annotations: [],
    };
  }

  function label(t, x, y, text, opts) {
    return Object.assign(
      {
        x,
        y,
        text,
        showarrow: true,
        arrowhead: 0,
        arrowcolor: t.fg,
        ax: 30,
        ay: -30,
        font: { color: t.fg, size: 12 },
        bgcolor: t.bg,
        bordercolor: t.zero,
        borderwidth: 1,
        borderpad: 3,
      },
      opts || {},
    );
  }

  // ------------------------------------------------------------------ Bode
  function interpLog(xs, ys, x) {
    // position of a marker on a drawn curve (not a result): linear in log10(x)
    for (let i = 1; i < xs.length; i++) {
      if (xs[i] >= x) {
        const a = Math.log10(xs[i - 1]), b = Math.log10(xs[i]);
        const f = b > a ? (Math.log10(x) - a) / (b - a) : 0;
        return ys[i - 1] + f * (ys[i] - ys[i - 1]);
      }
    }
    return ys[ys.length - 1];
  }

  function bode(p, t) {
    const d = p.data;
    const w = d.w;
    const traces = [
      { x: w, y: d.mag_db, type: 'scatter', mode: 'lines', name: '|L(jω)|', line: { color: t.blue, width: 2 }, xaxis: 'x', yaxis: 'y', hovertemplate: 'ω = %{x:.4g} rad/s<br>%{y:.4g} dB<extra></extra>' },
      { x: w, y: d.phase_deg, type: 'scatter', mode: 'lines', name: '∠L(jω)', line: { color: t.orange, width: 2 }, xaxis: 'x2', yaxis: 'y2', hovertemplate: 'ω = %{x:.4g} rad/s<br>%{y:.4g}°<extra></extra>' },
    ];
    const L = baseLayout(t);
    const unitW = 'Frequency ω (rad/s)';
    L.grid = { rows: 2, columns: 1, pattern: 'independent' };
    L.xaxis = axisStyle(t, { type: 'log', matches: 'x2', showticklabels: false, domain: [0, 1] });
    L.yaxis = axisStyle(t, { title: { text: 'Magnitude (dB)' }, domain: [0.54, 1] });
    L.xaxis2 = axisStyle(t, { type: 'log', title: { text: unitW }, anchor: 'y2', domain: [0, 1] });
    L.yaxis2 = axisStyle(t, { title: { text: 'Phase (deg)' }, domain: [0, 0.46], dtick: 45 });
    // reference lines: 0 dB and −180° (+ multiples of 360 the unwrapped phase reaches)
    L.shapes.push({ type: 'line', xref: 'x domain', yref: 'y', x0: 0, x1: 1, y0: 0, y1: 0, line: { color: t.zero, width: 1, dash: 'dash' } });
    const phMin = Math.min(...d.phase_deg), phMax = Math.max(...d.phase_deg);
    for (let k = -5; k <= 5; k++) {
      const y = -180 + 360 * k;
      if (y >= phMin - 30 && y <= phMax + 30) L.shapes.push({ type: 'line', xref: 'x2 domain', yref: 'y2', x0: 0, x1: 1, y0: y, y1: y, line: { color: t.zero, width: 1, dash: 'dash' } });
    }
    const span = phMax - phMin;
    L.yaxis2.dtick = span > 540 ? 180 : span > 240 ? 90 : 45;
    const m = d.margins;
    const legend = [];
    if (m) {
      if (Number.isFinite(m.w_gc)) {
        // PM: from −180° (the copy nearest the curve) up to the phase at the gain crossover
        const ph = interpLog(w, d.phase_deg, m.w_gc);
        const base = ph - m.pm_deg;
        L.shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: m.w_gc, x1: m.w_gc, y0: 0, y1: 1, line: { color: t.green, width: 1, dash: 'dot' } });
        L.shapes.push({ type: 'line', xref: 'x2', yref: 'y2', x0: m.w_gc, x1: m.w_gc, y0: base, y1: ph, line: { color: t.green, width: 4 } });
        traces.push({ x: [m.w_gc], y: [0], type: 'scatter', mode: 'markers', name: 'gain crossover', marker: { color: t.green, size: 9, symbol: 'circle' }, xaxis: 'x', yaxis: 'y', hovertemplate: 'ω_gc = %{x:.4g} rad/s<extra></extra>' });
        L.annotations.push(label(t, Math.log10(m.w_gc), (base + ph) / 2, `PM = ${fmt(m.pm_deg)}° at ${fmt(m.w_gc)} rad/s`, { xref: 'x2', yref: 'y2', ax: 70, ay: 0, font: { color: t.green, size: 12 }, arrowcolor: t.green, bordercolor: t.green }));
        legend.push(`PM ${fmt(m.pm_deg)}°`);
      }
      if (Number.isFinite(m.w_pc)) {
        const mag = interpLog(w, d.mag_db, m.w_pc);
        L.shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: m.w_pc, x1: m.w_pc, y0: 0, y1: 1, line: { color: t.red, width: 1, dash: 'dot' } });
        L.shapes.push({ type: 'line', xref: 'x', yref: 'y', x0: m.w_pc, x1: m.w_pc, y0: mag, y1: 0, line: { color: t.red, width: 4 } });
        traces.push({ x: [m.w_pc], y: [ph180(d.phase_deg, w, m.w_pc)], type: 'scatter', mode: 'markers', name: 'phase crossover', marker: { color: t.red, size: 9, symbol: 'circle' }, xaxis: 'x2', yaxis: 'y2', hovertemplate: 'ω_pc = %{x:.4g} rad/s<extra></extra>' });
        L.annotations.push(label(t, Math.log10(m.w_pc), mag / 2, `GM = ${fmt(m.gm_db)} dB (×${fmt(m.gm)}) at ${fmt(m.w_pc)} rad/s`, { xref: 'x', yref: 'y', ax: -60, ay: -40, xanchor: 'right', font: { color: t.red, size: 12 }, arrowcolor: t.red, bordercolor: t.red }));
        legend.push(`GM ${fmt(m.gm_db)} dB`);
      }
      if (!Number.isFinite(m.w_gc)) legend.push('PM ∞ (|L| never crosses 0 dB for ω > 0)');
      if (!Number.isFinite(m.w_pc)) legend.push('GM ∞ (the phase never crosses −180°)');
    }
    if (p.discrete) {
      L.shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: Math.PI / p.Ts, x1: Math.PI / p.Ts, y0: 0, y1: 1, line: { color: t.purple, width: 1, dash: 'dash' } });
    }
    return { traces, layout: L, summary: legend.join(' · ') };
  }
  function ph180(ph, w, x) {
    const v = interpLog(w, ph, x);
    return -180 + 360 * Math.round((v + 180) / 360);
  }

  // ------------------------------------------------------------------ singular values
  function sigma(p, t) {
    const d = p.data;
    const pal = palette(t);
    const k = d.sv_db.length ? d.sv_db[0].length : 0;
    const traces = [];
    for (let i = 0; i < k; i++)
      traces.push({ x: d.w, y: d.sv_db.map((row) => (Number.isFinite(row[i]) ? row[i] : null)), type: 'scatter', mode: 'lines', name: `σ${i + 1}`, line: { color: pal[i % pal.length], width: 2 }, hovertemplate: 'ω = %{x:.4g} rad/s<br>%{y:.4g} dB<extra></extra>' });
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { type: 'log', title: { text: 'Frequency ω (rad/s)' } });
    L.yaxis = axisStyle(t, { title: { text: 'Singular values (dB)' } });
    const summary = [];
    if (Number.isFinite(d.peak) && Number.isFinite(d.w_peak) && d.w_peak > 0) {
      traces.push({ x: [d.w_peak], y: [d.peak_db], type: 'scatter', mode: 'markers', name: 'peak', marker: { color: t.red, size: 9 }, hovertemplate: 'peak %{y:.4g} dB at ω = %{x:.4g} rad/s<extra></extra>' });
      L.annotations.push(label(t, Math.log10(d.w_peak), d.peak_db, `peak ${fmt(d.peak_db)} dB at ${fmt(d.w_peak)} rad/s`, { xref: 'x', yref: 'y', font: { color: t.red, size: 12 }, arrowcolor: t.red, bordercolor: t.red }));
    }
    if (Number.isFinite(d.peak)) summary.push(`${d.stable ? 'H∞ norm' : 'peak gain (unstable: L∞)'} ${fmt(d.peak)} (${fmt(d.peak_db)} dB)${d.w_peak === Infinity ? ' as ω → ∞' : ` at ${fmt(d.w_peak)} rad/s`}`);
    else summary.push('peak ∞: a pole on the stability boundary');
    if (p.discrete) L.shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: Math.PI / p.Ts, x1: Math.PI / p.Ts, y0: 0, y1: 1, line: { color: t.purple, width: 1, dash: 'dash' } });
    return { traces, layout: L, summary: summary.join(' · ') };
  }

  // ------------------------------------------------------------------ disk margin over frequency
  // the guaranteed multiloop margin α(ω) = 1/μ_upper(ω) (one curve, or inputs / outputs / both for
  // a plant and controller), its least value marked (at the axis' edge when at ω = 0 or ω → ∞)
  function diskmargin(p, t) {
    const d = p.data;
    const pal = palette(t);
    const traces = [];
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { type: 'log', title: { text: 'Frequency ω (rad/s)' } });
    L.yaxis = axisStyle(t, { title: { text: 'Disk margin α (guaranteed)' }, rangemode: 'tozero' });
    const summary = [];
    (d.curves || []).forEach((c, k) => {
      const idx = c.w.map((_, i) => i).filter((i) => c.w[i] > 0 && Number.isFinite(c.w[i]));
      if (!idx.length) return;
      const xs = idx.map((i) => c.w[i]);
      const color = pal[k % pal.length];
      traces.push({ x: xs, y: idx.map((i) => (Number.isFinite(c.mm_w[i]) ? c.mm_w[i] : null)), type: 'scatter', mode: 'lines', name: c.label, line: { color, width: 2 }, hovertemplate: 'ω = %{x:.4g} rad/s<br>α = %{y:.4g}<extra></extra>' });
      if (Number.isFinite(c.mm)) {
        const at = c.w_mm === 0 ? xs[0] : c.w_mm === Infinity ? xs[xs.length - 1] : c.w_mm;
        const where = c.w_mm === 0 ? 'ω = 0' : c.w_mm === Infinity ? 'ω → ∞' : `${fmt(c.w_mm)} rad/s`;
        traces.push({ x: [at], y: [c.mm], type: 'scatter', mode: 'markers', name: `least: ${c.label}`, showlegend: false, marker: { color, size: 9 }, hovertemplate: `α = ${fmt(c.mm)} at ${where}<extra></extra>` });
        L.annotations.push(label(t, Math.log10(at), c.mm, `α = ${fmt(c.mm)} at ${where}`, { xref: 'x', yref: 'y', font: { color, size: 12 }, arrowcolor: color, bordercolor: color }));
        summary.push(`${c.label}: α = ${fmt(c.mm)} at ${where}`);
      }
    });
    if (!d.stable) summary.push('unstable closed loop: disk margins 0');
    return { traces, layout: L, summary: summary.join(' · ') };
  }

  // ------------------------------------------------------------------ step / impulse
  function timeResp(p, t) {
    const d = p.data;
    const y = d.y;
    const pal = palette(t);
    const mimo = Array.isArray(y[0]);
    const channels = mimo ? y[0].flatMap((row, i) => row.map((_, j) => [i, j])) : [null];
    const traces = channels.map((c, k) => ({
      x: d.t,
      y: c ? y.map((M) => M[c[0]][c[1]]) : y,
      type: 'scatter',
      mode: p.discrete ? 'markers+lines' : 'lines',
      line: { color: pal[k % pal.length], width: 2, shape: p.discrete ? 'hv' : 'linear' },
      marker: { size: 3 },
      name: c ? `y${c[0] + 1} ← u${c[1] + 1}` : p.kind === 'step' ? 'y(t), unit step' : 'y(t), unit impulse',
      hovertemplate: 't = %{x:.4g} s<br>y = %{y:.4g}<extra></extra>',
    }));
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { title: { text: 'Time t (s)' } });
    L.yaxis = axisStyle(t, { title: { text: p.kind === 'step' ? 'Output y (per unit step)' : 'Output y (per unit impulse)' } });
    const summary = [];
    const info = d.info;
    if (info && !mimo) {
      const yf = info.final_value;
      const y0 = y[0];
      const span = Math.abs(yf - y0);
      const band = 0.02 * span;
      L.shapes.push({ type: 'rect', xref: 'x domain', yref: 'y', x0: 0, x1: 1, y0: yf - band, y1: yf + band, fillcolor: t.green, opacity: 0.15, line: { width: 0 }, layer: 'below' });
      L.shapes.push({ type: 'line', xref: 'x domain', yref: 'y', x0: 0, x1: 1, y0: yf, y1: yf, line: { color: t.green, width: 1, dash: 'dash' } });
      for (const q of [0.1, 0.9]) {
        const lv = y0 + q * (yf - y0);
        L.shapes.push({ type: 'line', xref: 'x domain', yref: 'y', x0: 0, x1: 1, y0: lv, y1: lv, line: { color: t.zero, width: 1, dash: 'dot' } });
      }
      if (Number.isFinite(info.settling_time)) {
        L.shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: info.settling_time, x1: info.settling_time, y0: 0, y1: 1, line: { color: t.green, width: 1.5, dash: 'dash' } });
        L.annotations.push(label(t, info.settling_time, yf - band, `settling (2 %) ${fmt(info.settling_time)} s`, { ax: 40, ay: 40, xanchor: 'left', font: { color: t.green }, arrowcolor: t.green, bordercolor: t.green }));
      }
      if (Number.isFinite(info.peak_time)) {
        const yp = yf >= 0 ? info.peak : -info.peak; // peak is |y| at the peak time
        traces.push({ x: [info.peak_time], y: [yp], type: 'scatter', mode: 'markers', name: 'peak', marker: { color: t.red, size: 10, symbol: 'diamond' }, hovertemplate: 'peak %{y:.4g} at t = %{x:.4g} s<extra></extra>' });
        L.annotations.push(label(t, info.peak_time, yp, `peak ${fmt(info.peak)} at ${fmt(info.peak_time)} s<br>overshoot ${fmt(info.overshoot_pct)} %`, { ax: 50, ay: -30, xanchor: 'left', font: { color: t.red }, arrowcolor: t.red, bordercolor: t.red }));
      }
      L.annotations.push({ xref: 'paper', yref: 'paper', x: 1, y: 0.02, xanchor: 'right', yanchor: 'bottom', showarrow: false, align: 'right', text: `rise (10 → 90 %) ${fmt(info.rise_time)} s<br>final value ${fmt(yf)}`, font: { color: t.fg }, bgcolor: t.bg, bordercolor: t.zero, borderwidth: 1, borderpad: 4 });
      summary.push(`rise ${fmt(info.rise_time)} s`, `settling ${fmt(info.settling_time)} s`, `overshoot ${fmt(info.overshoot_pct)} %`);
    }
    return { traces, layout: L, summary: summary.join(' · ') };
  }

  // ------------------------------------------------------------------ simulation (lsim, initial)
  // the output(s) above, the input(s) below on the same time axis (lsim); initial: outputs only
  function simulation(p, t) {
    const d = p.data;
    const pal = palette(t);
    const y = d.y || [];
    const u = d.u || [];
    const ny = y.length ? y[0].length : 0;
    const nu = u.length && (p.kind === 'lsim' || p.kind === 'nlsim') ? u[0].length : 0;
    const names = d.names || [];
    const shape = p.discrete || d.method === 'zoh' ? 'hv' : 'linear';
    const traces = [];
    for (let i = 0; i < ny; i++)
      traces.push({
        x: d.t,
        y: y.map((r) => r[i]),
        type: 'scatter',
        mode: p.discrete ? 'markers+lines' : 'lines',
        line: { color: pal[i % pal.length], width: 2, shape: p.discrete ? 'hv' : 'linear' },
        marker: { size: 3 },
        name: names[i] ? `${names[i]}(t)` : ny > 1 ? `y${i + 1}(t)` : 'y(t)',
        hovertemplate: 't = %{x:.4g} s<br>y = %{y:.4g}<extra></extra>',
      });
    for (let j = 0; j < nu; j++)
      traces.push({
        x: d.t,
        y: u.map((r) => r[j]),
        xaxis: 'x',
        yaxis: 'y2',
        type: 'scatter',
        mode: 'lines',
        line: { color: pal[(ny + j) % pal.length], width: 1.5, dash: 'dot', shape },
        name: nu > 1 ? `u${j + 1}(t)` : 'u(t), input',
        hovertemplate: 't = %{x:.4g} s<br>u = %{y:.4g}<extra></extra>',
      });
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { title: { text: 'Time t (s)' }, anchor: nu ? 'y2' : 'y' });
    if (nu) {
      L.yaxis = axisStyle(t, { title: { text: p.kind === 'nlsim' ? 'State x' : 'Output y' }, domain: [0.36, 1] });
      L.yaxis2 = axisStyle(t, { title: { text: 'Input u' }, domain: [0, 0.26] });
    } else L.yaxis = axisStyle(t, { title: { text: p.kind === 'initial' ? 'Output y (free response)' : p.kind === 'nlsim' ? 'State x' : 'Output y' } });
    const summary = [];
    for (let i = 0; i < ny; i++) summary.push(`${names[i] || (ny > 1 ? `y${i + 1}` : 'y')}(end) ${fmt(y[y.length - 1][i])}`);
    if (d.method) summary.push(`method ${d.method}`);
    return { traces, layout: L, summary: summary.join(' · ') };
  }


  // ------------------------------------------------------------------ MPC closed loop
  // states (and outputs) above, inputs below, against the step k; each bound a dashed line
  // in its signal's colour; steps with a constraint active on the applied move shaded
  function mpcPlot(p, t) {
    const d = p.data;
    const pal = palette(t);
    const k = d.t.map((_, i) => i);
    const traces = [];
    const top = d.y ? d.y : d.x;
    const topName = d.y ? 'y' : 'x';
    const topBounds = d.y ? d.ybounds : d.xbounds;
    const nTop = top[0].length;
    const nu = d.u[0].length;
    const boundLine = (b, i, axis, color, name) => {
      for (const side of ['min', 'max']) {
        const v = b[side][i];
        if (v === null || v === undefined) continue;
        traces.push({ x: [0, k[k.length - 1]], y: [v, v], yaxis: axis, type: 'scatter', mode: 'lines', line: { color, width: 1, dash: 'dash' }, name: `${name} ${side} ${fmt(v)}`, hoverinfo: 'name' });
      }
    };
    for (let i = 0; i < nTop; i++) {
      const c = pal[i % pal.length];
      traces.push({ x: k, y: top.map((r) => r[i]), type: 'scatter', mode: 'lines+markers', marker: { size: 3 }, line: { color: c, width: 2 }, name: `${topName}${i + 1}[k]`, hovertemplate: `k = %{x}<br>${topName}${i + 1} = %{y:.4g}<extra></extra>` });
      boundLine(topBounds, i, 'y', c, `${topName}${i + 1}`);
    }
    if (d.y) {
      // the states' bounds too, when the plot shows outputs
      for (let i = 0; i < d.x[0].length; i++) if (d.xbounds.min[i] !== null || d.xbounds.max[i] !== null) {
        const c = pal[(nTop + i) % pal.length];
        traces.push({ x: k, y: d.x.map((r) => r[i]), type: 'scatter', mode: 'lines', line: { color: c, width: 1.5 }, name: `x${i + 1}[k]` });
        boundLine(d.xbounds, i, 'y', c, `x${i + 1}`);
      }
    }
    const ku = d.u.map((_, i) => i);
    for (let j = 0; j < nu; j++) {
      const c = pal[(nTop + j + 2) % pal.length];
      traces.push({ x: [...ku, ku.length], y: [...d.u.map((r) => r[j]), d.u[d.u.length - 1][j]], yaxis: 'y2', type: 'scatter', mode: 'lines', line: { color: c, width: 2, shape: 'hv' }, name: nu > 1 ? `u${j + 1}[k]` : 'u[k]', hovertemplate: `k = %{x}<br>u${nu > 1 ? j + 1 : ''} = %{y:.4g}<extra></extra>` });
      boundLine(d.ubounds, j, 'y2', c, nu > 1 ? `u${j + 1}` : 'u');
    }
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { title: { text: `Step k (t = k·${fmt(p.Ts)} s)` }, anchor: 'y2' });
    L.yaxis = axisStyle(t, { title: { text: d.y ? 'Outputs y' : 'States x' }, domain: [0.4, 1] });
    L.yaxis2 = axisStyle(t, { title: { text: 'Inputs u' }, domain: [0, 0.3] });
    L.shapes = (L.shapes || []).concat(
      d.active.map((a, i) => (a ? { type: 'rect', xref: 'x', yref: 'paper', x0: i, x1: i + 1, y0: 0, y1: 1, fillcolor: t.orange, opacity: 0.08, line: { width: 0 }, layer: 'below' } : null)).filter(Boolean),
    );
    const nAct = d.active.filter(Boolean).length;
    return { traces, layout: L, summary: `${d.u.length} steps · constraint active on the applied move at ${nAct} step(s)` };
  }

  // ------------------------------------------------------------------ complex-plane plots
  function planeLayout(t, xTitle, yTitle) {
    const L = baseLayout(t);
    L.xaxis = axisStyle(t, { title: { text: xTitle }, zeroline: true });
    L.yaxis = axisStyle(t, { title: { text: yTitle }, zeroline: true, scaleanchor: 'x', scaleratio: 1 });
    return L;
  }

  function unitCircle(t) {
    return { type: 'circle', xref: 'x', yref: 'y', x0: -1, y0: -1, x1: 1, y1: 1, line: { color: t.zero, width: 1, dash: 'dot' } };
  }

  function nyquist(p, t) {
    const d = p.data;
    const pos = [], neg = [];
    d.w.forEach((w, i) => (w >= 0 ? pos : neg).push(i));
    const pick = (idx, k) => idx.map((i) => d.H[i][k]);
    const traces = [
      { x: pick(pos, 0), y: pick(pos, 1), customdata: pos.map((i) => d.w[i]), type: 'scatter', mode: 'lines', name: 'L(jω), ω ≥ 0', line: { color: t.blue, width: 2 }, hovertemplate: 'ω = %{customdata:.4g} rad/s<br>%{x:.4g} %{y:+.4g}j<extra></extra>' },
      { x: pick(neg, 0), y: pick(neg, 1), customdata: neg.map((i) => d.w[i]), type: 'scatter', mode: 'lines', name: 'ω < 0 (mirror)', line: { color: t.blue, width: 1.5, dash: 'dash' }, opacity: 0.7, hovertemplate: 'ω = %{customdata:.4g} rad/s<br>%{x:.4g} %{y:+.4g}j<extra></extra>' },
    ];
    d.detours.forEach((dt, j) =>
      traces.push({ x: dt.H.map((h) => h[0]), y: dt.H.map((h) => h[1]), type: 'scatter', mode: 'lines', name: j === 0 ? 'detours around boundary poles' : undefined, showlegend: j === 0, line: { color: t.purple, width: 1.5, dash: 'dot' }, hoverinfo: 'skip' }),
    );
    traces.push({ x: [-1], y: [0], type: 'scatter', mode: 'markers+text', name: 'critical point −1', text: ['−1'], textposition: 'bottom left', textfont: { color: t.red, size: 13 }, marker: { color: t.red, size: 12, symbol: 'x-thin', line: { width: 3, color: t.red } }, hovertemplate: '−1<extra></extra>' });
    const L = planeLayout(t, 'Real axis Re L', 'Imaginary axis Im L');
    // view: the whole curve when it is bounded; with poles on the boundary (H unbounded near
    // them) a window of radius 4 around the origin, where −1 is (scroll to zoom out)
    const lim = d.detours.length ? 4 : Infinity;
    let x0 = -1.2, x1 = 0.2, y0 = -0.5, y1 = 0.5;
    for (const h of d.H) {
      if (!(Math.hypot(h[0], h[1]) <= lim)) continue;
      x0 = Math.min(x0, h[0]); x1 = Math.max(x1, h[0]); y0 = Math.min(y0, h[1]); y1 = Math.max(y1, h[1]);
    }
    const px = 0.08 * (x1 - x0), py = 0.08 * (y1 - y0);
    L.xaxis.range = [x0 - px, x1 + px];
    L.yaxis.range = [y0 - py, y1 + py];
    L.shapes.push(unitCircle(t));
    // direction arrows along the ω ≥ 0 branch (positions only)
    for (const f of [0.3, 0.6]) {
      const k = pos[Math.floor(f * (pos.length - 2))];
      const a = d.H[k], b = d.H[k + 1];
      if (!a || !b || !(Math.hypot(a[0], a[1]) <= Math.min(lim, 1e300))) continue;
      L.annotations.push({ x: b[0], y: b[1], ax: a[0], ay: a[1], axref: 'x', ayref: 'y', xref: 'x', yref: 'y', showarrow: true, arrowhead: 2, arrowsize: 1.6, arrowwidth: 2, arrowcolor: t.blue, text: '' });
    }
    const stable = d.closed_loop_unstable_poles === 0;
    const N = Number.isFinite(d.encirclements) ? d.encirclements : null;
    const text =
      (N === null ? 'encirclements of −1: not counted (curve through −1)' : `clockwise encirclements of −1: N = ${N}`) +
      `<br>open-loop unstable poles P = ${d.open_loop_unstable_poles}` +
      `<br>closed-loop unstable poles Z = ${d.closed_loop_unstable_poles}: ${stable ? 'stable' : 'unstable'}`;
    L.annotations.push({ xref: 'paper', yref: 'paper', x: 1, y: 1, xanchor: 'right', yanchor: 'top', showarrow: false, align: 'left', text, font: { color: t.fg }, bgcolor: t.bg, bordercolor: stable ? t.green : t.red, borderwidth: 1, borderpad: 5 });
    return { traces, layout: L, summary: N === null ? '' : `N = ${N}, P = ${d.open_loop_unstable_poles}, Z = ${d.closed_loop_unstable_poles}` };
  }

  function rlocus(p, t) {
    const d = p.data;
    const n = d.poles[0] ? d.poles[0].length : 0;
    const pal = palette(t);
    const traces = [];
    for (let j = 0; j < n; j++) {
      traces.push({
        x: d.poles.map((row) => row[j][0]),
        y: d.poles.map((row) => row[j][1]),
        customdata: d.k,
        type: 'scatter',
        mode: 'lines',
        name: `branch ${j + 1}`,
        showlegend: false,
        line: { color: pal[j % pal.length], width: 2 },
        hovertemplate: 'k = %{customdata:.4g}<br>s = %{x:.4g} %{y:+.4g}j<extra></extra>',
      });
    }
    traces.push({ x: d.open_loop_poles.map((z) => z[0]), y: d.open_loop_poles.map((z) => z[1]), type: 'scatter', mode: 'markers', name: 'open-loop poles (k = 0)', marker: { symbol: 'x-thin', size: 12, line: { width: 3, color: t.fg }, color: t.fg }, hovertemplate: 'pole %{x:.4g} %{y:+.4g}j<extra></extra>' });
    if (d.open_loop_zeros.length)
      traces.push({ x: d.open_loop_zeros.map((z) => z[0]), y: d.open_loop_zeros.map((z) => z[1]), type: 'scatter', mode: 'markers', name: 'zeros (k → ∞)', marker: { symbol: 'circle-open', size: 11, line: { width: 2.5, color: t.fg }, color: t.fg }, hovertemplate: 'zero %{x:.4g} %{y:+.4g}j<extra></extra>' });
    if (d.breakaway.length)
      traces.push({ x: d.breakaway.map((b) => b.s[0]), y: d.breakaway.map((b) => b.s[1]), customdata: d.breakaway.map((b) => b.k), type: 'scatter', mode: 'markers', name: 'breakaway points', marker: { symbol: 'diamond', size: 10, color: t.red }, hovertemplate: 'breakaway %{x:.4g} %{y:+.4g}j<br>k = %{customdata:.4g}<extra></extra>' });
    const L = planeLayout(t, p.discrete ? 'Real axis Re z' : 'Real axis Re s (1/s)', p.discrete ? 'Imaginary axis Im z' : 'Imaginary axis Im s (rad/s)');
    // view: the open-loop poles, zeros, breakaway points and centroid with a margin of 75 % of
    // their spread, so the branches' bends and the start of the asymptotes show (scroll to zoom)
    const feats = d.open_loop_poles.concat(d.open_loop_zeros, d.breakaway.map((b) => b.s));
    if (d.asymptotes && Number.isFinite(d.asymptotes.centroid)) feats.push([d.asymptotes.centroid, 0]);
    let x0 = Math.min(...feats.map((z) => z[0])), x1 = Math.max(...feats.map((z) => z[0]));
    let y0 = Math.min(...feats.map((z) => z[1])), y1 = Math.max(...feats.map((z) => z[1]));
    const spread = Math.max(x1 - x0, y1 - y0, 0.5 * Math.max(...feats.map((z) => Math.hypot(z[0], z[1]))), 1e-6);
    x0 -= 0.75 * spread; x1 += 0.75 * spread; y0 -= 0.75 * spread; y1 += 0.75 * spread;
    if (p.discrete) { x0 = Math.min(x0, -1.1); x1 = Math.max(x1, 1.1); y0 = Math.min(y0, -1.1); y1 = Math.max(y1, 1.1); L.shapes.push(unitCircle(t)); }
    const px = 0.02 * (x1 - x0), py = 0.02 * (y1 - y0);
    L.xaxis.range = [x0 - px, x1 + px];
    L.yaxis.range = [y0 - py, y1 + py];
    const a = d.asymptotes;
    if (a && Number.isFinite(a.centroid)) {
      const R = 4 * Math.max(x1 - x0, y1 - y0, 1);
      for (const ang of a.angles_deg) {
        const th = (ang * Math.PI) / 180;
        L.shapes.push({ type: 'line', xref: 'x', yref: 'y', x0: a.centroid, y0: 0, x1: a.centroid + R * Math.cos(th), y1: R * Math.sin(th), line: { color: t.zero, width: 1, dash: 'dash' }, layer: 'below' });
      }
      traces.push({ x: [a.centroid], y: [0], type: 'scatter', mode: 'markers', name: `asymptotes: centroid ${fmt(a.centroid)}, ${a.angles_deg.map((v) => fmt(v) + '°').join(', ')}`, marker: { symbol: 'cross-thin', size: 10, line: { width: 2, color: t.zero } }, hovertemplate: 'centroid %{x:.4g}<extra></extra>' });
    }
    return { traces, layout: L, summary: `${d.k.length} gains from 0 to ${fmt(d.k[d.k.length - 1])}` };
  }

  function pzmap(p, t) {
    const d = p.data;
    const traces = [
      { x: d.poles.map((z) => z[0]), y: d.poles.map((z) => z[1]), type: 'scatter', mode: 'markers', name: 'poles', marker: { symbol: 'x-thin', size: 13, line: { width: 3, color: t.blue }, color: t.blue }, hovertemplate: 'pole %{x:.4g} %{y:+.4g}j<extra></extra>' },
    ];
    if (d.zeros.length)
      traces.push({ x: d.zeros.map((z) => z[0]), y: d.zeros.map((z) => z[1]), type: 'scatter', mode: 'markers', name: 'zeros', marker: { symbol: 'circle-open', size: 12, line: { width: 2.5, color: t.orange }, color: t.orange }, hovertemplate: 'zero %{x:.4g} %{y:+.4g}j<extra></extra>' });
    const L = planeLayout(t, p.discrete ? 'Real axis Re z' : 'Real axis Re s (1/s)', p.discrete ? 'Imaginary axis Im z' : 'Imaginary axis Im s (rad/s)');
    const all = d.poles.concat(d.zeros);
    let r = Math.max(1e-9, ...all.map((z) => Math.max(Math.abs(z[0]), Math.abs(z[1]))));
    if (p.discrete) { r = Math.max(r, 1.1); L.shapes.push(unitCircle(t)); }
    L.xaxis.range = [-1.2 * r, 1.2 * r];
    L.yaxis.range = [-1.2 * r, 1.2 * r];
    if (!p.discrete) L.shapes.push({ type: 'rect', xref: 'x', yref: 'paper', x0: 0, x1: 1.2 * r, y0: 0, y1: 1, fillcolor: t.red, opacity: 0.06, line: { width: 0 }, layer: 'below' });
    return { traces, layout: L, summary: `${d.poles.length} pole(s), ${d.zeros.length} zero(s)` };
  }

  // ------------------------------------------------------------------ render
  // non-finite numbers (∞ margins, NaN frequencies) travel as {__nf: "Infinity"}: JSON has none
  function revive(v) {
    if (Array.isArray(v)) return v.map(revive);
    if (v && typeof v === 'object') {
      if (typeof v.__nf === 'string' && Object.keys(v).length === 1) return Number(v.__nf);
      const o = {};
      for (const k of Object.keys(v)) o[k] = revive(v[k]);
      return o;
    }
    return v;
  }
  const builders = { bode, step: timeResp, impulse: timeResp, nyquist, rlocus, pzmap, lsim: simulation, initial: simulation, nlsim: simulation, sigma, diskmargin, mpc: mpcPlot };

  function render() {
    if (!payload) return;
    const t = theme();
    titleEl.textContent = payload.title;
    subtitleEl.textContent = payload.subtitle;
    const fig = builders[payload.kind](payload, t);
    notesEl.textContent = '';
    for (const n of payload.notes) {
      const div = document.createElement('div');
      div.textContent = n;
      notesEl.appendChild(div);
    }
    verifyEl.textContent = '';
    for (const v of payload.verification) {
      const div = document.createElement('div');
      div.className = v.ok === true ? 'ok' : v.ok === false ? 'fail' : 'na';
      div.textContent = `${v.ok === true ? '✔' : v.ok === false ? '✘' : '•'} ${v.tool}: ${v.detail}`;
      verifyEl.appendChild(div);
    }
    document.getElementById('summary').textContent = fig.summary || '';
    const config = { displayModeBar: false, responsive: true, displaylogo: false, scrollZoom: true, doubleClick: 'reset' };
    return Plotly.react(plotEl, fig.traces, fig.layout, config).then(() => {
      vscode.postMessage({
        type: 'rendered',
        kind: payload.kind,
        svg: !!plotEl.querySelector('svg.main-svg'),
        traces: fig.traces.length,
        width: plotEl.clientWidth,
        height: plotEl.clientHeight,
        viewport: window.innerWidth,
      });
    });
  }

  function exportAs(format) {
    if (!payload) return;
    const w = plotEl.clientWidth || 900;
    const h = plotEl.clientHeight || 600;
    Plotly.toImage(plotEl, { format, width: w, height: h, scale: format === 'png' ? 2 : 1 })
      .then((url) => vscode.postMessage({ type: 'export', format, dataUrl: url, kind: payload.kind }))
      .catch((e) => vscode.postMessage({ type: 'error', message: `export failed: ${e && e.message ? e.message : e}` }));
  }

  document.getElementById('export-svg').addEventListener('click', () => exportAs('svg'));
  document.getElementById('export-png').addEventListener('click', () => exportAs('png'));

  window.addEventListener('message', (ev) => {
    const msg = ev.data;
    if (msg && msg.type === 'plot') {
      payload = revive(msg.payload);
      vscode.setState({ payload });
      Promise.resolve(render()).catch((e) => vscode.postMessage({ type: 'error', message: String(e && e.message ? e.message : e) }));
    } else if (msg && msg.type === 'export') {
      exportAs(msg.format);
    }
  });
  // the figure follows its panel: a resized or re-split editor group, a toggled side bar.
  // (Plotly's own `responsive` listens to window resizes only; the plot's box also changes
  // when the header wraps.) One resize per frame.
  let resizeQueued = false;
  new ResizeObserver(() => {
    if (resizeQueued || !payload || !plotEl.querySelector('svg.main-svg')) return;
    resizeQueued = true;
    requestAnimationFrame(() => {
      resizeQueued = false;
      Promise.resolve(Plotly.Plots.resize(plotEl)).catch(() => undefined);
    });
  }).observe(plotEl);
  // the theme changes the body's classes: draw again in the new colours
  new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.addEventListener('error', (e) => vscode.postMessage({ type: 'error', message: String(e.message) }));

  const state = vscode.getState();
  if (state && state.payload) {
    payload = state.payload;
    render();
  }
  vscode.postMessage({ type: 'ready' });
})();
