import { createHash } from 'node:crypto';
import type { Message, RequestId, ResponsePart } from '../protocol/messages.js';
import type { ConversationIndex } from '../state/conversation-store.js';
import { extendedLink, linkAt, linksAt, type HistoryHash, type Link } from './fingerprint.js';
import { assistantMessageOf, identityOf, normalizeMessage, normalizeMessages } from './normalize.js';
import { statefulMarkersOf } from './stateful-marker.js';
import { compactionHistoryOf, standInSummary, summaryMarkersOf } from './compaction.js';
import { splitConsumerText } from './consumer-context.js';
import { TurnPoints } from './turn-points.js';

/** A request as the history sees it: who answers (`agentKey`) and the whole history it carries. */
export interface HistoryRequest {
  readonly id: RequestId;
  readonly agentKey: string;
  readonly messages: readonly Message[];
  /** The stateful marker the consumer gives the response to this request (see stateful-marker.ts). */
  readonly marker?: string;
}

/** Which conversation a request continues, and what its agent must do for it. */
export interface TurnPlan {
  readonly conversationId: string;
  /** True for the first turn of a conversation: the agent needs a fresh session. */
  readonly isNew: boolean;
  /** The normalized messages the conversation's agent has not seen yet. */
  readonly newMessages: readonly Message[];
  /** The request's whole normalized history, which `newMessages` ends: for an agent that has not seen it. */
  readonly history: readonly Message[];
  /** True when the consumer discarded the provisional exchange: the agent's turn must be cancelled. */
  readonly canceled: boolean;
  /** With `canceled`: only the reply was discarded; the user messages it answered stay in the history. */
  readonly askedKept: boolean;
  /** A request of the same conversation still being answered, which this one replaces. */
  readonly supersedes: RequestId | undefined;
  /** Where this turn's asked messages end (a link): the agent keeps the point after its answer under it, to go back to. */
  readonly turnKey: string;
  /**
   * The request went back to an earlier point of another conversation (a restored checkpoint, an edited or retried
   * request): this new conversation goes on from the point after that one's answer to its turn `turnKey`, never
   * from its session, which holds what came after.
   */
  readonly goesBack?: GoingBack;
}

/** Where a request went back to, and how it was seen to go back. */
export interface GoingBack {
  readonly conversationId: string;
  readonly turnKey: string;
  readonly why: string;
}

export interface TrackerOptions {
  /** Where conversations are found again after this tracker forgot them (or after a restart). */
  readonly index?: ConversationIndex;
  /** Ids of new conversations; they must not repeat across restarts when an index is kept on disk. */
  readonly newId?: () => string;
  /** How many conversations are kept; the least recently used idle ones are forgotten beyond it. */
  readonly maxConversations?: number;
}

/** What to do with a request: run a turn of some conversation, or refuse it. */
export type HistoryDecision = ({ readonly kind: 'turn' } & TurnPlan) | { readonly kind: 'reject'; readonly reason: string };

/** What of the provisional exchange a request discarded. */
type Discarded = { readonly canceled: boolean; readonly askedKept: boolean };
/** The link of nothing read: a conversation's ends before its first request settles; never indexed. */
const NO_LINK: Link = '';

const DISCARDED_NOTHING: Discarded = { canceled: false, askedKept: false };
const DISCARDED_REPLY: Discarded = { canceled: true, askedKept: true };
const DISCARDED_EXCHANGE: Discarded = { canceled: true, askedKept: false };

interface Conversation {
  readonly id: string;
  /** Link after its first message; NO_LINK until its first request settles. Only requests with this link can continue it. */
  firstLink: Link;
  committedLength: number;
  /** Link after the committed messages; NO_LINK while nothing is committed. */
  committedEnd: Link;
  /** Link after committed ++ the provisional user messages, and how many messages that is. */
  usersEnd: Link;
  usersLength: number;
  /** The history read up to `usersEnd`, to be read on with the assistant's reply. */
  usersHash: HistoryHash | undefined;
  /** Parts streamed in the provisional exchange so far. */
  parts: ResponsePart[];
  /** Link after committed ++ users ++ the assistant message of `parts`; undefined while `parts` changed since. */
  provisionalEnd: Link | undefined;
  inFlight: RequestId | undefined;
  lastUsed: number;
  /** The stateful markers of its latest responses, oldest first, each with the key of the turn it was given. */
  readonly markers: { readonly marker: string; readonly turnKey: Link }[];
}

