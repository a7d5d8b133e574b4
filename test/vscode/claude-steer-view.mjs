// The person writes while Claude's command runs through Copilot's run_in_terminal (issue 59). VS Code 1.139's default
// (`chat.requestQueuing.defaultAction: "steer"`): Copilot's tool loop ends after the command and sends the words in a
// new request whose history holds the call with its real output; Claude Code's model must get that output as the
// call's result and the words in its running turn (the bridge steers it, `_session/steering`), no refusal. *Add to
// Queue* (Alt+Enter where steer is the default; Enter under the setting "queue": the same action of VS Code's): the
// words wait for the whole answer and are the next message of the same session.
import { join } from 'node:path';
import { symposiumLog } from './chat-view.mjs';
import { CLAUDE_REFUSAL, allowUntilRunning, commandResults, keepModelRequest, processesRunning } from './command-stops.mjs';

/** How many times the bridge logged that it steered the person's words into a running turn (steering.ts). */
const steers = (ctx) => (symposiumLog({ userData: join(ctx.runDir, 'user-data') }).match(/the person's words steered into the running turn/g) ?? []).length;

export function steerScenarios(newClaudeChat) {
  const scenario = (action, sleeping, proofWords) => ({
    name: `claude: a message sent (${action === 'steer' ? 'steered, the default' : 'Add to Queue'}) while a command runs through run_in_terminal: Claude's model gets the command's output as the call's result and the words, no refusal`,
    async run(ui, c, ctx) {
      await newClaudeChat(ui);
      const since = ctx.mock.conversation().length;
      const steeredBefore = steers(ctx);
      const logBefore = symposiumLog({ userData: join(ctx.runDir, 'user-data') }).length;
      // The output ("<proof>-42") is not in the words the answer shows ("Ran sleep …; echo …").
      await ui.send(`run ${sleeping}; echo ${proofWords}-$((6*7))`);
      await allowUntilRunning(ui, c, sleeping);
      const words = `say words sent while it ran (${action})`;
      await ui.page.locator('.interactive-input-editor').first().click();
      await ui.page.keyboard.type(words);
      await ui.page.keyboard.press(action === 'steer' ? 'Enter' : 'Alt+Enter');
      c.ok(processesRunning(sleeping).length > 0, 'the command had ended before the words were sent');
      await ui.screenshot(`claude-${action}-sent`);
      const answered = `words sent while it ran (${action})`;
      const text = c.note('answer', await ui.response((t) => t.includes(answered), 'the answer to the words', 90_000));
      await ui.idle();
      await ui.screenshot(`claude-${action}-answered`);
      const chat = c.note('chat', await ui.page.locator('.interactive-list').first().innerText().catch(() => ''));
      const conversation = ctx.mock.conversation().slice(since);
      const results = commandResults(ctx.mock, since);
      c.note('model got', results.map(({ text: t, isError }) => ({ text: t, isError })));
      for (const [i, result] of results.entries()) keepModelRequest(ctx, `copilot-${action}-${i + 1}`, result.request);
      // Once, or twice where Claude Code pre-empts its model's answer to the result with the steered words.
      c.ok(results.length >= 1 && results.every((r) => r.text.includes(`${proofWords}-42`) && !r.isError), `Claude's model did not get the command's output as the call's result: ${JSON.stringify(results)}`);
      c.ok(conversation.every((r) => !JSON.stringify(r.body.messages).includes(CLAUDE_REFUSAL)), "Claude's model was told the person refused the command");
      // The words reach the model once, in the session that ran the command.
      const asked = conversation.filter((r) => ctx.mock.lastUserTextOf(r).endsWith(words));
      c.ok(asked.length >= 1, "the words never reached Claude's model");
      c.equal(new Set(conversation.map((r) => ctx.mock.sessionIdOf(r))).size, 1, 'Claude sessions of the chat');
      c.ok(asked.every((r) => ctx.mock.userTextsOf(r).filter((t) => t.endsWith(words)).length === 1), 'the words twice in a model request');
      c.equal(text.split(answered).length, 2, 'times the answer says the words');
      // Steered: into Claude's running turn (the bridge's _session/steering), nothing cancelled. Queued: the words wait
      // for Claude's whole answer, which answers the command first, and are the next message.
      c.note('bridge log', symposiumLog({ userData: join(ctx.runDir, 'user-data') }).slice(logBefore).split('\n').filter((l) => /steer|cancel|next prompt/i.test(l)));
      c.equal(steers(ctx) - steeredBefore, action === 'steer' ? 1 : 0, "times the bridge steered the words into Claude's running turn");
      if (action === 'queue') c.includes(chat, `Terminal said: ${proofWords}-42`, 'the chat (the answer to the command, before the queued words)');
    },
  });
  return [scenario('steer', 'sleep 12.3', 'steered'), scenario('queue', 'sleep 12.7', 'queued')];
}
