#!/usr/bin/env node
// `npm run test:host`: @control in a real VS Code (1.139.1, from code-server 4.139.1), driven
// by headless Chromium through playwright-core.
//
//   1. bundles the in-host suite (test/host/suite/*.ts) to .vscode-test/suite/index.js;
//   2. copies examples/workspace/ to a temp folder, starts code-server on a free loopback port
//      with HOME/XDG_* in that temp folder;
//   3. opens the workbench with the smoke-test payload (extensionDevelopmentPath = this repo,
//      extensionTestsPath = the bundled suite) and waits for window.codeAutomationExit;
//   4. keeps the page open and runs UI tests in it (chat /lqr answer, code lenses in the editor,
//      "Analyse State-Space Model" from the editor's context menu), with screenshots in
//      test-results/.
//
//   5. installs the packaged linux-x64 .vsix (scripts/package.mjs) into a fresh VS Code and
//      checks it activates (test/host/vsix.mjs; --no-vsix skips it).
//
// Builds nothing of the extension itself (`npm test` builds first). Needs `npm run setup`.
// Prints one line per test and `N passed, M failed`; exit code 0 only when all passed.
// Options: --keep (keep the temp folder), --headed, --ext DIR (another extension folder),
// --only REGEX (run only the in-host and UI tests whose names match, e.g. --only conversation;
// the .vsix check is skipped then), env CONTROL_HOST_TIMEOUT_S (overall limit, default 300).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import * as env from '../../scripts/vscode-env.mjs';
import { freePort, killGroup, sleep } from './procs.mjs';
import { close, controllabilityRank, lqrCompanion2, numbersIn, pendulumEigenvalues, PENDULUM } from './reference.mjs';
import { runVsixTests } from './vsix.mjs';
import { askInChat, chatTurnIndex, responseAfter, showNewestAnswerTop } from './chat.mjs';
import { conversationTests } from './conversation.mjs';

const argv = process.argv.slice(2);
const KEEP = argv.includes('--keep');
const HEADED = argv.includes('--headed');
const EXT_DIR = resolve(argv.includes('--ext') ? argv[argv.indexOf('--ext') + 1] : env.ROOT);
const OVERALL_S = Number(process.env.CONTROL_HOST_TIMEOUT_S ?? 300);
const VERBOSE = !!process.env.CONTROL_HOST_VERBOSE;
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const ONLY_RE = ONLY ? new RegExp(ONLY, 'i') : undefined;

const T0 = Date.now();
const results = []; // {name, ok, ms, error}
const phases = [];
let server; // code-server child
let browser;
let tmp;
let serverLog = '';
const hostLog = [];

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function record(name, ok, ms, error) {
  results.push({ name, ok, ms, error });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${ms} ms)${ok ? '' : `\n     ${String(error).replace(/\n/g, '\n     ')}`}`);
}

async function phase(name, fn) {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    phases.push(`${name} ${secs(Date.now() - t)}`);
  }
}

// ---------------------------------------------------------------- cleanup, always
let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try {
    await Promise.race([browser?.close(), sleep(5000)]);
  } catch {}
  // code-server runs in its own process group (detached), with the extension host and
  // its other children: end the whole group
  if (server?.pid && (await killGroup(server.pid))) console.error(`warning: processes of group ${server.pid} survived SIGKILL`);
  if (tmp && !KEEP) rmSync(tmp, { recursive: true, force: true });
  else if (tmp) console.log(`kept ${tmp}`);
}

function finish() {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`phases: ${phases.join(', ')}; total ${secs(Date.now() - T0)}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

async function abort(why) {
  console.error(`\n${why}`);
  record('host run completed', false, Date.now() - T0, why);
  dumpLogs();
  await cleanup();
  process.exit(finish());
}

function dumpLogs() {
  try {
    mkdirSync(env.RESULTS_DIR, { recursive: true });
    writeFileSync(join(env.RESULTS_DIR, 'code-server.log'), serverLog);
    writeFileSync(join(env.RESULTS_DIR, 'extension-host.log'), hostLog.join('\n') + '\n');
    console.error(`logs: ${join(env.RESULTS_DIR, 'code-server.log')}, ${join(env.RESULTS_DIR, 'extension-host.log')}`);
    const tail = hostLog.slice(-25).join('\n');
    if (tail) console.error(`--- last extension host output ---\n${tail}\n---`);
  } catch {}
}

process.on('SIGINT', () => abort('interrupted (SIGINT)'));
process.on('SIGTERM', () => abort('terminated (SIGTERM)'));
const overall = setTimeout(() => abort(`overall timeout: ${OVERALL_S} s`), OVERALL_S * 1000);
overall.unref();