/** How many of a conversation's markers are kept: Copilot sends the newest back; older ones only after edits. */
const MARKERS_KEPT = 16;

/**
 * Committed / provisional history for every conversation, as the seed describes. A request that extends
 * committed ++ provisional commits and forwards only its new messages; one that keeps the committed part
 * (or the committed part and the provisional user messages) but leaves the rest of the provisional
 * exchange cancels the in-flight turn; anything else starts a new conversation. An empty prefix matches
 * nothing: only shared messages are evidence that a request continues a conversation.
 * Messages are compared by their identities (`identityOf`): what the user and the agent said, not the
 * context a consumer rewrites around it between requests.
 * Matching goes through indexes of links (history digests), so a request costs time linear in its own
 * size, plus a little per conversation.
 */
export class ConversationTracker {
  private readonly byCommittedEnd = new Map<Link, Set<Conversation>>();
  private readonly byProvisionalEnd = new Map<Link, Set<Conversation>>();
  /** Conversations by the link after their committed and provisional user messages. */
  private readonly byUsersEnd = new Map<Link, Set<Conversation>>();
  /** Conversations by their first link: those whose ends a request's links are worth taking at. */
  private readonly byFirstLink = new Map<Link, Set<Conversation>>();
  private readonly byRequest = new Map<RequestId, Conversation>();
  private readonly byMarker = new Map<string, Conversation>();
  private readonly turnPoints = new TurnPoints<Conversation>();
  private readonly stale = new Set<Conversation>();
  private readonly conversations = new Map<string, Conversation>();
  private readonly forgotten: string[] = [];
  private clock = 0;
  private nextId = 1;

  constructor(private readonly options: TrackerOptions = {}) {}

  decide(request: HistoryRequest): HistoryDecision {
    const decision = this.decideTurn(request);
    if (decision.kind === 'turn' && request.marker !== undefined) this.rememberMarker(decision.conversationId, scopedMarker(request.agentKey, request.marker), decision.turnKey);
    return decision;
  }

