/**
 * Installing a downloaded agent (`archive-install.ts`) before its first request, under a cancellable
 * progress notification that says how much has arrived; cancelling it, or the request, stops the download.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type * as vscode from 'vscode';
import type { CatalogEntry, Distribution } from './registry.js';
import { installArchive, isInstalled } from './archive-install.js';
import type { AgentSetting } from './models.js';

/** The folder of a downloaded agent: one per agent, version and URL, under `root` (the extension's global storage). */
export function archiveDirUnder(root: string): (entry: CatalogEntry & { readonly distribution: Extract<Distribution, { kind: 'archive' }> }) => string {
  return (entry) => {
    const { url, version } = entry.distribution;
    const urlHash = createHash('sha256').update(url).digest('hex').slice(0, 12);
    return path.join(root, 'agents', entry.id, `${(version ?? 'unversioned').replace(/[^\w.-]/g, '_')}-${urlHash}`);
  };
}

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

/** Installs the agent's download if it is not there yet; throws an error naming the agent and the fault. */
export async function ensureAgentInstalled(vs: typeof vscode, setting: Pick<AgentSetting, 'name' | 'download'>, token: vscode.CancellationToken): Promise<void> {
  const download = setting.download;
  if (download === undefined || isInstalled(download)) return;
  const controller = new AbortController();
  const link = token.onCancellationRequested(() => controller.abort());
  try {
    await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title: `Downloading ${setting.name}`, cancellable: true }, async (progress, cancel) => {
      cancel.onCancellationRequested(() => controller.abort());
      let shown = 0;
      await installArchive(download, {
        signal: controller.signal,
        onProgress: (received, total) => {
          const percent = total === undefined ? undefined : Math.floor((received / total) * 100);
          // A report per percent (or per MB without a length), not per chunk.
          if (percent !== undefined ? percent <= shown : Math.floor(received / MB) <= shown) return;
          progress.report(percent === undefined ? { message: `${mb(received)} MB` } : { increment: percent - shown, message: `${mb(received)} of ${mb(total ?? 0)} MB` });
          shown = percent ?? Math.floor(received / MB);
        },
      });
    });
  } catch (error) {
    if (token.isCancellationRequested) throw new vs.CancellationError();
    throw new Error(`${setting.name} could not be installed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    link.dispose();
  }
}