// ---------------------------------------------------------------- helpers
async function waitHealthy(port, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${serverLog.slice(-2000)}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`code-server did not answer /healthz within ${ms} ms:\n${serverLog.slice(-2000)}`);
}

/** Run a UI test: records pass/fail, screenshots the page on failure. */
async function uiTest(page, name, fn, timeoutMs = 60_000) {
  if (ONLY_RE && !ONLY_RE.test(name)) return;
  const t = Date.now();
  let timer;
  try {
    await Promise.race([fn(), new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs)))]);
    record(name, true, Date.now() - t);
  } catch (e) {
    record(name, false, Date.now() - t, e?.message ?? e);
    const file = join(env.RESULTS_DIR, `FAILED-${name.replace(/[^\w]+/g, '-').slice(0, 60)}.png`);
    await page.screenshot({ path: file }).catch(() => {});
    console.log(`     screenshot: ${file}`);
  } finally {
    clearTimeout(timer);
  }
}

/** the first frame (a webview) in which `probe` is true, polled for up to 15 s; undefined if none */
async function waitForFrame(page, probe) {
  for (let i = 0; i < 60; i++) {
    for (const f of page.frames()) if (await f.evaluate(probe).catch(() => false)) return f;
    await sleep(250);
  }
  return undefined;
}

function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

// ---- workbench driving (keyboard first: it is what a user does, and it is stable across
// releases; DOM classes only to read what is shown)
const MOD = 'Control';

async function runCommand(page, label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

/** Open a workspace file from the Explorer, as a user does (double-click: a pinned editor). */
async function openFile(page, name) {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.dblclick();
  const editor = page.locator(`.editor-instance .monaco-editor[data-uri$="/${name}"]`).first();
  await editor.locator('.view-lines').waitFor({ state: 'visible', timeout: 10_000 });
  await editor.locator('.view-lines').click({ position: { x: 5, y: 5 } }); // focus the editor
}

async function goToLine(page, line) {
  await page.keyboard.press(`${MOD}+G`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 10_000 });
}

