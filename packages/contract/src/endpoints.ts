import { z } from "zod";
import {
  deleteAccountRequestSchema,
  invisibleRequestSchema,
  languageRequestSchema,
  loginRequestSchema,
  mailChangeRequestSchema,
  notificationsRequestSchema,
  notificationsResponseSchema,
  okResponseSchema,
  passwordChangeRequestSchema,
  presencePrivacyRequestSchema,
  resetPasswordDoRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  tokenRequestSchema,
  userResponseSchema,
} from "./accounts.ts";
import { blockedMembersResponseSchema, blockQuerySchema, blockRequestSchema, blockResponseSchema } from "./blocks.ts";
import {
  chatDeleteQuerySchema,
  chatDeleteResponseSchema,
  chatQuerySchema,
  chatResponseSchema,
  chatsResponseSchema,
  gifsQuerySchema,
  gifsResponseSchema,
  giftsResponseSchema,
  messageRequestSchema,
  messageResponseSchema,
} from "./chats.ts";
import { complaintRequestSchema, complaintResponseSchema } from "./complaints.ts";
import {
  discountCodeQuerySchema,
  discountCodeResponseSchema,
  discountCodesResponseSchema,
  timeBonusResponseSchema,
} from "./discounts.ts";
import {
  autoLikeResponseSchema,
  badgesResponseSchema,
  likeQuerySchema,
  likeRequestSchema,
  likeResponseSchema,
  likesQuerySchema,
  likesResponseSchema,
  swipeQuerySchema,
  swipeRequestSchema,
  swipeResponseSchema,
  swipeResultSchema,
} from "./likes.ts";
import {
  matchFinderResponseSchema,
  memberQuerySchema,
  memberResponseSchema,
  memberSearchQuerySchema,
  memberSearchResponseSchema,
} from "./members.ts";
import { reportRequestSchema, reportResponseSchema } from "./moderation.ts";
import {
  pageHiddenRequestSchema,
  pushClickRequestSchema,
  pushSubscriptionRequestSchema,
  unsubscribeQuerySchema,
  unsubscribeResponseSchema,
} from "./notifications.ts";
import {
  bundlesResponseSchema,
  directDebitConfirmRequestSchema,
  directDebitStartRequestSchema,
  directDebitStartResponseSchema,
  paymentCreateRequestSchema,
  paymentCreateResponseSchema,
  paymentQuerySchema,
  paymentResponseSchema,
  paymentRetryRequestSchema,
  refundRequestSchema,
  repeatOrderRequestSchema,
  transactionsResponseSchema,
} from "./payments.ts";
import {
  geocodeQuerySchema,
  geocodeResponseSchema,
  ownProfileResponseSchema,
  photoIdQuerySchema,
  photosResponseSchema,
  photoUpdateSchema,
  profileUpdateSchema,
} from "./profiles.ts";
import { settingsQuerySchema, settingsResponseSchema } from "./settings.ts";
import { companyInfoResponseSchema, interestsResponseSchema, regionsResponseSchema } from "./site.ts";
import { visitorsQuerySchema, visitorsResponseSchema } from "./visits.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * Who may call an endpoint: `member` answers 403 authentication_required without a session (spec §4:
 * the client then logs out), `optional` serves visitors and members differently, `none` ignores the
 * session altogether.
 */
export type EndpointAuth = "member" | "optional" | "none";

/**
 * One call of the API: method, path, who may call it, the schemas of its query and JSON body, and the
 * schema of its answer. The server registers its routes from these (the answer is serialised through
 * the response schema, so a field the contract does not name never leaves the server) and the web's
 * typed client is built from the same table. `body: "multipart"` takes a file upload instead of JSON;
 * `response: "redirect"` answers with a redirect (e-mailed links); `response: "download"` with a file to
 * save (the data export's ZIP), whose bytes no JSON schema describes.
 */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: `/api/${string}.php`;
  readonly auth: EndpointAuth;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType | "multipart";
  readonly response: z.ZodType | "redirect" | "download";
  /**
   * The route answers only requests whose query string has these values: spec §7 gives two calls one
   * method and path (POST /api/user.php logs in; POST /api/user.php?push=1 stores a push subscription).
   * The server routes on it, and the web client adds it to the URL.
   */
  readonly when?: Readonly<Record<string, string>>;
}

const endpoint = <const E extends Endpoint>(definition: E): E => definition;

/** The query of a call that takes only a token (e-mailed links). */
export const tokenQuerySchema = z.object({ token: z.string().max(200) });

