// Scenarios of issue 15 for the real VS Code host, for the lead to wire into `extension.js`'s SCENARIOS:
//   const { issue15Scenarios } = require('./issue15-scenarios.js');
//   ...issue15Scenarios({ VENDOR, findModel, send, user, summary, onPath, scriptedAgent })
// where `scriptedAgent()` returns the `scripted` entry of `symposium.agents` the harness writes (its command and
// args). What each needs of the harness is said at the scenario.
'use strict';

const vscode = require('vscode');

/** The settings entry of `agent`, added for the duration of `body`. */
async function withAgent(entry, body) {
  const config = vscode.workspace.getConfiguration('symposium');
  const before = config.get('agents') || [];
  try {
    await config.update('agents', [...before, entry], vscode.ConfigurationTarget.Global);
    return await body();
  } finally {
    await config.update('agents', before, vscode.ConfigurationTarget.Global);
  }
}

function issue15Scenarios({ VENDOR, findModel, send, user, summary, onPath, scriptedAgent }) {
  return [
    {
      // Needs nothing of the harness; `kimi` must not be on PATH (true on the test machines).
      name: 'a built-in that is not installed is a model that says so and fails at once',
      async run(c) {
        c.ok(!c.note('kimiOnPath', onPath('kimi')), 'kimi is on PATH here: this scenario needs a built-in that is not installed');
        await withAgent({ id: 'kimi' }, async () => {
          const model = await findModel('symposium-agent-kimi', 15_000);
          c.equal(model.vendor, VENDOR, 'vendor');
          const r = c.note('response', summary(await send(model, [user('hello')], { timeoutMs: 15_000 })));
          c.ok(!r.timedOut, 'the request hung instead of failing at once');
          c.ok(r.error !== undefined && r.error.includes('Kimi CLI is not installed here: `kimi` was not found on PATH'), `the error does not say what is missing: ${r.error}`);
        });
      },
    },
    {
      // Needs the harness to click the button "Sign in" of the notification "Needs sign-in needs you to sign in."
      // (the provider's offer; the other button, "API key", is the agent's other method). The scripted agent with
      // --auth-required refuses session/new until `authenticate` with `oauth` or `api-key`; the provider signs it in
      // through symposium/authenticate and sends the request again.
      name: 'sign-in: an agent that answers auth_required is signed in when the user accepts, then answers',
      async run(c) {
        const scripted = scriptedAgent();
        await withAgent({ id: 'needs-sign-in', name: 'Needs sign-in', command: scripted.command, args: [...scripted.args, '--auth-required'] }, async () => {
          const model = await findModel('symposium-agent-needs-sign-in', 15_000);
          const r = c.note('response', summary(await send(model, [user('say signed in')], { timeoutMs: 60_000 })));
          c.noError(r, 'the request after the sign-in');
          c.equal(r.text, 'signed in', 'the answer after the sign-in');
        });
      },
    },
    {
      // Needs the harness to answer the command's three inputs: the quick pick of agents ("Needs key"), the quick
      // pick of variables ("$(add) Another environment variable…", then type SYMPOSIUM_TEST_KEY), and the password
      // box (type the value the scenario notes as `secret`). The scripted agent's `env` command is not available, so
      // the check is the agent's own environment as the env-reporting fixture writes it (dist/test/fixtures/
      // env-reporting-agent.js, SYMPOSIUM_TEST_REPORT_FILE). Also checks settings.json never holds the value.
      name: 'Set Agent API Key: the key reaches the agent, never the settings',
      async run(c) {
        const scripted = scriptedAgent();
        const os = require('node:os');
        const fs = require('node:fs');
        const path = require('node:path');
        const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-key-')), 'env.json');
        const reporter = path.join(path.dirname(scripted.args[0]), 'env-reporting-agent.js');
        const entry = {
          id: 'needs-key',
          name: 'Needs key',
          command: scripted.command,
          args: [reporter],
          env: { SYMPOSIUM_TEST_REPORT_FILE: report, SYMPOSIUM_TEST_REPORT_VARS: 'SYMPOSIUM_TEST_KEY' },
        };
        await withAgent(entry, async () => {
          await findModel('symposium-agent-needs-key', 15_000);
          await vscode.commands.executeCommand('symposium.setAgentApiKey');
          const r = c.note('response', summary(await send(await findModel('symposium-agent-needs-key'), [user('say keyed')])));
          c.noError(r, 'the request with the key');
          const env = c.note('agentEnv', JSON.parse(fs.readFileSync(report, 'utf8')));
          c.ok(typeof env.SYMPOSIUM_TEST_KEY === 'string' && env.SYMPOSIUM_TEST_KEY.length > 0, 'the agent did not get the key');
          const settings = JSON.stringify(vscode.workspace.getConfiguration('symposium').inspect('agents'));
          c.ok(!settings.includes(env.SYMPOSIUM_TEST_KEY), 'the key is in the settings');
        });
      },
    },
  ];
}

module.exports = { issue15Scenarios };
