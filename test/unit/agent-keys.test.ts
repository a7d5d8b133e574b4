/** Which requests talk to the same agent: AgentRegistry.keyOf, asked on every request (its keys kept by JSON text). */
import { AgentRegistry } from '../../src/agents/registry/agent-registry.js';
import type { AcpAgentOptions } from '../../src/agents/acp/acp-agent-options.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';

const registry = (): AgentRegistry => new AgentRegistry({ elizaPaceMs: 0, acp: {} as AcpAgentOptions, sessionIdleMs: 1000, maxOpenSessions: 10, agentIdleMs: 1000 });
const agent = (name: string): AgentDefinition => ({ mcp_server: { name, command: 'node', args: ['agent.js'], env: [{ name: 'A', value: '1' }] } });

test('the same definition, its keys in another order, is the same agent; another definition is another', () => {
  const agents = registry();
  const reordered = JSON.parse('{"mcp_server":{"env":[{"value":"1","name":"A"}],"args":["agent.js"],"command":"node","name":"claude"}}') as AgentDefinition;
  expect(agents.keyOf(agent('claude'))).toBe(agents.keyOf(reordered));
  expect(agents.keyOf(reordered)).toBe(agents.keyOf(agent('claude')));
  expect(agents.keyOf(agent('codex'))).not.toBe(agents.keyOf(agent('claude')));
  expect(agents.keyOf({ eliza: {} })).not.toBe(agents.keyOf(agent('claude')));
});

test('keys stay right past the number kept, and are the same in another registry (another bridge)', () => {
  const agents = registry();
  const first = agents.keyOf(agent('a0'));
  for (let i = 1; i < 200; i++) agents.keyOf(agent(`a${i}`));
  expect(agents.keyOf(agent('a0'))).toBe(first);
  expect(registry().keyOf(agent('a0'))).toBe(first);
  expect(new Set(Array.from({ length: 200 }, (_, i) => agents.keyOf(agent(`a${i}`)))).size).toBe(200);
});
