/**
 * The seed's wire protocol between the VS Code extension and the `vscodelm` process.
 * Every type here is the `TypeOf` of its io-ts codec: the codecs are the one source of truth and
 * everything that crosses the process boundary is decoded with them.
 */
import * as t from 'io-ts';
import { boundedDepth } from './bounded-depth.js';
import { keyedUnion, taggedUnion } from './tagged-union.js';

export const TextPart = t.type({ type: t.literal('text'), value: t.string }, 'TextPart');
export type TextPart = t.TypeOf<typeof TextPart>;

/** `data` is base64; `mimeType` also carries Copilot's bookkeeping kinds (`cache_control`, `stateful_marker`, …). */
export const DataPart = t.type({ type: t.literal('data'), mimeType: t.string, data: t.string }, 'DataPart');
export type DataPart = t.TypeOf<typeof DataPart>;

export const ThinkingPart = t.type({ type: t.literal('thinking'), value: t.string }, 'ThinkingPart');
export type ThinkingPart = t.TypeOf<typeof ThinkingPart>;

export const ToolCallPart = t.type(
  { type: t.literal('tool_call'), toolCallId: t.string, toolName: t.string, parameters: boundedDepth(t.UnknownRecord) },
  'ToolCallPart',
);
export type ToolCallPart = t.TypeOf<typeof ToolCallPart>;

export const ToolResultContent = taggedUnion('type', { text: TextPart, data: DataPart }, 'ToolResultContent');
export type ToolResultContent = t.TypeOf<typeof ToolResultContent>;

export const ToolResultPart = t.type(
  { type: t.literal('tool_result'), toolCallId: t.string, result: t.array(ToolResultContent) },
  'ToolResultPart',
);
export type ToolResultPart = t.TypeOf<typeof ToolResultPart>;

export const Part = taggedUnion(
  'type',
  { text: TextPart, tool_call: ToolCallPart, tool_result: ToolResultPart, data: DataPart, thinking: ThinkingPart },
  'Part',
);
export type Part = t.TypeOf<typeof Part>;

export const Role = t.keyof({ user: null, assistant: null, system: null }, 'Role');
export type Role = t.TypeOf<typeof Role>;

export const Message = t.type({ role: Role, content: t.array(Part) }, 'Message');
export type Message = t.TypeOf<typeof Message>;

export const EnvVariable = t.type({ name: t.string, value: t.string }, 'EnvVariable');

/**
 * How an agent's own shell is switched off for a whole process (its switch is per process, not per session):
 * arguments added after its own; JSON merged into what environment variables hold (CODEX_CONFIG,
 * OPENCODE_CONFIG_CONTENT); files the bridge writes, each given as `flag path` (Gemini CLI's `--admin-policy`).
 * Conversations offered a consumer's command tool run in a second process of the agent started so (shell-off-variant.ts).
 */
export const ShellOff = t.partial(
  {
    args: t.array(t.string),
    json: t.record(t.string, boundedDepth(t.UnknownRecord)),
    files: t.array(t.type({ flag: t.string, name: t.string, content: t.string })),
  },
  'ShellOff',
);
export type ShellOff = t.TypeOf<typeof ShellOff>;

/**
 * Where an agent's own settings name the mode its sessions begin in, which the bridge honours as the person's choice
 * (Claude Code's `permissions.defaultMode`): JSON files of the person's, under the folder the agent's variable
 * `configDir.variable` names (else `configDir.home` under the home folder), then of the workspace folder, a later
 * file's value winning, and the key's path in them.
 */
export const ModeSetting = t.type(
  { configDir: t.type({ variable: t.string, home: t.string }), user: t.array(t.string), project: t.array(t.string), key: t.array(t.string) },
  'ModeSetting',
);
export type ModeSetting = t.TypeOf<typeof ModeSetting>;

/** A spawned ACP agent; the seed calls it `mcp_server` after ACP's stdio server shape. */
export const AgentCommand = t.intersection(
  [t.type({ name: t.string, command: t.string, args: t.array(t.string), env: t.array(EnvVariable) }), t.partial({ shellOff: ShellOff, subagentSessions: t.boolean, modeSetting: ModeSetting })],
  'AgentCommand',
);
export type AgentCommand = t.TypeOf<typeof AgentCommand>;

export const ElizaOptions = t.partial({ deterministic: t.boolean }, 'ElizaOptions');

