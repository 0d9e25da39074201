// The pickers and message bodies the chat screens compose (issue #10).
export { GifButton } from "./gif-button";
export { GiftButton } from "./gift-button";
export { MessageBody } from "./message-body";