// ---------------------------------------------------------------- main
async function main() {
  env.requireReady();
  if (!existsSync(join(EXT_DIR, 'package.json'))) throw new Error(`no extension at ${EXT_DIR}`);
  const pkg = JSON.parse(readFileSync(join(EXT_DIR, 'package.json'), 'utf8'));
  const main = resolve(EXT_DIR, pkg.main ?? 'extension.js');
  if (!existsSync(main) && !existsSync(`${main}.js`)) {
    throw new Error(`${main} is missing: build first (\`npm run build\`, or \`npm test\` which builds)`);
  }

  mkdirSync(env.RESULTS_DIR, { recursive: true });
  const suite = join(env.SUITE_OUT, 'index.js');
  await phase('bundle-suite', () =>
    build({
      entryPoints: [join(env.ROOT, 'test/host/suite/index.ts')],
      outfile: suite,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: 'inline',
      external: ['vscode'],
      logLevel: 'warning',
    }),
  );

  tmp = mkdtempSync(join(tmpdir(), 'control-host-'));
  const ws = join(tmp, 'workspace');
  const home = join(tmp, 'home');
  const ud = join(tmp, 'user-data');
  cpSync(join(env.ROOT, 'examples/workspace'), ws, { recursive: true });
  for (const d of [home, ud, join(ud, 'User'), join(home, '.config'), join(home, '.local/share'), join(home, '.cache')]) {
    mkdirSync(d, { recursive: true });
  }
  // User settings: a quiet workbench (no welcome page, no trust prompt, no telemetry).
  writeFileSync(
    join(ud, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'editor.codeLens': true,
        'window.commandCenter': true,
      },
      null,
      2,
    ),
  );
  // Machine settings (control.maxStates is machine-scoped: a remote window, as code-server's is,
  // reads it from here, not from User). The cancel test needs a solve that outlasts the click on
  // Cancel on any machine: an n = 800 care (about 30 s here); n = 200 finishes in about a second.
  mkdirSync(join(ud, 'Machine'), { recursive: true });
  writeFileSync(join(ud, 'Machine', 'settings.json'), JSON.stringify({ 'control.maxStates': 800 }, null, 2));
  const resultsFile = join(tmp, 'host-results.json');
  bridgeDir = join(tmp, 'bridge');
  mkdirSync(bridgeDir);

  const port = await freePort();
  const [cmd, args] = env.codeServerCommand({
    port,
    userDataDir: ud,
    folder: ws,
    extra: ['--vscode-option', 'enable-smoke-test-driver'],
  });
  const serverEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_RUNTIME_DIR: tmp,
    CONTROL_HOST_RESULTS: resultsFile,
    CONTROL_HOST_BRIDGE: bridgeDir,
    ...(ONLY ? { CONTROL_HOST_ONLY: ONLY } : {}),
  };
  for (const k of Object.keys(serverEnv)) if (/^npm_/i.test(k)) delete serverEnv[k];

  await phase('start-code-server', async () => {
    server = spawn(cmd, args, { env: serverEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const onOut = (b) => {
      serverLog += b.toString();
      if (VERBOSE) process.stderr.write(`[code-server] ${b}`);
    };
    server.stdout.on('data', onOut);
    server.stderr.on('data', onOut);
    await waitHealthy(port, 30_000);
  });

  browser = await phase('launch-chromium', () =>
    chromium.launch({
      executablePath: env.CHROMIUM,
      headless: !HEADED,
      args: env.CHROMIUM_ARGS,
      // our own handlers end the run (and print the summary); Playwright's would exit first
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    }),
  );
  const context = await browser.newContext({ viewport: { width: 1600, height: 1100 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);

  let exitResolve;
  const exited = new Promise((r) => (exitResolve = r));
  await page.exposeFunction('codeAutomationExit', (code) => {
    exitResolve(code);
  });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    hostLog.push(`[${type}] ${line}`);
    if (VERBOSE || line.startsWith('[suite]')) console.log(`  host> ${line}`);
  });
  page.on('pageerror', (e) => hostLog.push(`[pageerror] ${e.message}`));

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(EXT_DIR)],
    ['extensionTestsPath', remote(suite)],
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  // ---- phase 1: the in-host suite. It writes its results, then keeps serving the bridge
  // (see suite/bridge.ts) so the extension host stays up for phase 2.
  const early = await phase('in-host-suite', async () => {
    await page.goto(url);
    const until = Date.now() + 300_000;
    let code;
    exited.then((c) => (code = c));
    while (!existsSync(resultsFile)) {
      if (code !== undefined) return code; // run() settled without results: the suite failed to load
      if (Date.now() > until) throw new Error('the in-host suite wrote no results within 300 s');
      await sleep(200);
    }
  });
  let hostResults = [];
  try {
    hostResults = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch {}
  for (const r of hostResults) record(`host: ${r.name}`, r.ok, r.ms, r.error);
  // (--only may select no in-host test at all: an empty list is then a result)
  if (!existsSync(resultsFile) || (hostResults.length === 0 && !ONLY)) {
    record('host: suite loaded and ran', false, 0, `codeAutomationExit(${early}) with no results; see test-results/extension-host.log`);
    return;
  }

  // ---- phase 2: UI tests in the same page, as a user sees it
  await phase('ui', async () => {
    // a clean editor area: the in-host suite left its documents open
    await hostCommand('workbench.action.closeAllEditors');
    await hostCommand('workbench.action.chat.newChat');

    await uiTest(page, 'ui: code lens "Analyse (A, B, C, D)" shown above A in pendulum.m', async () => {
      await openFile(page, 'pendulum.m');
      const lens = page.locator('.contentWidgets .codelens-decoration', { hasText: 'Analyse (A, B, C, D)' });
      await lens.first().waitFor({ state: 'visible', timeout: 20_000 });
      const lensBox = await lens.first().boundingBox();
      // the lens sits directly above the line `A = [...]`
      const aLine = page.locator('.view-lines .view-line', { hasText: 'A = [0 1 0 0' }).first();
      const aBox = await aLine.boundingBox();
      expect(
        lensBox && aBox && lensBox.y < aBox.y && aBox.y - lensBox.y < 40,
        `lens not right above A: lens ${JSON.stringify(lensBox)}, A line ${JSON.stringify(aBox)}`,
      );
      const all = await page.locator('.contentWidgets .codelens-decoration').allInnerTexts();
      expect(all.filter((t) => /Analyse/.test(t)).length === 1, `expected one Analyse lens in view, saw ${JSON.stringify(all)}`);
      await page.screenshot({ path: join(env.RESULTS_DIR, 'codelens-pendulum.png') });
    });

    const lqr = lqrCompanion2({ a0: 2, a1: 3, q1: 1, q2: 1, r: 1 });
    await uiTest(page, `ui: chat "@control /lqr ..." renders K = [${lqr.K.map((k) => k.toFixed(6)).join(', ')}]`, async () => {
      await ensureControlModel(page);
      const before = await chatTurnIndex(page);
      await askInChat(page, '@control /lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1');
      const text = await responseAfter(page, { after: before, mustMatch: /K/ });
      checkGain(text, lqr.K);
      await showNewestAnswerTop(page);
      await page.screenshot({ path: join(env.RESULTS_DIR, 'chat-lqr.png') });
    });

    // issue 12: damp was added as one tool object; the real chat shows its intro, its table
    // (s^2 + 0.8s + 4: wn = 2, zeta = 0.8/(2*2) = 0.2, tau = 1/(zeta*wn) = 2.5, closed form)
    // and its plot button, all from that one object
    await uiTest(
      page,
      'ui: chat "natural frequencies and damping of G(s) = 1/(s^2+0.8s+4)" shows wn = 2, zeta = 0.2, tau = 2.5 and a pole-map button (test-results/chat-damp.png)',
      async () => {
        const before = await chatTurnIndex(page);
        await askInChat(page, '@control natural frequencies and damping of G(s) = 1/(s^2+0.8s+4)');
        const text = await responseAfter(page, { after: before, mustMatch: /Verified/ });
        expect(/Computed damp\(num = \[1\], den = \[1 0\.8 4\]\)/.test(text), `no reading line: ${text.slice(0, 300)}`);
        expect(/Damping\./.test(text), `no intro: ${text.slice(0, 300)}`);
        // the rendered table's cells, as the page's text has them (tabs or newlines between cells)
        expect((text.match(/(?:^|\s)2\s+0\.2\s+2\.5(?=\s|$)/g) ?? []).length === 2, `expected two rows wn 2, zeta 0.2, tau 2.5: ${text}`);
        expect(/Plot poles and zeros/.test(text), `no pole-map button: ${text.slice(-400)}`);
        await showNewestAnswerTop(page);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'chat-damp.png') });
      },
    );

    // issue 11: a long solve shows progress with Cancel (a notification: a chat progress part
    // would fold the answer's reading away); Cancel ends it and the answer says so
    await uiTest(
      page,
      'ui: an n = 800 care shows a progress notification; its Cancel ends the solve and the answer says so',
      async () => {
        // earlier tests' notifications would crowd the centre (and fold ours, hiding its Cancel)
        await hostCommand('notifications.clearAll').catch(() => {});
        await hostCommand('notifications.hideList').catch(() => {});
        const before = await chatTurnIndex(page);
        await askInChat(page, '@control /care A = -2*eye(800) + diag(ones(799,1),1), B = ones(800,1), Q = eye(800), R = 1');
        // the progress notification: VS Code 1.139 keeps it in the notification centre (a spinner
        // in the title bar): the centre is opened as soon as the request is sent
        await hostCommand('notifications.showList').catch(() => {});
        const item = page.locator('.notification-list-item', { hasText: 'Riccati' }).first();
        for (let i = 0; i < 80 && !(await item.isVisible().catch(() => false)); i++) {
          if (i % 8 === 7) await hostCommand('notifications.showList').catch(() => {});
          await sleep(100);
        }
        const shown = await item.innerText();
        if (!/Solving continuous algebraic Riccati equation for an 800-state, 1-input model/.test(shown)) throw new Error(`progress says: ${shown}`);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'progress-care800.png') });
        const toast = item;
        try {
          await toast.getByRole('button', { name: 'Cancel' }).click({ timeout: 5000 });
        } finally {
          // never leave the centre open over the chat input for the tests after this one
          await hostCommand('notifications.hideList').catch(() => {});
        }
        const text = await responseAfter(page, { after: before, mustMatch: /cancelled/, timeoutMs: 20_000 });
        if (!/Stopped: care \(800 states, 1 input\) was cancelled before it finished; nothing was computed/.test(text))
          throw new Error(`answer: ${text.slice(0, 600)}`);
        await showNewestAnswerTop(page);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'progress-cancelled.png') });
      },
      90_000,
    );

    const lqr2 = lqrCompanion2({ a0: 1, a1: 1 });
    await uiTest(page, `ui: chat "@control /lqr" with distinct gains renders K = [${lqr2.K.map((k) => k.toFixed(6)).join(', ')}]`, async () => {
      const before = await chatTurnIndex(page);
      await askInChat(page, '@control /lqr A=[0 1; -1 -1], B=[0;1], Q=eye(2), R=1');
      const text = await responseAfter(page, { after: before, mustMatch: /K/ });
      checkGain(text, lqr2.K);
    });

    const eig = pendulumEigenvalues();
    const ctrbRank = controllabilityRank(PENDULUM.A, PENDULUM.B);
    await uiTest(page, 'ui: select A..D in pendulum.m, context menu "Analyse State-Space Model" shows the analysis in chat', async () => {
      await openFile(page, 'pendulum.m');
      await goToLine(page, 11);
      await page.keyboard.press('Home');
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Shift+End');
      const sel = await page.locator('.editor-instance .monaco-editor .selected-text').count();
      expect(sel > 0, 'no selection visible in the editor');
      const before = await chatTurnIndex(page);
      // right-click on the selection, as a user does
      const aLine = page.locator('.view-lines .view-line', { hasText: 'B = [0; 1.8182' }).first();
      await aLine.click({ button: 'right', position: { x: 40, y: 5 } });
      const item = page.locator('.context-view .monaco-menu .action-item', { hasText: /Analyse State-Space Model/ }).first();
      await item.waitFor({ state: 'visible', timeout: 10_000 });
      await page.screenshot({ path: join(env.RESULTS_DIR, 'context-menu.png') });
      await item.click();
      const text = await responseAfter(page, { after: before, mustMatch: /unstable/i });
      const nums = numbersIn(text);
      for (const l of eig.filter((x) => x !== 0)) {
        expect(
          nums.some((x) => close(x, l, 1e-3)),
          `eigenvalue ${l.toFixed(4)} not shown; numbers shown: ${nums.join(' ')}`,
        );
      }
      expect(nums.includes(0), 'eigenvalue 0 not shown');
      expect(/unstable/i.test(text), 'the answer does not say "unstable"');
      const m = /controllab[^\n]*?\b(\d)\b/i.exec(text);
      expect(m, `no controllability rank in the answer:\n${text}`);
      expect(Number(m[1]) === ctrbRank, `controllability rank shown ${m[1]}, expected ${ctrbRank}`);
      await showNewestAnswerTop(page);
      await page.screenshot({ path: join(env.RESULTS_DIR, 'chat-analysis.png') });
    });

    // the analysis answer's "Insert MATLAB code" button: a diff of pendulum.m with the code in
    // place and Accept/Discard in the editor title bar; nothing changes until Accept is clicked
    await uiTest(
      page,
      'ui: "Insert MATLAB code" under the answer shows a diff; the code reaches pendulum.m only after Accept (test-results/insert-diff.png)',
      async () => {
        const button = page.locator('.interactive-session .monaco-button', { hasText: 'Insert MATLAB code' }).last();
        await button.waitFor({ state: 'visible', timeout: 10_000 });
        const disk = () => readFileSync(join(tmp, 'workspace', 'pendulum.m'), 'utf8');
        const before = disk();
        await button.click();
        const accept = page.locator('.editor-actions .action-label[aria-label*="Accept Proposed Change"]').first();
        await accept.waitFor({ state: 'visible', timeout: 15_000 });
        const diff = page.locator('.monaco-diff-editor').first();
        await diff.waitFor({ state: 'visible', timeout: 10_000 });
        await sleep(800);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'insert-diff.png') });
        expect(disk() === before, 'pendulum.m changed on disk before Accept');
        const editorText = async () => (await page.locator('.editor-instance .monaco-editor[data-uri$="/pendulum.m"] .view-lines').allInnerTexts()).join('\n');
        expect(!/rank\(ctrb\(A, B\)\)/.test(await editorText().catch(() => '')), 'the code is in the pendulum.m editor before Accept');
        await accept.click();
        await diff.waitFor({ state: 'hidden', timeout: 10_000 });
        const ed = page.locator('.editor-instance .monaco-editor[data-uri$="/pendulum.m"] .view-lines').first();
        await ed.waitFor({ state: 'visible', timeout: 10_000 });
        let text = '';
        for (let i = 0; i < 20 && !/rank_ctrb = rank\(ctrb\(A, B\)\)/.test(text); i++, await sleep(250)) text = (await ed.innerText()).replace(/\u00a0/g, ' ');
        expect(/rank_ctrb = rank\(ctrb\(A, B\)\)/.test(text), `after Accept the pendulum.m editor does not show the inserted code:\n${text.slice(0, 800)}`);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'insert-accepted.png') });
      },
    );

    // the analysis answer's follow-up: A and B come from the analysed system, which the core's
    // conversation (in the answer's metadata) keeps; Q = I, R = 1 from the follow-up itself.
    // K from SciPy: solve_continuous_are(A, B, eye(4), 1), K = B'X = [-1 -2.04075 20.367 3.93019]
    await uiTest(page, 'ui: the follow-up "Design an LQR with Q = I, R = I" under the analysis designs it for the analysed pendulum', async () => {
      const followup = page.locator('.interactive-session .interactive-session-followups .monaco-button', { hasText: 'Design an LQR' }).last();
      await followup.waitFor({ state: 'visible', timeout: 10_000 });
      const before = await chatTurnIndex(page);
      await followup.click();
      const text = await responseAfter(page, { after: before, mustMatch: /Riccati/ });
      const first =
        text
          .split('\n')
          .map((l) => l.trim())
          .find((l) => /^Computed/.test(l)) ?? '';
      // (VS Code attaches the editor's selection, still A..D of pendulum.m, to the request: the
      // reader then names the selection, the same matrices, as their origin)
      expect(
        /^Computed lqr\(A, B, Q, R = 1\); A, B from (turn \d+|the selection \(pendulum\.m:11-14\))/.test(first),
        `the LQR follow-up's reading: ${first || text.slice(0, 400)}`,
      );
      const K = [-1, -2.0407461, 20.36700262, 3.93018821];
      const nums = numbersIn(text);
      expect(
        K.every((k) => nums.some((x) => close(x, k, 1e-5))),
        `K = [${K}] not shown:\n${text.slice(0, 800)}`,
      );
    });

    await uiTest(
      page,
      'ui: "Control: Rebuild Index" from the command palette reports its summary; "@control /search" then cites notes.md (test-results/chat-search-citation.png)',
      async () => {
        await runCommand(page, `${MOD}: Rebuild Index`);
        // the summary notification: as a toast, or in the notification centre once the toast has gone
        const want = /Control: indexed \d+ of \d+ files/;
        let summary = '';
        for (let i = 0; i < 120 && !summary; i++) {
          const items = await page.locator('.notification-list-item').allInnerTexts();
          summary = items.find((t) => want.test(t)) ?? '';
          if (!summary && i % 8 === 7) await hostCommand('notifications.showList').catch(() => {});
          if (!summary) await sleep(500);
        }
        await hostCommand('notifications.hideList').catch(() => {});
        expect(/passages, \d+ skipped\) in [\d.]+ s/.test(summary), `summary toast: ${summary}`);
        const before = await chatTurnIndex(page);
        await askInChat(page, '@control /search LQR design for the cart-pole with Q = diag(10, 1, 100, 1)');
        const text = await responseAfter(page, { after: before, mustMatch: /passages? for/ });
        // the references VS Code lists under the answer ("Used N references"), opened to show the files
        const used = page.locator('.interactive-response').last().locator('.chat-used-context-label, .chat-used-context .monaco-button').first();
        if (await used.count()) await used.click().catch(() => {});
        await sleep(500);
        const shown = await page.locator('.interactive-response').last().innerText();
        expect(/notes\.md/.test(shown), `no reference to notes.md under the answer:\n${shown.slice(0, 1500)}`);
        expect(/reference/i.test(shown) || /notes\.md/.test(text), `no reference list: ${shown.slice(0, 600)}`);
        await showNewestAnswerTop(page);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'chat-search-citation.png') });
      },
    );
    await uiTest(
      page,
      'ui: "Control: Doctor" from the command palette shows a read-only report whose fixes fit the preview (test-results/doctor-report.png)',
      async () => {
        await hostCommand('workbench.action.closeAllEditors');
        await runCommand(page, `${MOD}: Doctor`);
        // the Markdown preview is a webview: find its frame by the report's heading
        const frame = await waitForFrame(page, () => /@control Doctor/.test(document.querySelector('h1')?.textContent ?? ''));
        expect(frame, 'no Markdown preview showing the Doctor report');
        await sleep(500);
        const seen = await frame.evaluate(() => {
          const root = document.documentElement;
          const width = root.clientWidth;
          // anything wider than the preview, or reaching past its right edge, is cut off
          const over = [...document.querySelectorAll('body *')]
            .filter((el) => el.getClientRects().length && (el.getBoundingClientRect().right > width + 1 || el.scrollWidth > el.clientWidth + 1))
            .map((el) => `${el.tagName}: ${(el.textContent ?? '').slice(0, 60)}`);
          return {
            width,
            scroll: root.scrollWidth,
            over: over.slice(0, 5),
            tables: document.querySelectorAll('table').length,
            fixes: [...document.querySelectorAll('p')].filter((p) => /^(Fix|Hint):/.test(p.textContent ?? '')).length,
            headings: [...document.querySelectorAll('h2')].map((h) => h.textContent),
          };
        });
        expect(seen.tables === 0, `the report is a table again: ${JSON.stringify(seen)}`);
        expect(
          seen.scroll <= seen.width + 1 && seen.over.length === 0,
          `the report is wider than its preview (${seen.scroll} > ${seen.width} px): ${seen.over.join(' | ')}`,
        );
        expect(seen.fixes >= 1, `no Fix/Hint lines in the report: ${JSON.stringify(seen)}`);
        // a read-only document: no dirty marker on its tab, and closing it asks nothing
        const tab = page.locator('.tabs-container .tab', { hasText: '@control Doctor' }).first();
        await tab.waitFor({ state: 'visible', timeout: 10_000 });
        expect(!(await tab.getAttribute('class')).includes('dirty'), 'the report tab is marked dirty');
        await page.screenshot({ path: join(env.RESULTS_DIR, 'doctor-report.png') });
        await hostCommand('workbench.action.closeAllEditors');
        await sleep(500);
        expect((await page.locator('.monaco-dialog-box').count()) === 0, 'closing the report asked something (a save dialog?)');
      },
    );
  });

  // ---- a conversation of several turns in a new chat (after the tests above: it maximises the chat)
  await phase('ui-conversation', () => conversationTests(page, { uiTest, expect, hostCommand, ensureControlModel, openFile, resultsDir: env.RESULTS_DIR }));

  // ---- the plot webview, as a user sees it (after the other UI tests: it takes the editor area)
  await phase('ui-plots', async () => {
    await uiTest(page, 'ui: control.plot shows the Bode plot of 1/(s+1)^3 with the gain margin marked (test-results/plot-bode.png)', async () => {
      await hostCommand('workbench.action.closeAllEditors');
      await hostCommand('workbench.action.closeAuxiliaryBar').catch(() => {});
      await hostCommand('workbench.action.closeSidebar').catch(() => {});
      await hostCommand('workbench.action.closePanel').catch(() => {});
      const r = await hostCommand('control.plot', { kind: 'bode', args: { num: [1], den: [1, 3, 3, 1] } });
      expect(r && r.rendered, `control.plot did not report a rendered plot: ${JSON.stringify(r)}`);
      // webviews are nested iframes: find the one holding the plot
      const frame = await waitForFrame(page, () => !!document.querySelector('#plot svg.main-svg'));
      expect(frame, `no webview frame with the plot's svg among ${page.frames().length} frames`);
      const seen = await frame.evaluate(() => ({
        texts: [...document.querySelectorAll('#plot svg text')].map((t) => t.textContent ?? ''),
        title: document.getElementById('title')?.textContent,
        buttons: [...document.querySelectorAll('.actions button')].map((b) => b.textContent),
        curves: document.querySelectorAll('#plot svg .scatterlayer .trace path.js-line').length,
      }));
      for (const want of ['Magnitude (dB)', 'Phase (deg)', 'Frequency ω (rad/s)'])
        expect(seen.texts.includes(want), `axis title "${want}" missing; texts: ${JSON.stringify(seen.texts.slice(0, 40))}`);
      const gm = seen.texts.find((t) => /GM = /.test(t));
      expect(gm && /18\.06 dB/.test(gm) && /1\.732 rad\/s/.test(gm), `gain margin label (18.06 dB at 1.732 rad/s) missing: ${gm}`);
      expect(seen.curves >= 2, `expected the magnitude and phase curves, found ${seen.curves} line paths`);
      expect(seen.buttons.includes('Export SVG') && seen.buttons.includes('Export PNG'), `export buttons: ${seen.buttons}`);
      await sleep(500);
      await page.screenshot({ path: join(env.RESULTS_DIR, 'plot-bode-light.png') });
      // the same plot in the dark theme: the webview redraws in the theme's colours
      await hostCommand('workbench.action.toggleLightDarkThemes');
      let dark = false;
      for (let i = 0; i < 40 && !dark; i++) {
        dark = await frame.evaluate(() => document.body.classList.contains('vscode-dark')).catch(() => false);
        if (!dark) await sleep(250);
      }
      expect(dark, 'the webview did not switch to the dark theme');
      await sleep(1000);
      await page.screenshot({ path: join(env.RESULTS_DIR, 'plot-bode.png') });
      await hostCommand('workbench.action.toggleLightDarkThemes');
    });

    await uiTest(
      page,
      'ui: a plot opened with an editor and the chat pane open gets a readable width (half the editor area, or all of it) and resizes with its panel (test-results/plot-beside.png)',
      async () => {
        await hostCommand('workbench.action.closeAllEditors');
        await hostCommand('workbench.view.explorer');
        await ensureControlModel(page); // the chat pane open in the secondary side bar, as after a chat answer
        await openFile(page, 'pendulum.m');
        const r = await hostCommand('control.plot', { kind: 'step', args: { num: [1], den: [1, 2, 1] } });
        expect(r && r.rendered, `control.plot: ${JSON.stringify(r)}`);
        const frame = await waitForFrame(
          page,
          () => document.getElementById('title')?.textContent === 'Step response' && !!document.querySelector('#plot svg.main-svg'),
        );
        expect(frame, 'no webview frame with the step plot');
        await sleep(800);
        const editorPart = await page.locator('.part.editor').first().boundingBox();
        const measure = async () => {
          const box = await (await frame.frameElement()).boundingBox();
          const svg = await frame.evaluate(() => {
            const s = document.querySelector('#plot svg.main-svg');
            return { svg: Number(s?.getAttribute('width')), plot: document.getElementById('plot').clientWidth };
          });
          return { webview: box?.width ?? 0, ...svg };
        };
        const before = await measure();
        console.log(`     editor area ${editorPart?.width} px, plot in column ${r.viewColumn}: webview ${before.webview} px, figure ${before.svg} px`);
        // half the editor area when that is wide enough to read, else the whole of it (a tab of the editor's group)
        expect(editorPart && before.webview >= 0.45 * editorPart.width, `the plot got ${before.webview} of ${editorPart?.width} px of the editor area`);
        expect(before.webview >= 520, `the plot got ${before.webview} px: too narrow to read`);
        expect(Math.abs(before.svg - before.plot) <= 2, `the figure (${before.svg} px) does not fill its box (${before.plot} px)`);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'plot-beside.png') });
        // a narrower window: the figure follows its panel
        await page.setViewportSize({ width: 1200, height: 1100 });
        let after = before;
        for (let i = 0; i < 20 && !(after.webview < before.webview - 50 && Math.abs(after.svg - after.plot) <= 2); i++) {
          await sleep(250);
          after = await measure();
        }
        console.log(`     at 1200 px: plot webview ${after.webview} px, figure ${after.svg} px`);
        expect(after.webview < before.webview - 50, `the panel did not narrow: ${JSON.stringify({ before, after })}`);
        expect(Math.abs(after.svg - after.plot) <= 2, `the figure (${after.svg} px) did not follow its panel (${after.plot} px)`);
        await page.screenshot({ path: join(env.RESULTS_DIR, 'plot-beside-narrow.png') });
        await page.setViewportSize({ width: 1600, height: 1100 });
        await hostCommand('workbench.action.closeAllEditors');
      },
    );
  });

  // ---- release the extension host; run() then settles and reports its exit code
  writeFileSync(join(bridgeDir, 'done'), '');
  const code = await Promise.race([exited, sleep(20_000).then(() => 'timeout')]);
  const suiteOk = hostResults.every((r) => r.ok);
  if (code === 'timeout') record('host: suite finished (codeAutomationExit)', false, 0, 'no codeAutomationExit within 20 s after the UI tests');
  else if ((code === 0) !== suiteOk)
    record('host: suite exit code', false, 0, `codeAutomationExit(${code}) but in-host results say ${suiteOk ? 'all passed' : 'some failed'}`);
}

