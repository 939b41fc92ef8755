// Static report charts: ticks, a path per series, and the report embedding them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineChart, niceTicks } from '../../src/core/render/svgplot.js';
import { buildReport } from '../../src/core/codegen/report.js';
import { collectTurn } from '../../src/core/agent/turn.js';

test('nice ticks are round numbers covering the range', () => {
  assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(-3, 7, 5), [-2, 0, 2, 4, 6]);
});

test('a chart has one path per series, axis labels and a log axis in decades', () => {
  const svg = lineChart({
    title: 'T',
    xLabel: 'ω (rad/s)',
    yLabel: 'dB',
    series: [
      { x: [0.1, 1, 10, 100], y: [0, -3, -20, -40] },
      { x: [0.1, 100], y: [1, 1], label: 'ref' },
    ],
    logX: true,
  });
  assert.equal((svg.match(/<path /g) ?? []).length, 2);
  assert.match(svg, /ω \(rad\/s\)/);
  for (const t of ['0.1', '1', '10', '100']) assert.ok(svg.includes(`>${t}</text>`), t);
  assert.equal(lineChart({ title: 'x', xLabel: 'x', yLabel: 'y', series: [{ x: [NaN], y: [NaN] }] }), '');
});

test('the design report embeds the step response as an image in Markdown and inline SVG in HTML', async () => {
  const events = await collectTurn({ command: 'step', prompt: 'num=[1], den=[1 2 1]' });
  const r = buildReport([{ at: '2026-05-01T12:00:00Z', prompt: 'num=[1], den=[1 2 1]', command: 'step', events }])!;
  assert.match(r.markdown, /!\[Step response\]\(data:image\/svg\+xml;base64,/);
  assert.match(r.html, /<figure><svg [^>]*>.*<\/svg><figcaption>Step response<\/figcaption><\/figure>/s);
  assert.ok(!/<img/.test(r.html), 'no image loads (the page policy allows none)');
});