export const AgentDefinition = keyedUnion({ eliza: ElizaOptions, mcp_server: AgentCommand }, 'AgentDefinition');
export type AgentDefinition = t.TypeOf<typeof AgentDefinition>;

export const ToolDefinition = t.intersection(
  [t.type({ name: t.string, description: t.string }), t.partial({ inputSchema: boundedDepth(t.unknown) })],
  'ToolDefinition',
);
export type ToolDefinition = t.TypeOf<typeof ToolDefinition>;

export const ToolMode = t.keyof({ auto: null, required: null }, 'ToolMode');

/**
 * `toolListId` names the tool list: with `tools`, the bridge keeps them under it; without, it takes the
 * list it kept (consumers offer the same tools with every request, tens of KB for Copilot's agent mode).
 * An id the bridge does not keep fails with UnknownToolList, and the client sends the tools again.
 */
export const ChatRequestOptions = t.partial({ tools: t.array(ToolDefinition), toolMode: ToolMode, toolListId: t.number }, 'ChatRequestOptions');
export type ChatRequestOptions = t.TypeOf<typeof ChatRequestOptions>;

/** Session config options to set before the turn, by config id (e.g. `{ model: "opus" }`, from the model picked). */
export const SessionConfig = t.record(t.string, t.string, 'SessionConfig');
export type SessionConfig = t.TypeOf<typeof SessionConfig>;

export const ProvideChatResponseParams = t.intersection(
  [
    t.type({ modelId: t.string, messages: t.array(Message), agent: AgentDefinition }),
    /** marker: the stateful marker the consumer gives this response (Copilot's), by which later requests name the conversation. */
    t.partial({ options: ChatRequestOptions, config: SessionConfig, marker: t.string }),
  ],
  'ProvideChatResponseParams',
);
export type ProvideChatResponseParams = t.TypeOf<typeof ProvideChatResponseParams>;

export const ProvideChatInformationParams = t.partial({ silent: t.boolean }, 'ProvideChatInformationParams');
export type ProvideChatInformationParams = t.TypeOf<typeof ProvideChatInformationParams>;

export const ModelInformation = t.type(
  {
    id: t.string,
    name: t.string,
    family: t.string,
    version: t.string,
    maxInputTokens: t.number,
    maxOutputTokens: t.number,
    capabilities: t.type({ toolCalling: t.boolean, imageInput: t.boolean }),
  },
  'ModelInformation',
);
export type ModelInformation = t.TypeOf<typeof ModelInformation>;

export const ProvideChatInformationResult = t.type({ models: t.array(ModelInformation) }, 'ProvideChatInformationResult');
export type ProvideChatInformationResult = t.TypeOf<typeof ProvideChatInformationResult>;

export const ProvideTokenCountParams = t.type({ modelId: t.string, text: t.union([t.string, Message]) }, 'ProvideTokenCountParams');
export type ProvideTokenCountParams = t.TypeOf<typeof ProvideTokenCountParams>;

export const ProvideTokenCountResult = t.type({ count: t.number }, 'ProvideTokenCountResult');
export type ProvideTokenCountResult = t.TypeOf<typeof ProvideTokenCountResult>;

/** What a turn streams back: the part kinds an assistant message may hold. */
export const ResponsePart = taggedUnion(
  'type',
  { text: TextPart, tool_call: ToolCallPart, data: DataPart, thinking: ThinkingPart },
  'ResponsePart',
);
export type ResponsePart = t.TypeOf<typeof ResponsePart>;

export const AgentModelChoice = t.intersection([t.type({ value: t.string, name: t.string }), t.partial({ description: t.string })], 'AgentModelChoice');
export type AgentModelChoice = t.TypeOf<typeof AgentModelChoice>;

/** A select session config option of an agent: its id, name, current value and choices. */
export const AgentConfigOption = t.type({ configId: t.string, name: t.string, current: t.string, choices: t.array(AgentModelChoice) }, 'AgentConfigOption');
export type AgentConfigOption = t.TypeOf<typeof AgentConfigOption>;
/**
 * A way an agent signs in, from its `initialize` answer: `terminal` ones are run by the client (the agent's
 * own command, with these extra args and env, in a terminal: exit code 0 means signed in); the others are
 * handed to ACP `authenticate` (`symposium/authenticate`).
 */
