/** Method names of the seed's protocol, kept apart from the connection that serves them. */
export const Methods = {
  provideChatResponse: 'lm/provideLanguageModelChatResponse',
  provideChatInformation: 'lm/provideLanguageModelChatInformation',
  provideTokenCount: 'lm/provideTokenCount',
  responsePart: 'lm/responsePart',
  responseComplete: 'lm/responseComplete',
  /** Not in the seed: a notification from the bridge with what it learned about an agent (models, images, context). */
  agentInfo: 'symposium/agentInfo',
  /** Not in the seed: a notification from the bridge with an agent's slash commands (ACP `available_commands_update`). */
  agentCommands: 'symposium/agentCommands',
  /**
   * Not in the seed: a request of the client to serve these slash commands as the prompts of an MCP server (started on
   * the first request), answered with its address.
   */
  commandPrompts: 'symposium/commandPrompts',
  authenticate: 'symposium/authenticate',
  /** Not in the seed: a notification that an agent's model was picked, so the bridge starts it ahead of the first request. */
  prepareAgent: 'symposium/prepareAgent',
  /** Not in the seed: a notification of the API keys the person set for an agent, which the bridge holds for every window's requests. */
  agentSecrets: 'symposium/agentSecrets',
  /** Not in the seed: a notification that the client's window started, so the bridge resumes recent conversations ahead. */
  resumeRecent: 'symposium/resumeRecent',
  /** Not in the seed: a request of the client for the agent sessions of the chats used lately, to hand one to the agent's CLI. */
  chatSessions: 'symposium/chatSessions',
  /** Not in the seed: a request of the bridge for the text of a file open in an editor, for an agent's reads. */
  documentText: 'symposium/documentText',
  /** Not in the seed: a request of the bridge to ask the person an agent's questions where the chat cannot. */
  askQuestions: 'symposium/askQuestions',
  /** Not in the seed: a request of the bridge to open a web page an agent names, once the person agrees. */
  openUrl: 'symposium/openUrl',
  /** Not in the seed: requests of the client for an agent's own sessions (see agent-sessions.ts): list, delete, continue one in a new chat. */
  listAgentSessions: 'symposium/listAgentSessions',
  deleteAgentSession: 'symposium/deleteAgentSession',
  continueAgentSession: 'symposium/continueAgentSession',
  /** Not in the seed: the first message on a connection to the agent host: its token, and what belongs to the window (host-window.ts). */
  joinHost: 'symposium/window',
} as const;

/** The tool through which an agent's permission requests reach VS Code, which asks the user. */
export const AGENT_ACTION_TOOL = 'symposium-agent-action';
