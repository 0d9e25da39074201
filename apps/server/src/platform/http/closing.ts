import type { FastifyInstance } from "fastify";

/**
 * Keep-alive connections end with the shutdown (issue #25: a node ran past its grace period). Node's
 * `server.close()` closes the connections idle at that moment, but one whose request was in flight
 * stays open after its answer (keep-alive, 72 s by default) and holds the close until the force timer.
 * From the start of the close, every answer says `Connection: close`, so the client and Node end the
 * connection once it is answered.
 */
export function registerClosingConnections(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
}