  private decideTurn(request: HistoryRequest): HistoryDecision {
    const messages = normalizeMessages(request.messages);
    if (messages.length === 0) return { kind: 'reject', reason: 'The request carries no messages with content.' };
    this.refreshProvisionalEnds();
    const identities = identitiesOf(messages);
    let lastIdentity = identities.length - 1;
    while (identities[lastIdentity] === undefined) lastIdentity--;
    const { links: chain, first, end } = linksAt(request.agentKey, identities, (link) => this.positionsOfInterest(messages, lastIdentity, link));
    const read: Read = { links: chain, first: first!, end, last: lastIdentity };

    const last = chain[lastIdentity]!;
    for (const conversation of this.byProvisionalEnd.get(last) ?? []) {
      if (conversation.parts.length > 0) return nothingNew();
    }
    // The marker of the last answer kept names its conversation and turn, whatever other chat began alike (Copilot).
    const named = this.markedLastReply(request.agentKey, request.messages);
    if (named !== undefined && this.goesBackTo(named.conversation, named.turnKey)) {
      const reply = answeredUpTo(messages, normalizedIndexOf(request.messages, named.index));
      return this.goBack(request.id, named.conversation, named.turnKey, messages, read, reply, 'the marker of the last answer kept is an older one of the conversation');
    }

    // The longest match wins; at equal length, extending beats diverging after the user's messages, which beats diverging after the committed part.
    const matches = [
      { match: this.longestMatch(chain, lastIdentity - 1, this.byProvisionalEnd, (c) => c.parts.length > 0 || c.committedLength > 0), discarded: DISCARDED_NOTHING },
      { match: this.longestMatch(chain, lastIdentity - 1, this.byUsersEnd, () => true), discarded: DISCARDED_REPLY },
      { match: this.longestMatch(chain, lastIdentity, this.byCommittedEnd, () => true), discarded: DISCARDED_EXCHANGE },
    ];
    let best: (typeof matches)[number] & { match: { conversation: Conversation; index: number } } | undefined;
    for (const candidate of matches) {
      if (candidate.match !== undefined && (best === undefined || candidate.match.index > best.match.index)) best = { match: candidate.match, discarded: candidate.discarded };
    }
    if (best !== undefined) {
      const { conversation, index } = best.match;
      // Leaving an answer for new words after the one before it: Retry, or the last request edited (the key of its turn, no position of interest, read only then).
      const turnKey = best.discarded === DISCARDED_EXCHANGE && answerLeft(conversation, last) ? (chain[index - 1] ?? linkAt(request.agentKey, identities, index - 1)) : undefined;
      if (turnKey !== undefined && this.turnPoints.earlierTurnAt(turnKey) === conversation) return this.goBack(request.id, conversation, turnKey, messages, read, index, 'an answer was left for new words after the answer before it (Retry, or the last request edited)');
      return this.continueWith(request.id, conversation, messages, read, index, best.discarded);
    }
    const lastReply = lastAssistantIndex(messages);
    const earlier = lastReply > 0 ? this.turnPoints.earlierTurnAt(chain[lastReply - 1]) : undefined;
    if (earlier !== undefined) return this.goBack(request.id, earlier, chain[lastReply - 1]!, messages, read, lastReply, 'the history is an earlier part of the conversation, then new words');
    // The history matches no conversation (the consumer re-rendered or summarised it), but a marker names one.
    const marked = this.markedConversation(request.agentKey, request.messages);
    if (marked === undefined) return this.start(request.id, request.agentKey, messages, read, request.messages);
    // The marked message may be followed by later answers (a background summary is asked before the turn it comes in):
    // the request goes back only when it stops short of the conversation's latest turn.
    const reached = marked.turnKey === undefined ? undefined : this.turnPoints.reachedFrom(marked.conversation, marked.turnKey, answersAfter(messages, marked.index));
    if (reached !== undefined && this.goesBackTo(marked.conversation, reached)) {
      return this.goBack(request.id, marked.conversation, reached, messages, read, answeredUpTo(messages, marked.index), 'the request carries an older marker of the conversation');
    }
    const discarded = marked.conversation.inFlight === undefined ? DISCARDED_NOTHING : DISCARDED_EXCHANGE;
    return this.continueWith(request.id, marked.conversation, messages, read, answeredUpTo(messages, marked.index), discarded);
  }

  /**
   * The answer to a request for a summary of a conversation (`isCompactionRequest`), given without its
   * agent, whose session and turns stay as they are: the summary names the conversation (by the request's
   * marker, remembered for it), so the requests that carry the summary instead of the history continue it.
   */
  summarize(request: HistoryRequest): string {
    const history = compactionHistoryOf(request.messages);
    const found = this.locate(request.agentKey, history);
    if (found !== undefined && request.marker !== undefined) this.rememberMarker(found.id, scopedMarker(request.agentKey, request.marker), found.usersEnd);
    const said = normalizeMessages(history);
    const requests: string[] = [];
    let reply: string | undefined;
    for (const message of said) {
      if (message.role === 'assistant') reply = textOf(message);
      else if (message.role === 'user') {
        const words = message.content.map((part) => (part.type === 'text' ? splitConsumerText(part.value).request : '')).join(' ').trim();
        if (words !== '') requests.push(words);
      }
    }
    return standInSummary(requests, reply, found === undefined ? undefined : request.marker);
  }

