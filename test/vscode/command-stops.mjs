// What the scenarios of a command refused or stopped mid-run (issue 54) share, in whichever consumer runs it (Cline's
// run_commands, Roo's execute_command, Copilot's run_in_terminal): the command's processes as `ps` lists them, the
// terminals VS Code shows, and what Claude's model was given for the call (the scripted Anthropic API's recorded
// requests, claude-view.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The processes running `args` exactly, as `ps` lists them. */
export function processesRunning(args) {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter((line) => line.endsWith(` ${args}`));
}

/**
 * Waits until `sleeping` runs in VS Code's terminal, for Claude through Copilot's run_in_terminal: Allow where Copilot
 * asks (it does not where the person's rules allow the command, as `sleep` is among its defaults), its words noted.
 */
export async function allowUntilRunning(ui, c, sleeping) {
  const unwrapped = (text) => text.replace(/\s+/g, '');
  const asking = ui.page.locator('.chat-confirmation-widget-container:visible').last();
  const deadline = Date.now() + 60_000;
  for (let allowed = false; processesRunning(sleeping).length === 0; ) {
    c.ok(Date.now() < deadline, `the command did not start in VS Code's terminal (no "${sleeping}" process)`);
    if (!allowed && (await asking.count()) > 0 && unwrapped(await asking.innerText()).includes(unwrapped(sleeping)) && (await ui.page.locator('.chat-confirmation-widget-buttons a.monaco-text-button', { hasText: /^Allow$/ }).count()) > 0) {
      c.note('confirmation', await asking.innerText());
      await ui.click('Allow');
      allowed = true;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The names of VS Code's terminals the panel shows (its tabs, or the one terminal's title). */
export async function terminalNames(page) {
  return page.locator('.part.panel .single-terminal-tab, .part.panel .terminal-tabs-entry').allInnerTexts().catch(() => []);
}

/** Polls `ok` every 200 ms until it holds or `timeoutMs` passed; whether it held. */
export async function eventually(ok, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 200))) {
    if (await ok()) return true;
    if (Date.now() > deadline) return false;
  }
}

/**
 * The results of the consumer's command tool that Claude's model was given in the conversation requests from the
 * `since`-th on, each with the request that carried it: [{text, isError, request}].
 */
export function commandResults(mock, since) {
  return mock
    .conversation()
    .slice(since)
    .flatMap((request) => mock.commandResultsOf(request).map((result) => ({ ...result, request })));
}

/**
 * Keeps Claude's model request `recorded` beside the screenshots, as `model-request-<name>.json`: its messages, and
 * the consumer's command tool as the model was offered it (its schema, as the consumer gave it).
 */
export function keepModelRequest(ctx, name, recorded) {
  mkdirSync(ctx.artifacts, { recursive: true });
  const commandTools = (recorded.body.tools ?? []).filter((tool) => /__(run_in_terminal|run_commands|execute_command)$/.test(tool.name));
  writeFileSync(join(ctx.artifacts, `model-request-${name}.json`), JSON.stringify({ messages: recorded.body.messages, commandTools }, null, 1));
}

/** Claude Code's refusal, which its model reads when the bridge declines a call: never the answer to a message sent while a command runs (issue 59). */
export const CLAUDE_REFUSAL = "doesn't want to proceed";

/**
 * What Claude's model was given from the `since`-th conversation request on, for words the person sent while the
 * command ran (issue 59), as problems: a refusal; the words never, twice in one request, or in another session.
 */
export function messageWhileRunningProblems(mock, since, words) {
  const conversation = mock.conversation().slice(since);
  const problems = [];
  if (conversation.some((r) => JSON.stringify(r.body.messages).includes(CLAUDE_REFUSAL))) problems.push("Claude's model was told the person refused the command");
  // The words as the person's (a user text) or inside the call's result, as the consumer chose to send them.
  const carrying = conversation.filter((r) => JSON.stringify(r.body.messages).includes(words));
  if (carrying.length === 0) problems.push("the words never reached Claude's model");
  if (carrying.some((r) => JSON.stringify(r.body.messages).split(words).length > 2)) problems.push('the words twice in a model request');
  if (new Set(conversation.map((r) => mock.sessionIdOf(r))).size !== 1) problems.push('the chat went to more than one Claude session');
  return problems;
}
