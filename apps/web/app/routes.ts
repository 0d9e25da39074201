import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

/** Routes of spec §2; each later feature adds its own under the layout it uses. */
export default [
  layout("ui/layouts/default-layout.tsx", [
    index("routes/home.tsx", { id: "index" }),
    route("lang-config", "routes/lang-config.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
