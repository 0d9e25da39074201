// Replaced by the pickers branch: gift picker, GIF search modal, message body.
import type { ChatMessage, Gif, Gift } from "@app/contract";
import type { ReactNode } from "react";
export declare function GiftButton(props: {
  name: string;
  costs: number;
  disabled?: boolean;
  onPick: (gift: Gift, text: string) => void;
}): ReactNode;
export declare function GifButton(props: { costs: number; disabled?: boolean; onPick: (gif: Gif) => void }): ReactNode;
export declare function MessageBody(props: {
  message: Pick<ChatMessage, "kind" | "text" | "photo" | "gift" | "gif">;
  name: string;
}): ReactNode;
