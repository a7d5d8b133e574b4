import * as acp from '@agentclientprotocol/sdk';
import type { ToolResultPart } from '../../../protocol/messages.js';
import { sameText, type WorkspaceFiles } from '../../../files/workspace-files.js';
import { APPLY_DIFF_TOOL, consumerEdit } from '../../../tools/consumer-edits.js';
import { ASK_QUESTIONS_TOOL, FOLLOWUP_QUESTION_TOOL, consumerQuestions, type AskPerson, type FollowUp, type FormValue } from '../../../tools/consumer-questions.js';
import { toolResultText } from '../../../tools/tool-results.js';
import type { ElicitationRequest } from '../answers/agent-answers.js';
import { webPageOrigin } from '../../../protocol/web-page.js';
import { editLanded, readTextFile, workspacePath } from './file-requests.js';

/**
 * Asks the person whether to open `url` in their browser, showing the agent's `message`, and opens it if they
 * agree: true; false when they do not; undefined when the client cannot ask. `signal`: the question is withdrawn.
 */
export type OpenUrl = (agent: string, message: string, url: string, signal: AbortSignal) => Promise<boolean | undefined>;

/** What a session gives the agent's requests of the client: its files, the person, and its running turn. */
export interface ClientSide {
  readonly agentName: string;
  /** The workspace folder: the only place `fs/*` reaches. */
  readonly root: string;
  /** The files offered; none: the client offers no file system. */
  readonly files: WorkspaceFiles | undefined;
  /** Asks the person with the client's own prompts; none: nobody can be asked that way. */
  readonly askPerson: AskPerson | undefined;
  /** Opens a web page the agent names once the person agrees; none: such requests are declined. */
  readonly openUrl: OpenUrl | undefined;
  /** The consumer's tools the running turn's request offers. */
  readonly offered: readonly string[];
  /** The chat's mode lets nothing be changed (Ask, Plan): a write the consumer's own tools cannot review is refused. */
  readonly readOnly: boolean;
  /**
   * A call of the consumer's tool `name`, shown in the running turn's response and answered by the next
   * request (undefined: VS Code did not run it); none when no turn runs to show it in.
   */
  consumerCall(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResultPart | undefined> | undefined;
  /** Aborted when the running turn is told to stop; none when no turn runs. */
  readonly turnStopping: AbortSignal | undefined;
  /** The edit of `path` is the consumer's to show. */
  reviewedInConsumer(path: string): void;
}

/** `fs/read_text_file`; `missingAsEmpty` for an agent that cannot read a not-found error. */
export function onReadTextFile(side: ClientSide, request: acp.ReadTextFileRequest, missingAsEmpty: boolean): Promise<acp.ReadTextFileResponse> {
  return readTextFile(filesOf(side), side.root, request, missingAsEmpty);
}

/**
 * `fs/write_text_file`: made by the consumer's own edit tool when the running turn's request offers one,
 * so that VS Code reviews it (Keep / Undo); otherwise written to disk, as any ACP client does, the agent
 * having asked whatever consent it asks — but not in a chat whose mode lets nothing change (`readOnly`).
 * `proposalOnly`: the agent makes the edit by itself anyway.
 */
export async function onWriteTextFile(side: ClientSide, request: acp.WriteTextFileRequest, signal: AbortSignal, proposalOnly: boolean): Promise<acp.WriteTextFileResponse> {
  const files = filesOf(side);
  const path = workspacePath(side.root, request.path, 'fs/write_text_file');
  const current = await files.read(path);
  if (sameText(current, request.content)) return {};
  const edit = proposalOnly ? undefined : consumerEdit(side.offered, side.root, path, current, request.content);
  const call = edit === undefined ? undefined : side.consumerCall(edit.name, edit.arguments, signal);
  if (edit === undefined || call === undefined) {
    if (side.readOnly && !proposalOnly) throw acp.RequestError.invalidRequest({ path }, `${path} was not written: the chat is in a mode that changes nothing (plan or ask); the person switches modes to let it`);
    await files.write(path, request.content);
    return {};
  }
  side.reviewedInConsumer(path);
  const result = await call;
  if (result === undefined) throw acp.RequestError.internalError({ path }, `The person did not let ${edit.name} run: ${path} was not written`);
  if (await editLanded(files, path, request.content)) return {};
  // A diff the consumer could not apply (not one the person denied, nor a file its mode may not edit) is made once more as the whole text.
  if (edit.name === APPLY_DIFF_TOOL && diffNotApplied(result)) {
    const whole = consumerEdit(side.offered, side.root, path, await files.read(path), request.content, true);
    const retry = whole === undefined ? undefined : side.consumerCall(whole.name, whole.arguments, signal);
    const retried = retry === undefined ? undefined : await retry;
    if (retried !== undefined && (await editLanded(files, path, request.content))) return {};
    if (retried !== undefined) throw acp.RequestError.internalError({ path }, `VS Code's ${whole!.name} did not write ${path}: ${toolResultText(retried)}`);
  }
  throw acp.RequestError.internalError({ path }, `VS Code's ${edit.name} did not write ${path}: ${toolResultText(result)}`);
}

/**
 * Roo's answer when its apply_diff found no match for a block: "Unable to apply diff to file: …" with
 * `<error_details>`, or "But unable to apply all diff parts to file: …" (3.52's ApplyDiffTool). A denial
 * (`{"status":"denied"}`) or a mode's file restriction says otherwise.
 */
function diffNotApplied(result: ToolResultPart): boolean {
  return /unable to apply (?:all )?diff|<error_details>/i.test(toolResultText(result));
}

/**
 * `elicitation/create`: a form's questions asked through the consumer's question tool when the running
 * turn's request offers it (VS Code shows them above the Chat input; Roo Code, a form of one question, in its
 * chat with the options as buttons); otherwise through the client's own
 * prompts where it has them (the extension's quick picks, for Cline); declined where nobody can be asked.
 * A web page to open (URL mode) is the client's to offer (see onUrlElicitation), during a turn or not.
 * The person's stop, or moving on without answering, answers `cancel`.
 */
export async function onElicitation(side: ClientSide, request: ElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
  const stopping = side.turnStopping;
  // Withdrawn when the agent withdraws its request, or when its turn is stopped.
  const withdrawn = stopping === undefined ? signal : AbortSignal.any([signal, stopping]);
  if (request.mode === 'url') return onUrlElicitation(side.openUrl, side.agentName, request, withdrawn);
  const properties = request.requestedSchema?.properties;
  if (request.mode !== 'form' || properties === undefined || stopping === undefined) return { action: 'decline' };
  const questions = consumerQuestions(request.message, properties);
  const answerOf = (text: string | undefined): acp.CreateElicitationResponse => {
    const answer = text === undefined ? undefined : questions.answer(text);
    return answer?.answered === true ? { action: 'accept', content: answer.content } : { action: 'decline' };
  };
  const call = side.offered.includes(ASK_QUESTIONS_TOOL) ? side.consumerCall(ASK_QUESTIONS_TOOL, questions.arguments, signal) : undefined;
  if (call !== undefined) {
    const result = await call;
    return result === undefined ? { action: 'cancel' } : answerOf(toolResultText(result));
  }
  // Roo Code asks one question at a time: its ask_followup_question, once per field.
  if (side.offered.includes(FOLLOWUP_QUESTION_TOOL)) {
    const answered = await askOneByOne(side, questions.followUps, signal);
    if (answered !== undefined) return answered;
  }
  const asked = side.askPerson?.(side.agentName, questions.arguments.questions, withdrawn);
  if (asked === undefined) return { action: 'decline' };
  const answer = await asked;
  return withdrawn.aborted ? { action: 'cancel' } : answerOf(answer);
}

/**
 * A form's questions asked one after another with the consumer's `ask_followup_question`; undefined when no turn
 * runs to ask in. The person moving on from one cancels the form; the fields answered are the form's content
 * (none: declined).
 */
async function askOneByOne(side: ClientSide, followUps: readonly FollowUp[], signal: AbortSignal): Promise<acp.CreateElicitationResponse | undefined> {
  const content: Record<string, FormValue> = {};
  let answered = false;
  for (const followUp of followUps) {
    const call = side.consumerCall(FOLLOWUP_QUESTION_TOOL, { ...followUp.arguments }, signal);
    if (call === undefined) return undefined;
    const result = await call;
    if (result === undefined) return { action: 'cancel' };
    const answer = followUp.answer(toolResultText(result));
    Object.assign(content, answer.content);
    answered ||= answer.answered;
  }
  return answered ? { action: 'accept', content } : { action: 'decline' };
}

/**
 * `elicitation/create` in URL mode (a sign-in page, say): the client shows the agent's message and the page's
 * address and opens it in the person's browser once they agree: `accept`. Declined when they do not, when the
 * address is not a web page (http or https), or where nobody can be asked; withdrawn: `cancel`. The agent's
 * later `elicitation/complete` needs no answer.
 */
export async function onUrlElicitation(openUrl: OpenUrl | undefined, agent: string, request: ElicitationRequest, withdrawn: AbortSignal): Promise<acp.CreateElicitationResponse> {
  if (openUrl === undefined || request.url === undefined || webPageOrigin(request.url) === undefined) return { action: 'decline' };
  const opened = await openUrl(agent, request.message, request.url, withdrawn);
  if (withdrawn.aborted) return { action: 'cancel' };
  return { action: opened === true ? 'accept' : 'decline' };
}

/** What the agent asked, for the log: a question, or the site of a page to open (never the whole address). */
export function describeElicitation(request: ElicitationRequest): string {
  return request.mode === 'url' ? `to open a page of ${webPageOrigin(request.url ?? '') ?? 'no web address'}` : `a question (${request.mode})`;
}

function filesOf(side: ClientSide): WorkspaceFiles {
  if (side.files === undefined) throw acp.RequestError.methodNotFound('fs (this client offers no file system)');
  return side.files;
}
