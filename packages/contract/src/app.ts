/**
 * The installable app (issue #13, decision 026): the addresses the server answers and the web app links,
 * and the colours the manifest shares with the pages (theme-color meta, $primary, body background).
 */
export const APP = {
  manifestPath: "/manifest.webmanifest",
  serviceWorkerPath: "/sw.js",
  offlinePath: "/offline",
  /** Where the installed app opens; `source` tells its launches apart (home sends members to /members). */
  startUrl: "/?source=app",
  themeColor: "#c2255c",
  /** Bootstrap's tertiary background, the body's (styles/app.scss): the splash screen matches the page. */
  backgroundColor: "#f8f9fa",
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
  ],
  appleTouchIcon: "/apple-touch-icon.png",
} as const;
