/**
 * Fetching an npm agent when the user adds it (*Manage Agents*), so that its first request does not wait a
 * minute for npx to download it: the catalogue's `prefetchOf` command, run like the bridge runs agents
 * (cross-spawn, no window), under a cancellable progress notification. A failure only means the first
 * start fetches it instead; the log says why.
 */
import type * as vscode from 'vscode';
import crossSpawn from 'cross-spawn';
import { withEnv } from '../../agents/agent-env.js';
import type { LaunchCommand } from './agent-catalog.js';
import type { CatalogEntry } from './registry.js';
import type { ExtensionLog } from '../../log/extension-log.js';

export function prefetchAgent(vs: typeof vscode, log: ExtensionLog, entry: CatalogEntry, command: LaunchCommand): void {
  void vs.window.withProgress({ location: vs.ProgressLocation.Notification, title: `Fetching ${entry.name}…`, cancellable: true }, (_progress, cancel) =>
    new Promise<void>((resolve) => {
      const child = crossSpawn(command.command, [...command.args], { env: withEnv(process.env, command.env), stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
      const stderr: string[] = [];
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
      cancel.onCancellationRequested(() => child.kill());
      child.once('error', (error) => {
        log.warn(`could not fetch ${entry.name} now (${error.message}); it is fetched when it first starts`);
        resolve();
      });
      child.once('exit', (code, signal) => {
        if (code === 0) log.info(`fetched ${entry.name}: its first start will be quick`);
        else log.warn(`could not fetch ${entry.name} now (${signal ?? `exit code ${code}`}: ${stderr.join('').trim().split('\n').slice(-3).join(' | ')}); it is fetched when it first starts`);
        resolve();
      });
    }),
  );
}