  /** The live conversation this history belongs to, changing nothing: the longest match, or a marker. */
  private locate(agentKey: string, raw: readonly Message[]): Conversation | undefined {
    const messages = normalizeMessages(raw);
    if (messages.length > 0) {
      this.refreshProvisionalEnds();
      const identities = identitiesOf(messages);
      let last = identities.length - 1;
      while (last >= 0 && identities[last] === undefined) last--;
      if (last >= 0) {
        const { links } = linksAt(agentKey, identities, (first) => this.positionsOfInterest(messages, last, first));
        let best: { conversation: Conversation; index: number } | undefined;
        for (const index of [this.byProvisionalEnd, this.byUsersEnd, this.byCommittedEnd]) {
          const match = this.longestMatch(links, last, index, () => true);
          if (match !== undefined && (best === undefined || match.index > best.index)) best = match;
        }
        if (best !== undefined) return best.conversation;
      }
    }
    return this.markedConversation(agentKey, raw)?.conversation;
  }

  /**
   * The live conversation of this agent the newest known marker in the request names (a stateful marker in
   * an assistant message, or the token of a summary the bridge gave), and its message's normalized index.
   * A marker of another agent's response names nothing here: a chat switched to this agent is its own
   * conversation with it.
   */
  private markedConversation(agentKey: string, raw: readonly Message[]): { conversation: Conversation; index: number; turnKey: Link | undefined } | undefined {
    for (const { index, marker } of markersOf(agentKey, raw)) {
      const conversation = this.byMarker.get(marker);
      if (conversation === undefined || !this.conversations.has(conversation.id)) continue;
      const normalized = normalizedIndexOf(raw, index);
      return normalized < 0 ? undefined : { conversation, index: normalized, turnKey: conversation.markers.find((m) => m.marker === marker)?.turnKey };
    }
    return undefined;
  }

  /**
   * The live conversation the marker of the request's last assistant message names (Copilot gives every answer its own),
   * with the turn that answer was given in and the message's raw index. Reads only the messages after that one.
   */
  private markedLastReply(agentKey: string, raw: readonly Message[]): { conversation: Conversation; turnKey: Link; index: number } | undefined {
    let index = raw.length - 1;
    while (index >= 0 && raw[index]!.role !== 'assistant') index--;
    for (const { marker } of index < 0 ? [] : statefulMarkersOf([raw[index]!])) {
      const scoped = scopedMarker(agentKey, marker);
      const conversation = this.byMarker.get(scoped);
      const turnKey = conversation?.markers.find((m) => m.marker === scoped)?.turnKey;
      if (conversation !== undefined && turnKey !== undefined && this.conversations.has(conversation.id)) return { conversation, turnKey, index };
    }
    return undefined;
  }

  /** Whether a request that returns to the point after `conversation`'s answer to `turnKey` goes back (see `answerLeft`). */
  private goesBackTo(conversation: Conversation, turnKey: Link): boolean {
    return this.turnPoints.isEarlierTurnOf(conversation, turnKey) && (answerLeft(conversation) || !this.turnPoints.precedesLatest(conversation, turnKey));
  }

  private rememberMarker(conversationId: string, marker: string, turnKey: Link): void {
    const conversation = this.conversations.get(conversationId);
    if (conversation === undefined) return;
    conversation.markers.push({ marker, turnKey });
    this.byMarker.set(marker, conversation);
    this.options.index?.rememberMarker(conversationId, marker);
    for (const old of conversation.markers.splice(0, Math.max(0, conversation.markers.length - MARKERS_KEPT))) this.byMarker.delete(old.marker);
  }

  /** Records a part streamed for `requestId`; parts of a turn that is no longer in flight are dropped. */
  recordPart(requestId: RequestId, part: ResponsePart): void {
    const conversation = this.byRequest.get(requestId);
    if (conversation === undefined) return;
    // Adjacent text (and thinking) is joined as it comes (comparison joins text and ignores thinking): a long
    // stream stays one part.
    const last = conversation.parts[conversation.parts.length - 1];
    if ((part.type === 'text' || part.type === 'thinking') && last?.type === part.type) conversation.parts[conversation.parts.length - 1] = { type: part.type, value: last.value + part.value };
    else conversation.parts.push(part);
    if (conversation.provisionalEnd !== undefined) {
      this.unindex(this.byProvisionalEnd, conversation.provisionalEnd, conversation);
      conversation.provisionalEnd = undefined;
    }
    this.stale.add(conversation);
  }

