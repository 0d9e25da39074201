import type { ClientFrame, ServerFrame } from "@app/contract";

/** A stand-in for the browser's WebSocket that the test drives from the server's side. */
export class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: ClientFrame[] = [];
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: ((close: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close() {
    this.drop(1000);
  }
  open(frame: ServerFrame) {
    this.readyState = 1;
    this.push(frame);
  }
  push(frame: ServerFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code: number) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }
}