export const SignInMethod = t.intersection(
  [
    t.type({ id: t.string, name: t.string }),
    t.partial({ description: t.string, terminal: t.type({ args: t.array(t.string), env: t.record(t.string, t.string) }) }),
  ],
  'SignInMethod',
);
export type SignInMethod = t.TypeOf<typeof SignInMethod>;

/** What the bridge learned about an agent from `initialize`, its sessions and their updates. */
export const AgentInfo = t.intersection(
  [
    t.type({ imageInput: t.boolean }),
    t.partial({
      /** The agent's model-category session config option: one picker entry per choice. */
      models: t.type({ configId: t.string, current: t.string, choices: t.array(AgentModelChoice) }),
      /** The context window the agent reported (`usage_update.size`), in tokens. */
      contextWindow: t.number,
      /** Its other select config options (mode, thought level, …): per-model options in the picker. */
      options: t.array(AgentConfigOption),
      /** The agent answered `auth_required` to its last `session/new`; how it can sign in. */
      signIn: t.type({ needed: t.boolean, methods: t.array(SignInMethod) }),
    }),
  ],
  'AgentInfo',
);
export type AgentInfo = t.TypeOf<typeof AgentInfo>;

/** Sent by the bridge (`symposium/agentInfo`) whenever what it knows about an agent changes. */
export const AgentInfoParams = t.type({ agent: AgentDefinition, info: AgentInfo }, 'AgentInfoParams');
export type AgentInfoParams = t.TypeOf<typeof AgentInfoParams>;

/** One of an agent's slash commands: its name (without the `/`), what it does, and what to type after it, if anything. */
export const AgentSlashCommand = t.intersection([t.type({ name: t.string, description: t.string }), t.partial({ hint: t.string })], 'AgentSlashCommand');
export type AgentSlashCommand = t.TypeOf<typeof AgentSlashCommand>;

/** Sent by the bridge (`symposium/agentCommands`) when an agent's slash commands change: the whole list, bounded. */
export const AgentCommandsParams = t.type({ agent: AgentDefinition, commands: t.array(AgentSlashCommand) }, 'AgentCommandsParams');
export type AgentCommandsParams = t.TypeOf<typeof AgentCommandsParams>;

/** `symposium/commandPrompts`: the commands the client's MCP server definition offers as prompts (an agent's, at most MAX_COMMANDS). */
export const CommandPromptsParams = t.type({ commands: t.array(AgentSlashCommand) }, 'CommandPromptsParams');
export type CommandPromptsParams = t.TypeOf<typeof CommandPromptsParams>;
/** Where that MCP server listens (streamable HTTP), and the header each request must carry. */
export const CommandPromptsResult = t.type({ url: t.string, authorization: t.string }, 'CommandPromptsResult');
export type CommandPromptsResult = t.TypeOf<typeof CommandPromptsResult>;

/** `symposium/authenticate`: ACP `authenticate` with one of the agent's methods (starting the agent if needed). */
export const AuthenticateParams = t.type({ agent: AgentDefinition, methodId: t.string }, 'AuthenticateParams');
export type AuthenticateParams = t.TypeOf<typeof AuthenticateParams>;

/**
 * `symposium/agentSecrets`: of this agent's definition (as the client's requests carry it), the variables of its env
 * named in `names` are secrets the person set (their values are in the definition), and those in `removed` were
 * removed. The bridge holds them in memory and gives them to the agent when a request of another window lacks them.
 */
export const AgentSecretsParams = t.type({ agent: AgentDefinition, names: t.array(t.string), removed: t.array(t.string) }, 'AgentSecretsParams');
export type AgentSecretsParams = t.TypeOf<typeof AgentSecretsParams>;

/** `symposium/prepareAgent`: the agent's model was picked; the bridge starts it and opens a spare session where it can. */
export const PrepareAgentParams = t.type({ agent: AgentDefinition }, 'PrepareAgentParams');
export type PrepareAgentParams = t.TypeOf<typeof PrepareAgentParams>;

/**
 * `symposium/resumeRecent`: the client's window started (after a reload, or VS Code's start); the conversations
 * used last in this workspace with these agents will likely go on soon. The bridge resumes the sessions of at most
 * `sessions` of them, used in the last `withinHours`, ahead of their next message.
 */
export const ResumeRecentParams = t.type(
  {
    agents: t.array(AgentDefinition),
    sessions: t.refinement(t.number, (n) => Number.isInteger(n) && n >= 0 && n <= 32, 'an integer from 0 to 32'),
    withinHours: t.refinement(t.number, (n) => n > 0 && n <= 24 * 365, 'a number of hours above 0, at most a year'),
  },
  'ResumeRecentParams',
);
export type ResumeRecentParams = t.TypeOf<typeof ResumeRecentParams>;

