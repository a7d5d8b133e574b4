import * as acp from '@agentclientprotocol/sdk';
import * as t from 'io-ts';
import { decodeOrThrow } from '../../../protocol/decode.js';

/*
 * What the bridge reads of an agent's answers, as codecs: lenient about what it does not use, strict about
 * what it does, so that a malformed answer fails with a message naming the agent, the method and the
 * field, never as a JavaScript error from deep inside the bridge or as a silently empty reply.
 */

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null, t.undefined]);

const SelectChoice = t.intersection([t.type({ value: t.string, name: t.string }), t.partial({ description: nullable(t.string) })]);
const SelectGroup = t.type({ group: t.string, options: t.array(SelectChoice) });
/** A select option is read for the model picker; other kinds of option only carry an id. */
const ConfigOption = t.union([
  t.type({ id: t.string, type: t.literal('select'), currentValue: t.string, options: t.union([t.array(SelectChoice), t.array(SelectGroup)]) }),
  t.type({ id: t.string, type: t.keyof({ boolean: null }) }),
]);
const ConfigOptions = nullable(t.array(ConfigOption));

const Capabilities = nullable(t.UnknownRecord);
const InitializeAnswer = t.intersection([
  t.type({ protocolVersion: t.Int }),
  t.partial({ agentCapabilities: Capabilities, authMethods: nullable(t.array(t.type({ name: t.string }))) }),
]);
const NewSessionAnswer = t.intersection([t.type({ sessionId: t.refinement(t.string, (id) => id !== '', 'a non-empty string') }), t.partial({ configOptions: ConfigOptions })]);
const ResumedSessionAnswer = t.intersection([t.UnknownRecord, t.partial({ configOptions: ConfigOptions })]);
const PromptAnswer = t.type({ stopReason: t.string });
const SetConfigAnswer = t.type({ configOptions: t.array(ConfigOption) });

/** An agent answered something that is not what ACP says it answers. */
export class MalformedAnswerError extends Error {}

