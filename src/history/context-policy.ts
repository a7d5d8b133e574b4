import type { Message, Part, Role } from '../protocol/messages.js';
import { referenceOnly, type Attachment } from './attachments.js';
import { splitConsumerText } from './consumer-context.js';

/**
 * What of the consumer's messages reaches the agent. Consumers (Copilot above all) wrap the person's words
 * in their own context - workspace and editor state, instructions, memory, reminders - and send their own
 * system prompt. An ACP agent gathers its own context and has its own instructions, and the two can
 * contradict each other, so by default the agent gets only what the person gave:
 * - `user`: the person's words, the images they attached and the files, selections, folders, problems… they
 *   attached or mentioned (as attachments: references the agent can read, with the text the consumer sent);
 * - `system`: that, and the consumer's system prompt;
 * - `everything`: everything the consumer sends, as it sends it, and the attachments in it as references
 *   (`attachments`, its name before attachments reached the agent under every policy, still means it).
 * Tool results and the assistant's messages always pass.
 */
export const CONTEXT_POLICIES = ['user', 'system', 'everything'] as const;
export type ContextPolicy = (typeof CONTEXT_POLICIES)[number];

/** Former names of policies, still accepted. */
const FORMER_NAMES: Readonly<Record<string, ContextPolicy>> = { attachments: 'everything' };

/** Every name a setting or flag may give a policy: its own, then former ones. */
export const CONTEXT_POLICY_NAMES: readonly string[] = [...CONTEXT_POLICIES, ...Object.keys(FORMER_NAMES)];

/** The policy a setting or flag names, by its name or a former one. */
export function contextPolicyNamed(value: string): ContextPolicy | undefined {
  return (CONTEXT_POLICIES as readonly string[]).includes(value) ? (value as ContextPolicy) : FORMER_NAMES[value];
}

/** What the person attached, in a message as it reaches the agent. */
export interface AttachmentPart {
  readonly type: 'attachment';
  readonly attachment: Attachment;
}

/** A message as it reaches the agent: the consumer's parts the policy let through, and what the person attached. */
export interface ForwardedMessage {
  readonly role: Role;
  readonly content: readonly ForwardedPart[];
}
export type ForwardedPart = Part | AttachmentPart;

export function applyContextPolicy(messages: readonly Message[], policy: ContextPolicy): readonly ForwardedMessage[] {
  const out: ForwardedMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      if (policy !== 'user') out.push(message);
      continue;
    }
    if (message.role !== 'user') {
      out.push(message);
      continue;
    }
    const content = message.content.flatMap((part) => userPart(part, policy));
    if (content.length > 0) out.push({ role: 'user', content });
  }
  return out;
}

function userPart(part: Part, policy: ContextPolicy): ForwardedPart[] {
  switch (part.type) {
    case 'text': {
      const { request, attachments } = splitConsumerText(part.value);
      if (policy === 'everything') {
        // The text carries the attachments' content already: they come along as references only.
        const references = attachments.flatMap((a) => attachmentPart(referenceOnly(a)));
        return [part, ...references];
      }
      return [...(request === '' ? [] : [{ type: 'text', value: request } as const]), ...attachments.flatMap(attachmentPart)];
    }
    case 'data':
      return policy === 'everything' || part.mimeType.startsWith('image/') ? [part] : [];
    default:
      return [part];
  }
}

function attachmentPart(attachment: Attachment | undefined): AttachmentPart[] {
  return attachment === undefined ? [] : [{ type: 'attachment', attachment }];
}
