import * as acp from '@agentclientprotocol/sdk';
import { defaultIfEmpty, EMPTY, from, identity, Observable, switchMap, type Subscription } from 'rxjs';
import type { Logger } from '../../../log/logger.js';
import { acpTurnToParts } from '../updates/acp-turn-to-parts.js';
import type { ResponsePart, ToolDefinition } from '../../../protocol/messages.js';
import { AGENT_ACTION_TOOL, newActionId } from '../../../protocol/agent-action.js';
import { announcesBridgedCall, bridgedToolPermission } from '../../../tools/bridged-permission.js';
import { BRIDGED_TOOLS_SERVER_NAME, type BridgedToolsServer, type BridgedCall } from '../../../tools/bridged-tools-server.js';
import { declinedResult } from '../../../tools/tool-results.js';
import { bridgedCallRule, consumerCallRule, permissionRule } from './answer-rules.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import type { AgentSession, TurnInput } from '../../agent-stream.js';
import { AnnouncedToolCalls } from './announced-tool-calls.js';
import { BridgedCallArrivals } from './bridged-call-arrivals.js';
import { EventQueue } from '../updates/event-queue.js';
import { checkPrompt, MalformedAnswerError } from '../answers/agent-answers.js';
import { orphanedResultsText, promptBlocks, turnAsk, type TurnAsk } from './prompt.js';
import { AnswerEnds, type ForkPoint } from './answer-ends.js';
import type { GoingBack } from '../../../history/conversations.js';
import { transcriptOf } from '../../transcript.js';
import type { AcpTurnEvent } from '../updates/turn-events.js';
import { TODO_CALL_PREFIX, TurnRendering } from '../updates/update-parts.js';
import { planKey, todosOf } from '../updates/plan.js';
import { todoToolOf } from '../../../tools/consumer-todos.js';
import { AuthFailureAnswer, isAuthFailure } from '../answers/auth-failure.js';
import { PAUSED_BUFFER_CHARS, bufferedSize, joinBufferedEvents } from '../updates/paused-buffer.js';
import { applyTurnConfig } from './session-modes.js';
import type { SessionSettings } from './session-settings.js';
import type { OpenedSession } from './opened-session.js';
import type { Prompt } from './prompt-state.js';
import { VsCodeAnswers, type AnswerRule } from './vscode-answers.js';
import { FollowUps } from './steering.js';
import { followUpAfterStop } from '../../../operators/follow-up-after-stop.js';
import { allowing, rejecting } from './permission-choice.js';
import { describeElicitation, onElicitation, onReadTextFile, onWriteTextFile, type ClientSide, type OpenUrl } from './client-requests.js';
import type { WorkspaceFiles } from '../../../files/workspace-files.js';
import type { AskPerson } from '../../../tools/consumer-questions.js';
import type { ElicitationRequest } from '../answers/agent-answers.js';

/** What a session needs from the agent it runs on. */
export interface SessionHost {
  readonly name: string;
  readonly log: Logger;
  readonly options: AcpSessionOptions;
  /**
   * The server of the tools `session` is offered, calls going to `onCall`: the one of a spare session the
   * agent opened ahead of a new conversation offered the same tools, else a new one.
   */
  toolServer(session: AcpSession, offered: readonly ToolDefinition[], onCall: (call: BridgedCall) => Promise<CallToolResult>): Promise<BridgedToolsServer>;
  /**
   * Where a VS Code tool call goes that reached the tool server of a conversation with no prompt running: to
   * another conversation's prompt, where the agent serves every session one tool server; else declined.
   */
  toolCallOutsideTurns(call: BridgedCall): Promise<CallToolResult>;
  /** Before `session` prompts in ACP session `sessionId`: the agent reaches its tool server, not another conversation's. */
  serveToolsOf(session: AcpSession, sessionId: string, tools: BridgedToolsServer): Promise<void>;
  /** Starts the agent if needed and opens an ACP session on it for `session`, with the bridged tools' server. */
  open(session: AcpSession, tools: BridgedToolsServer | undefined): Promise<OpenedSession>;
  /** A prompt of `session` ended (answered, cancelled or failed). */
  promptEnded(session: AcpSession): void;
  /** The agent said it needs a sign-in (a prompt refused, or answered only that): recorded, and the error the turn fails with. */
  signInNeeded(): Error;
  /**
   * A prompt of `session` ended as an answer, ending at `point`: the agent needs no sign-in (an open session does not
   * say so: Claude Code opens them without a key and refuses the prompt), and the answer can be gone back to.
   */
  answered(session: AcpSession, point: ForkPoint | undefined): void;
  /** The session is done with its ACP session: closed (resumable later), or abandoned after an unanswered cancel. */
  forget(session: AcpSession, sessionId: string, resumable: boolean): void;
  /** The session closed: every ACP session it holds is let go now. */
  release(session: AcpSession): void;
}

