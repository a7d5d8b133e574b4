import { AgentCommandLists } from '../../src/extension/slash-commands/agent-command-lists.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';

const agent = (name: string) => ({ mcp_server: { name, command: name, args: [] as string[], env: [] } }) satisfies AgentDefinition;
const claude = agent('Claude Code');
const codex = agent('Codex');
const review = { name: 'review', description: 'Review the changes' };
const init = { name: 'init', description: 'Write AGENTS.md' };

test("the current agent is the one used last; its commands are the current ones and come first", () => {
  const lists = new AgentCommandLists();
  let changes = 0;
  lists.onDidChangeCurrent(() => changes++);
  expect(lists.currentCommands).toEqual([]);
  expect(lists.ordered()).toEqual([]);

  lists.learn({ agent: claude, commands: [review] });
  lists.learn({ agent: codex, commands: [init] });
  // No agent used yet: nothing is current, every list is offered.
  expect(changes).toBe(0);
  expect(lists.currentCommands).toEqual([]);
  expect(lists.ordered().map((l) => l.agent)).toEqual(['Claude Code', 'Codex']);

  lists.used(codex);
  expect(changes).toBe(1);
  expect(lists.currentCommands).toEqual([init]);
  expect(lists.ordered()).toEqual([
    { agent: 'Codex', commands: [init] },
    { agent: 'Claude Code', commands: [review] },
  ]);

  // The same agent again changes nothing; its new list does; another agent's list does not.
  lists.used(codex);
  lists.learn({ agent: claude, commands: [review, init] });
  expect(changes).toBe(1);
  lists.learn({ agent: codex, commands: [] });
  expect(changes).toBe(2);
  expect(lists.currentCommands).toEqual([]);
  // An agent without commands is not offered.
  expect(lists.ordered().map((l) => l.agent)).toEqual(['Claude Code']);
  // Agents are told apart by their whole definition, not their name.
  lists.used({ mcp_server: { ...claude.mcp_server } });
  expect(lists.currentCommands).toEqual([review, init]);
});
