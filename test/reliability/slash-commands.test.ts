/**
 * An agent's slash command lists under hostility (issue 38): thousands of `available_commands_update`s as fast as
 * the pipe takes them, each with duplicate names, a name of 10 KB, a name with spaces, an entry that is no
 * object and a description of 10 KB, during a turn. The turn is answered, in full and once; the client hears a
 * few bounded lists, not one per update, the last being the agent's last; and the agent is still served after.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import { MAX_COMMANDS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS } from '../../src/agents/acp/answers/agent-commands.js';
import type { AgentCommandsParams, AgentDefinition } from '../../src/protocol/messages.js';
import { waitUntil } from '../fixtures/wait-until.js';
import { AgentBridge, SCRIPTED_AGENT, user } from '../integration/agent-bridge.js';

let bridge: AgentBridge;
afterEach(async () => bridge.close());

const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT], env: [] } };
const UPDATES = 1000;

test('a flood of malformed command lists during a turn: the turn is answered; a few bounded lists are reported, the last one last', async () => {
  bridge = new AgentBridge();
  const reports: AgentCommandsParams[] = [];
  bridge.client.onAgentCommands((params) => reports.push(params));

  const parts = await bridge.chat([user(`commands-flood ${UPDATES} 300`, 'say still here')], agent);
  expect(textOfParts(parts)).toBe(`flooded commands ${UPDATES}still here`);

  expect(await waitUntil(() => reports.at(-1)?.commands[0]?.name === 'final-command', 5000, 20)).toBe(true);
  expect(reports.at(-1)?.commands).toEqual([{ name: 'final-command', description: 'the last list' }]);
  // One report per burst, not per update.
  expect(reports.length).toBeLessThan(UPDATES / 10);
  for (const { commands } of reports) {
    expect(commands.length).toBeLessThanOrEqual(MAX_COMMANDS);
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    for (const command of commands) {
      expect(command.name.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
      expect(command.name).not.toMatch(/\s/);
      expect(command.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    }
  }

  expect(textOfParts(await bridge.chat([user('say after')], agent))).toBe('after');
});
