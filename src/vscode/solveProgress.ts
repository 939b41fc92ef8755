/**
 * Progress for a solve that takes a while: after PROGRESS_DELAY_MS a notification names the
 * call ("Solving care for a 200-state model…") with a Cancel button that stops the solver
 * thread. Shorter calls (nearly all) show nothing. Not a chat progress part: those fold the
 * answer's earlier Markdown (the reading) into a collapsed block (see render.ts).
 */
import * as vscode from 'vscode';

export const PROGRESS_DELAY_MS = 300;

export interface SolveProgress {
  end(): void;
}

export function delayedSolveProgress(
  title: string,
  cancel: (() => void) | undefined,
  log?: vscode.LogOutputChannel,
  onShown?: (title: string) => void,
): SolveProgress {
  let finish: (() => void) | undefined;
  let ended = false;
  const timer = setTimeout(() => {
    if (ended) return;
    log?.info(`progress shown: ${title}`);
    onShown?.(title);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `@control: ${title}`, cancellable: cancel !== undefined },
      (_p, token) =>
        new Promise<void>((resolve) => {
          finish = resolve;
          if (ended) resolve();
          token.onCancellationRequested(() => {
            log?.info(`progress cancelled: ${title}`);
            cancel?.();
            resolve();
          });
        }),
    );
  }, PROGRESS_DELAY_MS);
  return {
    end() {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      finish?.();
    },
  };
}
