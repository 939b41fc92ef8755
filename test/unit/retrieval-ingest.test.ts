// Retrieval ingestion: every format, unique page-qualified ids, low-value pages dropped,
// mojibake repaired, human source names. Small fixtures made here; a PDF written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestFile } from '../../src/core/retrieval/ingest/index.js';
import { lowValueReason } from '../../src/core/retrieval/ingest/lowValue.js';
import { isMojibake, repairMojibake } from '../../src/core/retrieval/ingest/mojibake.js';
import { cleanFileName } from '../../src/core/retrieval/ingest/sourceName.js';
import { makePdf } from '../fixtures/pdf.js';

const enc = (s: string) => Buffer.from(s, 'utf8');
const prose = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} explains how ${topic} shapes the closed loop response and why the designer checks it.`).join(' ');

test('Markdown: front-matter title, heading paths, line ranges, comments out, ~200-word chunks', async () => {
  const md = [
    '---',
    'title: "Loop shaping notes"',
    '---',
    '',
    '# Loop shaping',
    '',
    prose('loop gain', 5),
    '',
    '## Crossover',
    '',
    '<!-- control solve margins {} -->',
    prose('crossover frequency', 30),
    '',
    prose('phase margin', 30),
    '',
    '```matlab',
    '# not a heading',
    'margin(L)',
    '```',
  ].join('\n');
  const r = await ingestFile('notes/loop.md', enc(md));
  assert.equal(r.source, 'Loop shaping notes');
  assert.ok(r.chunks.length >= 3);
  assert.equal(r.chunks[0].heading, 'Loop shaping');
  assert.ok(r.chunks.slice(1).every((c) => c.heading === 'Loop shaping > Crossover'));
  assert.ok(!r.chunks.some((c) => c.text.includes('control solve')), 'HTML comments are not indexed');
  assert.ok(
    r.chunks.some((c) => c.text.includes('margin(L)') && c.text.includes('# not a heading')),
    'code fence kept whole',
  );
  for (const c of r.chunks) {
    const words = c.text.split(/\s+/).length;
    assert.ok(words <= 330, `${c.id} has ${words} words`);
    assert.ok('startLine' in c.range && c.range.startLine >= 5 && c.range.endLine >= c.range.startLine);
  }
  const first = r.chunks[0].range as { startLine: number };
  assert.equal(md.split('\n')[first.startLine - 1].startsWith('Sentence 0'), true, 'line numbers are 1-based file lines');
  assert.equal(new Set(r.chunks.map((c) => c.id)).size, r.chunks.length);
});

test('PDF: page-qualified ids unique across pages, title metadata, mojibake repaired', async () => {
  const pages = Array.from({ length: 4 }, (_, p) => [`Page ${p + 1} on feedback.`, prose(`page ${p + 1} topic`, 40)]);
  pages[0].unshift('The Laplace transform L½ f ðtÞ/C138 ¼ FðsÞ and L½ gðtÞ/C138 ¼ GðsÞ.');
  const r = await ingestFile('books/scan_0001 feedback (1).pdf', makePdf(pages, 'Feedback Systems'));
  assert.equal(r.source, 'Feedback Systems');
  assert.equal(r.units, 4);
  const ids = r.chunks.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'ids unique across pages');
  assert.ok(ids.includes('books/scan_0001 feedback (1).pdf#p1:c0') && ids.includes('books/scan_0001 feedback (1).pdf#p4:c0'));
  assert.ok(ids.filter((id) => id.endsWith(':c0')).length === 4, 'each page restarts its ordinal, qualified by page');
  assert.ok(r.chunks.every((c) => 'page' in c.range));
  assert.deepEqual(r.chunks.find((c) => c.id.includes('#p3:'))!.range, { page: 3 });
  assert.match(r.chunks[0].text, /L\[ f \(t\)\] = F\(s\)/);
  assert.equal(r.repaired, 1);
  // without metadata: a cleaned file name, never the raw scan artefacts
  const r2 = await ingestFile('books/scan_0001 feedback_systems (1).pdf', makePdf([['Some text on page one about control.']]));
  assert.equal(r2.source, 'Feedback systems');
});

test('mojibake: detected and repaired; Icelandic text left alone', () => {
  assert.ok(isMojibake('L½ f ðtÞ/C138 ¼FðsÞ'));
  assert.equal(repairMojibake('L½ f ðtÞ/C138 ¼FðsÞ'), 'L[ f (t)] =F(s)');
  assert.ok(!isMojibake('Maðurinn fór út í garðinn og sá þar góðan mann.'));
  assert.ok(!isMojibake('Plain English with a ½ cup and ¼ teaspoon.'));
});

