import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

/** Routes of spec §2; each later feature adds its own under the layout it uses. */
export default [
  layout("routes/default-layout.tsx", [
    index("routes/home.tsx", { id: "index" }),
    route("login", "routes/login.tsx"),
    route("signup", "routes/signup.tsx"),
    route("complete-signup", "routes/complete-signup.tsx"),
    route("signup-matches", "routes/signup-matches.tsx"),
    route("activate/done", "routes/activate-done.tsx"),
    route("activate/error", "routes/activate-error.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("reset-password/do", "routes/reset-password-do.tsx"),
    route("mail-change/do", "routes/mail-change-do.tsx"),
    route("account-reactivate", "routes/account-reactivate.tsx"),
    route("match-finder", "routes/match-finder.tsx"),
    route("account-deleted", "routes/account-deleted.tsx"),
    route("members", "routes/members.tsx"),
    route("members/:id", "routes/member.tsx", { id: "members-id" }),
    route("members/:id/signup", "routes/member-signup.tsx"),
    route("likes", "routes/likes-index.tsx", { id: "likes" }),
    route("likes/:type", "routes/likes.tsx", { id: "likes-type" }),
    route("likes/m/:id", "routes/member.tsx", { id: "likes-m-id" }),
    route("swipe-game", "routes/swipe-game.tsx"),
    route("profile", "routes/profile.tsx"),
    route("settings", "routes/settings.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("lang-config", "routes/lang-config.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  layout("ui/layouts/chat-layout.tsx", [
    route("chats", "routes/chats.tsx", { id: "chats" }),
    route("chats/:id", "routes/chats.tsx", { id: "chats-id" }),
    route("members/:id/chat", "routes/member-chat.tsx"),
  ]),
] satisfies RouteConfig;
