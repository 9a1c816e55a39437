/**
 * The ChatMessage document class: core builds the message (its frame, roll privacy and the
 * `renderChatMessageHTML` hook), then the system fills its cards, and the chat log inserts the
 * element only once `renderHTML` has resolved — as dnd5e's ChatMessage5e does. A card filled
 * later (an un-awaited hook) would grow after the log had scrolled and measured it.
 */
import { renderCard } from "./chat";

export class FudgeChatMessage extends ChatMessage {
  override async renderHTML(...args: Parameters<ChatMessage["renderHTML"]>): Promise<HTMLElement> {
    const html = await super.renderHTML(...args);
    await renderCard(this as unknown as ChatMessage.Implementation, html);
    return html;
  }
}
