import { Observable, Subject } from 'rxjs';
import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { decodeOrThrow } from '../protocol/decode.js';
import { ProvideChatResponseParams, type RequestId, type ResponsePart } from '../protocol/messages.js';
import { Methods } from '../protocol/methods.js';
import type { ChatRequest, ResponseEvent } from '../events/chat-events.js';
import { invalidParams } from './invalid-params.js';
import { ToolLists } from './tool-lists.js';

/**
 * The edge where `lm/provideLanguageModelChatResponse` requests enter the pipeline and its response
 * events leave it: each request becomes a ChatRequest on `requests`; `respond` sends a request's parts
 * as `lm/responsePart`, then `lm/responseComplete` and `{}`, or the JSON-RPC error that ended it.
 */
export class ChatRequestStream {
  private readonly incoming = new Subject<ChatRequest>();
  private readonly pending = new Map<RequestId, { resolve: (value: object) => void; reject: (error: ResponseError<void>) => void }>();
  private readonly outgoing = new Map<RequestId, Outgoing>();
  private readonly toolLists = new ToolLists();
  readonly requests: Observable<ChatRequest> = this.incoming.asObservable();

  constructor(
    private readonly connection: MessageConnection,
    /** The JSON-RPC id of the request being dispatched (vscode-jsonrpc does not hand it to handlers). */
    currentRequestId: () => RequestId | undefined,
  ) {
    connection.onRequest(Methods.provideChatResponse, (raw: unknown, token: CancellationToken) => {
      const decoded = invalidParams(() => decodeOrThrow(ProvideChatResponseParams, raw));
      const id = currentRequestId();
      if (id === undefined) throw new ResponseError(ProtocolErrorCodes.InternalError, 'The request has no id.');
      if (this.pending.has(id)) throw new ResponseError(ProtocolErrorCodes.InvalidRequest, `Request id ${id} is already in use.`);
      const options = this.toolLists.resolve(decoded.options);
      const params = options === decoded.options ? decoded : { ...decoded, options };
      return new Promise<object>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.incoming.next({ id, params, cancel$: cancellationOf(token) });
      });
    });
  }

  respond(event: ResponseEvent): void {
    const { requestId } = event;
    if (event.kind === 'part') {
      this.sendPart(requestId, event.part);
      return;
    }
    this.flushText(requestId);
    clearTimeout(this.outgoing.get(requestId)?.paced);
    this.outgoing.delete(requestId);
    const pending = this.pending.get(requestId);
    if (pending === undefined) return;
    this.pending.delete(requestId);
    switch (event.kind) {
      case 'complete':
        void this.connection.sendNotification(Methods.responseComplete, { requestId });
        pending.resolve({});
        break;
      case 'failed':
        pending.reject(new ResponseError(event.code, event.message));
        break;
      case 'cancelled':
        pending.reject(new ResponseError(ProtocolErrorCodes.RequestCancelled, event.reason));
        break;
    }
  }

  /**
   * Text (and thinking) is coalesced while the request's previous part is still being written, and for
   * TEXT_PACE_MS after a text part went out: an agent streaming faster than that costs a few large
   * notifications instead of many small ones (each is a write, ~0.06 ms here, and work for the consumer),
   * while text that comes slower than that (a model's tokens do) goes out as it comes. The first part
   * always goes at once, and anything else flushes the waiting text before it, so order and content stay
   * exact.
   */
  private sendPart(requestId: RequestId, part: ResponsePart): void {
    const outgoing = this.outgoing.get(requestId) ?? { writing: 0, text: undefined, paced: undefined };
    this.outgoing.set(requestId, outgoing);
    if ((part.type === 'text' || part.type === 'thinking') && (outgoing.writing > 0 || outgoing.paced !== undefined)) {
      if (outgoing.text !== undefined && outgoing.text.type !== part.type) this.flushText(requestId);
      outgoing.text = { type: part.type, value: (outgoing.text?.value ?? '') + part.value };
      return;
    }
    this.flushText(requestId);
    this.write(requestId, outgoing, part);
  }

  private flushText(requestId: RequestId): void {
    const outgoing = this.outgoing.get(requestId);
    if (outgoing?.text === undefined) return;
    const waiting = outgoing.text;
    outgoing.text = undefined;
    this.write(requestId, outgoing, waiting);
  }

  /** Text that comes within TEXT_PACE_MS of this part waits for the next one, or for the pace to pass. */
  private pace(requestId: RequestId, outgoing: Outgoing): void {
    clearTimeout(outgoing.paced);
    outgoing.paced = setTimeout(() => {
      outgoing.paced = undefined;
      if (outgoing.writing === 0 && this.outgoing.get(requestId) === outgoing) this.flushText(requestId);
    }, TEXT_PACE_MS);
  }

  private write(requestId: RequestId, outgoing: Outgoing, part: ResponsePart): void {
    outgoing.writing++;
    if (part.type === 'text' || part.type === 'thinking') this.pace(requestId, outgoing);
    const written = () => {
      outgoing.writing--;
      if (outgoing.writing === 0 && outgoing.paced === undefined && this.outgoing.get(requestId) === outgoing) this.flushText(requestId);
    };
    this.connection.sendNotification(Methods.responsePart, { requestId, part }).then(written, written);
  }

  /** No more requests will come (the connection closed). */
  end(): void {
    this.incoming.complete();
  }
}

/** A request's parts on their way out: how many writes are in flight, and text or thinking waiting for them. */
interface Outgoing {
  writing: number;
  text: { type: 'text' | 'thinking'; value: string } | undefined;
  /** A text part went out less than TEXT_PACE_MS ago: text waits, and is flushed when this fires. */
  paced: NodeJS.Timeout | undefined;
}

/** At most one text notification per this many ms while an agent streams faster (500 a second). */
const TEXT_PACE_MS = 2;

function cancellationOf(token: CancellationToken): Observable<void> {
  return new Observable<void>((subscriber) => {
    if (token.isCancellationRequested) {
      subscriber.next();
      return;
    }
    const listener = token.onCancellationRequested(() => subscriber.next());
    return () => listener.dispose();
  });
}