  /**
   * The response to `requestId` is over; its parts stay provisional. A completed reply is where the
   * conversation can be found again, by the index, once forgotten here.
   */
  endTurn(requestId: RequestId, completed: boolean): void {
    const conversation = this.byRequest.get(requestId);
    if (conversation === undefined) return;
    this.byRequest.delete(requestId);
    if (conversation.inFlight === requestId) conversation.inFlight = undefined;
    if (!completed || conversation.parts.length === 0 || this.options.index === undefined) return;
    this.refreshProvisionalEnds();
    if (conversation.provisionalEnd !== undefined) this.options.index.rememberLink(conversation.id, conversation.provisionalEnd);
  }

  /** The conversations forgotten since the last call: their sessions can go. */
  takeForgotten(): string[] {
    return this.forgotten.splice(0);
  }

  private continueWith(
    requestId: RequestId,
    conversation: Conversation,
    messages: Message[],
    read: Read,
    index: number,
    discarded: Discarded,
  ): HistoryDecision {
    const known = index + 1;
    const turn = { isNew: false, ...discarded, supersedes: conversation.inFlight };
    return this.settle(requestId, conversation, messages, read, known, turn);
  }

  /**
   * A conversation this tracker does not know. If the index knows where its last reply ended (a
   * conversation forgotten, or from before a restart), it goes on under its old id, whose agent can
   * resume its session; otherwise it is new.
   */
  private start(requestId: RequestId, agentKey: string, messages: Message[], read: Read, raw: readonly Message[]): HistoryDecision {
    const resumed = this.resumable(messages, read) ?? this.resumableByMarker(agentKey, raw, messages);
    const lastReply = resumed === undefined ? lastAssistantIndex(messages) : -1;
    const turnKey = lastReply > 0 ? read.links[lastReply - 1] : undefined;
    // A conversation from before a reload whose agent answered this history's last asked turn: going back to it.
    const asked = turnKey === undefined ? undefined : this.options.index?.conversationAsked(turnKey);
    if (asked !== undefined && turnKey !== undefined && !this.conversations.has(asked)) {
      return this.begin(requestId, messages, read, undefined, lastReply + 1, { conversationId: asked, turnKey, why: 'the history is an earlier part of a conversation kept in the state directory, then new words' });
    }
    return this.begin(requestId, messages, read, resumed?.id, resumed?.known ?? 0, undefined);
  }

  /**
   * A request that went back to the point after `from`'s reply at `reply` (the answer to its turn `turnKey`): a
   * new conversation, a branch, goes on from there; `from` stays as it is, idle, for a redo (VS Code's "Reapply
   * discarded … chat" sends its history again) until its session closes like any idle one.
   */
  private goBack(requestId: RequestId, from: Conversation, turnKey: Link, messages: Message[], read: Read, reply: number, why: string): HistoryDecision {
    return this.begin(requestId, messages, read, undefined, reply + 1, { conversationId: from.id, turnKey, why });
  }

  /**
   * A conversation this tracker does not hold: under `resumedId` (else a new id), the agent knowing its first `known` messages,
   * whose last turn (asked before a restart, or in a session continued from elsewhere) can be gone back to.
   */
  private begin(requestId: RequestId, messages: Message[], read: Read, resumedId: string | undefined, known: number, goesBack: GoingBack | undefined): HistoryDecision {
    const conversation: Conversation = {
      id: resumedId ?? this.options.newId?.() ?? `c${this.nextId}`,
      firstLink: NO_LINK,
      committedLength: 0,
      committedEnd: NO_LINK,
      usersEnd: NO_LINK,
      usersLength: 0,
      usersHash: undefined,
      parts: [],
      provisionalEnd: undefined,
      inFlight: undefined,
      lastUsed: 0,
      markers: [],
    };
    const knownTurn = resumedId === undefined ? undefined : read.links[known - 2];
    if (knownTurn !== undefined) this.turnPoints.asked(conversation, knownTurn, false);
    const decision = this.settle(requestId, conversation, messages, read, known, { isNew: true, ...DISCARDED_NOTHING, supersedes: undefined, ...(goesBack === undefined ? {} : { goesBack }) });
    if (decision.kind === 'turn') {
      if (resumedId === undefined) this.nextId++;
      this.conversations.set(conversation.id, conversation);
      this.forgetBeyondCapacity();
    }
    return decision;
  }

