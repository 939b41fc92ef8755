// A real chat conversation with @control, typed into the chat input as a user does: the
// conversation state the core keeps (issue 10), the reading line that starts every answer,
// questions back with their follow-up buttons, and nothing essential folded into VS Code's
// collapsed "Completed N steps" block. Screenshots in test-results/conversation-*.png.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askInChat, chatTurnIndex, responseAfter, showNewestAnswerTop } from './chat.mjs';
import { sleep } from './procs.mjs';
import { close, hankelOfDiagonal, lqrCompanion2, numbersIn } from './reference.mjs';

// ---------------------------------------------------------------- reference values, computed here

/** Tustin discretisation of a 2x2 A: (I - A T/2)^-1 (I + A T/2) */
function tustin2(A, T) {
  const h = T / 2;
  const M = [
    [1 - h * A[0][0], -h * A[0][1]],
    [-h * A[1][0], 1 - h * A[1][1]],
  ];
  const P = [
    [1 + h * A[0][0], h * A[0][1]],
    [h * A[1][0], 1 + h * A[1][1]],
  ];
  const det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
  const inv = [
    [M[1][1] / det, -M[0][1] / det],
    [-M[1][0] / det, M[0][0] / det],
  ];
  return inv.map((r) => [0, 1].map((j) => r[0] * P[0][j] + r[1] * P[1][j]));
}

/**
 * Margins of L(s) = 10 / (s (s + 1) (s + 5)): the phase is -90° - atan(ω) - atan(ω/5), which is
 * -180° where ω² = 5 (atan(ω) + atan(ω/5) = 90° <=> ω · ω/5 = 1); there |L| = 10 / (√5 √6 √30)
 * = 1/3, so GM = 3. The gain crossover |L(jω)| = 1 is found by bisection.
 */
function marginsReference() {
  const mag = (w) => 10 / (w * Math.hypot(w, 1) * Math.hypot(w, 5));
  let lo = 0.1,
    hi = 10;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mag(mid) > 1) lo = mid;
    else hi = mid;
  }
  const wc = (lo + hi) / 2;
  const pm = 180 - 90 - (Math.atan(wc) + Math.atan(wc / 5)) * (180 / Math.PI);
  return { gm: 3, gmDb: 20 * Math.log10(3), pm, wc };
}

/** y(t) of 1/(s+1)^2 to a unit step: 1 - (1 + t) e^-t */
const stepOfDoublePole = (t) => 1 - (1 + t) * Math.exp(-t);

// ---------------------------------------------------------------- reading the chat

/**
 * What the newest answer shows: its content text (without the header), whether VS Code folded
 * part of it into a "Completed N steps" block, its buttons and the follow-up buttons under it.
 */
async function newestAnswer(page) {
  return page.evaluate(() => {
    let row;
    let rowIndex = -1;
    for (const r of document.querySelectorAll('.interactive-session .monaco-list-row')) {
      const i = Number(r.getAttribute('data-index'));
      if (r.querySelector('.interactive-item-container.interactive-response') && i > rowIndex) [row, rowIndex] = [r, i];
    }
    if (!row) return undefined;
    const resp = row.querySelector('.interactive-item-container.interactive-response');
    const value = resp.querySelector('.value') ?? resp;
    const texts = (sel) => [...row.querySelectorAll(sel)].map((b) => b.textContent.trim()).filter(Boolean);
    return {
      index: rowIndex,
      text: value.innerText,
      // the reading is inline code in the first paragraph
      firstCode: value.querySelector('p code')?.textContent ?? '',
      disclosures: row.querySelectorAll('.completed-response-disclosure').length,
      disclosureText: texts('.completed-response-summary').join(' | '),
      // the answer's own buttons (not the "Used N references" toggle VS Code adds)
      buttons: [...value.querySelectorAll('.monaco-button')].filter((b) => !b.closest('.chat-used-context')).map((b) => b.textContent.trim()),
      usedContext: texts('.chat-used-context-label'),
      markdownParts: value.querySelectorAll('.rendered-markdown').length,
      // every button after the last piece of text (buttons between texts make VS Code fold the text before them)
      buttonsLast: (() => {
        const md = [...value.querySelectorAll('.rendered-markdown')].filter((m) => m.textContent.trim()).pop();
        const first = [...value.querySelectorAll('.monaco-button')].find((b) => !b.closest('.chat-used-context'));
        return !md || !first || !!(md.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING);
      })(),
      // VS Code shows the newest answer's follow-ups below the list, not inside its row
      followups: [...(row.closest('.interactive-session') ?? document).querySelectorAll('.interactive-session-followups')]
        .slice(-1)
        .flatMap((f) => [...f.querySelectorAll('.monaco-button')].map((b) => b.textContent.trim())),
      html: row.outerHTML,
    };
  });
}