/**
 * `symposium/chatSessions`: the agent sessions of the chats used lately in the bridge's workspace (`--cwd`) with one of
 * `agents`, latest first, at most `limit`: for a command that hands a chat to the agent's own CLI.
 */
export const ChatSessionsParams = t.type(
  {
    agents: t.array(AgentDefinition),
    limit: t.refinement(t.number, (n) => Number.isInteger(n) && n >= 1 && n <= 50, 'an integer from 1 to 50'),
  },
  'ChatSessionsParams',
);
export type ChatSessionsParams = t.TypeOf<typeof ChatSessionsParams>;
/**
 * A chat's agent session: `agent` indexes the request's `agents`; `cwd` the folder the session runs in; `usedAt` when
 * the chat was last used (ms since the epoch); `title` the chat's first words, where the bridge kept them.
 */
export const ChatSession = t.intersection(
  [t.type({ agent: t.number, session: t.string, cwd: t.string, usedAt: t.number }), t.partial({ title: t.string })],
  'ChatSession',
);
export type ChatSession = t.TypeOf<typeof ChatSession>;
export const ChatSessionsResult = t.type({ sessions: t.array(ChatSession) }, 'ChatSessionsResult');
export type ChatSessionsResult = t.TypeOf<typeof ChatSessionsResult>;

/** The bridge asks the client for the text an editor shows of a file (its unsaved changes included). */
export const DocumentTextParams = t.type({ path: t.string }, 'DocumentTextParams');
export type DocumentTextParams = t.TypeOf<typeof DocumentTextParams>;
/** `text` null: no editor has the file open; the bridge reads the disk. */
export const DocumentTextResult = t.type({ text: t.union([t.string, t.null]) }, 'DocumentTextResult');
export type DocumentTextResult = t.TypeOf<typeof DocumentTextResult>;

/** One question the bridge asks the person through the client (the shape of VS Code's `vscode_askQuestions`). */
export const Question = t.intersection(
  [
    t.type({ header: t.string, question: t.string }),
    t.partial({ message: t.string, options: t.array(t.type({ label: t.string })), multiSelect: t.boolean, allowFreeformInput: t.boolean }),
  ],
  'Question',
);
export type Question = t.TypeOf<typeof Question>;
/** The bridge asks the person an agent's questions where the chat itself cannot (Ask mode, Cline). */
export const AskQuestionsParams = t.type({ agent: t.string, questions: t.array(Question) }, 'AskQuestionsParams');
export type AskQuestionsParams = t.TypeOf<typeof AskQuestionsParams>;
export const QuestionAnswer = t.type({ selected: t.array(t.string), freeText: t.union([t.string, t.null]), skipped: t.boolean }, 'QuestionAnswer');
export type QuestionAnswer = t.TypeOf<typeof QuestionAnswer>;
/** By header, as `vscode_askQuestions` answers. */
export const AskQuestionsResult = t.type({ answers: t.record(t.string, QuestionAnswer) }, 'AskQuestionsResult');
export type AskQuestionsResult = t.TypeOf<typeof AskQuestionsResult>;

/** The bridge asks the person whether to open a web page an agent names (ACP URL elicitation: a sign-in, say). */
export const OpenUrlParams = t.type({ agent: t.string, message: t.string, url: t.string }, 'OpenUrlParams');
export type OpenUrlParams = t.TypeOf<typeof OpenUrlParams>;
/** `opened` false: the person did not agree, or the page could not be opened. */
export const OpenUrlResult = t.type({ opened: t.boolean }, 'OpenUrlResult');
export type OpenUrlResult = t.TypeOf<typeof OpenUrlResult>;

export const RequestId = t.union([t.number, t.string], 'RequestId');
export type RequestId = t.TypeOf<typeof RequestId>;

export const ResponsePartParams = t.type({ requestId: RequestId, part: ResponsePart }, 'ResponsePartParams');
export type ResponsePartParams = t.TypeOf<typeof ResponsePartParams>;

export const ResponseCompleteParams = t.type({ requestId: RequestId }, 'ResponseCompleteParams');
export type ResponseCompleteParams = t.TypeOf<typeof ResponseCompleteParams>;