  /** The indexed conversation whose last reply is this request's last assistant message, unless it is live here. */
  private resumable(messages: readonly Message[], read: Read): { id: string; known: number } | undefined {
    const { index } = this.options;
    if (index === undefined) return undefined;
    let reply = read.last;
    while (reply >= 0 && messages[reply].role !== 'assistant') reply--;
    const link = reply < 0 ? undefined : read.links[reply];
    const id = link === undefined ? undefined : index.conversationAt(link);
    if (id === undefined || this.conversations.has(id)) return undefined;
    return { id, known: reply + 1 };
  }

  /**
   * The indexed conversation the newest marker the index knows in this request names, unless it is live
   * here: a history the consumer re-rendered or summarised (after a compaction, no message of it is one the
   * conversation had) before this bridge started.
   */
  private resumableByMarker(agentKey: string, raw: readonly Message[], messages: readonly Message[]): { id: string; known: number } | undefined {
    const { index } = this.options;
    if (index === undefined) return undefined;
    for (const { index: at, marker } of markersOf(agentKey, raw)) {
      const id = index.conversationMarked(marker);
      if (id === undefined) continue;
      const marked = normalizedIndexOf(raw, at);
      return this.conversations.has(id) || marked < 0 ? undefined : { id, known: answeredUpTo(messages, marked) + 1 };
    }
    return undefined;
  }

