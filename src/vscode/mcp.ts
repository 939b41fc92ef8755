/**
 * Offers `control mcp` to VS Code itself as an MCP server definition, so MCP-aware agents in
 * VS Code find our solvers without any configuration. The server is the bundled CLI run by
 * the extension host's own runtime (Node in code-server/remote hosts; Electron as Node on
 * the desktop, hence ELECTRON_RUN_AS_NODE).
 */
import * as vscode from 'vscode';

export const MCP_PROVIDER_ID = 'control.mcp';

export function registerMcpServer(context: vscode.ExtensionContext, version: string): void {
  if (typeof vscode.lm.registerMcpServerDefinitionProvider !== 'function') return; // older hosts
  const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
  context.subscriptions.push(
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      provideMcpServerDefinitions: () => [
        new vscode.McpStdioServerDefinition('@control solvers', process.execPath, [cli, 'mcp', '--quiet'], { ELECTRON_RUN_AS_NODE: '1' }, version),
      ],
    }),
  );
}