test('plain text, LaTeX, notebook, MATLAB and Python are ingested with ranges', async () => {
  const txt = await ingestFile('readme.txt', enc(`${prose('sampling', 5)}\n\n${prose('aliasing', 5)}\n`));
  assert.ok(txt.chunks.length >= 1 && txt.chunks[0].id === 'readme.txt#c0');

  const tex = await ingestFile(
    'paper/main.tex',
    enc(
      [
        '\\documentclass{article}',
        '\\title{Robust \\emph{Loop} Design}',
        '\\begin{document}',
        '\\maketitle',
        '\\section{Introduction}',
        '% a comment',
        prose('robustness', 6),
        '\\section{Method}',
        prose('H-infinity synthesis', 6),
        '\\end{document}',
      ].join('\n'),
    ),
  );
  assert.equal(tex.source, 'Robust Loop Design');
  assert.deepEqual(
    tex.chunks.map((c) => c.heading),
    ['Introduction', 'Method'],
  );
  assert.ok(!tex.chunks.some((c) => c.text.includes('a comment')));
  assert.deepEqual(tex.chunks[1].range, { startLine: 9, endLine: 9 });

  const nb = {
    cells: [
      { cell_type: 'markdown', source: ['# Kalman filter demo\n', '\n', prose('the Kalman gain', 3)] },
      { cell_type: 'code', source: 'import numpy as np\nP = np.eye(2)\n', outputs: [{ text: 'OUTPUT NOT INDEXED' }] },
      { cell_type: 'raw', source: 'ignored' },
    ],
    metadata: {},
  };
  const ipynb = await ingestFile('demo.ipynb', enc(JSON.stringify(nb)));
  assert.equal(ipynb.source, 'Kalman filter demo');
  assert.deepEqual(
    ipynb.chunks.map((c) => c.id),
    ['demo.ipynb#cell0:c0', 'demo.ipynb#cell1:c0'],
  );
  assert.deepEqual(ipynb.chunks[1].range, { startLine: 1, endLine: 2, cell: 1 });
  assert.equal(ipynb.chunks[1].heading, 'Kalman filter demo');
  assert.ok(!ipynb.chunks.some((c) => c.text.includes('OUTPUT')));

  const m = await ingestFile(
    'ctrl/design_lqr.m',
    enc(
      ['% LQR design for the cart', 'A = [0 1; 0 0]; B = [0; 1];', 'K = lqr(A, B, eye(2), 1);', '', 'function y = helper(x)', '  y = 2*x;', 'end'].join('\n'),
    ),
  );
  assert.equal(m.source, 'Design lqr');
  assert.ok(m.chunks[0].text.includes('lqr(A, B'));
  assert.deepEqual(m.chunks[0].range, { startLine: 1, endLine: 7 });

  const py = await ingestFile('sim.py', enc('import control\n\n\ndef plant():\n    """Second-order plant."""\n    return control.tf([1], [1, 2, 1])\n'));
  assert.ok(py.chunks[0].text.includes('def plant'));

  await assert.rejects(ingestFile('bad.txt', Buffer.from([0x50, 0, 1, 2, 0xff])), /binary/);
});

test('low-value chunks: back-of-book index, contents, bibliography dropped; prose and formulas kept', async () => {
  const index = [
    'Index',
    'Bode plot, 112, 145–150, 301',
    'bandwidth, 88, 92',
    'controllability, 45, 46, 210',
    'damping ratio, 130–133',
    'eigenvalue, 40, 41, 57, 89',
    'feedback, 1, 3, 17–19',
    'gain margin, 150, 152',
    'Kalman filter, 400–420',
    'Nyquist criterion, 160–171',
  ].join('\n');
  const toc = [
    'Contents',
    '1 Introduction ........ 1',
    '2 System modelling ........ 15',
    '2.1 State space ........ 18',
    '3 Stability ........ 41',
    '4 Frequency response ........ 77',
    '5 Feedback design ........ 102',
  ].join('\n');
  const bib = [
    '[1] H. W. Bode. Network Analysis and Feedback Amplifier Design. Van Nostrand, 1945.',
    '[2] J. C. Doyle. Guaranteed margins for LQG regulators. IEEE Trans. Automat. Contr., vol. 23, no. 4, pp. 756–757, 1978.',
    '[3] R. E. Kalman. A new approach to linear filtering. J. Basic Eng., vol. 82, pp. 35–45, 1960.',
    '[4] K. J. Åström and R. M. Murray. Feedback Systems. Princeton Univ. Press, 2008.',
    '[5] S. Skogestad and I. Postlethwaite. Multivariable Feedback Control. Wiley, 2005.',
    '[6] J. S. Freudenberg and D. P. Looze. Right half plane poles and zeros. IEEE Trans. Automat. Contr., vol. 30, 1985.',
  ].join('\n');
  assert.equal(lowValueReason(index), 'index');
  assert.equal(lowValueReason(toc), 'contents');
  assert.equal(lowValueReason(bib), 'bibliography');
  assert.equal(lowValueReason('anything at all here', 'Notes > References'), 'bibliography');
  const keep = [
    prose('integral action', 4),
    'Bode (1945) showed that for a stable open loop the integral of ln|S| over frequency is zero; Freudenberg and Looze (1985) extended it to unstable poles. Page 3 of the notes has the example with 2 poles and 1 zero.',
    'The closed loop poles are at -1, -2 and -3, with gains 1, 2, 3 for the three loops, and the margins 6 dB, 45 deg; the step settles in 4.2 s with 5 % overshoot, 0.8 s rise time, 1.2 s peak time and steady-state error 0.',
    '$$K = R^{-1} B^T X, \\quad A^T X + X A - X B R^{-1} B^T X + Q = 0$$ gives K = [1 1.732] for the double integrator with Q = I and R = 1.',
  ];
  for (const k of keep) assert.equal(lowValueReason(k), undefined, k.slice(0, 40));
  // a PDF whose last page is an index: that page is dropped, counted
  const r = await ingestFile('book.pdf', makePdf([[prose('root locus', 20)], index.split('\n')], 'Control Book'));
  assert.deepEqual(
    r.chunks.map((c) => c.id),
    ['book.pdf#p1:c0'],
  );
  assert.deepEqual(r.dropped, { index: 1 });
});

test('source names: file names cleaned of scan and export artefacts', () => {
  assert.equal(cleanFileName('papers/Doyle_1978_guaranteed-margins [OCR] (2).pdf'), 'Doyle 1978 guaranteed margins');
  assert.equal(cleanFileName('scan0001_kalman-filter_final.pdf'), 'Kalman filter');
  assert.equal(cleanFileName('notes.md'), 'Notes');
});