  /** Beyond capacity, the least recently used conversations that are not answering are forgotten. */
  private forgetBeyondCapacity(): void {
    const max = this.options.maxConversations ?? Infinity;
    if (this.conversations.size <= max) return;
    const idle = [...this.conversations.values()].filter((c) => c.inFlight === undefined).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const conversation of idle.slice(0, this.conversations.size - max)) this.forget(conversation);
  }

  private forget(conversation: Conversation): void {
    this.conversations.delete(conversation.id);
    this.stale.delete(conversation);
    this.unindex(this.byFirstLink, conversation.firstLink, conversation);
    if (conversation.committedLength > 0) this.unindex(this.byCommittedEnd, conversation.committedEnd, conversation);
    this.unindex(this.byUsersEnd, conversation.usersEnd, conversation);
    if (conversation.provisionalEnd !== undefined) this.unindex(this.byProvisionalEnd, conversation.provisionalEnd, conversation);
    for (const { marker } of conversation.markers) this.byMarker.delete(marker);
    this.turnPoints.forget(conversation);
    this.forgotten.push(conversation.id);
  }

  /**
   * Takes the messages after the first `known` ones as the conversation's new provisional
   * exchange: anything up to its last assistant message is committed, the user messages after it are
   * what the agent answers. Refuses, changing nothing, when no user message is left to answer.
   */
  private settle(
    requestId: RequestId,
    conversation: Conversation,
    messages: Message[],
    read: Read,
    known: number,
    turn: { isNew: boolean; supersedes: RequestId | undefined; goesBack?: GoingBack } & Discarded,
  ): HistoryDecision {
    const rest = messages.slice(known);
    let lastAssistant = -1;
    for (let i = rest.length - 1; i >= 0; i--) {
      if (rest[i].role === 'assistant') {
        lastAssistant = i;
        break;
      }
    }
    const asked = rest.slice(lastAssistant + 1);
    if (!asked.some((m) => m.role === 'user')) return nothingNew();

    if (turn.supersedes !== undefined) this.byRequest.delete(turn.supersedes);
    if (conversation.firstLink !== read.first) {
      this.unindex(this.byFirstLink, conversation.firstLink, conversation);
      conversation.firstLink = read.first;
      this.index(this.byFirstLink, read.first, conversation);
    }
    // Extending commits the matched prefix (it ends with the assistant's reply); diverging matched the
    // committed part itself. Either way, assistant messages among the new ones are committed too.
    const committedLength = known + lastAssistant + 1;
    const { links } = read;
    this.commit(conversation, committedLength, links[committedLength - 1]);
    this.unindex(this.byUsersEnd, conversation.usersEnd, conversation);
    conversation.usersEnd = links[read.last]!;
    conversation.usersLength = read.last + 1;
    conversation.usersHash = read.end;
    this.index(this.byUsersEnd, conversation.usersEnd, conversation);
    this.turnPoints.asked(conversation, conversation.usersEnd, turn.canceled);
    this.setProvisionalEnd(conversation, conversation.usersEnd);
    conversation.parts = [];
    conversation.inFlight = requestId;
    this.byRequest.set(requestId, conversation);
    conversation.lastUsed = ++this.clock;
    return { kind: 'turn', conversationId: conversation.id, newMessages: rest, history: messages, turnKey: conversation.usersEnd, ...turn };
  }

  private commit(conversation: Conversation, length: number, end: Link | undefined): void {
    if (length === conversation.committedLength || end === undefined) return;
    if (conversation.committedLength > 0) this.unindex(this.byCommittedEnd, conversation.committedEnd, conversation);
    conversation.committedLength = length;
    conversation.committedEnd = end;
    this.index(this.byCommittedEnd, end, conversation);
  }

  private setProvisionalEnd(conversation: Conversation, end: Link): void {
    if (conversation.provisionalEnd !== undefined) this.unindex(this.byProvisionalEnd, conversation.provisionalEnd, conversation);
    conversation.provisionalEnd = end;
    this.index(this.byProvisionalEnd, end, conversation);
    this.stale.delete(conversation);
  }

  /** Brings the index of provisional ends up to date with the parts streamed since the last request. */
  private refreshProvisionalEnds(): void {
    for (const conversation of this.stale) {
      const assistant = assistantMessageOf(conversation.parts);
      const { usersHash } = conversation;
      this.setProvisionalEnd(conversation, assistant === undefined || usersHash === undefined ? conversation.usersEnd : extendedLink(usersHash, assistant));
    }
  }

  /**
   * Where a link of this request could match: where the committed part, user messages or reply of some
   * conversation that begins as it does (`first`) end, plus what deciding needs (its last message, its
   * last assistant message). Other conversations cost nothing: with 300 kept, a request had taken a
   * digest at nearly every message (a decision 41–50 µs hot, now 19).
   */
  private positionsOfInterest(messages: readonly Message[], lastIdentity: number, first: Link): Set<number> {
    const positions = new Set<number>([lastIdentity]);
    // Where its last reply was asked too: the key of the turn a request that goes back returns to.
    const lastReply = lastAssistantIndex(messages);
    if (lastReply >= 0) positions.add(lastReply).add(lastReply - 1);
    for (const c of this.byFirstLink.get(first) ?? []) positions.add(c.committedLength - 1).add(c.usersLength - 1).add(c.usersLength);
    return positions;
  }

  /**
   * The conversation whose indexed link occurs latest in `chain` (at or before `from`), preferring one
   * that is idle and then the most recently used: two conversations with the same history are
   * interchangeable, but taking over one that is streaming would cancel it.
   */
  private longestMatch(
    chain: readonly (Link | undefined)[],
    from: number,
    index: Map<Link, Set<Conversation>>,
    eligible: (c: Conversation) => boolean,
  ): { conversation: Conversation; index: number } | undefined {
    for (let i = from; i >= 0; i--) {
      let best: Conversation | undefined;
      const link = chain[i];
      if (link === undefined) continue;
      for (const candidate of index.get(link) ?? []) {
        if (!eligible(candidate)) continue;
        if (best === undefined || preferable(candidate, best)) best = candidate;
      }
      if (best !== undefined) return { conversation: best, index: i };
    }
    return undefined;
  }

  private index(map: Map<Link, Set<Conversation>>, link: Link, conversation: Conversation): void {
    map.set(link, (map.get(link) ?? new Set()).add(conversation));
  }

  private unindex(map: Map<Link, Set<Conversation>>, link: Link, conversation: Conversation): void {
    const set = map.get(link);
    set?.delete(conversation);
    if (set?.size === 0) map.delete(link);
  }
}