export interface AcpSessionOptions {
  /** Where sessions run: the user's workspace folder, the only place the agent's `fs/*` requests may reach. */
  readonly cwd: string;
  /** The person's files, offered to the agent (ACP `fs/*`); none: the agent reads and writes by itself. */
  readonly files?: WorkspaceFiles;
  /** The agent may ask the person questions (ACP elicitation: forms, and web pages to open where `openUrl` is given). */
  readonly questions?: boolean;
  /** Asks the person through the client where the chat cannot; none: such questions are declined. */
  readonly askPerson?: AskPerson;
  /** Opens a web page an agent names once the person agrees (ACP URL elicitation); none: such requests are declined. */
  readonly openUrl?: OpenUrl;
  /** How long to wait for more permission requests before showing VS Code the ones that came. */
  readonly permissionSettleMs: number;
  /** The same after a bridged tool call (parallel calls arrive within milliseconds). */
  readonly toolSettleMs: number;
  /** How long a cancelled prompt may take to end before its ACP session is abandoned for a fresh one. */
  readonly cancelTimeoutMs: number;
  /** How long the agent's call of a bridged VS Code tool waits for VS Code's answer; none or 0: as long as it takes. */
  readonly toolCallTimeoutMs?: number;
  /** Updates still trickling in after a cancelled prompt ended are waited out this long. */
  readonly lateUpdateGraceMs: number;
}

/** How long open requests are left to the agent's own interrupt after `session/cancel`. */
const CANCEL_ANSWER_GRACE_MS = 500;

/**
 * One conversation's ACP session. A turn prompts the agent with the new user messages and streams its
 * updates; when the agent asks permission, the response ends on `symposium-agent-action` tool calls and
 * the prompt stays paused until the next request answers them (tool results present: allow; missing:
 * reject) or discards them (cancel). The agent never gets a prompt while its previous one still runs.
 */
export class AcpSession implements AgentSession {
  private opened: Promise<OpenedSession> | undefined;
  /** Where its conversation went back to (its first turn says): its first ACP session forks there. */
  goesBack: GoingBack | undefined;
  private readonly answerEnds = new AnswerEnds();
  /** The ACP session was opened fresh and has not been told the conversation so far. */
  private owesHistory = false;
  private prompt: Prompt | undefined;
  private readonly followUps = new FollowUps();
  private readonly rendering = new TurnRendering();
  /** The tool calls the agent announced: what its permission requests may leave out. */
  private readonly announced = new AnnouncedToolCalls();
  private lastUpdateAt = 0;
  /** The synthetic MCP server of this conversation's VS Code tools, once it offered any. */
  private tools: Promise<BridgedToolsServer> | undefined;
  private offered: readonly string[] = [];
  /** The consumer offers `symposium-agent-action`, through which the person is asked. */
  private canAsk = false;
  /** The chat's mode lets nothing change (Ask, Plan): writes the consumer cannot review are refused. */
  private readOnly = false;
  /** The paused prompt's agent failed (exited) while VS Code was deciding: the next request that continues it is told. */
  private lostWhilePaused: Promise<Error> | undefined;
  /** Closed by the session pool: a turn still on its way in must not open anything again. */
  private isClosed = false;
  /** The settings of the ACP session it opened last, which the agent's updates change. */
  private settings: SessionSettings | undefined;
  /** The plan last sent to the consumer's todo list (at first none), so that a plan the agent repeats costs nothing. */
  private todoPlanKey = planKey([]);
  /** The last response ended on a call of the todo tool: the next one must say something, be it only how far the plan came. */
  private endedOnPlan = false;

  constructor(
    private readonly host: SessionHost,
    readonly conversationId: string,
  ) {}

