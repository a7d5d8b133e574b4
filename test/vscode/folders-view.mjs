// A multi-root workspace in VS Code's own Chat view (issue 52): a workspace of two folders, opened from its
// `.code-workspace` file in a workbench of its own (run.mjs, runFoldersWorkbench), with the real Claude Code against
// the scripted Anthropic API (claude-view.mjs). The extension gives the bridge the first folder as the agent's
// working directory and the others with `--add-dir`, which reach Claude Code as ACP's `additionalDirectories`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatView, Checks } from './chat-view.mjs';

const SCENARIO = "folders: a two-folder workspace gives Claude Code both folders, the first as its working directory and the second as an additional one";

/**
 * Beside the run's workspace folder, a second one, and the `.code-workspace` file that holds both; returns its path.
 * The second folder's name is unusual so that a request that names it names it for this reason only.
 */
export function writeTwoFolderWorkspace(dirs) {
  const second = join(dirs.runDir, 'second-folder-of-two');
  mkdirSync(second, { recursive: true });
  writeFileSync(join(second, 'NOTES.md'), 'The second folder of a two-folder workspace.\n');
  const file = join(dirs.runDir, 'two-folders.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: dirs.workspace }, { path: second }] }, null, 2));
  return { file, second };
}

/** Runs the scenario on `page`; its result is {name, passed, ms, error, details}. */
export async function runFolders(page, ctx, log) {
  const ui = new ChatView(page, ctx.artifacts);
  const c = new Checks();
  const start = Date.now();
  log(SCENARIO);
  try {
    await ui.openOnceStarted();
    // A fresh profile's first message is answered by the first model listed: Claude Code, the only agent here.
    await ui.send('say Both folders are mine');
    c.note('answer', await ui.response((t) => t.includes('Both folders are mine') && t.includes('Claude Code'), "Claude's answer, named", 120_000));
    await ui.idle();
    const asked = ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r) === 'say Both folders are mine');
    c.ok(asked.length === 1, `the model was asked ${asked.length} times, not once`);
    const body = JSON.stringify(asked[0].body);
    c.includes(body, `Primary working directory: ${ctx.workspace}`, "Claude's model request (its working directory)");
    c.includes(body, `Additional working directories:`, "Claude's model request (its additional directories)");
    c.includes(body, ctx.second, "Claude's model request (the workspace's second folder)");
    c.note('folders said', body.match(/[^"\\]*second-folder-of-two[^"\\]*/g)?.slice(0, 3));
    await ui.screenshot('folders-two-folder-workspace');
    return [{ name: SCENARIO, passed: true, ms: Date.now() - start, details: c.details }];
  } catch (error) {
    await ui.screenshot('folders-two-folder-workspace').catch(() => {});
    return [{ name: SCENARIO, passed: false, ms: Date.now() - start, error: error.message, details: c.details }];
  }
}