/** A request's history as read: its links where they may matter, and the hash after its last message. */
interface Read {
  readonly links: readonly (Link | undefined)[];
  /** The link after its first message with an identity. */
  readonly first: Link;
  readonly end: HistoryHash;
  /** The position of the last message with an identity. */
  readonly last: number;
}

/** The identities of a request's messages; a request of nothing but context is taken as it is. */
function identitiesOf(messages: readonly Message[]): readonly (Message | undefined)[] {
  const identities = messages.map(identityOf);
  return identities.some((identity) => identity !== undefined) ? identities : messages;
}

/** The index of the last assistant message; -1 for none. */
function lastAssistantIndex(messages: readonly Message[]): number {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role !== 'assistant') i--;
  return i;
}

/**
 * Whether new words after the answer before its provisional exchange go back: it was answered in full, or it ended on a
 * call the agent waits on (a confirmation shown; data may follow) and is `asked` again (Retry); else they cancel it.
 */
function answerLeft(conversation: Conversation, asked?: Link): boolean {
  let end = conversation.parts.length - 1;
  while (conversation.parts[end]?.type === 'data') end--;
  const last = conversation.parts[end];
  return conversation.inFlight === undefined && last !== undefined && (last.type !== 'tool_call' || asked === conversation.usersEnd);
}

function preferable(a: Conversation, b: Conversation): boolean {
  if ((a.inFlight === undefined) !== (b.inFlight === undefined)) return a.inFlight === undefined;
  return a.lastUsed > b.lastUsed;
}

/**
 * The markers a request carries (stateful markers, and summaries' tokens), newest first, with their messages'
 * indexes, each scoped to the agent the request is for.
 */
function markersOf(agentKey: string, raw: readonly Message[]): { readonly index: number; readonly marker: string }[] {
  return [...statefulMarkersOf(raw), ...summaryMarkersOf(raw)].sort((a, b) => b.index - a.index).map(({ index, marker }) => ({ index, marker: scopedMarker(agentKey, marker) }));
}

/**
 * A consumer's marker as the history keeps it: scoped to the agent, as links are, so that a marker of one
 * agent's response never leads another agent's request to that conversation. A digest: the index keeps it
 * on disk, and an agent's key can hold its environment.
 */
function scopedMarker(agentKey: string, marker: string): string {
  return createHash('sha256').update(`${agentKey.length}:${agentKey}${marker}`).digest('base64');
}

/**
 * Where the agent's knowledge of a marked history ends: at its last reply, at or after the marker's
 * message. What a consumer re-rendered or summarised around a marker is its own account of turns the
 * agent has had (a summary stands for the history up to the turn being answered when Copilot asked for
 * it, and after a reload Copilot shows `/compact` as the reply "Compacted conversation."), not turns to
 * tell the agent.
 */
function answeredUpTo(messages: readonly Message[], marked: number): number {
  let last = messages.length - 1;
  while (last > marked && messages[last]!.role !== 'assistant') last--;
  return last;
}

/** How many assistant messages follow `messages[marked]`. */
function answersAfter(messages: readonly Message[], marked: number): number {
  let answers = 0;
  for (let i = marked + 1; i < messages.length; i++) if (messages[i]!.role === 'assistant') answers++;
  return answers;
}

/** The index among the normalized messages of `raw[index]` (or of the last one before it that has content; -1 for none). */
function normalizedIndexOf(raw: readonly Message[], index: number): number {
  let normalized = -1;
  for (let i = 0; i <= index; i++) if (normalizeMessage(raw[i]!) !== undefined) normalized++;
  return normalized;
}

function textOf(message: Message): string {
  return message.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
}

function nothingNew(): HistoryDecision {
  return { kind: 'reject', reason: 'Nothing new to answer: the request repeats the conversation so far without a new user message.' };
}
