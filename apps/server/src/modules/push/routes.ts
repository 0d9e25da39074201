import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import type { MemberEvents } from "../../platform/member-events.ts";
import type { AccountService } from "../accounts/index.ts";
import type { PushService } from "./service.ts";

/** A device posts its subscription on each logged-in visit; this is plenty and stops a flood of endpoints. */
const SUBSCRIPTION_LIMIT = { max: 60, timeWindow: "15 minutes" };

/**
 * POST /api/user.php?push=1 {subscription} (spec §7): the router sends it here by its query (the
 * contract's `when`), and plain POST /api/user.php stays the login. Answers the user, with its new
 * push_subscription; the member's other tabs hear of it (`user.changed`).
 */
export async function pushRoutes(
  app: FastifyInstance,
  options: { push: PushService; accounts: Pick<AccountService, "present">; events: Pick<MemberEvents, "publish"> },
): Promise<void> {
  const { push, accounts } = options;
  handle(
    app,
    ENDPOINTS.pushSubscription,
    async ({ request, member, body }) => {
      await push.update(member.userId, body, request.headers["user-agent"] ?? null);
      await options.events
        .publish(member.userId, { type: "user.changed" })
        .catch((err: unknown) => request.log.error({ err }, "member event failed"));
      return { user: await accounts.present(member) };
    },
    { rateLimit: SUBSCRIPTION_LIMIT },
  );
}