  turn(input: TurnInput): Observable<ResponsePart> {
    return new Observable<ResponsePart>((subscriber) => {
      let unsubscribed = false;
      let ended = false;
      let parts: Subscription | undefined;
      let last: ResponsePart | undefined;
      this.begin(input, () => unsubscribed).then(
        (prompt) => {
          if (unsubscribed) return;
          const afterPlan = this.endedOnPlan;
          this.endedOnPlan = false;
          const events = prompt === undefined ? EMPTY : this.eventsOf(prompt);
          const responseParts = events.pipe(
            acpTurnToParts(this.rendering, { permissionMs: this.host.options.permissionSettleMs, toolMs: this.host.options.toolSettleMs }, (held) => this.putBack(held)),
            // Copilot reads a response with neither text nor a tool call as a failure ("no response").
            afterPlan ? defaultIfEmpty(this.rendering.planProgressPart()) : identity,
          );
          parts = responseParts.subscribe({
            next: (part) => {
              last = part;
              subscriber.next(part);
            },
            error: (error: unknown) => {
              ended = true;
              subscriber.error(error);
            },
            complete: () => {
              ended = true;
              this.pause(last?.type === 'tool_call' && last.toolCallId.startsWith(TODO_CALL_PREFIX));
              subscriber.complete();
            },
          });
        },
        (error: unknown) => {
          ended = true;
          subscriber.error(error);
        },
      );
      return () => {
        unsubscribed = true;
        parts?.unsubscribe();
        // Unsubscribed before the response ended: the consumer cancelled, so the agent stops too.
        if (!ended) this.cancel();
      };
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get awaitingConsumer(): boolean {
    return this.prompt?.state === 'paused';
  }

  close(): void {
    this.isClosed = true;
    this.cancel();
    this.host.release(this);
    void this.tools?.then((tools) => tools.close(), () => {});
    this.opened = undefined;
    this.tools = undefined;
  }

  /**
   * A `session/update` for this session. Updates with no running prompt are late: they are dropped (those of a turn
   * of the agent's own titled for the next response); so are those read after the prompt's response (`outsidePrompt`).
   */
  onUpdate(update: acp.SessionUpdate, outsidePrompt = false): void {
    this.lastUpdateAt = Date.now();
    // The agent changed its mode (or another setting) by itself, late or not: followed.
    this.settings?.follow(update);
    this.announced.record(update);
    const prompt = this.prompt;
    if (prompt === undefined || prompt.state === 'cancelling' || outsidePrompt) {
      if (prompt === undefined) this.rendering.ownTurn(update);
      this.host.log.debug(`conversation ${this.conversationId}: dropped a late ${update.sessionUpdate} update`);
      return;
    }
    if (update.sessionUpdate === 'plan' && this.planForTodoList(prompt, update.entries)) return;
    prompt.events.push({ kind: 'update', update });
    this.followUps.heard(update, this.host.log, this.conversationId);
    prompt.answer.hear(update);
    this.answerEnds.heard(update);
    if (update.sessionUpdate === 'tool_call' && announcesBridgedCall(update, BRIDGED_TOOLS_SERVER_NAME, this.offered) && prompt.arrivals.announce(update.toolCallId)) {
      prompt.events.push({ kind: 'announced-calls-arrived' });
    }
  }

  /** Events a response took after the agent's plan and did not show: the next response shows them. */
  private putBack(held: AcpTurnEvent[]): void {
    const prompt = this.prompt;
    if (prompt === undefined) return;
    prompt.events.putBack(held);
    for (const event of held) {
      if (event.kind === 'stopped') prompt.stopHeld = true;
      else if (event.kind === 'permission') prompt.heldBack.add(event.permission.toolCall.toolCallId);
      else if (event.kind === 'tool') prompt.heldBack.add(event.call.toolCallId);
    }
  }

  /** The agent's plan, where the consumer shows plans in its todo list (true): a call of its todo tool, when the plan changed. */
  private planForTodoList(prompt: Prompt, entries: unknown): boolean {
    const tool = todoToolOf(this.offered);
    if (tool === undefined) return false;
    const todos = todosOf(entries);
    const key = planKey(todos);
    if (key !== this.todoPlanKey) prompt.events.push({ kind: 'plan', todos, tool });
    this.todoPlanKey = key;
    return true;
  }

  /** A `session/request_permission` for this session: answered when VS Code has decided. */
  async onPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const prompt = this.prompt;
    if (prompt === undefined || prompt.state === 'cancelling') return { outcome: { outcome: 'cancelled' } };
    const evidence = { toolCall: request.toolCall, requestMeta: request._meta, announced: this.announced.get(request.toolCall.toolCallId) };
    const bridged = bridgedToolPermission(evidence, BRIDGED_TOOLS_SERVER_NAME, this.offered);
    if (bridged === 'not offered') this.host.log.info(`conversation ${this.conversationId}: a permission for ${request.toolCall.title ?? 'a tool'} of the bridged tools, not offered now: let through to the tool server, which refuses it`);
    if (bridged !== undefined) return { outcome: allowing(request.options) };
    // What the request leaves out (its input, its title) is taken from the tool call's announcement.
    const permission = { toolCall: this.announced.complete(request.toolCall), options: request.options, actionId: newActionId() };
    if (!this.canAsk) {
      // Nobody can be asked (Ask mode, a consumer without tools): refused, and the person is told.
      prompt.events.push({ kind: 'refused', permission });
      return { outcome: rejecting(request.options) };
    }
    const refused = (): void => this.rendering.refusedByPerson(request.toolCall.toolCallId);
    const outcome = await this.waitForVsCode(prompt, request.toolCall.toolCallId, signal, { event: { kind: 'permission', permission }, ...permissionRule(permission.actionId, request.options, refused) });
    return { outcome };
  }

  /** A prompt runs (or waits on VS Code) that a call of the VS Code tool `name`, offered to this conversation, can be part of. */
  takesToolCall(name: string): boolean {
    return this.prompt !== undefined && this.prompt.state !== 'cancelling' && this.offered.includes(name);
  }

  /** The agent calls a bridged VS Code tool: the call goes to VS Code, and its result back to the agent. */
  async onToolCall(call: BridgedCall): Promise<CallToolResult> {
    const prompt = this.prompt;
    if (prompt === undefined) return this.host.toolCallOutsideTurns(call);
    if (prompt.state === 'cancelling') return declinedResult(call.name);
    const id = `vscode-tool-${randomUUID()}`;
    const rule = bridgedCallRule(call.name, this.host.options.toolCallTimeoutMs, (why) => this.host.log.warn(`conversation ${this.conversationId}: ${why}`));
    const answered = this.waitForVsCode(prompt, id, call.signal, { event: { kind: 'tool', call: { toolCallId: id, name: call.name, arguments: call.arguments } }, ...rule });
    if (prompt.arrivals.arrive()) prompt.events.push({ kind: 'announced-calls-arrived' });
    return answered;
  }

  /** `fs/read_text_file`, `fs/write_text_file` and `elicitation/create` of this session's agent: see client-requests.ts. */
  onReadTextFile(request: acp.ReadTextFileRequest, missingAsEmpty: boolean): Promise<acp.ReadTextFileResponse> {
    return onReadTextFile(this.clientSide(), request, missingAsEmpty);
  }

  onWriteTextFile(request: acp.WriteTextFileRequest, signal: AbortSignal, proposalOnly = false): Promise<acp.WriteTextFileResponse> {
    return onWriteTextFile(this.clientSide(), request, signal, proposalOnly);
  }

  async onElicitation(request: ElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const answer = await onElicitation(this.clientSide(), request, signal);
    this.host.log.info(`agent ${this.host.name} asked ${describeElicitation(request)} in conversation ${this.conversationId}: ${answer.action}`);
    return answer;
  }

  /** What the agent's requests of the client reach of this session: its turn, running or paused, if any. */
  private clientSide(): ClientSide {
    const { options } = this.host;
    // A paused turn goes on (its agent does not wait for its plan to show): what it asks shows in the next response.
    const current = this.prompt;
    const prompt = current !== undefined && current.state !== 'cancelling' && !current.finished ? current : undefined;
    return {
      agentName: this.host.name,
      root: options.cwd,
      files: options.files,
      askPerson: options.askPerson,
      openUrl: options.openUrl,
      offered: this.offered,
      readOnly: this.readOnly,
      turnStopping: prompt?.stopping.signal,
      reviewedInConsumer: (path) => this.rendering.reviewedInConsumer(path),
      consumerCall: (name, args, signal) => {
        if (prompt === undefined) return undefined;
        const id = `vscode-${randomUUID()}`;
        return this.waitForVsCode(prompt, id, signal, { event: { kind: 'tool', call: { toolCallId: id, name, arguments: args } }, ...consumerCallRule });
      },
    };
  }

  /**
   * Shows VS Code something the agent waits on (a permission request, a tool call) and resolves with
   * what VS Code answered: a tool result or none, or the turn's cancellation. If the agent withdraws
   * its request first, nothing is owed.
   */
  private waitForVsCode<T>(
    prompt: Prompt,
    id: string,
    withdrawn: AbortSignal,
    how: AnswerRule<T> & { readonly event: AcpTurnEvent },
  ): Promise<T> {
    const answer = prompt.pending.wait(id, withdrawn, how);
    prompt.events.push(how.event);
    return answer;
  }

  /** The agent process died: a running prompt has already failed through its request; start afresh next time. */
  onProcessEnded(): void {
    this.opened = undefined;
    this.prompt = undefined;
    this.followUps.clear();
  }

  /**
   * Gets the agent ready for this turn and says which prompt's events the response streams: the paused
   * one it continues, a new one, or none when there is nothing to ask.
   */
  private async begin(input: TurnInput, unsubscribed: () => boolean): Promise<Prompt | undefined> {
    const asked = turnAsk(input.newMessages);
    this.answerEnds.asked(input.turnKey);
    this.goesBack ??= input.goesBack;
    // The results of the bridge's own calls of the todo tool answer nothing the agent waits for.
    const ask: TurnAsk = { ...asked, results: new Map([...asked.results].filter(([id]) => !id.startsWith(TODO_CALL_PREFIX))) };
    const movedOn = this.movedOn(ask);
    if (input.canceled || movedOn) this.cancel();
    const lost = this.lostWhilePaused;
    this.lostWhilePaused = undefined;
    // The agent exited while the person decided: one who answers is told; one who moved on starts afresh.
    if (lost !== undefined && !input.canceled && !movedOn) throw await lost;
    await this.settle();
    if (this.isClosed) return undefined;
    await this.offerTools(input.tools);
    this.readOnly = input.mode !== 'agent';
    const opened = await this.open();
    this.rendering.notice(await applyTurnConfig(opened, input.config, input.mode, this.host, this.conversationId));
    if (unsubscribed() || this.isClosed) return undefined;
    const options = { images: opened.images, embeddedContext: opened.embeddedContext, root: this.host.options.cwd };
    const paused = this.prompt;
    if (paused !== undefined && paused.state === 'paused') {
      paused.pending.answerShown(ask.results);
      paused.stopHeld = false;
      paused.heldBack.clear();
      // What the consumer sent along with the results by itself (Cline's note after them) is no new prompt.
      if (ask.saysSomething) this.followUps.add(promptBlocks(ask, [], options), paused.opened.steer);
      paused.state = 'running';
      return paused;
    }
    const told: string[] = [];
    const transcript = this.untold(input, ask);
    if (transcript !== undefined) told.push(transcript);
    // Nothing waits for these results any more (the session was closed or replaced since): they are told.
    // Those of a turn the person moved on from are not: they answer what was cancelled.
    if (ask.results.size > 0 && !input.canceled && !movedOn) told.push(orphanedResultsText(ask.results));
    const blocks = promptBlocks(ask, told, options);
    if (blocks.length === 0) {
      this.host.log.debug(`conversation ${this.conversationId}: nothing to prompt`);
      return undefined;
    }
    if (this.tools !== undefined) await this.host.serveToolsOf(this, opened.sessionId, await this.tools);
    if (unsubscribed() || this.isClosed) return undefined;
    return this.startPrompt(opened, blocks);
  }

  /**
   * What the agent is told of the conversation before this turn's words: all of it for a fresh session;
   * otherwise the new messages before them, which another model answered while the chat was away.
   */
  private untold(input: TurnInput, ask: TurnAsk): string | undefined {
    if (this.owesHistory) {
      this.owesHistory = false;
      return transcriptOf(input.history.slice(0, input.history.length - ask.asked.length));
    }
    return transcriptOf(ask.meanwhile, 'meanwhile');
  }

  /** The ACP session, opened (with this conversation's tool server) if there is none. */
  private open(): Promise<OpenedSession> {
    if (this.isClosed) return Promise.reject(new Error(`conversation ${this.conversationId}: its session was closed`));
    this.opened ??= (this.tools ?? Promise.resolve(undefined))
      .then((tools) => this.host.open(this, tools))
      .then((opened) => {
        this.owesHistory = opened.fresh;
        this.settings = opened.settings;
        return opened;
      })
      .catch((error: unknown) => {
        this.opened = undefined;
        throw error;
      });
    return this.opened;
  }

  /**
   * Offers the request's tools through this conversation's MCP server. It starts with the first
   * request, before `session/new` (some agents never refresh their tool list), even with no tools, so
   * that tools offered later still reach agents that do refresh.
   */
  private async offerTools(definitions: readonly ToolDefinition[]): Promise<void> {
    const bridged = definitions.filter((t) => t.name !== AGENT_ACTION_TOOL);
    this.tools ??= this.host.toolServer(this, bridged, (call) => this.onToolCall(call));
    const tools = await this.tools;
    tools.setTools(bridged);
    this.offered = tools.toolNames;
    this.canAsk = definitions.some((t) => t.name === AGENT_ACTION_TOOL);
  }

  private startPrompt(opened: OpenedSession, blocks: acp.ContentBlock[]): Prompt {
    const events = new EventQueue<AcpTurnEvent>(joinBufferedEvents, { maxBytes: PAUSED_BUFFER_CHARS, sizeOf: bufferedSize, onOverflow: () => this.overflowedWhilePaused(prompt) });
    const request = opened
      .prompt(blocks)
      // The SDK can resolve the response before it has dispatched updates read ahead of it; they are
      // this prompt's, so they must reach it before it counts as ended.
      .then(async (response) => {
        await new Promise(setImmediate);
        return checkPrompt(this.host.name, response);
      });
    const prompt: Prompt = {
      events,
      pending: new VsCodeAnswers(),
      arrivals: new BridgedCallArrivals(),
      opened,
      state: 'running',
      stopping: new AbortController(),
      answer: new AuthFailureAnswer(),
      finished: false,
      stopHeld: false,
      heldBack: new Set(),
      ended: request.then(
        (response) => {
          const signInNeeded = response.stopReason === 'end_turn' && prompt.answer.isAuthFailure;
          this.endPrompt(prompt, response.stopReason !== 'cancelled' && !signInNeeded);
          if (signInNeeded) {
            events.fail(this.host.signInNeeded());
            return;
          }
          if (response.stopReason !== 'cancelled') this.host.answered(this, this.answerEnds.answered(opened.sessionId));
          events.push({ kind: 'stopped', stopReason: response.stopReason });
        },
        async (error: unknown) => {
          const paused = prompt.state === 'paused';
          this.endPrompt(prompt);
          const failure: Promise<Error> = isAuthFailure(error)
            ? Promise.resolve(this.host.signInNeeded())
            : error instanceof acp.RequestError
              ? Promise.resolve(new Error(`Agent "${this.host.name}" failed: ${error.message}`))
              : error instanceof MalformedAnswerError
                ? Promise.resolve(error)
                : opened.explain(error);
          // Nobody listens to a paused prompt: the request that would have answered it hears what happened.
          if (paused) this.lostWhilePaused = failure.then((e) => new Error(`${e.message}\nThis happened while it waited for your answer, which it cannot receive now; send again to go on in a new session.`));
          events.fail(await failure);
        },
      ),
    };
    this.prompt = prompt;
    this.rendering.newPrompt(prompt.stopping.signal);
    return prompt;
  }

  /** The agent sent more than the bridge keeps while nobody listened: its turn is stopped, and the next request told. */
  private overflowedWhilePaused(prompt: Prompt): void {
    const mb = PAUSED_BUFFER_CHARS / (1024 * 1024);
    this.host.log.warn(`agent ${this.host.name}: conversation ${this.conversationId} was sent more than ${mb} MB while it waited for VS Code; its turn is stopped`);
    this.lostWhilePaused = Promise.resolve(new Error(`Agent "${this.host.name}" sent more than ${mb} MB while it waited for your answer, more than the bridge keeps; its turn was stopped. Send again to go on.`));
    if (this.prompt === prompt) this.cancel();
  }

  /**
   * The agent's prompt ended. One that ended as an answer stays the session's prompt, `finished`, until a response
   * has read its stop (see pause).
   */
  private endPrompt(prompt: Prompt, answered = false): void {
    prompt.pending.cancelAll();
    // A prompt the bridge cancelled is over whatever its agent answered: nothing of it is shown any more.
    prompt.finished = answered && prompt.state !== 'cancelling';
    if (this.prompt === prompt && !prompt.finished) this.prompt = undefined;
    this.host.promptEnded(this);
  }

  /**
   * The prompt's events; if words were left for after it (followUps: not steered into it), the follow-up prompt's
   * events after its stop, whatever its stop reason. A cancel of the bridge's own empties followUps, so a `cancelled`
   * stop with words left is the agent's own (codex-acp ends a prompt whose permission was rejected that way), and
   * what the user said next must still be answered.
   */
  private eventsOf(prompt: Prompt): Observable<AcpTurnEvent> {
    const left = (): Promise<acp.ContentBlock[]> | undefined => (this.followUps.none ? undefined : this.followUps.take());
    return prompt.events.attach().pipe(followUpAfterStop((event) => event.kind === 'stopped', left, (blocks) => from(this.open()).pipe(switchMap((opened) => this.eventsOf(this.startPrompt(opened, [...blocks]))))));
  }

  /**
   * A response ended. While its prompt still runs, or its stop was put back, it waits on what VS Code was just shown;
   * a finished prompt whose stop was read is over. `endedOnPlan`: the response ended on a call of the todo tool.
   */
  private pause(endedOnPlan: boolean): void {
    this.endedOnPlan = endedOnPlan;
    const prompt = this.prompt;
    if (prompt?.finished === true && !prompt.stopHeld) {
      this.prompt = undefined;
      return;
    }
    if (prompt === undefined || prompt.state !== 'running') return;
    prompt.state = 'paused';
    prompt.pending.markShown(prompt.heldBack);
  }

  /**
   * Whether the person went on to say something new without letting the paused turn go ahead: stopped
   * it while a confirmation showed or a call ran, skipped and typed, or left a request unanswered (see each
   * rule's `goesAhead`). That turn is over (cancelled, nothing of it shown later); the new words start a fresh
   * one. A turn the person only approved continues, with the new words queued behind it.
   */
  private movedOn(ask: TurnAsk): boolean {
    const paused = this.prompt;
    return paused?.state === 'paused' && paused.pending.holdsBack(ask.results, ask.saysSomething);
  }

  /**
   * Tells the agent to stop. What it still waits on (permissions, tool calls) is answered only after
   * `session/cancel`, and not at once: an agent that reads a cancelled permission as a failed tool may
   * call its model once more before its own interrupt lands (claude-agent-acp does). Agents withdraw
   * their requests as they stop; whatever is left is answered when the prompt ends, or after a grace
   * for agents that wait for the answers before ending it.
   */
  private cancel(): void {
    const prompt = this.prompt;
    if (prompt?.finished === true) {
      // The agent is done already: what it said after the last response is dropped.
      this.prompt = undefined;
      this.followUps.clear();
      return;
    }
    if (prompt === undefined || prompt.state === 'cancelling') return;
    prompt.state = 'cancelling';
    prompt.stopping.abort();
    this.followUps.clear();
    const { agent, sessionId } = prompt.opened;
    agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch((error: unknown) => this.host.log.debug(`session/cancel failed: ${String(error)}`));
    setTimeout(() => prompt.pending.cancelAll(), CANCEL_ANSWER_GRACE_MS).unref();
  }

  /**
   * Before a new prompt: waits for a cancelled prompt to end, then for updates trailing the last prompt
   * to stop (ACP updates name no turn, so a quiet moment is what keeps them out of the next response).
   * An agent that does not end a cancelled prompt in time loses the session: the next prompt goes to a
   * fresh one.
   */
  private async settle(): Promise<void> {
    const prompt = this.prompt;
    const { cancelTimeoutMs, lateUpdateGraceMs } = this.host.options;
    if (prompt !== undefined && prompt.state === 'cancelling') {
      const ended = await Promise.race([prompt.ended.then(() => true), delay(cancelTimeoutMs).then(() => false)]);
      if (!ended) {
        this.host.log.warn(`agent ${this.host.name} did not end a cancelled prompt within ${cancelTimeoutMs} ms; conversation ${this.conversationId} moves to a new session`);
        this.endPrompt(prompt);
        this.host.forget(this, prompt.opened.sessionId, false);
        this.opened = undefined;
        return;
      }
    }
    if (this.prompt !== undefined) return;
    const deadline = Date.now() + 10 * lateUpdateGraceMs;
    for (let quiet = Date.now() - this.lastUpdateAt; quiet < lateUpdateGraceMs && Date.now() < deadline; quiet = Date.now() - this.lastUpdateAt) {
      await delay(lateUpdateGraceMs - quiet);
    }
  }
}