/** Run a VS Code command (with arguments) in the extension host, through suite/bridge.ts. */
let bridgeDir;
let bridgeSeq = 0;
async function hostCommand(command, ...args) {
  const id = ++bridgeSeq;
  writeFileSync(join(bridgeDir, `req-${id}.json.tmp`), JSON.stringify({ command, args }));
  renameSync(join(bridgeDir, `req-${id}.json.tmp`), join(bridgeDir, `req-${id}.json`));
  const res = join(bridgeDir, `res-${id}.json`);
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(100)) {
    if (existsSync(res)) {
      const r = JSON.parse(readFileSync(res, 'utf8'));
      if (!r.ok) throw new Error(`${command} failed in the extension host: ${r.error}`);
      return r.value;
    }
  }
  throw new Error(`${command}: no answer from the extension host within 60 s`);
}

function checkGain(text, K) {
  const nums = numbersIn(text);
  let found = false;
  for (let i = 0; i + 1 < nums.length; i++) {
    if (close(nums[i], K[0], 1e-5) && close(nums[i + 1], K[1], 1e-5)) found = true;
  }
  expect(found, `K = [${K.map((k) => k.toFixed(6)).join(', ')}] (to 5 significant figures) not in the answer; it shows:\n${text}`);
}

/**
 * Open the chat view with the model from vendor `control` selected: the chat pane calls a
 * participant only when some model is selected.
 */
async function ensureControlModel(page) {
  // (The picker's label may still read "Models": in Agent mode it lists only tool-calling
  // models. The selection holds all the same; the answer tells.)
  await hostCommand('workbench.action.chat.open', { modelSelector: { vendor: 'control' } });
  await page.locator('.interactive-input-part .monaco-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
}

main()
  .catch(async (e) => {
    record('host run completed', false, Date.now() - T0, e?.stack ?? e);
    dumpLogs();
  })
  .finally(async () => {
    if (results.some((r) => !r.ok)) dumpLogs();
    await cleanup();
    clearTimeout(overall);
    // the packaged linux-x64 .vsix installed and activated in a fresh VS Code (test/host/vsix.mjs,
    // its own ~30 s budget, after this run's code-server is gone); --no-vsix skips it
    if (!argv.includes('--no-vsix') && !ONLY && EXT_DIR === env.ROOT) await phase('vsix', () => runVsixTests(record));
    process.exit(finish());
  });
