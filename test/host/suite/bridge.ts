// After the in-host tests, keep this extension host alive for run.mjs's UI tests and let them
// run VS Code commands with arguments (which the keyboard and mouse cannot pass), e.g.
// `workbench.action.chat.open` with a modelSelector. When the suite's run() settles, VS Code
// shuts the extension host down, @control with it, so run() awaits this until run.mjs says done.
//
// Protocol, in the folder $CONTROL_HOST_BRIDGE: run.mjs writes req-N.json {command, args};
// this answers res-N.json {ok, value?, error?}; a file named `done` ends it.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

function plain(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return String(value);
  }
}

export async function serveBridge(dir: string, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  const seen = new Set<string>();
  while (Date.now() < until && !existsSync(join(dir, 'done'))) {
    for (const f of readdirSync(dir)) {
      const m = /^req-(\d+)\.json$/.exec(f);
      if (!m || seen.has(f)) continue;
      seen.add(f);
      const { command, args } = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { command: string; args?: unknown[] };
      let res: { ok: boolean; value?: unknown; error?: string };
      try {
        res = { ok: true, value: plain(await vscode.commands.executeCommand(command, ...(args ?? []))) };
      } catch (e) {
        res = { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
      const tmp = join(dir, `res-${m[1]}.json.tmp`);
      writeFileSync(tmp, JSON.stringify(res));
      renameSync(tmp, join(dir, `res-${m[1]}.json`));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