/** Every call of the API (spec §7's table, and ours where the spec says "not shown"). */
export const ENDPOINTS = {
  // Site (spec §7: loaded once and cached)
  settings: endpoint({
    method: "GET",
    path: "/api/settings.php",
    auth: "none",
    query: settingsQuerySchema,
    response: settingsResponseSchema,
  }),
  companyInfo: endpoint({ method: "GET", path: "/api/companyinfo.php", auth: "none", response: companyInfoResponseSchema }),
  interests: endpoint({ method: "GET", path: "/api/interests.php", auth: "none", response: interestsResponseSchema }),
  regions: endpoint({ method: "GET", path: "/api/regions.php", auth: "none", response: regionsResponseSchema }),
  geocode: endpoint({
    method: "GET",
    path: "/api/geocode.php",
    auth: "none",
    query: geocodeQuerySchema,
    response: geocodeResponseSchema,
  }),

  // Accounts
  user: endpoint({ method: "GET", path: "/api/user.php", auth: "optional", response: userResponseSchema }),
  login: endpoint({
    method: "POST",
    path: "/api/user.php",
    auth: "optional",
    body: loginRequestSchema,
    response: userResponseSchema,
  }),
  pushSubscription: endpoint({
    method: "POST",
    path: "/api/user.php",
    when: { push: "1" },
    auth: "member",
    body: pushSubscriptionRequestSchema,
    response: userResponseSchema,
  }),
  language: endpoint({
    method: "PUT",
    path: "/api/user.php",
    auth: "member",
    body: languageRequestSchema,
    response: userResponseSchema,
  }),
  /** Spec §7's logout is a GET; the site itself logs out with POST, and a cross-site GET is refused. */
  logout: endpoint({ method: "GET", path: "/api/logout.php", auth: "optional", response: okResponseSchema }),
  logoutPost: endpoint({ method: "POST", path: "/api/logout.php", auth: "optional", response: okResponseSchema }),
  signup: endpoint({
    method: "POST",
    path: "/api/signup.php",
    auth: "optional",
    body: signupRequestSchema,
    response: userResponseSchema,
  }),
  resendActivation: endpoint({ method: "POST", path: "/api/activation.php", auth: "member", response: okResponseSchema }),
  activate: endpoint({ method: "GET", path: "/api/activation.php", auth: "none", query: tokenQuerySchema, response: "redirect" }),
  resetPassword: endpoint({
    method: "POST",
    path: "/api/reset-password.php",
    auth: "none",
    body: resetPasswordRequestSchema,
    response: okResponseSchema,
  }),
  resetPasswordDo: endpoint({
    method: "POST",
    path: "/api/reset-password-do.php",
    auth: "optional",
    body: resetPasswordDoRequestSchema,
    response: userResponseSchema,
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/api/password.php",
    auth: "member",
    body: passwordChangeRequestSchema,
    response: okResponseSchema,
  }),
  mailChange: endpoint({
    method: "POST",
    path: "/api/mail-change.php",
    auth: "member",
    body: mailChangeRequestSchema,
    response: okResponseSchema,
  }),
  mailChangeDo: endpoint({
    method: "POST",
    path: "/api/mail-change-do.php",
    auth: "none",
    body: tokenRequestSchema,
    response: userResponseSchema,
  }),
  deleteAccount: endpoint({
    method: "POST",
    path: "/api/delete-account.php",
    auth: "member",
    body: deleteAccountRequestSchema,
    response: okResponseSchema,
  }),
  reactivate: endpoint({
    method: "POST",
    path: "/api/reactivate.php",
    auth: "none",
    body: tokenRequestSchema,
    response: okResponseSchema,
  }),
  invisible: endpoint({
    method: "PUT",
    path: "/api/invisible.php",
    auth: "member",
    body: invisibleRequestSchema,
    response: userResponseSchema,
  }),
  presencePrivacy: endpoint({
    method: "PUT",
    path: "/api/presence-privacy.php",
    auth: "member",
    body: presencePrivacyRequestSchema,
    response: userResponseSchema,
  }),
  notifications: endpoint({
    method: "GET",
    path: "/api/notifications.php",
    auth: "member",
    response: notificationsResponseSchema,
  }),
  saveNotifications: endpoint({
    method: "PUT",
    path: "/api/notifications.php",
    auth: "member",
    body: notificationsRequestSchema,
    response: notificationsResponseSchema,
  }),

  // Notifications (issue #28)
  pageHidden: endpoint({
    method: "POST",
    path: "/api/page-hidden.php",
    auth: "optional",
    body: pageHiddenRequestSchema,
    response: okResponseSchema,
  }),
  pushClick: endpoint({
    method: "POST",
    path: "/api/push-click.php",
    auth: "member",
    body: pushClickRequestSchema,
    response: okResponseSchema,
  }),
  /** RFC 8058 one-click unsubscribe (the mail client POSTs `List-Unsubscribe=One-Click` as a form). */
  unsubscribe: endpoint({
    method: "POST",
    path: "/api/unsubscribe.php",
    auth: "none",
    query: unsubscribeQuerySchema,
    response: unsubscribeResponseSchema,
  }),

  // Profiles and photos
  ownProfile: endpoint({ method: "GET", path: "/api/profile.php", auth: "member", response: ownProfileResponseSchema }),
  saveProfile: endpoint({
    method: "PUT",
    path: "/api/profile.php",
    auth: "member",
    body: profileUpdateSchema,
    response: ownProfileResponseSchema,
  }),
  photos: endpoint({ method: "GET", path: "/api/photos.php", auth: "member", response: photosResponseSchema }),
  uploadPhoto: endpoint({
    method: "POST",
    path: "/api/photos.php",
    auth: "member",
    body: "multipart",
    response: photosResponseSchema,
  }),
  updatePhoto: endpoint({
    method: "PUT",
    path: "/api/photo.php",
    auth: "member",
    body: photoUpdateSchema,
    response: photosResponseSchema,
  }),
  deletePhoto: endpoint({
    method: "DELETE",
    path: "/api/photo.php",
    auth: "member",
    query: photoIdQuerySchema,
    response: photosResponseSchema,
  }),

  // Members and search
  member: endpoint({
    method: "GET",
    path: "/api/member.php",
    auth: "optional",
    query: memberQuerySchema,
    response: memberResponseSchema,
  }),
  search: endpoint({
    method: "GET",
    path: "/api/members.php",
    auth: "optional",
    query: memberSearchQuerySchema,
    response: memberSearchResponseSchema,
  }),
  matchFinder: endpoint({ method: "GET", path: "/api/match-finder.php", auth: "member", response: matchFinderResponseSchema }),

  // Blocking
  block: endpoint({
    method: "POST",
    path: "/api/block.php",
    auth: "member",
    body: blockRequestSchema,
    response: blockResponseSchema,
  }),
  unblock: endpoint({
    method: "DELETE",
    path: "/api/block.php",
    auth: "member",
    query: blockQuerySchema,
    response: blockResponseSchema,
  }),
  blocked: endpoint({ method: "GET", path: "/api/blocks.php", auth: "member", response: blockedMembersResponseSchema }),

  // Chat (decision 020)
  chats: endpoint({ method: "GET", path: "/api/chats.php", auth: "member", response: chatsResponseSchema }),
  chat: endpoint({
    method: "GET",
    path: "/api/chat.php",
    auth: "member",
    query: chatQuerySchema,
    response: chatResponseSchema,
  }),
  deleteChat: endpoint({
    method: "DELETE",
    path: "/api/chat.php",
    auth: "member",
    query: chatDeleteQuerySchema,
    response: chatDeleteResponseSchema,
  }),
  message: endpoint({
    method: "POST",
    path: "/api/message.php",
    auth: "member",
    body: messageRequestSchema,
    response: messageResponseSchema,
  }),
  messagePhoto: endpoint({
    method: "POST",
    path: "/api/message-photo.php",
    auth: "member",
    body: "multipart",
    response: messageResponseSchema,
  }),
  gifts: endpoint({ method: "GET", path: "/api/gifts.php", auth: "member", response: giftsResponseSchema }),
  gifs: endpoint({
    method: "GET",
    path: "/api/gifs.php",
    auth: "member",
    query: gifsQuerySchema,
    response: gifsResponseSchema,
  }),

  // Profile visitors (issue #29): identities for premium members only, the count for everyone.
  visitors: endpoint({
    method: "GET",
    path: "/api/visitors.php",
    auth: "member",
    query: visitorsQuerySchema,
    response: visitorsResponseSchema,
  }),

  // Likes, matches and the swipe game
  likes: endpoint({
    method: "GET",
    path: "/api/likes.php",
    auth: "member",
    query: likesQuerySchema,
    response: likesResponseSchema,
  }),
  like: endpoint({
    method: "POST",
    path: "/api/like.php",
    auth: "member",
    body: likeRequestSchema,
    response: likeResponseSchema,
  }),
  unlike: endpoint({
    method: "DELETE",
    path: "/api/like.php",
    auth: "member",
    query: likeQuerySchema,
    response: likeResponseSchema,
  }),
  autoLike: endpoint({ method: "GET", path: "/api/auto-like.php", auth: "member", response: autoLikeResponseSchema }),
  swipeCandidates: endpoint({
    method: "GET",
    path: "/api/swipe.php",
    auth: "member",
    query: swipeQuerySchema,
    response: swipeResponseSchema,
  }),
  swipe: endpoint({
    method: "POST",
    path: "/api/swipe.php",
    auth: "member",
    body: swipeRequestSchema,
    response: swipeResultSchema,
  }),

  // Credits and payments (decision 021)
  bundles: endpoint({ method: "GET", path: "/api/bundles.php", auth: "optional", response: bundlesResponseSchema }),
  createPayment: endpoint({
    method: "POST",
    path: "/api/payment.php",
    auth: "member",
    body: paymentCreateRequestSchema,
    response: paymentCreateResponseSchema,
  }),
  payment: endpoint({
    method: "GET",
    path: "/api/payment.php",
    auth: "member",
    query: paymentQuerySchema,
    response: paymentResponseSchema,
  }),
  transactions: endpoint({ method: "GET", path: "/api/transactions.php", auth: "member", response: transactionsResponseSchema }),
  refund: endpoint({
    method: "POST",
    path: "/api/refund.php",
    auth: "member",
    body: refundRequestSchema,
    response: paymentResponseSchema,
  }),
  retryPayment: endpoint({
    method: "POST",
    path: "/api/payment-retry.php",
    auth: "member",
    body: paymentRetryRequestSchema,
    response: paymentCreateResponseSchema,
  }),
  repeatOrder: endpoint({
    method: "POST",
    path: "/api/repeat-order.php",
    auth: "member",
    body: repeatOrderRequestSchema,
    response: paymentCreateResponseSchema,
  }),
  directDebitStart: endpoint({
    method: "POST",
    path: "/api/directdebit.php",
    auth: "member",
    body: directDebitStartRequestSchema,
    response: directDebitStartResponseSchema,
  }),
  directDebitConfirm: endpoint({
    method: "POST",
    path: "/api/directdebit-confirm.php",
    auth: "member",
    body: directDebitConfirmRequestSchema,
    response: paymentCreateResponseSchema,
  }),

  // Discounts and the time bonus (decision 022)
  discountCode: endpoint({
    method: "GET",
    path: "/api/discountcode.php",
    auth: "member",
    query: discountCodeQuerySchema,
    response: discountCodeResponseSchema,
  }),
  discountCodes: endpoint({
    method: "GET",
    path: "/api/discountcodes.php",
    auth: "member",
    response: discountCodesResponseSchema,
  }),
  timeBonus: endpoint({ method: "GET", path: "/api/time-bonus.php", auth: "member", response: timeBonusResponseSchema }),

  // Complaints (issue #13)
  complaint: endpoint({
    method: "POST",
    path: "/api/complaint.php",
    auth: "optional",
    body: complaintRequestSchema,
    response: complaintResponseSchema,
  }),
  // Reports (issue #27): a profile or a message, for the moderators' queue
  report: endpoint({
    method: "POST",
    path: "/api/report.php",
    auth: "member",
    body: reportRequestSchema,
    response: reportResponseSchema,
  }),

  // The data export (GDPR art. 15/20, issue #27): a ZIP of everything the site holds on the member
  dataExport: endpoint({ method: "GET", path: "/api/export.php", auth: "member", response: "download" }),

  // The top navigation's counts
  badges: endpoint({ method: "GET", path: "/api/badges.php", auth: "member", response: badgesResponseSchema }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** The answer type of an endpoint. */
export type EndpointResponse<E extends Endpoint> = E["response"] extends z.ZodType ? z.output<E["response"]> : never;
/** The query an endpoint takes (what a client sends, before coercion). */
export type EndpointQuery<E extends Endpoint> = E["query"] extends z.ZodType ? z.input<E["query"]> : undefined;
/** The JSON body an endpoint takes. */
export type EndpointBody<E extends Endpoint> = E["body"] extends z.ZodType ? z.input<E["body"]> : undefined;
