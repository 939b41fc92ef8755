#!/usr/bin/env node
// `npm start`: the main job for a person on a fresh machine.
//
// With a display (or --vscode): builds the extension, packages it as a .vsix, installs it into
// a real VS Code (code-server 1.139, set up by scripts/setup.mjs), opens an example workspace
// of .m/.py files and a browser window on it, with @control ready in the chat pane.
// Without a display: the CLI, on the same core, answers an example request and shows its usage.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as env from './vscode-env.mjs';

const args = process.argv.slice(2);
const wantVscode = args.includes('--vscode') || (!!process.env.DISPLAY && !args.includes('--cli'));
const port = Number(process.env.PORT ?? 8080);

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', cwd: env.ROOT, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status ?? r.signal})`);
}

run('npm', ['run', '--silent', 'build']);

if (!wantVscode) {
  console.log('\nNo display here, so this is the @control CLI (run `npm start -- --vscode` to serve VS Code in a browser anyway).\n');
  console.log('$ control ask "/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1"\n');
  run(process.execPath, ['dist/cli.js', 'ask', '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1']);
  console.log('\n$ control --help\n');
  run(process.execPath, ['dist/cli.js', '--help']);
  process.exit(0);
}

run(process.execPath, ['scripts/setup.mjs']);
mkdirSync(env.CACHE, { recursive: true });
// the platform package carries node-llama-cpp (and the embedder runtime) for this machine
const outDir = join(env.CACHE, 'vsix');
run(process.execPath, ['scripts/package.mjs', '--no-build', '--out', outDir]);
const version = JSON.parse(readFileSync(join(env.ROOT, 'package.json'), 'utf8')).version;
const vsix = join(outDir, `control-linux-x64-${version}.vsix`);

const userDataDir = join(env.CACHE, 'user');
const workspace = join(env.CACHE, 'workspace');
if (!existsSync(workspace)) cpSync(join(env.ROOT, 'examples', 'workspace'), workspace, { recursive: true });
const extsDir = join(userDataDir, 'exts');
if (existsSync(extsDir))
  for (const d of readdirSync(extsDir)) if (d.startsWith('control-eng.control')) rmSync(join(extsDir, d), { recursive: true, force: true });

const home = join(env.CACHE, 'home');
mkdirSync(home, { recursive: true });
const childEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share') };
const [node, csArgs] = env.codeServerCommand({ port, userDataDir, folder: workspace });
run(node, [env.CODE_SERVER_ENTRY, '--user-data-dir', userDataDir, '--extensions-dir', extsDir, '--install-extension', vsix, '--force'], { env: childEnv });

const server = spawn(node, csArgs, { stdio: 'inherit', env: childEnv });
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
console.log(
  `\n@control is ready in VS Code at ${url}\nOpen the chat (Ctrl+Alt+I) and type: @control /lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1\nCtrl+C stops the server.\n`,
);
if (process.env.DISPLAY && existsSync(env.CHROMIUM)) {
  setTimeout(() => {
    const b = spawn(env.CHROMIUM, [...env.CHROMIUM_ARGS, `--user-data-dir=${join(env.CACHE, 'chromium-user')}`, `--app=${url}`], {
      stdio: 'ignore',
      detached: true,
    });
    b.unref();
  }, 1500);
}
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
