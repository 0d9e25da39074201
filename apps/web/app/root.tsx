import {
  APP,
  LOCALE_COOKIE,
  LOCALES,
  localeFromAcceptLanguage,
  type SsrServices,
  TRACKING_COOKIE,
  type User,
} from "@app/contract";
import { useEffect } from "react";
import { IntlProvider } from "react-intl";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useRouteError,
} from "react-router";
import type { Route } from "./+types/root";
import { MemberProvider } from "./features/account/member-provider";
import { MessageToasts } from "./features/chat/message-toasts";
import { DiscountProvider } from "./features/discounts/discount-provider";
import { LikesProvider } from "./features/likes/likes-provider";
import { ADD_PHOTOS_KEY } from "./features/profile/profile-alerts";
import { MESSAGES_VERSION } from "./i18n/messages.server";
import { installChunkReload, isChunkLoadError, reloadForChunkError } from "./lib/chunk-reload";
import { serializeCookie } from "./lib/cookies";
import { START_ATTRIBUTE, START_ON_INTENT, START_SCRIPTS } from "./lib/deferred-scripts";
import { hideDismissedScript } from "./lib/dismissals";
import { resolveLocale } from "./lib/locale.server";
import { MESSAGES_REL, messagesPath, useLocaleMessages } from "./lib/messages";
import { useNonce } from "./lib/nonce";
import { QueryProvider } from "./lib/query-client";
import { type FirstAnswers, type RootData, useRootData } from "./lib/root-data";
import { useRouteFlag } from "./lib/route-handle";
import { registerServiceWorker, useWorkerClickNavigation } from "./lib/service-worker";
import { extractTracking, hasTrafficSource } from "./lib/tracking";
import { servicesContext } from "./server-context";
import appStylesheet from "./styles/app.scss?url";
import { ENTRY_WARNING_KEY } from "./ui/entry-warning";
import { ToastProvider } from "./ui/toasts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const cookieHeader = request.headers.get("cookie");
  const headers = new Headers();

  const tracking = extractTracking(url);
  if (tracking) {
    headers.append(
      "Set-Cookie",
      serializeCookie(TRACKING_COOKIE, JSON.stringify(tracking.record), { maxAgeSeconds: 30 * 24 * 3600, httpOnly: true }),
    );
    throw redirect(tracking.cleanUrl, { headers });
  }

  const acceptLanguage = request.headers.get("accept-language");
  const { locale, setCookie } = await resolveLocale(request, services);
  if (setCookie) {
    headers.append("Set-Cookie", serializeCookie(LOCALE_COOKIE.name, locale, { maxAgeSeconds: LOCALE_COOKIE.maxAgeSeconds }));
  }
  const query = Object.fromEntries(url.searchParams);
  const [settings, company, user] = await Promise.all([
    services.settings({ locale, query }),
    services.companyInfo(),
    services.currentUser(),
  ]);
  const rootData: RootData = {
    locale,
    messagesVersion: MESSAGES_VERSION,
    browserLocale: localeFromAcceptLanguage(acceptLanguage) ?? null,
    settings,
    company,
    hasTrafficSource: hasTrafficSource(cookieHeader),
    user,
    firstAnswers: user ? await firstAnswersOf(services, user, settings.purchases_available) : null,
  };
  return data(rootData, { headers });
}

/**
 * The member's first answers (FirstAnswers), asked only where the providers would ask: the time bonus of
 * a member who has not paid on a site that takes payments (DiscountProvider), and the welcome discount
 * when there is no time bonus.
 */
async function firstAnswersOf(services: SsrServices, user: User, purchasesAvailable: boolean): Promise<FirstAnswers> {
  // A failed call leaves its answer out: the page renders, and the browser asks as it did before.
  const answer = <T,>(call: () => Promise<T | null>) => call().catch(() => null);
  const discounts = async (): Promise<FirstAnswers> => {
    if (!purchasesAvailable || user.paid_user) return {};
    const timeBonus = await answer(services.timeBonus);
    if (!timeBonus) return {};
    if (timeBonus.time_bonus) return { timeBonus };
    const welcomeDiscount = await answer(services.welcomeDiscount);
    return welcomeDiscount ? { timeBonus, welcomeDiscount } : { timeBonus };
  };
  const [badges, rest] = await Promise.all([answer(services.badges), discounts()]);
  return badges ? { badges, ...rest } : rest;
}

