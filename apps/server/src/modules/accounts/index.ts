/** The accounts module's public face: its service, the session cookie helpers and the SQL it lends. */

export { BanService, type BanView } from "./bans.ts";
export {
  hiddenUserIds,
  presenceShownCondition,
  type UserRow,
  unconfirmedUserCondition,
  visibleUserCondition,
} from "./queries.ts";
export { AccountService, lockAddress, type RequestContext } from "./service.ts";
export { AccountSupport, type LoginMethod, prefixPattern, type SupportAccount } from "./support.ts";