/** the first non-empty line of an answer (inline code shows without its backticks) */
const firstLine = (text) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean) ?? '';

export async function conversationTests(page, { uiTest, expect, hostCommand, ensureControlModel, openFile, resultsDir }) {
  const shot = (name) => page.screenshot({ path: join(resultsDir, name) });
  const seen = []; // {prompt, first, ms} per turn, for the report

  /** asks, waits for the finished answer, and checks what every computed answer must satisfy */
  async function turn(prompt, mustMatch, { computed = true } = {}) {
    const before = await chatTurnIndex(page);
    const t0 = Date.now();
    await askInChat(page, prompt);
    await responseAfter(page, { after: before, mustMatch, timeoutMs: 45_000 });
    const a = await newestAnswer(page);
    expect(a, `no answer to ${prompt}`);
    const first = firstLine(a.text);
    seen.push({ prompt, first, ms: Date.now() - t0 });
    console.log(`     ${prompt}\n       -> ${first}`);
    if (computed) expect(/^Computed \w+\(/.test(first), `the answer to "${prompt}" does not start with the Computed line; it starts:\n${a.text.slice(0, 400)}`);
    expect(
      a.disclosures === 0 && !/Completed \d+ steps?/.test(a.text),
      `part of the answer to "${prompt}" is folded into a collapsed block (${a.disclosureText}):\n${a.text.slice(0, 600)}`,
    );
    return { ...a, first };
  }

  await uiTest(
    page,
    'ui: conversation: six @control turns typed into the chat keep the conversation in the core state; every answer starts with its Computed line and nothing is folded away (test-results/conversation-6-turns.png, conversation-followup.png)',
    async () => {
      await ensureControlModel(page);
      await hostCommand('workbench.action.chat.newChat');
      await hostCommand('workbench.action.closeAllEditors');
      await hostCommand('workbench.action.closeSidebar').catch(() => {});
      await hostCommand('workbench.action.closePanel').catch(() => {});
      // the chat maximised: wide enough to read the answers in the screenshots
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(500);

      // (1) c2d with a unit and a method in words
      const A = [
        [0, 1],
        [-2, -3],
      ];
      const Ad = tustin2(A, 0.05);
      let a = await turn('@control /c2d A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts = 50 ms using tustin', /Ad|Verified/);
      expect(
        /^Computed c2d\(/.test(a.first) && /^c2d\(A, B, C, Ts = 0\.05, method = 'tustin'\)$/.test(a.firstCode),
        `turn 1: ${a.first} (code: ${a.firstCode})`,
      );
      expect(/Ts = 0\.05/.test(a.first) && /method = 'tustin'/.test(a.first), `turn 1 reading lacks Ts = 0.05 or method = 'tustin': ${a.first}`);
      expect(
        /Ts from (your message|'[^']*50 ms[^']*')/.test(a.first) && /method from 'tustin'/.test(a.first),
        `turn 1 reading does not say where Ts and method came from: ${a.first}`,
      );
      const n1 = numbersIn(a.text);
      for (const x of Ad.flat())
        expect(
          n1.some((y) => close(y, x, 1e-5)),
          `Ad entry ${x.toFixed(6)} not shown in turn 1:\n${a.text.slice(0, 1200)}`,
        );
      await showNewestAnswerTop(page);
      await shot('conversation-1-c2d.png');

      // (2) a transfer function given in the message: a continuous step, none of turn 1's discrete model
      a = await turn('@control step response of num=[1], den=[1 2 1]', /Final value|stepinfo|Rise time/i);
      expect(/^Computed step\(num = \[1\], den = \[1 2 1\]\);/.test(a.first), `turn 2 reading: ${a.first}`);
      expect(!/Ts\b|tustin|turn 1/.test(a.first), `turn 2 picked up turn 1's discrete model: ${a.first}`);
      const yEnd = stepOfDoublePole(8);
      expect(
        new RegExp(`y\\(end\\) = ${yEnd.toFixed(6)}`).test(a.text),
        `turn 2: y(end) = ${yEnd.toFixed(6)} (1 - 9e^-8) not shown:\n${a.text.slice(0, 1500)}`,
      );
      expect(/Final value\s*\|?\s*1\b/.test(a.text.replace(/\t/g, ' ')), `turn 2: final value 1 not shown`);
      expect(!numbersIn(a.text).some((y) => close(y, Ad[0][0], 1e-6)), "turn 2 shows turn 1's Ad");
      // the realisation, the step table and the Plot button are in the answer itself, and the
      // buttons come after the last of its text
      expect(/state-space realisation/i.test(a.text) && /t \(s\)/.test(a.text), `turn 2: realisation or step table missing:\n${a.text.slice(0, 1500)}`);
      expect(
        a.buttons.some((b) => /Plot step response/.test(b)),
        `turn 2: no Plot button: ${JSON.stringify(a.buttons)}`,
      );
      expect(
        a.markdownParts > 0 && a.buttonsLast,
        `turn 2 (${a.markdownParts} Markdown parts): a button sits between pieces of the answer's text: ${JSON.stringify(a.buttons)}`,
      );
      expect(new Set(a.buttons).size === a.buttons.length, `turn 2: two buttons read the same: ${JSON.stringify(a.buttons)}`);
      writeFileSync(join(resultsDir, 'conversation-2-step.html'), a.html);
      await showNewestAnswerTop(page);
      await shot('conversation-2-step.png');

      // (3) margins of a transfer-function expression
      const ref = marginsReference();
      a = await turn('@control margins of G(s) = 10/(s(s+1)(s+5))', /Phase margin/);
      expect(/^Computed margins\(num = \[10\], den = \[1 6 5 0\]\);/.test(a.first), `turn 3 reading: ${a.first}`);
      expect(
        new RegExp(`Gain margin\\D*3 \\(${ref.gmDb.toFixed(5).replace('.', '\\.')} dB\\)`).test(a.text),
        `turn 3: GM 3 (${ref.gmDb.toFixed(5)} dB) not shown:\n${a.text.slice(0, 800)}`,
      );
      const pm = /Phase margin\D*([\d.]+)°/.exec(a.text);
      expect(pm && close(Number(pm[1]), ref.pm, 1e-5), `turn 3: phase margin ${pm?.[1]} vs ${ref.pm.toFixed(4)}°`);

      // (4) an LQR with its matrices
      const k1 = lqrCompanion2({ a0: 2, a1: 3, r: 1 }).K;
      a = await turn('@control design an lqr for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', /Riccati|Verified/);
      expect(/^Computed lqr\(A, B, Q, R = 1\);/.test(a.first), `turn 4 reading: ${a.first}`);
      expect(hasPair(a.text, k1), `turn 4: K = [${k1.map((k) => k.toFixed(6))}] not shown`);

      // (5) a follow-up that changes one weight: A, B, Q from turn 4, R from this message
      const k10 = lqrCompanion2({ a0: 2, a1: 3, r: 10 }).K;
      a = await turn('@control now with R=10', /Riccati|Verified/);
      expect(/^Computed lqr\(A, B, Q, R = 10\);/.test(a.first), `turn 5 reading: ${a.first}`);
      expect(
        /A, B from turn 4/.test(a.first) && /Q from turn 4/.test(a.first) && /R from (your message|'R=10')/.test(a.first),
        `turn 5 reading does not say A, B, Q from turn 4 and R from this message: ${a.first}`,
      );
      expect(hasPair(a.text, k10), `turn 5: K = [${k10.map((k) => k.toFixed(7))}] (R = 10) not shown:\n${a.text.slice(0, 600)}`);
      await showNewestAnswerTop(page);
      await shot('conversation-followup.png');

      // (6) pole placement on the system in use (turn 4's A, B): K = [28 8] puts eig(A - BK) at -5, -6
      a = await turn('@control place the poles at -5 and -6', /Gain|Which|Verified/, { computed: false });
      if (/^Computed/.test(a.first)) {
        expect(/^Computed place\(A, B, poles = \[-5, -6\]\);/.test(a.first) && /A, B from turn 4/.test(a.first), `turn 6 reading: ${a.first}`);
        expect(hasPair(a.text, [28, 8]), `turn 6: K = [28 8] not shown:\n${a.text.slice(0, 600)}`);
      } else {
        expect(a.followups.length >= 2, `turn 6 neither computed nor asked with buttons:\n${a.text.slice(0, 600)}`);
      }
      await page.screenshot({ path: join(resultsDir, 'conversation-6-place.png') });
      writeFileSync(join(resultsDir, 'conversation-readings.json'), JSON.stringify(seen, null, 2));

      // the whole conversation in one picture: the chat maximised in a tall window
      await wholeConversation(page, hostCommand, join(resultsDir, 'conversation-6-turns.png'));
    },
    240_000,
  );

  await uiTest(
    page,
    'ui: conversation: "its margins" with G1 and G2 defined is asked back with follow-up buttons; clicking one answers for that system (test-results/conversation-asked-back.png, conversation-asked-answered.png)',
    async () => {
      await page.setViewportSize({ width: 1600, height: 1100 });
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      let a = await turn('@control G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])', /Noted/, { computed: false });
      expect(/Noted these 2 systems/.test(a.text), `definitions: ${a.text.slice(0, 400)}`);
      a = await turn('@control its margins', /Which/, { computed: false });
      writeFileSync(join(resultsDir, 'conversation-asked-back.html'), a.html);
      expect(/^Which system do you mean/.test(a.first), `not asked back: ${a.text.slice(0, 400)}`);
      expect(
        a.followups.some((f) => /^G1\b/.test(f)) && a.followups.some((f) => /^G2\b/.test(f)),
        `follow-up buttons for G1 and G2 missing: ${JSON.stringify(a.followups)} (buttons in the answer: ${JSON.stringify(a.buttons)})`,
      );
      await showNewestAnswerTop(page);
      await page.screenshot({ path: join(resultsDir, 'conversation-asked-back.png') });
      const before = await chatTurnIndex(page);
      const g1 = page.locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: /^G1\b/ }).last();
      await g1.click();
      await responseAfter(page, { after: before, mustMatch: /Phase margin/ });
      a = await newestAnswer(page);
      const first = firstLine(a.text);
      console.log(`     (clicked "G1 …")\n       -> ${first}`);
      expect(
        /^Computed margins\(num = \[1\], den = \[1 1\]\);/.test(first) && /from G1/.test(first),
        `the G1 follow-up did not compute margins of G1: ${first}`,
      );
      expect(/Gain margin\*?\*?\s*∞/.test(a.text) && /Phase margin\*?\*?\s*∞/.test(a.text), `margins of 1/(s+1) are both infinite:\n${a.text.slice(0, 500)}`);
      expect(a.disclosures === 0, 'the answer is folded');
      await showNewestAnswerTop(page);
      await page.screenshot({ path: join(resultsDir, 'conversation-asked-answered.png') });
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    120_000,
  );

  await uiTest(
    page,
    'ui: conversation: build a loop and simulate it (issue 13): a plant and a PI controller defined, the loop asked back and closed by its button (feedback), a step and a ramp simulated (lsim), a 6-state model reduced (balred) (test-results/loop-*.png)',
    async () => {
      await hostCommand('workbench.action.chat.newChat');
      await page.setViewportSize({ width: 1600, height: 1100 });
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      let a = await turn('@control G(s) = 1/(s^2 + 2s + 1)', /Noted/, { computed: false });
      a = await turn('@control the PI controller C(s) = 2 + 1/s', /Noted/, { computed: false });
      expect(/\(2s \+ 1\) \/ \(s\)/.test(a.text), `the PI controller is not noted as (2s + 1)/s:\n${a.text.slice(0, 400)}`);
      // controller in the forward path or in the return path: asked, never guessed
      a = await turn('@control close the loop of G with C', /How are/, { computed: false });
      expect(a.followups.length >= 2, `the loop is not asked back with buttons: ${JSON.stringify(a.followups)}\n${a.text.slice(0, 400)}`);
      await showNewestAnswerTop(page);
      await shot('loop-asked.png');
      const before = await chatTurnIndex(page);
      await page
        .locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: /in series, unity negative feedback/ })
        .last()
        .click();
      await responseAfter(page, { after: before, mustMatch: /Closed-loop poles/ });
      a = await newestAnswer(page);
      const first = firstLine(a.text);
      console.log(`     (clicked "C and G in series, unity negative feedback")\n       -> ${first}`);
      expect(/^Computed feedback\(sys1 = G\*C, sys2 = 1\)/.test(first), `the loop reading: ${first}`);
      // T = G·C/(1 + G·C) = (2s + 1)/(s(s + 1)² + 2s + 1) = (2s + 1)/(s³ + 2s² + 3s + 1), by hand
      // shown as LaTeX: read the TeX source KaTeX keeps in the page (spaces and braces dropped)
      const tex = a.html.replace(/[\s{}]/g, '');
      expect(/\\frac2s\+1s\^3\+2s\^2\+3s\+1/.test(tex), `T(s) = (2s + 1)/(s^3 + 2s^2 + 3s + 1) not shown:\n${a.text.slice(0, 900)}`);
      expect(/stable/.test(a.text) && /Saved as T\b/.test(a.text), `closed-loop stability or the saved name missing:\n${a.text.slice(0, 1500)}`);
      await showNewestAnswerTop(page);
      await shot('loop-closed.png');

      // a step, then a ramp, through the closed loop T (the system in use now)
      a = await turn('@control simulate a step for 20 s', /final value/i);
      expect(/^Computed lsim\(/.test(a.first) && /signal = 'step'/.test(a.first) && /from T \(turn \d+\)/.test(a.first), `step simulation reading: ${a.first}`);
      // the peak/final table's row: "y <tab> <peak> at t = … <tab> <final value>"
      const finalOf = (text) => /^y\t[^\t\n]*at t =[^\t\n]*\t\s*([-\d.e]+)/m.exec(text);
      const fin = finalOf(a.text);
      // T(0) = 1: the step settles at 1 (the slowest pole, about -0.43, leaves e^(-8.6) ≈ 2e-4 at 20 s)
      expect(fin && close(Number(fin[1]), 1, 1e-3), `step final value ${fin?.[1]} is not 1:\n${a.text.slice(0, 1500)}`);
      await showNewestAnswerTop(page);
      await shot('loop-step.png');
      a = await turn('@control now a ramp', /final value/i);
      expect(/^Computed lsim\(/.test(a.first) && /signal = 'ramp'/.test(a.first), `ramp reading: ${a.first}`);
      // L = G·C is type 1 with Kv = lim s·L(s) = 1, so y(t) → t − 1/Kv = t − 1: y(20) ≈ 19
      const rfin = finalOf(a.text);
      expect(rfin && close(Number(rfin[1]), 19, 1e-3), `ramp y(20) ${rfin?.[1]} is not 19 (a ramp lags by 1/Kv = 1):\n${a.text.slice(0, 1500)}`);
      await showNewestAnswerTop(page);
      await shot('loop-ramp.png');

      // a 6-state model reduced to 3 states by balanced truncation
      a = await turn('@control P = ss(diag([-1 -2 -3 -20 -30 -50]), ones(6,1), ones(1,6), 0)', /Noted/, { computed: false });
      a = await turn('@control reduce P to order 3', /Error bound/);
      expect(/^Computed balred\(A, B, C, D = 0, order = 3\)/.test(a.first), `balred reading: ${a.first}`);
      const hsv = hankelOfDiagonal([-1, -2, -3, -20, -30, -50]);
      const nums = numbersIn(a.text);
      for (const x of hsv)
        expect(
          nums.some((y) => close(y, x, 1e-5)),
          `Hankel singular value ${x.toPrecision(6)} not shown:\n${a.text.slice(0, 1500)}`,
        );
      const bound = 2 * (hsv[3] + hsv[4] + hsv[5]);
      expect(
        nums.some((y) => close(y, bound, 1e-5)),
        `the error bound 2·(σ4 + σ5 + σ6) = ${bound.toPrecision(6)} not shown`,
      );
      await showNewestAnswerTop(page);
      await shot('loop-balred.png');
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    240_000,
  );

  await uiTest(
    page,
    'ui: conversation: a delayed plant (issue 13): its margins asked back with Padé orders as buttons; the 3rd-order button runs the margins on the approximation, which stays in use for the step response (test-results/delay-*.png)',
    async () => {
      await hostCommand('workbench.action.chat.newChat');
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      let a = await turn('@control margins of G(s) = 2*exp(-0.2*s)/(s+1)', /Padé approximation/, { computed: false });
      expect(a.followups.length >= 2, `the delay is not asked back with buttons: ${JSON.stringify(a.followups)}\n${a.text.slice(0, 400)}`);
      await showNewestAnswerTop(page);
      await shot('delay-asked.png');
      const before = await chatTurnIndex(page);
      await page
        .locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: /3rd-order Padé/ })
        .last()
        .click();
      await responseAfter(page, { after: before, mustMatch: /Phase margin/ });
      a = await newestAnswer(page);
      const first = firstLine(a.text);
      console.log(`     (clicked "with a 3rd-order Padé approximation")\n       -> ${first}`);
      expect(/^Computed pade\(tf\(\[2\], \[1 1\], 'IODelay', 0\.2\), 3\), then margins\(/.test(first), `the reading: ${first}`);
      // |2/(jω + 1)| = 1 at ω = √3 and the approximant is all-pass, so the gain crossover is √3 and
      // PM = 180° − atan(√3) − 0.2·√3 rad = 100.152° (the 3rd-order phase error there is 3e-7°)
      const nums = numbersIn(a.text);
      expect(
        nums.some((y) => close(y, Math.sqrt(3), 1e-5)),
        `gain crossover √3 not shown:\n${a.text.slice(0, 1500)}`,
      );
      expect(
        nums.some((y) => close(y, 100.152, 1e-5)),
        `phase margin 100.152° not shown:\n${a.text.slice(0, 1500)}`,
      );
      expect(/Saved as \w+/.test(a.text), `the approximation is not saved:\n${a.text.slice(0, 1500)}`);
      await showNewestAnswerTop(page);
      await shot('delay-margins.png');
      a = await turn('@control and its step response', /Step response/i);
      expect(/^Computed step\(/.test(a.first) && /\(turn \d+\)/.test(a.first), `the step runs on the saved approximation: ${a.first}`);
      // the DC gain of 2·e^(−0.2s)/(s + 1) is 2 (the approximant is 1 at s = 0)
      expect(/y\(end\) = 1\.99\d*|y\(end\) = 2\b/.test(a.text), `the step does not settle at 2:\n${a.text.slice(0, 1200)}`);
      await showNewestAnswerTop(page);
      await shot('delay-step.png');
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    180_000,
  );

  await uiTest(
    page,
    'ui: conversation: a PI design to a phase-margin specification (issue 14): gains, the specification with pass/fail, and the loop verified (test-results/pid-design.png)',
    async () => {
      await hostCommand('workbench.action.chat.newChat');
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      // a design in words runs the PID playbook: pidtune, the loop's margins, the closed-loop step, a report
      const a = await turn('@control a PI controller with 60 degrees phase margin at 0.5 rad/s for G(s) = 1/(s+1)^3', /Report[\s\S]*Closed-loop step/);
      expect(
        /Step 1 of 4: Controller[\s\S]*Step 2 of 4: Loop margins[\s\S]*Step 3 of 4: Closed loop[\s\S]*Step 4 of 4: Closed-loop step/.test(a.text),
        `the PID playbook's steps are not shown in order:\n${a.text.slice(0, 1500)}`,
      );
      expect(/^Computed pidtune\(/.test(a.first) && /wc = 0\.5/.test(a.first) && /pm = 60/.test(a.first), `the reading: ${a.first}`);
      // by hand: P(j0.5) = (1 + 0.5j)^−3, |P| = 1.25^−1.5, ∠P = −3·atan(0.5); the PI supplies
      // ∠C = −180° + 60° − ∠P = −40.305°, so Ki/(0.5·Kp) = tan 40.305° and |C| = 1/|P|:
      // Kp = 1.25^1.5/√(1 + tan²) = 1.06577, Ki = 0.45200 (MATLAB's pidtune example plant)
      const t = Math.tan(((180 - 60 - 3 * Math.atan(0.5) * (180 / Math.PI)) * Math.PI) / 180);
      const Kp = 1.25 ** 1.5 / Math.sqrt(1 + t * t);
      const Ki = 0.5 * Kp * t;
      const nums = numbersIn(a.text);
      expect(
        nums.some((y) => close(y, Kp, 1e-5)) && nums.some((y) => close(y, Ki, 1e-5)),
        `Kp = ${Kp.toPrecision(6)}, Ki = ${Ki.toPrecision(6)} not shown:\n${a.text.slice(0, 1500)}`,
      );
      expect(/phase margin[^\n]*60[^\n]*pass/i.test(a.text), `the phase-margin item is not shown as passed:\n${a.text.slice(0, 2500)}`);
      await showNewestAnswerTop(page);
      await shot('pid-design.png');
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    120_000,
  );

  // The LQG playbook on the example pendulum (examples/workspace/pendulum.m, its Q and R): the
  // noise covariances are asked back; the button runs analysis → LQR → Kalman → compensator →
  // closed loop → disturbance step → report. K, L and the closed-loop poles from SciPy
  // (test/fixtures/playbooks/ref.py: CARE and its dual, eig of the assembled loop).
  await uiTest(
    page,
    'ui: conversation: "design an LQG controller for this plant" on pendulum.m runs the LQG playbook after asking the noise covariances; /plan shows its calls first (test-results/lqg-plan.png, lqg-asked.png, lqg-report.png)',
    async () => {
      await hostCommand('workbench.action.chat.newChat');
      // the Explorer, which the earlier conversation tests closed for a wide chat
      await hostCommand('workbench.view.explorer');
      await sleep(300);
      await openFile(page, 'pendulum.m');
      await page.keyboard.press(process.platform === 'darwin' ? 'Meta+A' : 'Control+A');
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      // plan first: nothing runs, the calls and where their arguments come from are listed
      let a = await turn('@control /plan design an LQG controller for this plant with Qn=eye(4), Rn=eye(2)', /Run this plan/, { computed: false });
      expect(/^Would compute lqg\(/.test(a.first), `the plan's reading: ${a.first}`);
      expect(
        /K = ← K of step 2 \(lqr\)/.test(a.text) && /L = ← L of step 3 \(kalman\)/.test(a.text),
        `the plan does not name where K and L come from:\n${a.text.slice(0, 1500)}`,
      );
      expect(!/Verified/.test(a.text), `the plan ran something:\n${a.text.slice(0, 800)}`);
      await showNewestAnswerTop(page);
      await shot('lqg-plan.png');
      a = await turn('@control design an LQG controller for this plant', /QWV/, { computed: false });
      expect(
        a.followups.some((f) => /Qn=eye\(4\), Rn=eye\(2\)/.test(f)),
        `the noise covariances are not offered as a button: ${JSON.stringify(a.followups)}`,
      );
      await showNewestAnswerTop(page);
      await shot('lqg-asked.png');
      const before = await chatTurnIndex(page);
      await page
        .locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: /Qn=eye\(4\)/ })
        .last()
        .click();
      await responseAfter(page, { after: before, mustMatch: /Report[\s\S]*Disturbance step/, timeoutMs: 90_000 });
      a = await newestAnswer(page);
      const first = firstLine(a.text);
      console.log(`     (clicked "Use Qn=eye(4), Rn=eye(2)")\n       -> ${first}`);
      expect(/^Computed lqg\(A, B, C, D, QXU, QWV\)/.test(first), `the reading: ${first}`);
      for (const k of [1, 2, 3, 4, 5, 6]) expect(new RegExp(`Step ${k} of 6`).test(a.text), `step ${k} of 6 is not shown:\n${a.text.slice(0, 1500)}`);
      const K = [-3.16227766, -3.9775012, 28.5920942, 5.182181];
      const L = [1.6463407, 0.6951151, 1.0968113, 5.0417712, 0.6951151, 11.134261, 3.842218, 61.727476];
      const poles = [-7.0275289, -6.1013297, -5.1129707, -1.2252266, -0.8740506];
      const nums = numbersIn(a.text);
      for (const [what, xs] of [
        ['K', K],
        ['L', L],
        ['closed-loop pole', poles],
      ])
        for (const x of xs)
          expect(
            nums.some((y) => close(y, x, 1e-5)),
            `${what} ${x} not shown:\n${a.text.slice(0, 2500)}`,
          );
      expect(/Closed loop[^\n]*\(stable\)/.test(a.text), `the report does not say the closed loop is stable:\n${a.text.slice(-2000)}`);
      expect(!/✘|failed/.test(a.text), `a step failed or was not verified:\n${a.text.slice(-2000)}`);
      await showNewestAnswerTop(page);
      await shot('lqg-steps.png');
      // the report, at the end of the answer
      const list = page.locator('.interactive-session .interactive-list').first();
      const box = await list.boundingBox().catch(() => null);
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        // a Monaco list scrolls a bounded amount per wheel event: several, until the end shows
        for (let i = 0; i < 15; i++) {
          await page.mouse.wheel(0, 3000);
          await sleep(80);
        }
        await sleep(500);
      }
      await shot('lqg-report.png');
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    240_000,
  );

  await uiTest(
    page,
    'ui: conversation: a MATLAB script pasted line by line keeps its outputs (K = lqr, [L, P, E] = lqe; with a dashed what-if between), and reg(sys, K, L) uses them; a discrete plant with ζ, ωn and a sampling time is asked back and its Discrete button places z = e^{sTs} (test-results/script-*.png)',
    async () => {
      await hostCommand('workbench.action.chat.newChat');
      await page.setViewportSize({ width: 1600, height: 1100 });
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      await sleep(300);
      let a = await turn('@control A=[0 1; -2 -3]; B=[0;1]; C=[1 0]; D=0; sys = ss(A,B,C,D);', /Noted/, { computed: false });
      a = await turn('@control K = lqr(A, B, eye(2), 1)', /Saved/);
      // K = Bᵀ X with X the CARE solution: √5 − 2 = 0.236068 in both entries (SciPy solve_continuous_are)
      expect(/Saved K for the next requests/.test(a.text) && /0\.236068/.test(a.text), `K not shown and saved:\n${a.text.slice(0, 1200)}`);
      // a follow-up written with a dash: the lqr again with R = 10, whose result has the closed-loop poles
      a = await turn('@control what if R=10 - where do the closed loop poles go', /Closed-loop poles/);
      expect(/^Computed lqr\(A, B, Q, R = 10\)/.test(a.first), `the what-if is not the lqr with R = 10: ${a.first}`);
      a = await turn('@control [L, P, E] = lqe(A, B, C, 1, 0.1);', /Saved/);
      expect(/Saved L, P for the next requests/.test(a.text), `L and P not saved:\n${a.text.slice(0, 1200)}`);
      a = await turn('@control rsys = reg(sys, K, L)', /regulator poles/i);
      expect(/K from turn 2 \(K = lqr\(…\)\); L from turn 4 \(L = lqe\(…\)\)/.test(a.first), `reg did not take K and L from the script's turns: ${a.first}`);
      // separation: eig(A − BK) = −√5, −1 with turn 2's K (not the R = 10 one); eig(A − LC) = −1.76659 ± 0.787927j (SciPy)
      expect(
        /-2\.23607/.test(a.text) && /-1\.76659/.test(a.text),
        `the compensator's poles are not those of turn 2's K and turn 4's L:\n${a.text.slice(0, 1500)}`,
      );
      await showNewestAnswerTop(page);
      await shot('script-reg.png');

      a = await turn('@control state feedback for A = [1 0.1; 0 1], B = [0.005; 0.1] with sampling time 0.1 s, poles for zeta 0.7 and wn 5', /discrete/, {
        computed: false,
      });
      expect(
        a.followups.some((f) => /^Discrete plant/.test(f)),
        `the discrete/continuous question has no buttons: ${JSON.stringify(a.followups)}\n${a.text.slice(0, 600)}`,
      );
      await showNewestAnswerTop(page);
      await shot('script-discrete-asked.png');
      const before = await chatTurnIndex(page);
      await page
        .locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: /^Discrete plant/ })
        .last()
        .click();
      await responseAfter(page, { after: before, mustMatch: /Closed-loop poles/ });
      a = await newestAnswer(page);
      const first = firstLine(a.text);
      console.log(`     (clicked "Discrete plant …")\n       -> ${first}`);
      expect(
        /^Computed place\(/.test(first) && /Ts = 0\.1/.test(first) && /z = e\^\{sTs\}/.test(first),
        `the Discrete button did not place z-plane poles: ${first}`,
      );
      // python-control: z = e^{0.1 s} = 0.66024 ± 0.246311j, K = [17.6106 5.91468], stable by |z| = 0.704688
      expect(
        /17\.6106/.test(a.text) && /5\.91468/.test(a.text) && /stable \(spectral radius 0\.704688\)/.test(a.text),
        `K or the z-plane verdict:\n${a.text.slice(0, 1500)}`,
      );
      await showNewestAnswerTop(page);
      await shot('script-discrete-placed.png');
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
    240_000,
  );

  await uiTest(
    page,
    'ui: conversation: an error is shown once, in the answer, with no error box repeating it (test-results/conversation-error-once.png)',
    async () => {
      await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
      const a = await turn('@control /search', /needs words/, { computed: false });
      const said = await page.evaluate(() => {
        let row;
        let best = -1;
        for (const r of document.querySelectorAll('.interactive-session .monaco-list-row')) {
          const i = Number(r.getAttribute('data-index'));
          if (r.querySelector('.interactive-response') && i > best) [row, best] = [r, i];
        }
        return {
          times: (row?.innerText.match(/needs words to look for/g) ?? []).length,
          errorBoxes: row
            ? row.querySelectorAll('.chat-error-detail, .interactive-response-error-details, .chat-error-confirmation, .chat-notification-widget').length
            : -1,
        };
      });
      expect(/^Error: \/search needs words/.test(a.first), `the error line: ${a.first}`);
      expect(said.times === 1 && said.errorBoxes === 0, `the error is shown ${said.times} time(s), error boxes ${said.errorBoxes}:\n${a.text}`);
      await showNewestAnswerTop(page);
      await page.screenshot({ path: join(resultsDir, 'conversation-error-once.png') });
      await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
    },
  );
  return seen;
}

/** K = [k1 k2] shown (two consecutive numbers, 5 significant figures) */
function hasPair(text, K) {
  const nums = numbersIn(text);
  for (let i = 0; i + 1 < nums.length; i++) if (close(nums[i], K[0], 1e-5) && close(nums[i + 1], K[1], 1e-5)) return true;
  return false;
}

/** maximises the chat in a tall window, scrolls to its top, screenshots it, and restores */
async function wholeConversation(page, hostCommand, file) {
  await hostCommand('workbench.action.maximizeAuxiliaryBar').catch(() => {});
  await page.setViewportSize({ width: 1400, height: 7000 });
  await sleep(800);
  const list = page.locator('.interactive-session .interactive-list').first();
  const box = await list.boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 500));
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, -2000);
      await sleep(60);
    }
  }
  await sleep(800);
  await page.screenshot({ path: file, fullPage: false });
  // the same in three readable slices (the whole picture is 7,000 px tall)
  const chat = await page.locator('.interactive-session').first().boundingBox();
  if (chat) {
    const h = Math.ceil(chat.height / 3);
    for (let i = 0; i < 3; i++)
      await page.screenshot({
        path: file.replace(/\.png$/, `-part${i + 1}.png`),
        clip: { x: chat.x, y: chat.y + i * h, width: Math.min(chat.width, 1000), height: h },
      });
  }
  await page.setViewportSize({ width: 1600, height: 1100 });
  await hostCommand('workbench.action.toggleMaximizedAuxiliaryBar').catch(() => {});
  await sleep(300);
}
