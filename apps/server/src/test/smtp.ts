import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail["headers"];
}

/** A real SMTP server on 127.0.0.1 (random port) that keeps and parses what it receives. */
export async function startSmtp(port = 0) {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(", ") : (mail.to?.text ?? "");
          received.push({
            to,
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: String(mail.html || ""),
            headers: mail.headers,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    received,
    /** The next mail to `to` (matching `subject` if given) not taken before; waits up to 10 s. */
    async next(to: string, subject?: RegExp): Promise<ReceivedMail> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const index = received.findIndex((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
        if (index >= 0) return received.splice(index, 1)[0] as ReceivedMail;
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} (have: ${received.map((m) => `${m.to}: ${m.subject}`).join("; ")})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that contains `path`. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${path.replace(/[.?]/g, "\\$&")}\\S*`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}
