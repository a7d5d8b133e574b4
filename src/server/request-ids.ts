import type { Message, MessageStrategy, RequestMessage } from 'vscode-jsonrpc/node.js';
import type { RequestId } from '../protocol/messages.js';

/**
 * vscode-jsonrpc does not give request handlers their request's id, but the protocol's `requestId` must
 * equal it. Handlers run synchronously inside the message strategy's `handleMessage`, so the id of the
 * message being dispatched is exactly the id of the handler's request.
 */
export class RequestIdTracker {
  private current: RequestId | undefined;

  readonly strategy: MessageStrategy = {
    handleMessage: (message: Message, next: (message: Message) => void) => {
      const id = (message as Partial<RequestMessage>).id;
      this.current = typeof id === 'number' || typeof id === 'string' ? id : undefined;
      try {
        next(message);
      } finally {
        this.current = undefined;
      }
    },
  };

  readonly currentId = (): RequestId | undefined => this.current;
}