/** The root data (locale, messages, settings) changes only on a language switch or an explicit revalidation. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate, currentUrl, nextUrl }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search === nextUrl.search) return defaultShouldRevalidate;
  return false;
}

/** Alerts rendered on the server that this browser may have dismissed (hidden before the first paint). */
const HIDE_DISMISSED = hideDismissedScript([ADD_PHOTOS_KEY, ENTRY_WARNING_KEY]);

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const ownDescription = useRouteFlag("ownDescription");
  // A visitor's home page, pages and landers load the app when the visitor reaches for it (decision 028).
  const onIntent = useRouteFlag("startOnIntent") && root !== undefined && root.user === null;
  const iso = LOCALES.find((l) => l.code === root?.locale)?.code ?? "en";
  return (
    <html lang={iso} {...(onIntent ? { [START_ATTRIBUTE]: START_ON_INTENT } : {})}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={APP.themeColor} />
        {root && !ownDescription ? <meta name="description" content={root.settings.description} /> : null}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The page's messages, loaded with the scripts after the first paint (decision 027). */}
        {root ? <link rel={MESSAGES_REL} href={messagesPath(root.locale, root.messagesVersion)} /> : null}
        {/* The installable app (decision 026); with credentials so that the manifest is in the locale cookie's language. */}
        <link rel="manifest" href={APP.manifestPath} crossOrigin="use-credentials" />
        <link rel="apple-touch-icon" href={APP.appleTouchIcon} />
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-status-bar-style" content="default" />
        {root ? <meta name="apple-mobile-web-app-title" content={root.settings.name} /> : null}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, with the CSP nonce. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HIDE_DISMISSED }} />
        <Meta />
        {/* With a precedence, React writes the stylesheet ahead of the scripts' modulepreload links, so
            the browser asks for it first: it blocks the first paint, the scripts do not (decision 014). */}
        <link rel="stylesheet" href={appStylesheet} precedence="app" />
        <Links nonce={nonce} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, with the CSP nonce. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: START_SCRIPTS }} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const intl = useLocaleMessages(loaderData.locale, loaderData.messagesVersion);
  useEffect(() => installChunkReload(), []);
  useEffect(() => registerServiceWorker(), []);
  // Spec §7 NEW_PUSH_CLICK: the page the worker focused opens the notification's page.
  useWorkerClickNavigation();
  // A marker for browser tests (and scripts) that the page is interactive: set once React hydrated.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <IntlProvider locale={intl.locale} defaultLocale="en" messages={intl.messages}>
      <QueryProvider>
        <MemberProvider initialUser={loaderData.user}>
          {/* Outside the likes and chat features, whose live events show toasts (issue #28). */}
          <ToastProvider>
            <LikesProvider firstBadges={loaderData.firstAnswers?.badges}>
              <DiscountProvider purchasesAvailable={loaderData.settings.purchases_available} rendered={loaderData.firstAnswers}>
                <Outlet />
              </DiscountProvider>
            </LikesProvider>
            <MessageToasts />
          </ToastProvider>
        </MemberProvider>
      </QueryProvider>
    </IntlProvider>
  );
}

/**
 * Last-resort boundary (the root loader itself failed): a plain page without the site's chrome, in
 * English, because even the messages may be unavailable. Route errors normally render inside the
 * default layout's own boundary.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError();
  }, [error]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="container py-5 text-center">
      <h1 className="display-5">{status}</h1>
      <p className="lead">{status === 404 ? "This page could not be found" : "An error has occurred."}</p>
      <a className="btn btn-primary" href="/">
        Home
      </a>
    </main>
  );
}
