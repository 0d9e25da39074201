/**
 * A real SMTP server for the browser tests (the site sends its e-mails here through SMTP_URL), with a
 * small HTTP side on which tests read what arrived: GET /messages?to=<address> → JSON list.
 *   tsx e2e/mail-catcher.ts <smtpPort> <httpPort>
 */
import { createServer } from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const [smtpPort = "3197", httpPort = "3198"] = process.argv.slice(2);
const messages: { to: string; subject: string; text: string; html: string; at: number }[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(", ") : (mail.to?.text ?? "");
        messages.push({ to, subject: mail.subject ?? "", text: mail.text ?? "", html: String(mail.html || ""), at: Date.now() });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(Number(smtpPort), "127.0.0.1");

createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/healthz") {
    response.end("ok");
    return;
  }
  const to = url.searchParams.get("to");
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify(messages.filter((m) => !to || m.to.includes(to))));
}).listen(Number(httpPort), "127.0.0.1");