/** Decodes what agent `name` answered to `method`, or throws naming the agent, the method and the field. */
function answer<A>(codec: t.Type<A, unknown, unknown>, name: string, method: string, value: unknown): A {
  try {
    return decodeOrThrow(codec, value, 'answer');
  } catch (error) {
    throw new MalformedAnswerError(`Agent "${name}" gave a malformed answer to ${method}: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

export const checkInitialize = (name: string, value: unknown): acp.InitializeResponse => answer(InitializeAnswer, name, 'initialize', value) as acp.InitializeResponse;
export const checkNewSession = (name: string, value: unknown): acp.NewSessionResponse => answer(NewSessionAnswer, name, 'session/new', value) as acp.NewSessionResponse;
/** What `session/load` or `/resume` of `sessionId` answered; one that names another session did not resume it. */
export function checkResumedSession(name: string, method: string, sessionId: string, value: unknown): { configOptions?: acp.SessionConfigOption[] | null } {
  const checked = answer(ResumedSessionAnswer, name, method, value ?? {});
  const answered = checked['sessionId'];
  if (answered !== undefined && answered !== sessionId) {
    throw new MalformedAnswerError(`Agent "${name}" answered ${method} of session ${sessionId} with another session, ${JSON.stringify(answered)}.`);
  }
  return checked as { configOptions?: acp.SessionConfigOption[] | null };
}
export const checkPrompt = (name: string, value: unknown): acp.PromptResponse => answer(PromptAnswer, name, 'session/prompt', value) as acp.PromptResponse;
export const checkSetConfigOption = (name: string, value: unknown): acp.SetSessionConfigOptionResponse =>
  answer(SetConfigAnswer, name, 'session/set_config_option', value) as acp.SetSessionConfigOptionResponse;

/** A kind of content the bridge renders must have the fields it renders; other kinds pass. */
const otherKind = <K extends string>(field: K, known: readonly string[]) =>
  t.refinement(t.type({ [field]: t.string } as Record<K, t.StringC>), (value) => !known.includes(value[field] as string), `another ${field}`);
const Content = t.union([
  t.type({ type: t.literal('text'), text: t.string }),
  t.type({ type: t.literal('image'), mimeType: t.string, data: t.string }),
  otherKind('type', ['text', 'image']),
]);
const ToolContent = nullable(t.array(t.UnknownRecord));
const Update = t.union([
  t.type({ sessionUpdate: t.keyof({ agent_message_chunk: null, agent_thought_chunk: null }), content: Content }),
  t.intersection([t.type({ sessionUpdate: t.literal('tool_call'), toolCallId: t.string, title: t.string }), t.partial({ content: ToolContent })]),
  t.intersection([t.type({ sessionUpdate: t.literal('tool_call_update'), toolCallId: t.string }), t.partial({ title: nullable(t.string), content: ToolContent })]),
  t.type({ sessionUpdate: t.literal('plan'), entries: t.array(t.type({ content: t.string, status: t.string })) }),
  t.type({ sessionUpdate: t.literal('usage_update'), size: t.number }),
  t.type({ sessionUpdate: t.literal('config_option_update'), configOptions: t.array(ConfigOption) }),
  otherKind('sessionUpdate', ['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update', 'config_option_update']),
]);
const Notification = t.type({ sessionId: t.string, update: Update });

/** A `session/update` the bridge can render, or why not (it is then dropped and logged). */
export function checkUpdate(value: unknown): { readonly notification?: acp.SessionNotification; readonly problem?: string } {
  try {
    return { notification: decodeOrThrow(Notification, value) as acp.SessionNotification };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** A permission request the bridge can show: its options a list of {optionId, kind}. */
const PermissionRequest = t.type({
  sessionId: t.string,
  toolCall: t.type({ toolCallId: t.string }),
  options: t.array(t.type({ optionId: t.string, kind: t.string })),
});

/** `fs/read_text_file`: a path, and optionally the first line (1-based) and how many lines. */
const ReadTextFileRequest = t.intersection([
  t.type({ sessionId: t.string, path: t.string }),
  t.partial({ line: nullable(t.refinement(t.Int, (n) => n >= 1, 'a line number from 1')), limit: nullable(t.refinement(t.Int, (n) => n >= 0, 'a count from 0')) }),
]);
const WriteTextFileRequest = t.type({ sessionId: t.string, path: t.string, content: t.string });

/** `elicitation/create`: what the bridge reads of a form (the fields it can ask) or of a web page to open (URL mode). */
const EnumOption = t.intersection([t.type({ const: t.string }), t.partial({ title: nullable(t.string) })]);
const FormField = t.partial({
  type: t.string,
  title: nullable(t.string),
  description: nullable(t.string),
  enum: nullable(t.array(t.string)),
  oneOf: nullable(t.array(EnumOption)),
  items: nullable(t.partial({ enum: nullable(t.array(t.string)), anyOf: nullable(t.array(EnumOption)) })),
});
const ElicitationRequest = t.intersection([
  t.type({ mode: t.string, message: t.string }),
  t.partial({ sessionId: t.string, requestedSchema: t.partial({ properties: t.record(t.string, FormField) }), url: t.string }),
]);
export type ElicitationRequest = t.TypeOf<typeof ElicitationRequest>;

/** Decodes a request of the agent, or throws an ACP invalid-params error (sent back to it) naming the field. */
function request<A>(codec: t.Type<A, unknown, unknown>, value: unknown): A {
  try {
    return decodeOrThrow(codec, value);
  } catch (error) {
    throw acp.RequestError.invalidParams(undefined, error instanceof Error ? error.message : String(error));
  }
}

export const checkPermissionRequest = (value: unknown): acp.RequestPermissionRequest => request(PermissionRequest, value) as acp.RequestPermissionRequest;
export const checkReadTextFile = (value: unknown): acp.ReadTextFileRequest => request(ReadTextFileRequest, value);
export const checkWriteTextFile = (value: unknown): acp.WriteTextFileRequest => request(WriteTextFileRequest, value);
export function checkElicitation(value: unknown): ElicitationRequest {
  const elicitation = request(ElicitationRequest, value);
  if (elicitation.mode === 'url' && elicitation.url === undefined) throw acp.RequestError.invalidParams(undefined, 'params.url: missing (URL mode names the page to open)');
  return elicitation;
}
